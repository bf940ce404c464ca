package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"trench/engine/trench"
)

// expectedDraws returns each of a window's positions' probability of
// being drawn under surprise weight sw, computed from the definition.
func expectedDraws(rows []Sample, sw float64) []float64 {
	sum, n := 0.0, 0
	for _, r := range rows {
		if r.Surprise != nil {
			sum += float64(*r.Surprise)
			n++
		}
	}
	mean := sum / float64(n)
	p := make([]float64, len(rows))
	total := 0.0
	for i, r := range rows {
		p[i] = 1
		if r.Surprise != nil && mean > 0 {
			p[i] = (1 - sw) + sw*float64(*r.Surprise)/mean
		}
		total += p[i]
	}
	for i := range p {
		p[i] /= total
	}
	return p
}

// surpriseClass names a position's surprise for counting draws.
func surpriseClass(r *Sample) string {
	if r.Surprise == nil {
		return "none"
	}
	return fmt.Sprint(*r.Surprise)
}

// TestWindowSurpriseFrequencies draws many positions from windows
// weighted by surprise and checks how often each class of surprise comes
// up against the weights' definition, before and after the window moves
// on to newer shards. Uniform draws miss by far more than the tolerance.
func TestWindowSurpriseFrequencies(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 24))
	var games [][]Sample
	for id := int64(0); id < 8; id++ {
		games = append(games, playSamples(rng, id))
	}
	for _, sw := range []float64{0.5, 0.25, 1} {
		dir := t.TempDir()
		params := WindowParams{Min: 150, Exponent: 0.5, SurpriseWeight: sw}
		w := NewWindow(dir, trench.Game, params, os.Stderr)
		var held []Sample
		for phase, shards := range [][][]Sample{games[:4], games[4:]} {
			for _, g := range shards {
				if _, err := WriteShard(dir, trench.Game, g); err != nil {
					t.Fatal(err)
				}
				held = append(held, g...)
			}
			if _, err := w.Refresh(); err != nil {
				t.Fatal(err)
			}
			rows := held[len(held)-w.Size():]
			want := map[string]float64{}
			inWindow := map[string]bool{}
			for i, p := range expectedDraws(rows, sw) {
				want[surpriseClass(&rows[i])] += p
				inWindow[fmt.Sprint(rows[i].GameID, rows[i].State)] = true
			}
			const draws = 200000
			got := map[string]float64{}
			for range draws {
				r := w.draw(rng)
				if !inWindow[fmt.Sprint(r.GameID, r.State)] {
					t.Fatalf("W %g, phase %d: drew a position outside the window", sw, phase)
				}
				got[surpriseClass(r)] += 1.0 / draws
			}
			for class, p := range want {
				if math.Abs(got[class]-p) > 0.03*p+0.002 {
					t.Errorf("W %g, phase %d: surprise %s drawn %.4f of the time, want %.4f", sw, phase, class, got[class], p)
				}
			}
			if p := want["0"]; sw == 1 && (p != 0 || got["0"] != 0) {
				t.Errorf("W 1, phase %d: positions of surprise 0 drawn %.4f of the time, want never (%.4f)", phase, got["0"], p)
			}
		}
	}
}

// TestFillWithoutSurpriseWeight checks that a window without a surprise
// weight fills the batches the uniform sampler always filled, surprises
// or not, and that the weighted one fills others.
func TestFillWithoutSurpriseWeight(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(25, 25))
	for id := int64(0); id < 3; id++ {
		if _, err := WriteShard(dir, trench.Game, playSamples(rng, id)); err != nil {
			t.Fatal(err)
		}
	}
	fill := func(sw float64) *Batch {
		w := NewWindow(dir, trench.Game, WindowParams{Min: 100, Exponent: 0.5, SurpriseWeight: sw}, os.Stderr)
		if _, err := w.Refresh(); err != nil {
			t.Fatal(err)
		}
		var b Batch
		if err := w.Fill(&b, 64, rand.New(rand.NewPCG(26, 26)), true); err != nil {
			t.Fatal(err)
		}
		return &b
	}
	// The uniform sampler, as Fill drew before surprises: a symmetry,
	// then a position of Window.Sample.
	w := NewWindow(dir, trench.Game, WindowParams{Min: 100, Exponent: 0.5}, os.Stderr)
	w.Refresh()
	var want Batch
	want.reset(trench.Game, 64)
	urng := rand.New(rand.NewPCG(26, 26))
	for i := 0; i < 64; i++ {
		sym := urng.IntN(trench.Game.Symmetries())
		if err := want.set(trench.Game, i, w.Sample(urng), sym); err != nil {
			t.Fatal(err)
		}
	}
	if got := fill(0); !reflect.DeepEqual(got, &want) {
		t.Error("W 0: the batch differs from the uniform sampler's")
	}
	if got := fill(0.5); reflect.DeepEqual(got.Inputs, want.Inputs) {
		t.Error("W 0.5: the batch is the uniform sampler's")
	}
}

// benchWindow is a window of n positions in shards of 1000, a third of
// them with a surprise, weighted by sw.
func benchWindow(n int, sw float64) *Window {
	rng := rand.New(rand.NewPCG(27, 27))
	w := &Window{game: trench.Game, params: WindowParams{Min: n, Exponent: 1, SurpriseWeight: sw}, total: n, stale: true}
	for len(w.shards)*1000 < n {
		samples := make([]Sample, 1000)
		for i := range samples {
			if i%3 == 0 {
				s := float32(rng.ExpFloat64())
				samples[i].Surprise = &s
			}
		}
		w.shards = append(w.shards, shard{name: fmt.Sprint(len(w.shards)), samples: samples})
	}
	return w
}

// BenchmarkWindowDraw draws one position from a window of 100,000, as
// Fill does for every row of a batch: uniformly, and weighted by surprise.
func BenchmarkWindowDraw(b *testing.B) {
	for _, sw := range []float64{0, 0.5} {
		b.Run(fmt.Sprintf("surprise=%g", sw), func(b *testing.B) {
			w := benchWindow(100000, sw)
			rng := rand.New(rand.NewPCG(28, 28))
			w.draw(rng)
			b.ReportAllocs()
			for b.Loop() {
				w.draw(rng)
			}
		})
	}
}

// BenchmarkWindowWeigh rebuilds the surprise weights of a window of
// 100,000 positions, as the first draw after a refresh that added
// shards does.
func BenchmarkWindowWeigh(b *testing.B) {
	w := benchWindow(100000, 0.5)
	b.ReportAllocs()
	for b.Loop() {
		w.weigh()
	}
}
