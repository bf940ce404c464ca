package shipped

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/training/rundir"
)

func TestShippedDecode(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{Name, Default()},
		{TrichessName, Trichess()},
	} {
		if len(tc.data) > 8<<20 {
			t.Errorf("%s is %d bytes; keep it to a few MB", tc.name, len(tc.data))
		}
		c, err := checkpoints.Decode(tc.data, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Tensors) == 0 || len(c.Config) == 0 {
			t.Errorf("%s has %d tensors and a %d-byte config", tc.name, len(c.Tensors), len(c.Config))
		}
		if len(c.Optimizer) != 0 {
			t.Errorf("%s carries %d optimizer tensors; a shipped net holds its weights alone", tc.name, len(c.Optimizer))
		}
	}
}

// builtInNNUEs are the built-in NNUEs and the run directories whose
// records describe them.
var builtInNNUEs = []struct {
	game, name string
	image      []byte
	run        string
}{
	{"trench", NNUEName, NNUE(), "../../docs/runs/r5"},
	{"trichess", TrichessNNUEName, TrichessNNUE(), "../../docs/runs/t9"},
}

// TestShippedNNUERecord checks that each built-in NNUE is the net its
// records describe: its SHA-256 is the one in its run's metrics line of
// its generation and in README.md, and BuiltInNNUE serves it for its game
// alone.
func TestShippedNNUERecord(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range builtInNNUEs {
		sum := sha256.Sum256(b.image)
		hash := hex.EncodeToString(sum[:])
		lines, _, err := rundir.ReadMetrics[struct {
			Generation int    `json:"generation"`
			Net        string `json:"net"`
			SHA256     string `json:"sha256"`
		}](b.run)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range lines {
			if m.SHA256 == hash {
				found = true
				t.Logf("%s is generation %d's net %s", b.name, m.Generation, m.Net)
			}
		}
		if !found {
			t.Errorf("no line of %s/%s records the %s's sha256 %s", b.run, rundir.MetricsFile, b.name, hash)
		}
		if !strings.Contains(string(readme), hash) {
			t.Errorf("README.md does not give the %s's sha256 %s", b.name, hash)
		}
		if name, image, ok := BuiltInNNUE(b.game); !ok || name != b.name || &image[0] != &b.image[0] {
			t.Errorf("BuiltInNNUE(%s) = %s, %d bytes, %v; want %s", b.game, name, len(image), ok, b.name)
		}
	}
	if _, _, ok := BuiltInNNUE("tictactoe"); ok {
		t.Error("BuiltInNNUE(tictactoe) found a net")
	}
}
