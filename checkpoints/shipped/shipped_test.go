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

// nnueRun is the run directory whose records describe the built-in NNUE.
const nnueRun = "../../docs/runs/r5"

// TestShippedNNUERecord checks that the built-in NNUE is the net its
// records describe: its SHA-256 is the one in the run's metrics line of
// its generation and in README.md.
func TestShippedNNUERecord(t *testing.T) {
	sum := sha256.Sum256(NNUE())
	hash := hex.EncodeToString(sum[:])
	lines, _, err := rundir.ReadMetrics[struct {
		Generation int    `json:"generation"`
		Net        string `json:"net"`
		SHA256     string `json:"sha256"`
	}](nnueRun)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range lines {
		if m.SHA256 == hash {
			found = true
			t.Logf("%s is generation %d's net %s", NNUEName, m.Generation, m.Net)
		}
	}
	if !found {
		t.Errorf("no line of %s/%s records the built-in NNUE's sha256 %s", nnueRun, rundir.MetricsFile, hash)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), hash) {
		t.Errorf("README.md does not give the built-in NNUE's sha256 %s", hash)
	}
}
