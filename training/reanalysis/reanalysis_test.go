package reanalysis

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"trench/datasets"
	"trench/engine"
	"trench/engine/trench"
	"trench/mcts"
	"trench/neteval"
	"trench/nn"
	"trench/nn/nntest"
	"trench/training/relabel"
)

// tinyNet returns an evaluator over a random tiny Trench net with the
// material value base: values that differ from position to position.
func tinyNet(t *testing.T) mcts.Evaluator {
	t.Helper()
	c := nntest.TinyFor(t, trench.Game)
	c.Seats, c.ValueBase = 1, nn.ValueBaseMaterial
	ev, err := neteval.NewWithScoreUtility(trench.Game, nntest.Inference(t, c, 3, 3), 0)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// game plays a random Trench game of up to plies plies and returns its
// positions as samples with random search values.
func game(rng *rand.Rand, id int64, plies int) []datasets.Sample {
	var samples []datasets.Sample
	s := trench.Game.Start()
	for ply := 0; ply < plies && !s.Over(); ply++ {
		acts := s.LegalActions(nil)
		v := 2*rng.Float32() - 1
		samples = append(samples, datasets.Sample{
			State: s.String(), ToMove: s.ToMove(), FullSearch: ply%2 == 0, GameID: id,
			Actions: []int32{int32(acts[0])}, Probs: []float32{1}, SearchValue: []float32{v, -v},
		})
		s.Play(acts[rng.IntN(len(acts))])
	}
	for i := range samples {
		samples[i].Result, samples[i].Score = s.Result(nil), s.Scores(nil)
	}
	return samples
}

// source writes n shards of one game each into a new directory, oldest
// first, and returns it with the shards' names and samples.
func source(t *testing.T, n int) (string, []string, [][]datasets.Sample) {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var names []string
	var shards [][]datasets.Sample
	for i := range n {
		name := fmt.Sprintf("shard-%020d-test.npz", i+1)
		samples := game(rng, int64(i+1), 20+5*i)
		if _, err := datasets.WriteShardNamed(dir, name, trench.Game, samples); err != nil {
			t.Fatal(err)
		}
		names, shards = append(names, name), append(shards, samples)
	}
	return dir, names, shards
}

// checkCopy fails the test unless dst's shard name holds want's positions
// with ev's values as search values and everything else unchanged.
func checkCopy(t *testing.T, dst, name string, want []datasets.Sample, ev mcts.Evaluator) {
	t.Helper()
	got, err := datasets.ReadShard(filepath.Join(dst, name), trench.Game)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d positions, want %d", name, len(got), len(want))
	}
	for i := range got {
		s, err := trench.Game.ParseState(want[i].State)
		if err != nil {
			t.Fatal(err)
		}
		evals := []mcts.Evaluation{{Actions: s.LegalActions(nil)}}
		if err := ev.Evaluate([]engine.State{s}, evals); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i].SearchValue, evals[0].Values) {
			t.Fatalf("%s position %d: search value %v, the net says %v", name, i, got[i].SearchValue, evals[0].Values)
		}
		if reflect.DeepEqual(got[i].SearchValue, want[i].SearchValue) {
			t.Fatalf("%s position %d: search value %v unchanged", name, i, got[i].SearchValue)
		}
		g, w := got[i], want[i]
		g.SearchValue, w.SearchValue = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s position %d: %+v, want %+v apart from the search value", name, i, g, w)
		}
	}
}

// fixed returns a factory of ev itself, for one worker.
func fixed(ev mcts.Evaluator) func() mcts.Evaluator {
	return func() mcts.Evaluator { return ev }
}

// Relabel copies every shard under its name, each position's search value
// now the net's, in batches smaller and larger than a shard.
func TestRelabel(t *testing.T) {
	ev := tinyNet(t)
	for _, batch := range []int{0, 1, 7} {
		t.Run(fmt.Sprint("batch", batch), func(t *testing.T) {
			src, names, shards := source(t, 3)
			dst := filepath.Join(t.TempDir(), "new", "datasets")
			var calls, totals []int
			st, err := Relabel(context.Background(), trench.Game, src, dst, fixed(ev), Options{Batch: batch, Progress: func(done, total int) { calls = append(calls, done); totals = append(totals, total) }})
			if err != nil {
				t.Fatal(err)
			}
			total := len(shards[0]) + len(shards[1]) + len(shards[2])
			if st != (relabel.Stats{Shards: 3, Positions: total}) {
				t.Errorf("stats %+v, want 3 shards and %d positions", st, total)
			}
			want := []int{len(shards[2]), len(shards[2]) + len(shards[1]), total}
			if !reflect.DeepEqual(calls, want) || totals[0] != total || totals[2] != total {
				t.Errorf("progress %v of %v, want %v of %d (newest shard first)", calls, totals, want, total)
			}
			for i, name := range names {
				checkCopy(t, dst, name, shards[i], ev)
			}
		})
	}
}

// Positions takes the newest shards that hold that many positions; a
// second call resumes, keeping what the first wrote.
func TestRelabelNewestThenResume(t *testing.T) {
	ev := tinyNet(t)
	src, names, shards := source(t, 3)
	dst := t.TempDir()
	st, err := Relabel(context.Background(), trench.Game, src, dst, fixed(ev), Options{Positions: len(shards[2]) + 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Shards != 2 || st.Kept != 0 {
		t.Errorf("newest %d positions: %+v, want the 2 newest shards", len(shards[2])+1, st)
	}
	if _, err := os.Stat(filepath.Join(dst, names[0])); err == nil {
		t.Errorf("the oldest shard was copied")
	}
	before, err := os.ReadFile(filepath.Join(dst, names[2]))
	if err != nil {
		t.Fatal(err)
	}
	st, err = Relabel(context.Background(), trench.Game, src, dst, fixed(ev), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st != (relabel.Stats{Shards: 1, Positions: len(shards[0]), Kept: 2}) {
		t.Errorf("resumed: %+v, want 1 shard written and 2 kept", st)
	}
	if after, _ := os.ReadFile(filepath.Join(dst, names[2])); !bytes.Equal(before, after) {
		t.Errorf("a kept shard was written again")
	}
	for i, name := range names {
		checkCopy(t, dst, name, shards[i], ev)
	}
}

// A source shard that does not read is skipped with a warning naming it;
// a damaged copy in the destination, the same directory on both sides, a missing or empty source and
// negative options are errors that name what is wrong, and nothing
// already written is touched.
func TestRelabelErrors(t *testing.T) {
	ev := tinyNet(t)
	ctx := context.Background()

	src, names, _ := source(t, 2)
	os.WriteFile(filepath.Join(src, names[0]), []byte("garbage"), 0o644)
	var warn bytes.Buffer
	st, err := Relabel(ctx, trench.Game, src, t.TempDir(), fixed(ev), Options{Warnings: &warn})
	if err != nil || st.Skipped != 1 || st.Shards != 1 {
		t.Errorf("garbage source shard: %+v, %v; want it skipped and the other copied", st, err)
	}
	if !strings.Contains(warn.String(), names[0]) {
		t.Errorf("warning %q does not name %s", warn.String(), names[0])
	}

	src, names, _ = source(t, 2)
	dst := t.TempDir()
	os.WriteFile(filepath.Join(dst, names[1]), []byte("torn"), 0o644)
	if _, err := Relabel(ctx, trench.Game, src, dst, fixed(ev), Options{}); err == nil || !strings.Contains(err.Error(), names[1]) || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("damaged copy: %v, want an error naming %s", err, names[1])
	}
	if got, _ := os.ReadFile(filepath.Join(dst, names[1])); string(got) != "torn" {
		t.Errorf("the damaged copy was replaced")
	}

	cases := []struct {
		name     string
		src, dst string
		opt      Options
		want     string
	}{
		{"same directory", src, src, Options{}, "both the source and the destination"},
		{"missing source", filepath.Join(src, "nowhere"), t.TempDir(), Options{}, "nowhere"},
		{"empty source", t.TempDir(), filepath.Join(t.TempDir(), "d"), Options{}, "has no shards"},
		{"negative positions", src, t.TempDir(), Options{Positions: -1}, "must not be negative"},
		{"negative batch", src, t.TempDir(), Options{Batch: -2}, "must not be negative"},
		{"negative workers", src, t.TempDir(), Options{Workers: -1}, "must not be negative"},
	}
	for _, c := range cases {
		if _, err := Relabel(ctx, trench.Game, c.src, c.dst, fixed(ev), c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// Several workers copy the same shards as one, each with its own
// searching evaluator, and report every shard once.
func TestRelabelWorkersWithSearch(t *testing.T) {
	net := tinyNet(t)
	searcher := func() mcts.Evaluator {
		return &Searcher{Evaluator: net, Params: mcts.DefaultParams(), Sims: 8}
	}
	src, names, shards := source(t, 4)
	one, two := t.TempDir(), t.TempDir()
	if _, err := Relabel(context.Background(), trench.Game, src, one, searcher, Options{Batch: 5}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []int
	st, err := Relabel(context.Background(), trench.Game, src, two, searcher, Options{Batch: 5, Workers: 3, Progress: func(done, _ int) {
		mu.Lock()
		calls = append(calls, done)
		mu.Unlock()
	}})
	if err != nil || st.Shards != 4 {
		t.Fatalf("3 workers: %+v, %v", st, err)
	}
	total := 0
	for i, name := range names {
		total += len(shards[i])
		a, _ := datasets.ReadShard(filepath.Join(one, name), trench.Game)
		b, _ := datasets.ReadShard(filepath.Join(two, name), trench.Game)
		if len(a) != len(shards[i]) || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: one worker and three differ", name)
		}
		for j := range a {
			if reflect.DeepEqual(a[j].SearchValue, shards[i][j].SearchValue) {
				t.Fatalf("%s position %d: search value unchanged", name, j)
			}
		}
	}
	if len(calls) != 4 || calls[3] != total {
		t.Errorf("progress %v, want 4 calls ending at %d", calls, total)
	}
}

// A Searcher's values are its search's root values and its priors the
// search's policy, for each state of a batch, searched again alike when
// its trees are reused.
func TestSearcher(t *testing.T) {
	net := tinyNet(t)
	later := trench.Game.Start()
	for range 6 {
		later.Play(later.LegalActions(nil)[1])
	}
	states := []engine.State{trench.Game.Start(), later}
	s := &Searcher{Evaluator: net, Params: mcts.DefaultParams(), Sims: 30}
	for round := range 2 {
		evals := make([]mcts.Evaluation, len(states))
		for i, st := range states {
			evals[i].Actions = st.LegalActions(nil)
		}
		if err := s.Evaluate(states, evals); err != nil {
			t.Fatal(err)
		}
		for i, st := range states {
			tree, err := mcts.NewTree(st, mcts.DefaultParams())
			if err != nil {
				t.Fatal(err)
			}
			if err := tree.Search(context.Background(), net, 30, 1); err != nil {
				t.Fatal(err)
			}
			var r mcts.Result
			if err := tree.Result(&r); err != nil {
				t.Fatal(err)
			}
			for p := range r.Value {
				if d := math.Abs(float64(r.Value[p] - evals[i].Values[p])); d > 1e-4 {
					t.Errorf("round %d, state %d: values %v, a search gives %v", round, i, evals[i].Values, r.Value)
				}
			}
			sum := float32(0)
			for j, a := range r.Actions {
				sum += evals[i].Policy[j]
				if d := math.Abs(float64(a.Policy - evals[i].Policy[j])); d > 1e-4 {
					t.Errorf("round %d, state %d, action %d: prior %g, the search's policy %g", round, i, j, evals[i].Policy[j], a.Policy)
				}
			}
			if math.Abs(float64(sum-1)) > 1e-3 {
				t.Errorf("round %d, state %d: priors sum to %g", round, i, sum)
			}
		}
	}
	s.Sims = 0
	evals := []mcts.Evaluation{{Actions: states[0].LegalActions(nil)}}
	if err := s.Evaluate(states[:1], evals); err == nil || !strings.Contains(err.Error(), "at least 1 simulation") {
		t.Errorf("no simulations: %v", err)
	}
}
