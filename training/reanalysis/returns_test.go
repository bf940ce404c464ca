package reanalysis

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trench/datasets"
	"trench/engine/trench"
)

// twoGames is a shard's positions: a game of three positions won by
// player 0, then one of two positions won by player 1, with stored values.
func twoGames() []datasets.Sample {
	s := func(id int64, v float32, result float32) datasets.Sample {
		return datasets.Sample{GameID: id, SearchValue: []float32{v, -v}, Result: []float32{result, -result}}
	}
	return []datasets.Sample{s(1, 0.1, 1), s(1, 0.2, 1), s(1, 0.4, 1), s(2, 0.3, -1), s(2, -0.5, -1)}
}

// λ-returns work back from each game's result through its later positions'
// stored values, game by game.
func TestReturnsRelabel(t *testing.T) {
	cases := []struct {
		lambda float32
		want   []float32 // player 0's return at each position
	}{
		{1, []float32{1, 1, 1, -1, -1}},
		{0, []float32{0.2, 0.4, 1, -0.5, -1}},
		// 0.5·0.4 + 0.5·1 = 0.7; 0.5·0.2 + 0.5·0.7 = 0.45; 0.5·(−0.5) + 0.5·(−1) = −0.75.
		{0.5, []float32{0.45, 0.7, 1, -0.75, -1}},
	}
	for _, c := range cases {
		samples := twoGames()
		if err := (returns{lambda: c.lambda}).Relabel(samples); err != nil {
			t.Fatal(err)
		}
		for i, s := range samples {
			if math.Abs(float64(s.SearchValue[0]-c.want[i])) > 1e-6 || s.SearchValue[1] != -s.SearchValue[0] {
				t.Errorf("λ %v, position %d: return %v, want [%v %v]", c.lambda, i, s.SearchValue, c.want[i], -c.want[i])
			}
		}
		if want := twoGames(); !reflect.DeepEqual(samples[0].Result, want[0].Result) || samples[4].GameID != 2 {
			t.Errorf("λ %v: the positions' results or games changed", c.lambda)
		}
	}
}

// A position without a stored value, or with one that is not a number, is
// an error that names it.
func TestReturnsRelabelErrors(t *testing.T) {
	missing := twoGames()
	missing[1].SearchValue = nil
	nan := twoGames()
	nan[3].SearchValue[1] = float32(math.NaN())
	for _, c := range []struct {
		samples []datasets.Sample
		want    string
	}{
		{missing, "position 1 (game 1)"},
		{nan, "position 3 (game 2): stored value 1 is not a number"},
	} {
		if err := (returns{lambda: 0.5}).Relabel(c.samples); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", err, c.want)
		}
	}
}

// Returns copies every shard with its positions' λ-returns, keeps what it
// copied before, and refuses a λ outside [0, 1] or a policy.
func TestReturns(t *testing.T) {
	src, names, shards := source(t, 3)
	dst := t.TempDir()
	st, err := Returns(context.Background(), trench.Game, src, dst, 0.9, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Shards != 3 || st.Positions != len(shards[0])+len(shards[1])+len(shards[2]) {
		t.Fatalf("stats %+v", st)
	}
	for i, name := range names {
		got, err := datasets.ReadShard(filepath.Join(dst, name), trench.Game)
		if err != nil {
			t.Fatal(err)
		}
		want := append([]datasets.Sample(nil), shards[i]...)
		for j := range want {
			want[j].SearchValue = append([]float32(nil), want[j].SearchValue...)
		}
		if err := (returns{lambda: 0.9}).Relabel(want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the copy is not the positions with their λ-returns", name)
		}
		if reflect.DeepEqual(got[0].SearchValue, shards[i][0].SearchValue) {
			t.Fatalf("%s: the first position's value is unchanged", name)
		}
	}
	st, err = Returns(context.Background(), trench.Game, src, dst, 0.9, Options{})
	if err != nil || st.Kept != 3 || st.Shards != 0 {
		t.Fatalf("second call: %+v, %v; want the 3 shards kept", st, err)
	}
	for _, c := range []struct {
		lambda float64
		opt    Options
		want   string
	}{
		{-0.1, Options{}, "lambda must be in [0, 1]"},
		{1.5, Options{}, "lambda must be in [0, 1]"},
		{math.NaN(), Options{}, "lambda must be in [0, 1]"},
		{0.5, Options{Policy: true}, "no policy"},
		{0.5, Options{Workers: -1}, "must not be negative"},
	} {
		if _, err := Returns(context.Background(), trench.Game, src, t.TempDir(), c.lambda, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("λ %v, %+v: error %v, want %q", c.lambda, c.opt, err, c.want)
		}
	}
}
