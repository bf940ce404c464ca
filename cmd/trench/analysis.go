package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/pflag"

	"trench/bot"
	"trench/checkpoints/shipped"
	"trench/faces/analysis"
	"trench/neteval"
	"trench/searchconfig"
)

var analysisCommand = command{
	name:    "analysis",
	summary: "answer JSON analysis queries on stdin/stdout, several searched at once",
	usage:   helpText("analysis"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		net := fs.String("net", shipped.Ref, `the net: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in for the game)`)
		gameName := bindGameFlag(fs)
		workers := fs.Int("workers", 4, "turns searched at once, all their net calls batched together")
		threads := fs.Int("threads", 1, "search threads on each turn's tree")
		visits := fs.Int("visits", 400, "simulations a turn's search runs when its query gives neither maxVisits nor maxTime")
		maxTime := fs.Duration("time", 0, "time a turn's search takes when its query gives neither maxVisits nor maxTime, e.g. 2s (instead of --visits; with it, whichever ends first)")
		maxVisits := fs.Int("max-visits", 100000, "the largest maxVisits a query may ask")
		return func(_ []string, stdout, stderr io.Writer) error {
			g, err := playableGame(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			switch {
			case *workers < 1 || *workers > analysis.MaxWorkers:
				return usage("--workers must be in 1..%d, got %d", analysis.MaxWorkers, *workers)
			case *threads < 1 || *threads > searchconfig.MaxThreads:
				return usage("--threads must be in 1..%d, got %d", searchconfig.MaxThreads, *threads)
			case *maxVisits < 1 || *maxVisits > bot.MaxSims:
				return usage("--max-visits must be in 1..%d, got %d", bot.MaxSims, *maxVisits)
			}
			limits := bot.Limits{Sims: *visits, Time: *maxTime}
			if fs.Changed("time") && !fs.Changed("visits") {
				limits.Sims = 0
			}
			if err := limits.Validate(); err != nil {
				return usage("--visits/--time: %w", err)
			}
			if limits.Sims > *maxVisits {
				return usage("--visits %d exceeds --max-visits %d", limits.Sims, *maxVisits)
			}
			n, err := neteval.LoadNet(g, *net)
			switch {
			case errors.Is(err, neteval.ErrNoDefaultNet):
				n = nil // the game has none built in: search with tactics.Fallback
			case err != nil:
				return usage("%w", err)
			default:
				n.WarnPassed(stderr)
			}
			e, err := analysis.New(analysis.Config{
				Game: g, Net: n, Workers: *workers, Threads: *threads,
				Limits: limits, MaxVisits: *maxVisits, Version: version(),
			})
			if err != nil {
				return usage("%w", err)
			}
			fmt.Fprintf(stderr, "trench analysis: %s; %d workers, each searching with %d threads; %s a turn unless a query says; reading queries\n",
				e.Describe(), *workers, *threads, limits)
			return e.Run(stdin, stdout)
		}
	},
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
