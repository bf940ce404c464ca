package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"trench/checkpoints"
	"trench/engine"
	"trench/games"
	"trench/internal/atomicfile"
	"trench/internal/excerpt"
	"trench/neteval"
	"trench/onnx"
)

var exportCommand = command{
	name:    "export",
	summary: "write a net as an ONNX model for other programs",
	usage: `Usage:
  trench export --out FILE.onnx [--net NET] [--game G]

Writes the net as an ONNX model (opset 17, float32, any batch size) that
onnxruntime and other ONNX runtimes run. Its input "/input/planes" is a
batch of the game's feature planes (batch × planes × height × width); its
outputs are "/output/policy" (policy logits over the game's action space),
"/output/wdl" (win, draw and loss probabilities per seat, the player to
move first) and "/output/score" (predicted final score difference per
seat, in points). Batch normalization is folded into the convolutions.
The outputs are the net's own heads: for a net with a value base or a
policy base, the offsets that search adds are computed from the position
and added by the caller (docs/onnx.md says how). The model's metadata
names the game, the feature planes, and the checkpoint's file, step and
SHA-256. The file is written whole or not at all.

Examples:
  trench export --out trench.onnx
  trench export --game trichess --out trichess.onnx
  trench export --net runs/a --out runs/a/latest.onnx
  trench export --net runs/a/checkpoints/ckpt-002000.tnet --out a-2000.onnx
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		gameName := fs.String("game", games.Names()[0], "the game the net plays: "+strings.Join(games.Names(), ", "))
		ref := fs.String("net", neteval.DefaultNet, `the net: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in for the game)`)
		out := fs.String("out", "", "the ONNX file to write (required)")
		return func(_ []string, stdout, stderr io.Writer) error {
			if *out == "" {
				return usage("--out is required")
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("--game: %w", err)
			}
			model, desc, err := exportNet(g, *ref, stderr)
			if err != nil {
				return usage("%w", err)
			}
			if err := atomicfile.Write(*out, model); err != nil {
				return fmt.Errorf("writing %s: %w", excerpt.Quote(*out), err)
			}
			fmt.Fprintf(stdout, "wrote %s (%d bytes): %s\n", *out, len(model), desc)
			return nil
		}
	},
}

// exportNet returns the ONNX model of the net ref names for game g and a
// description of the net. The model's weights, step and checksum all come
// from one reading of the checkpoint that neteval.LoadNet chose.
func exportNet(g engine.Game, ref string, stderr io.Writer) ([]byte, string, error) {
	net, err := neteval.LoadNet(g, ref)
	if err != nil {
		return nil, "", err
	}
	net.WarnPassed(stderr)
	var image []byte
	if p := games.Of(g); p != nil && p.DefaultNet != nil && net.Source == p.DefaultNet.Name {
		image = p.DefaultNet.Data()
	} else if image, err = os.ReadFile(net.Source); err != nil {
		return nil, "", fmt.Errorf("net %s: %w", excerpt.Quote(net.Source), err)
	}
	c, err := checkpoints.Decode(image, net.Source)
	if err != nil {
		return nil, "", err
	}
	net, err = neteval.NetFromCheckpoint(g, c)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(image)
	model, err := onnx.Encode(net.Weights, onnx.Source{
		Game:       g.Name(),
		Planes:     fmt.Sprintf("the %s feature planes of docs/onnx.md", g.Name()),
		Checkpoint: net.Source,
		Step:       c.Step,
		SHA256:     hex.EncodeToString(sum[:]),
	})
	if err != nil {
		return nil, "", err
	}
	return model, net.String(), nil
}
