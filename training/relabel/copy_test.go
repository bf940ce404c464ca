package relabel

import (
	"context"
	"errors"
	"strings"
	"testing"

	"trench/datasets"
	"trench/engine/trench"
)

// A labeller that cannot be made stops the copy with its error, and
// nothing is written.
func TestCopyLabellerError(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	s := trench.Game.Start()
	sample := datasets.Sample{State: s.String(), ToMove: s.ToMove(), GameID: 1, Actions: []int32{int32(s.LegalActions(nil)[0])}, Probs: []float32{1},
		SearchValue: []float32{0, 0}, Result: []float32{0, 0}, Score: []float32{0, 0}}
	if _, err := datasets.WriteShardNamed(src, "shard-00000000000000000001-test.npz", trench.Game, []datasets.Sample{sample}); err != nil {
		t.Fatal(err)
	}
	st, err := Copy(context.Background(), trench.Game, src, dst, CopyOptions{Workers: 2}, func() (ShardLabeller, error) {
		return nil, errors.New("no teacher today")
	})
	if err == nil || !strings.Contains(err.Error(), "no teacher today") {
		t.Errorf("error %v, want the labeller's", err)
	}
	if names, _ := datasets.ShardNames(dst); st.Shards != 0 || len(names) != 0 {
		t.Errorf("%+v, shards %v written without a labeller", st, names)
	}
}
