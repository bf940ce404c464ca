package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"trench/bench"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/games"
	"trench/neteval"
	"trench/nn"
)

var benchCommand = command{
	name:    "bench",
	summary: "measure the speed of the net, search, self-play and alphabeta",
	usage:   helpText("bench"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		netName := fs.String("net", "medium", "the net preset measured, with random weights: "+strings.Join(nn.Presets, ", "))
		ckpt := fs.String("checkpoint", "", `measure this net instead of a preset: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in, for Trench)`)
		gameName := fs.String("game", games.All[0].Name(), "the game: "+strings.Join(games.Names(), ", "))
		duration := fs.Duration("duration", time.Second, "time given to each measurement (the whole run takes about 30 of them with the medium net)")
		asJSON := fs.Bool("json", false, "print the report as one JSON object")
		peers := fs.String("peers", "", "compare the project with these runtimes on one thread instead: "+strings.Join(bench.Peers, ", ")+" (--peers alone: both)")
		fs.Lookup("peers").NoOptDefVal = strings.Join(bench.Peers, ",")
		return func(_ []string, stdout, stderr io.Writer) error {
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("--game: %w", err)
			}
			if *duration <= 0 {
				return usage("--duration must be positive, got %v", *duration)
			}
			if fs.Changed("peers") {
				return benchPeers(g, *peers, fs.Changed("net"), *netName, *ckpt, *duration, *asJSON, stdout, stderr)
			}
			o := bench.Options{Game: g, Duration: *duration}
			if o.Weights, o.NetName, err = benchNet(g, fs.Changed("net"), *netName, *ckpt, stderr); err != nil {
				return err
			}
			if !*asJSON {
				bench.WriteHeader(stdout, o)
				o.Progress = func(l bench.Line) { fmt.Fprintln(stdout, l) }
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			r, err := bench.Run(ctx, o)
			if err != nil || !*asJSON {
				return err
			}
			return writeJSON(stdout, r)
		}
	},
}

// benchNet returns the net measured: the preset --net names (when
// netSet), the checkpoint --checkpoint names, or else the preset.
func benchNet(g engine.Game, netSet bool, netName, ckpt string, stderr io.Writer) (*nn.Weights, string, error) {
	switch {
	case netSet && ckpt != "":
		return nil, "", usage("give --net or --checkpoint, not both")
	case ckpt != "":
		net, err := neteval.LoadNet(g, ckpt)
		if err != nil {
			return nil, "", usage("--checkpoint: %w", err)
		}
		net.WarnPassed(stderr)
		return net.Weights, net.Source, nil
	}
	w, err := bench.PresetWeights(g, netName)
	if err != nil {
		return nil, "", usage("--net: %w", err)
	}
	return w, netName, nil
}

// benchPeers runs trench bench --peers: the project beside the peers
// named in list (comma-separated) on the net that --net (when netSet) or
// --checkpoint names, or the built-in one.
func benchPeers(g engine.Game, list string, netSet bool, netName, ckpt string, d time.Duration, asJSON bool, stdout, stderr io.Writer) error {
	peers, err := bench.ParsePeers(list)
	if err != nil {
		return usage("--peers: %w", err)
	}
	if !netSet && ckpt == "" {
		ckpt = shipped.Ref
	}
	o := bench.PeerOptions{Game: g, Duration: d, Peers: peers}
	if o.Weights, o.NetName, err = benchNet(g, netSet, netName, ckpt, stderr); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !asJSON {
		fmt.Fprintf(stdout, "%s beside %s, %v a measurement, %d rounds...\n", o.NetName, strings.Join(peers, " and "), d, bench.PeerRounds)
	}
	r, err := bench.RunPeers(ctx, o)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, r)
	}
	bench.WritePeerHeader(stdout, r)
	for _, l := range r.Lines {
		fmt.Fprintln(stdout, l)
	}
	return nil
}

// writeJSON writes v to w as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
