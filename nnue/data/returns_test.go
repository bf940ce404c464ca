package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"trench/engine/trench"
)

// forwardReturn is a λ-return summed forward, as its definition reads:
// (1−λ)·Σ λ^(k−1)·v(t+k) over the later records, plus λ^(n−1−t)·z.
func forwardReturn(v []float64, z float64, t int, lambda float64) float64 {
	g, w := 0.0, 1-lambda
	for k := t + 1; k < len(v); k++ {
		g += w * v[k]
		w *= lambda
	}
	return g + math.Pow(lambda, float64(len(v)-1-t))*z
}

// interleave mixes the records of games a and b in one slice, each
// game's in its order.
func interleave[R any](a, b []R, seed uint64) []R {
	r := rand.New(rand.NewPCG(seed, 5))
	var out []R
	for len(a) > 0 || len(b) > 0 {
		if len(b) == 0 || (len(a) > 0 && r.IntN(2) == 0) {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

func TestTrenchReturns(t *testing.T) {
	const scale = 400
	games := randomGames(t, 2, 21)
	split := slices.IndexFunc(games, func(r Record) bool { return r.GameID != games[0].GameID })
	first := games[:split]
	for _, lambda := range []float64{0, 0.5, 0.9, 0.999} {
		got := make([]float32, len(first))
		TrenchReturns(first, lambda, scale, got)
		// The values and result by Black's side, then each record's.
		v := make([]float64, len(first))
		for i, r := range first {
			v[i] = sigmoid(float64(r.Score) / scale)
			if r.Position.SideToMove() != trench.Black {
				v[i] = 1 - v[i]
			}
		}
		last := first[len(first)-1]
		z := float64(last.Result.Value())
		if last.Position.SideToMove() != trench.Black {
			z = 1 - z
		}
		for i, r := range first {
			want := forwardReturn(v, z, i, lambda)
			if r.Position.SideToMove() != trench.Black {
				want = 1 - want
			}
			if math.Abs(float64(got[i])-want) > 1e-5 {
				t.Fatalf("λ %v, record %d of %d: return %v, want %v", lambda, i, len(first), got[i], want)
			}
		}
		// Another game's records between change nothing.
		mixed := interleave(first, games[split:], 3)
		all := make([]float32, len(mixed))
		TrenchReturns(mixed, lambda, scale, all)
		k := 0
		for i, r := range mixed {
			if r.GameID == first[0].GameID {
				if all[i] != got[k] {
					t.Fatalf("λ %v: record %d of the first game, interleaved: %v, alone %v", lambda, k, all[i], got[k])
				}
				k++
			}
		}
	}
	// The last record's return is its game's result.
	got := make([]float32, len(first))
	TrenchReturns(first, 0.5, scale, got)
	if n := len(first) - 1; got[n] != first[n].Result.Value() {
		t.Errorf("the last record's return %v, its result %v", got[n], first[n].Result.Value())
	}
}

func TestTrichessReturns(t *testing.T) {
	const scale = 400
	games := randomTrichessGames(t, 2, 22)
	split := slices.IndexFunc(games, func(r TrichessRecord) bool { return r.GameID != games[0].GameID })
	first := games[:split]
	for _, lambda := range []float64{0, 0.7, 0.95} {
		got := make([]float32, 3*len(first))
		TrichessReturns(first, lambda, scale, got)
		last := first[len(first)-1]
		for c := range 3 {
			v := make([]float64, len(first))
			for i, r := range first {
				v[i] = sigmoid(float64(r.Leads[c]) / scale)
			}
			z := float64(last.Titles[c].Points()) / 3
			for i, r := range first {
				j := (c - int(r.Position.SideToMove()) + 3) % 3 // seat j after the mover is c
				if want := forwardReturn(v, z, i, lambda); math.Abs(float64(got[3*i+j])-want) > 1e-5 {
					t.Fatalf("λ %v, record %d, colour %d (output %d): return %v, want %v", lambda, i, c, j, got[3*i+j], want)
				}
			}
		}
		mixed := interleave(first, games[split:], 4)
		all := make([]float32, 3*len(mixed))
		TrichessReturns(mixed, lambda, scale, all)
		k := 0
		for i, r := range mixed {
			if r.GameID == first[0].GameID {
				if !slices.Equal(all[3*i:3*i+3], got[3*k:3*k+3]) {
					t.Fatalf("λ %v: record %d of the first game, interleaved: %v, alone %v", lambda, k, all[3*i:3*i+3], got[3*k:3*k+3])
				}
				k++
			}
		}
	}
}

// A window with λ-returns serves each record's beside it, in Sample and
// in Validation, the same as the shard's records' own.
func TestWindowReturns(t *testing.T) {
	const lambda, scale = 0.8, 400
	dir := t.TempDir()
	records := randomGames(t, 12, 23)
	writeShards(t, dir, records[:len(records)/2], records[len(records)/2:])
	// Games do not cross the shards here unless the cut splits one; keep
	// the expected returns per shard as the window computes them.
	want := map[string][]float32{}
	for _, part := range [][]Record{records[:len(records)/2], records[len(records)/2:]} {
		ret := make([]float32, len(part))
		TrenchReturns(part, lambda, scale, ret)
		for i := range part {
			key := string(AppendRecord(nil, &part[i]))
			want[key] = append(want[key], ret[i])
		}
	}
	w, err := NewWindow(dir, WindowConfig{Newest: len(records), Holdout: 0.3, Seed: 2, TDLambda: lambda, ScoreScale: scale}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	batch, ret := make([]Record, 500), make([]float32, 500)
	w.Sample(rand.New(rand.NewPCG(1, 1)), batch, ret)
	val, vret := w.Validation()
	if len(val) == 0 || len(vret) != len(val) {
		t.Fatalf("validation: %d records, %d returns", len(val), len(vret))
	}
	check := func(what string, rs []Record, ret []float32) {
		for i := range rs {
			if !slices.Contains(want[string(AppendRecord(nil, &rs[i]))], ret[i]) {
				t.Fatalf("%s %d: return %v, want one of %v", what, i, ret[i], want[string(AppendRecord(nil, &rs[i]))])
			}
		}
	}
	check("sample", batch, ret)
	check("held-out record", val, vret)
	// Without returns the window serves none, and the settings are checked.
	plain, err := NewWindow(dir, WindowConfig{Newest: 10, Seed: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Refresh(); err != nil {
		t.Fatal(err)
	}
	if _, vr := plain.Validation(); vr != nil {
		t.Errorf("a window without returns served %d", len(vr))
	}
	for _, c := range []WindowConfig{{Newest: 1, TDLambda: 1, ScoreScale: 1}, {Newest: 1, TDLambda: -0.1, ScoreScale: 1}, {Newest: 1, TDLambda: 0.5}} {
		if _, err := NewWindow(dir, c, nil); err == nil {
			t.Errorf("NewWindow(%+v) accepted", c)
		}
	}
}
