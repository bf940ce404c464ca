package reanalysis

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"trench/datasets"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/games/plugin"
	trenchgame "trench/games/trench"
	trichessgame "trench/games/trichess"
	"trench/mcts"
	"trench/training/relabel"
)

// teacher returns a classical teacher of Trench at depth, with its own
// table.
func teacher(t *testing.T, depth int, scale float64) *relabel.Classical {
	t.Helper()
	s, err := trenchgame.Plugin.Classical.NewSearcher(16)
	if err != nil {
		t.Fatal(err)
	}
	return &relabel.Classical{Searcher: s, Depth: depth, Scale: scale}
}

// With Policy, Relabel gives every position the evaluator's policy as a
// full search's target, with no surprise, besides its values; the rest
// of each position is kept.
func TestRelabelPolicy(t *testing.T) {
	src, names, shards := source(t, 2)
	dst := t.TempDir()
	ev := teacher(t, 2, 4)
	if _, err := Relabel(context.Background(), trench.Game, src, dst, fixed(ev), Options{Policy: true, Batch: 6}); err != nil {
		t.Fatal(err)
	}
	check := teacher(t, 2, 4)
	for i, name := range names {
		got, err := datasets.ReadShard(filepath.Join(dst, name), trench.Game)
		if err != nil || len(got) != len(shards[i]) {
			t.Fatalf("%s: %d positions, %v", name, len(got), err)
		}
		cheap := 0
		for j, g := range got {
			w := shards[i][j]
			if !w.FullSearch {
				cheap++
			}
			s, _ := trench.Game.ParseState(w.State)
			evals := []mcts.Evaluation{{Actions: s.LegalActions(nil)}}
			if err := check.Evaluate([]engine.State{s}, evals); err != nil {
				t.Fatal(err)
			}
			best := int32(-1)
			for k, p := range evals[0].Policy {
				if p == 1 {
					best = int32(evals[0].Actions[k])
				}
			}
			if !g.FullSearch || g.Surprise != nil || !reflect.DeepEqual(g.Actions, []int32{best}) || !reflect.DeepEqual(g.Probs, []float32{1}) {
				t.Errorf("%s position %d: target %v %v full %v surprise %v; want the best move %d alone, full, no surprise", name, j, g.Actions, g.Probs, g.FullSearch, g.Surprise, best)
			}
			if !reflect.DeepEqual(g.SearchValue, evals[0].Values) {
				t.Errorf("%s position %d: search value %v, the teacher says %v", name, j, g.SearchValue, evals[0].Values)
			}
			if g.State != w.State || g.ToMove != w.ToMove || g.GameID != w.GameID || !reflect.DeepEqual(g.Result, w.Result) || !reflect.DeepEqual(g.Score, w.Score) {
				t.Errorf("%s position %d: more than its targets changed", name, j)
			}
		}
		if cheap == 0 {
			t.Errorf("%s: no cheap search among the source's positions; the test wants some", name)
		}
	}
}

// Relabel with the classical teacher of Trichess gives every position of
// a Trichess shard each seat's value by BRS+ with the rules' piece
// points, and with Policy its best move as a full search's target.
func TestRelabelTrichessClassical(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var samples []datasets.Sample
	s := trichess.Game.Start()
	for ply := 0; ply < 12 && !s.Over(); ply++ {
		acts := s.LegalActions(nil)
		samples = append(samples, datasets.Sample{
			State: s.String(), ToMove: s.ToMove(), GameID: 1,
			Actions: []int32{int32(acts[0])}, Probs: []float32{1}, SearchValue: []float32{0, 0, 0},
		})
		s.Play(acts[rng.IntN(len(acts))])
	}
	for i := range samples {
		samples[i].Result, samples[i].Score = []float32{1, -1, 0}, []float32{3, 0, 1}
	}
	src, dst := t.TempDir(), t.TempDir()
	if _, err := datasets.WriteShardNamed(src, "shard-00000000000000000001-test.npz", trichess.Game, samples); err != nil {
		t.Fatal(err)
	}
	ev, err := trichessgame.Plugin.Classical.Evaluation("material", "")
	if err != nil {
		t.Fatal(err)
	}
	searcher, err := ev.NewSearcher(16)
	if err != nil {
		t.Fatal(err)
	}
	c := &relabel.Classical{Searcher: searcher, Depth: 1, Scale: 4}
	if _, err := Relabel(context.Background(), trichess.Game, src, dst, fixed(c), Options{Policy: true}); err != nil {
		t.Fatal(err)
	}
	got, err := datasets.ReadShard(filepath.Join(dst, "shard-00000000000000000001-test.npz"), trichess.Game)
	if err != nil || len(got) != len(samples) {
		t.Fatalf("%d positions, %v; want %d", len(got), err, len(samples))
	}
	for i, g := range got {
		st, _ := trichess.Game.ParseState(g.State)
		fresh, _ := ev.NewSearcher(16)
		r, err := fresh.Search(context.Background(), st, plugin.ClassicalLimits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.SearchValue) != 3 || !g.FullSearch || len(g.Actions) != 1 || g.Actions[0] != int32(r.Action) || g.Probs[0] != 1 {
			t.Errorf("position %d: %+v, want BRS+'s move %d", i, g, r.Action)
			continue
		}
		for k, v := range r.Players {
			if math.Abs(float64(g.SearchValue[k])-v) > 1e-6 {
				t.Errorf("position %d: values %v, want the search's %v", i, g.SearchValue, r.Players)
				break
			}
		}
		if !reflect.DeepEqual(g.Result, samples[i].Result) || g.GameID != 1 {
			t.Errorf("position %d: result %v, game %d changed", i, g.Result, g.GameID)
		}
	}
}
