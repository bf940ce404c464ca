package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/nn"
	"trench/nn/nntest"
)

// saveTiny writes a tiny trench net as a run's checkpoint and returns its
// path.
func saveTiny(t *testing.T, run string, step uint64) string {
	return nntest.SaveToRun(t, nntest.Tiny(t, trench.Game), run, step)
}

func TestGauntlet(t *testing.T) {
	run := t.TempDir()
	prev := saveTiny(t, run, 1)
	cur := saveTiny(t, run, 2)
	sum, err := RunGauntlet(context.Background(), GauntletOptions{Game: trench.Game, Current: cur, Previous: prev, Baselines: []string{"random", "alphabeta:depth=1"}, Games: 4})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games != 12 || sum.VsPrevious == nil || len(sum.VsBaselines) != 2 || !strings.HasPrefix(sum.Current, "policy:net=") {
		t.Fatalf("summary %+v", sum)
	}
	if s := sum.VsPrevious; s.Wins+s.Draws+s.Losses != 4 || !strings.Contains(s.Opponent, prev) {
		t.Errorf("vs previous %+v", s)
	}
	if b := sum.VsBaselines[1]; b.Opponent != "alphabeta:depth=1" || b.Wins+b.Draws+b.Losses != 4 {
		t.Errorf("vs alphabeta %+v", b)
	}
	// The summary survives JSON, infinite Elo bounds included.
	data, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	for i, b := range back.VsBaselines {
		a := sum.VsBaselines[i].Elo
		if !same(a.Elo, b.Elo.Elo) || !same(a.Low, b.Elo.Low) || !same(a.High, b.Elo.High) {
			t.Errorf("JSON round trip: %+v became %+v", a, b.Elo)
		}
	}

	// With mcts and no previous checkpoint.
	sum, err = RunGauntlet(context.Background(), GauntletOptions{Game: trench.Game, Current: run, Baselines: []string{"greedy"}, Games: 2, NetPlayer: "mcts:sims=2"})
	if err != nil || sum.VsPrevious != nil || len(sum.VsBaselines) != 1 || !strings.HasPrefix(sum.Current, "mcts:sims=2,net=") {
		t.Errorf("mcts gauntlet: %+v, %v", sum, err)
	}
}

func same(a, b float64) bool { return a == b || math.Abs(a-b) < 1e-9 }

func TestGauntletErrors(t *testing.T) {
	run := t.TempDir()
	cur := saveTiny(t, run, 1)
	tests := []struct {
		o    GauntletOptions
		want string
	}{
		{GauntletOptions{Game: trench.Game, Current: cur, Games: 2}, "no opponents"},
		{GauntletOptions{Game: trench.Game, Current: cur, Baselines: []string{"random"}}, "games must be"},
		{GauntletOptions{Game: trench.Game, Current: filepath.Join(run, "gone.tnet"), Baselines: []string{"random"}, Games: 2}, "gone.tnet"},
		{GauntletOptions{Game: trench.Game, Current: cur, Previous: filepath.Join(run, "old.tnet"), Games: 2}, "old.tnet"},
		{GauntletOptions{Game: trench.Game, Current: cur, Baselines: []string{"random", "grandmaster"}, Games: 2}, "grandmaster"},
		{GauntletOptions{Game: trench.Game, Current: cur, Baselines: []string{"random"}, Games: 2, NetPlayer: "mcts:simz=3"}, "simz"},
	}
	for _, tt := range tests {
		if _, err := RunGauntlet(context.Background(), tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want %q", tt.o, err, tt.want)
		}
	}
}

func TestIntervalJSON(t *testing.T) {
	for _, in := range []Interval{{1.5, -2, 3.25}, {math.Inf(1), math.Inf(1), math.Inf(1)}, {0, math.Inf(-1), math.Inf(1)}} {
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out Interval
		if err := json.Unmarshal(data, &out); err != nil || out != in {
			t.Errorf("%v → %s → %v, %v", in, data, out, err)
		}
	}
	var out Interval
	if err := json.Unmarshal([]byte(`{"elo":"x"}`), &out); err == nil {
		t.Error("a string Elo accepted")
	}
}

// Net players in parallel games share their net's batches, race-free.
func TestNetPlayersShareBatches(t *testing.T) {
	run := t.TempDir()
	saveTiny(t, run, 3)
	ms := load(t, trench.Game, "mcts:net="+run+",sims=4", "policy:net="+run)
	if ms[0].Net != ms[1].Net {
		t.Fatal("two players of one run do not share its net")
	}
	var buf bytes.Buffer
	res, err := Run(context.Background(), Config{Game: trench.Game, Players: ms, Groups: 4, OpeningPlies: 4, Parallel: 8, Seed: 5, Log: &buf})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcomes) != 8 {
		t.Errorf("%d games", len(res.Outcomes))
	}
	calls, batches, _ := ms[0].Net.Eval.Stats()
	if batches == 0 || batches >= calls {
		t.Errorf("%d evaluation calls in %d batches: nothing was batched", calls, batches)
	}
	if n, err := Replay(&buf, "records"); err != nil || n != 8 {
		t.Errorf("replay: %d, %v", n, err)
	}
}

func TestTallyThreeSeats(t *testing.T) {
	outcomes := []Outcome{
		{Group: 0, Seats: []int{1, 0, 2}, Result: []float64{-1, 1, -1}}, // ahead of both
		{Group: 0, Seats: []int{0, 2, 1}, Result: []float64{0, 0, 1}},   // level with one, behind one
		{Group: 1, Seats: []int{2, 1, 0}, Result: []float64{1, 1, -1}},  // behind both
	}
	st := tally("random", &Result{Seats: 3, Outcomes: outcomes})
	if st.Wins != 2 || st.Draws != 1 || st.Losses != 3 || st.Comparisons != 2 || st.Games() != 3 {
		t.Errorf("tally: %+v, want 2 wins, 1 draw, 3 losses over 3 games of 2 comparisons", st)
	}
	if want := (1 + 0.25 + 0) / 3; math.Abs(st.Score-want) > 1e-12 {
		t.Errorf("score %v, want %v", st.Score, want)
	}
	// Game scores 1, 0.25, 0: mean 5/12, population variance 0.1701.
	mean, variance := 5.0/12, (math.Pow(1-5.0/12, 2)+math.Pow(0.25-5.0/12, 2)+math.Pow(5.0/12, 2))/3
	se := math.Sqrt(variance / 3)
	if want := EloFromScore(mean - 1.959963984540054*se); math.Abs(st.Elo.Low-want) > 0.01 {
		t.Errorf("Elo low %v, want %v", st.Elo.Low, want)
	}
	// Group means 0.625 and 0.
	if want := EloFromScore(0.3125); math.Abs(st.PairElo.Elo-want) > 1e-9 {
		t.Errorf("per-group Elo %v, want %v", st.PairElo.Elo, want)
	}
}

// With two seats the gauntlet's tally of a match is the meeting's: the
// same wins, draws and losses, the trinomial interval per game and the
// pentanomial one per pair.
func TestTallyTwoSeatsIsTheMeetings(t *testing.T) {
	res, err := Run(context.Background(), Config{Game: trench.Game, Players: load(t, trench.Game, "greedy", "greedy"), Groups: 6, OpeningPlies: 12, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Meetings[0]
	if m.Wins == 0 || m.Losses == 0 {
		t.Fatalf("meeting %+v: want wins and losses, so that the intervals are finite", m)
	}
	st := tally("greedy", res)
	if st.Wins != m.Wins || st.Draws != m.Draws || st.Losses != m.Losses || st.Comparisons != 1 || st.Games() != 12 || st.Score != m.Score() {
		t.Errorf("tally %+v, meeting %+v", st, m)
	}
	close := func(a, b Interval) bool {
		near := func(x, y float64) bool { return x == y || math.Abs(x-y) < 1e-9 }
		return near(a.Elo, b.Elo) && near(a.Low, b.Low) && near(a.High, b.High)
	}
	if !close(st.Elo, m.Elo()) || !close(st.PairElo, m.PairElo()) {
		t.Errorf("tally's Elo %v per game, %v per pair; the meeting's %v, %v", st.Elo, st.PairElo, m.Elo(), m.PairElo())
	}
}

func TestGauntletThreePlayers(t *testing.T) {
	run := t.TempDir()
	c, err := nn.Preset("tiny", trichess.Game.FeatureShape(), trichess.Game.ActionCount())
	if err != nil {
		t.Fatal(err)
	}
	c.Seats = 3
	w, err := nn.NewWeights(c, rand.New(rand.NewPCG(1, 3)))
	if err != nil {
		t.Fatal(err)
	}
	ck, err := w.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	cur, err := checkpoints.SaveToRun(run, ck)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := RunGauntlet(context.Background(), GauntletOptions{Game: trichess.Game, Current: cur, Previous: cur, Baselines: []string{"random"}, Games: 6, OpeningPlies: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.VsPrevious == nil || len(sum.VsBaselines) != 1 || sum.Games != 12 {
		t.Fatalf("summary %+v: want a match against the previous net and one baseline, 6 games each", sum)
	}
	for _, st := range append([]Standing{*sum.VsPrevious}, sum.VsBaselines...) {
		n := st.Wins + st.Draws + st.Losses
		if st.Comparisons != 2 || n != 12 || math.Abs(st.Score-(float64(st.Wins)+float64(st.Draws)/2)/float64(n)) > 1e-9 {
			t.Errorf("standing %+v: want 6 games of 2 comparisons, score = (wins + draws/2)/comparisons", st)
		}
	}
}
