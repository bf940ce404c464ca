package relabel

import (
	"reflect"
	"strings"
	"testing"

	"trench/datasets"
	"trench/engine"
	"trench/engine/trench"
	"trench/mcts"
)

// samples returns one sample for each state, as self-play stores them:
// a move and its share, every third a cheap search with a surprise, the
// game's result and score.
func samples(states []engine.State) []datasets.Sample {
	out := make([]datasets.Sample, len(states))
	for i, s := range states {
		acts := s.LegalActions(nil)
		out[i] = datasets.Sample{
			State: s.String(), ToMove: s.ToMove(), GameID: int64(i/10 + 1),
			Actions: []int32{int32(acts[len(acts)-1])}, Probs: []float32{1},
			FullSearch: i%3 != 0, SearchValue: []float32{0.5, -0.5},
			Result: []float32{1, -1}, Score: []float32{3, 1},
		}
		if !out[i].FullSearch {
			surprise := float32(0.25)
			out[i].Surprise = &surprise
		}
	}
	return out
}

// A Labeller gives every sample the teacher's values, and with policy
// its policy as a full search's target with no surprise, batch after
// batch; the rest of each sample is kept.
func TestLabeller(t *testing.T) {
	states := positions(t)
	for _, tc := range []struct {
		name   string
		batch  int
		policy bool
	}{{"values, batches of 6", 6, false}, {"values and moves, batches of 6", 6, true}, {"values and moves, the default batch", 0, true}} {
		t.Run(tc.name, func(t *testing.T) {
			want, got := samples(states), samples(states)
			if err := New(trench.Game, teacher(t, 2, 4), tc.batch, tc.policy).Relabel(got); err != nil {
				t.Fatal(err)
			}
			check := teacher(t, 2, 4)
			for i, g := range got {
				w := want[i]
				evals := []mcts.Evaluation{{Actions: states[i].LegalActions(nil)}}
				if err := check.Evaluate([]engine.State{states[i]}, evals); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(g.SearchValue, evals[0].Values) {
					t.Errorf("position %d: search value %v, the teacher says %v", i, g.SearchValue, evals[0].Values)
				}
				targets := []any{g.Actions, g.Probs, g.FullSearch, g.Surprise}
				wantTargets := []any{w.Actions, w.Probs, w.FullSearch, w.Surprise}
				if tc.policy {
					best := int32(-1)
					for k, p := range evals[0].Policy {
						if p == 1 {
							best = int32(evals[0].Actions[k])
						}
					}
					wantTargets = []any{[]int32{best}, []float32{1}, true, (*float32)(nil)}
				}
				if !reflect.DeepEqual(targets, wantTargets) {
					t.Errorf("position %d: targets %v, want %v", i, targets, wantTargets)
				}
				if g.State != w.State || g.ToMove != w.ToMove || g.GameID != w.GameID || !reflect.DeepEqual(g.Result, w.Result) || !reflect.DeepEqual(g.Score, w.Score) {
					t.Errorf("position %d: more than its targets changed", i)
				}
			}
		})
	}
}

// A sample whose position does not parse is an error naming it.
func TestLabellerBadPosition(t *testing.T) {
	s := samples(positions(t)[:3])
	s[2].State = "not a position"
	err := New(trench.Game, teacher(t, 1, 4), 2, false).Relabel(s)
	if err == nil || !strings.Contains(err.Error(), "position 2") {
		t.Errorf("got %v, want an error naming position 2", err)
	}
}
