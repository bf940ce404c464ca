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
	"trench/nnue"
	"trench/searchconfig"
)

// exportTakes is what --net takes, for the error about anything else.
const exportTakes = `--net takes "default", an NNUE file or run directory (trench train --preset nnue), or a conv-net checkpoint file or run directory`

var exportCommand = command{
	name:    "export",
	summary: "write a net (the NNUE or the conv net) as an ONNX model for other programs",
	usage:   helpText("export"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		gameName := fs.String("game", games.Names()[0], "the game the net plays: "+strings.Join(games.Names(), ", "))
		ref := fs.String("net", shipped.Ref, `the net: an NNUE file or run directory, a conv-net checkpoint file or run directory, or "default" (the one built in for the game, of the kind --kind names)`)
		kind := fs.String("kind", "", `the bot whose net to export: alphabeta (the NNUE) or mcts (the conv net); the default is the kind of the game's bot, alphabeta (its NNUE) for Trench and Trichess, mcts for a game without an NNUE; with a file or run directory, its net says`)
		out := fs.String("out", "", "the ONNX file to write (required)")
		return func(_ []string, stdout, stderr io.Writer) error {
			if *out == "" {
				return usage("--out is required")
			}
			g, err := games.ByName(*gameName)
			if err != nil {
				return usage("--game: %w", err)
			}
			if *kind != "" && *kind != searchconfig.AlphaBeta && *kind != searchconfig.MCTS {
				return usage("--kind %s: want %s or %s", excerpt.Quote(*kind), searchconfig.AlphaBeta, searchconfig.MCTS)
			}
			k, err := exportKind(g, *ref, *kind)
			if err != nil {
				return usage("%w", err)
			}
			var model []byte
			var desc string
			if k == searchconfig.AlphaBeta {
				model, desc, err = exportNNUE(g, *ref)
			} else {
				model, desc, err = exportNet(g, *ref, stderr)
			}
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

// exportKind returns the kind of bot whose net ref names for game g:
// searchconfig.AlphaBeta for an NNUE, searchconfig.MCTS for a conv net.
// The built-in net is the kind asked for (the game's bot's when asked is
// empty); a file or run directory is what checkpoints.Identify tells. A
// net of another kind than asked, and anything else, are errors naming
// ref; exportNNUE refuses an NNUE of another game.
func exportKind(g engine.Game, ref, asked string) (string, error) {
	hasNNUE := games.HasEvaluation(g, searchconfig.EvalNNUE)
	if ref == "" || ref == shipped.Ref {
		switch {
		case asked == "" && hasNNUE:
			return searchconfig.AlphaBeta, nil
		case asked == "":
			return searchconfig.MCTS, nil
		case asked == searchconfig.AlphaBeta && !hasNNUE:
			return "", fmt.Errorf("--kind %s: %s has no NNUE; give --kind %s for its conv net",
				asked, g.Name(), searchconfig.MCTS)
		}
		return asked, nil
	}
	h, err := checkpoints.Identify(ref)
	if err != nil {
		return "", fmt.Errorf("%w; %s", err, exportTakes)
	}
	found := searchconfig.MCTS
	if h.NNUE() {
		found = searchconfig.AlphaBeta
	}
	if asked != "" && asked != found {
		return "", fmt.Errorf("--net %s is %s, the %s kind's net, not the %s kind's", excerpt.Quote(ref), h, found, asked)
	}
	return found, nil
}

// exportNNUE returns the ONNX model of game g's NNUE that ref names
// (nnue.FeatureSet.LoadRef's references: a net of another game is
// refused) and a description of it. The model's weights and checksum
// come from one reading of the file.
func exportNNUE(g engine.Game, ref string) ([]byte, string, error) {
	set := nnue.SetOf(g.Name())
	if set == nil {
		return nil, "", fmt.Errorf("%s has no NNUE", g.Name())
	}
	source, image, _ := shipped.BuiltInNNUE(g.Name())
	if ref != "" && ref != shipped.Ref {
		var err error
		if source, err = nnue.RefFile(ref); err != nil {
			return nil, "", err
		}
		if image, err = os.ReadFile(source); err != nil {
			return nil, "", fmt.Errorf("net %s: %w", excerpt.Quote(source), err)
		}
	}
	net, err := set.Decode(image, source)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(image)
	model, err := onnx.EncodeNNUE(net, onnx.NNUESource{File: source, SHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return nil, "", err
	}
	return model, fmt.Sprintf("%s (%s NNUE, %d hidden units per perspective)", source, g.Name(), net.Hidden), nil
}

// exportNet returns the ONNX model of the conv net ref names for game g
// and a description of the net. The model's weights, step and checksum
// all come from one reading of the checkpoint that neteval.LoadNet chose.
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
