package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"

	"trench/bot"
	"trench/faces/analysis"
	"trench/searchconfig"
)

var analysisCommand = command{
	name:    "analysis",
	summary: "answer JSON analysis queries on stdin/stdout with the bot as shipped, several searched at once",
	usage:   helpText("analysis"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		gameName := bindGameFlag(fs)
		workers := fs.Int("workers", 0, "turns searched at once, each by its own bot (0: one a core for the alphabeta kind, 4 for the tree search, whose net calls are batched together)")
		maxVisits := fs.Int("max-visits", 100000, "the largest maxVisits a query may ask (the tree search)")
		maxNodes := fs.Int("max-nodes", bot.MaxNodes, "the largest maxNodes a query may ask (the alphabeta kind)")
		multiPV := fs.Int("multi-pv", 0, "moves a turn's answer gives when its query has no multiPV: the alphabeta kind searches that many in full (0: the best alone), the tree search gives its most visited (0: every visited move)")
		return func(_ []string, stdout, stderr io.Writer) error {
			g, err := playableGame(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			switch {
			case *workers < 0 || *workers > analysis.MaxWorkers:
				return usage("--workers must be in 1..%d, or 0 for the default, got %d", analysis.MaxWorkers, *workers)
			case *maxVisits < 1 || *maxVisits > bot.MaxSims:
				return usage("--max-visits must be in 1..%d, got %d", bot.MaxSims, *maxVisits)
			case *maxNodes < 1 || *maxNodes > bot.MaxNodes:
				return usage("--max-nodes must be in 1..%d, got %d", bot.MaxNodes, *maxNodes)
			case *multiPV < 0 || *multiPV > bot.MaxMultiPV:
				return usage("--multi-pv must be in 0..%d, got %d", bot.MaxMultiPV, *multiPV)
			}
			if !fs.Changed("threads") {
				// Workers search turns side by side: one thread each.
				bf.c.Threads = 1
			}
			limits, err := bf.limits(g)
			if err != nil {
				return usage("%w", err)
			}
			limits.MultiPV = *multiPV
			switch {
			case limits.Sims > *maxVisits:
				return usage("--sims %d exceeds --max-visits %d", limits.Sims, *maxVisits)
			case limits.Nodes > *maxNodes:
				return usage("--nodes %d exceeds --max-nodes %d", limits.Nodes, *maxNodes)
			}
			m, err := bf.maker(g, stderr)
			if err != nil {
				return usage("%w", err)
			}
			n, threads := *workers, m.Config().Threads
			switch {
			case m.Config().Kind == searchconfig.AlphaBeta:
				threads = 1
				if n == 0 {
					n = runtime.NumCPU()
				}
			case n == 0:
				n = 4
			}
			n = min(n, analysis.MaxWorkers)
			e, err := analysis.New(analysis.Config{
				Maker: m, Workers: n, Limits: limits,
				MaxVisits: *maxVisits, MaxNodes: *maxNodes, Version: version(),
			})
			if err != nil {
				return usage("%w", err)
			}
			fmt.Fprintf(stderr, "trench analysis: %s; %s, each searching with %s; %s a turn unless a query says; reading queries\n",
				e.Describe(), counted(n, "worker"), counted(threads, "thread"), limits)
			return e.Run(stdin, stdout)
		}
	},
}

// counted is n and noun, in the plural unless n is 1.
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// version is the binary's module version and source revision, for the
// analysis engine's query_version.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return v
}
