package main

// trench train --preset nnue: the NNUE's generation loop (package
// nnue/generations) in place of the AlphaZero loop, chosen by the preset
// or by a run directory that holds such a run.

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"trench/internal/presetflags"
	"trench/nnue/generations"
	"trench/training"
	"trench/training/natsrun"
)

var trainNNUECommand = command{
	name:    "train",
	summary: "train an NNUE for alpha-beta, generation by generation (--preset nnue)",
	usage: `Usage:
  trench train --run DIR --preset nnue [flags]

Runs the NNUE's generation loop in the run directory DIR. Generation g:
alpha-beta with the newest accepted net (in generation 0 the rules'
evaluation alone, the score difference: nothing hand-written) plays
--positions positions at --soft-nodes/--hard-nodes a move from random
openings into DIR/data, each scored by the search (with --teacher NET,
generation 0's by that conv net's values instead); a net of --hidden units
trains --steps steps on the newest --window positions across generations,
from the previous generation's net (or fresh weights with --from-scratch);
an SPRT gate at --gate-nodes a move against the net that played decides
whether the new net plays the next generation's games; matches against the
hand-written evaluation (at --gate-nodes, and at --anchor-ms if set) and
--mcts-anchor rate it. A line of DIR/metrics.jsonl per generation keeps
every figure; "trench report --run DIR" draws them.

With --nats URL the run also lives on a NATS JetStream server: each
generation and the net that plays it are announced there, "trench selfplay
--nats URL --run NAME" on other machines plays its games, and their
position shards join DIR/data (generation 0's labelled by --teacher if
set). This process plays too unless --no-selfplay; a generation's data is
done when its own games and the workers' make --positions. The run's name
on the server is DIR's last element unless --nats-run says otherwise.

The run's settings are saved in DIR/nnue.json; rerunning with --run DIR
resumes (the preset need not be given again): the data written is kept,
training goes on from its last saved state, a finished gate or anchor match
is not replayed. A flag that differs from the saved settings is refused,
except --generations and the anchors' settings. Ctrl-C stops cleanly.

Every setting below defaults to the preset's value.

Examples:
  trench train --run runs/nnue --preset nnue
  trench train --run runs/nnue                       # resume
  trench train --run runs/nnue --generations 20      # stop after 20
  trench train --run runs/nnue --preset nnue --hidden 256 --from-scratch
  trench train --run runs/taught --preset nnue --teacher default
  trench train --run runs/nnue --preset nnue --nats nats://localhost:4222
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		dir := fs.String("run", "", "the run directory (created if new, resumed if not)")
		nf := natsrun.BindFlags(fs, "also meet data generation workers on this NATS JetStream server, e.g. nats://host:4222")
		natsRun := fs.String("nats-run", "", "the run's name on the NATS server (default: DIR's last element)")
		noSelfPlay := fs.Bool("no-selfplay", false, "with --nats, play no games in this process: the workers play them all")
		maxLag := fs.Int("max-data-lag", 0, "with --nats, refuse workers' shards played more than this many generations before the one in progress (0: none)")
		var given generations.Config
		presetflags.Bind(fs, &given)
		fs.Lookup("preset").DefValue = generations.PresetName
		return func(_ []string, _, stderr io.Writer) error {
			if *dir == "" {
				return usage("--run DIR is required")
			}
			if *maxLag < 0 {
				return usage("--max-data-lag must not be negative, got %d", *maxLag)
			}
			if nf.URL() == "" && (*natsRun != "" || *maxLag != 0 || *noSelfPlay) {
				return usage("--nats-run, --max-data-lag and --no-selfplay need --nats URL")
			}
			runName := *natsRun
			if runName == "" {
				runName = filepath.Base(filepath.Clean(*dir))
			}
			if nf.URL() != "" {
				if _, err := natsrun.NamesFor(runName); err != nil {
					return usage("%w (name the run on the server with --nats-run)", err)
				}
			}
			cfg, err := generations.Preset(generations.PresetName)
			if err != nil {
				return usage("%w", err)
			}
			changed := presetflags.Lay(fs, &cfg, given)
			if err := cfg.Validate(); err != nil {
				return usage("%w", err)
			}
			lock, err := training.LockRun(*dir)
			if err != nil {
				return err
			}
			defer lock.Release()
			cfg, err = generations.Prepare(*dir, cfg, changed)
			if err != nil {
				return usage("%w", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(stderr, "training an NNUE in %s: %d hidden units, %d positions a generation at %d-%d nodes a move, %d workers (Ctrl-C stops cleanly)\n",
				*dir, cfg.Hidden, cfg.Positions, cfg.SoftNodes, cfg.HardNodes, cfg.Workers)
			opt := generations.Options{Progress: stderr, Warnings: stderr, Bars: isTerminal(stderr), NoLocal: *noSelfPlay}
			if nf.URL() == "" {
				return generations.Run(ctx, *dir, cfg, opt)
			}
			nc, err := nf.Connect("trench train "+runName, stderr, false)
			if err != nil {
				return err
			}
			defer nc.Close()
			return natsrun.TrainNNUE(ctx, nc, runName, *dir, cfg, uint64(*maxLag), opt)
		}
	},
}

// wantsNNUE tells whether the arguments of trench train ask for the NNUE
// loop: --preset nnue, or a --run directory holding an NNUE run.
func wantsNNUE(args []string) bool {
	for i, a := range args {
		if a == "--" {
			return false
		}
		for _, flag := range []string{"--preset", "--run"} {
			value, ok := "", false
			switch {
			case a == flag && i+1 < len(args):
				value, ok = args[i+1], true
			case strings.HasPrefix(a, flag+"="):
				value, ok = strings.TrimPrefix(a, flag+"="), true
			}
			if !ok {
				continue
			}
			if flag == "--preset" && value == generations.PresetName || flag == "--run" && generations.IsRun(value) {
				return true
			}
		}
	}
	return false
}
