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
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/faces/onnx"
	"trench/games"
	"trench/internal/atomicfile"
	"trench/internal/excerpt"
	"trench/neteval"
)

var exportCommand = command{
	name:    "export",
	summary: "write a net as an ONNX model for other programs",
	usage:   helpText("export"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		gameName := fs.String("game", games.Names()[0], "the game the net plays: "+strings.Join(games.Names(), ", "))
		ref := fs.String("net", shipped.Ref, `the net: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in for the game)`)
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
