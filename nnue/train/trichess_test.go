package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"trench/engine/trichess"
	"trench/nnue"
	"trench/nnue/data"
)

// materialLeads is each seat's lead in centipoints: 100 a point of its
// material over the mean of the others', counted from the board's
// pieces.
func materialLeads(p *trichess.Position) [3]int {
	var material [3]int
	for s := trichess.Square(0); s < trichess.NumSquares; s++ {
		if c, k, ok := p.PieceAt(s); ok {
			material[c] += k.Value()
		}
	}
	var leads [3]int
	for c := range leads {
		leads[c] = 100*material[c] - 50*(material[(c+1)%3]+material[(c+2)%3])
	}
	return leads
}

// randomTrichessGames plays n random games to their end and labels their
// positions with the seats' material leads.
func randomTrichessGames(t testing.TB, n int, seed uint64) data.TrichessRecords {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 5))
	var records data.TrichessRecords
	var moves []trichess.Move
	for g := 0; g < n; g++ {
		p := trichess.StartPosition()
		var positions []trichess.Position
		var leads [][3]int
		for p.Outcome().Ending == trichess.NotOver {
			positions = append(positions, p)
			leads = append(leads, materialLeads(&p))
			moves = p.GenerateMoves(moves[:0])
			p.Play(moves[r.IntN(len(moves))])
		}
		rs, err := data.LabelTrichess(seed<<32|uint64(g), positions, leads, p.Outcome())
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, rs...)
	}
	return records
}

// firstOutputs is a Trichess batch that trains only its first n outputs.
type firstOutputs struct {
	data.TrichessRecords
	n int
}

func (b firstOutputs) Outputs() int { return b.n }

func TestTrichessGradientMatchesFiniteDifferences(t *testing.T) {
	records := randomTrichessGames(t, 1, 3)
	// Positions from the whole game, where leads differ.
	var batch data.TrichessRecords
	for i := 0; i < len(records) && len(batch) < 30; i += max(1, len(records)/30) {
		batch = append(batch, records[i])
	}
	const h = 4
	for _, outputs := range []int{1, 2, 3, -3} {
		// A negative count is the net with the linear path.
		cfg := DefaultConfig()
		cfg.Power = 2.5
		cfg.Linear = outputs < 0
		outputs = max(outputs, -outputs)
		tr, err := New(cfg, nnue.Trichess, h, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(2, 2))
		for i := range tr.params {
			tr.params[i] += float32(0.2 * (2*r.Float64() - 1))
		}
		b := firstOutputs{batch, outputs}
		tr.run(examples{b: b}, true)
		grad := append([]float32(nil), tr.grad...)
		// Probe the rows of the first position's features from each
		// seat, the biases, the output weights and bias.
		ftBias, _, _, psqt, _ := layout(nnue.Trichess, h, cfg.Linear)
		var probes []int
		for k := range 3 {
			for _, x := range batch.Features(0, k, nil) {
				probes = append(probes, int(x)*h+int(x)%h)
				if cfg.Linear {
					probes = append(probes, psqt+int(x))
				}
			}
		}
		for i := ftBias; i < psqt; i++ {
			probes = append(probes, i)
		}
		const eps = 1e-3
		checked := 0
		for _, i := range probes {
			old := tr.params[i]
			tr.params[i] = old + eps
			up := tr.run(examples{b: b}, false)
			tr.params[i] = old - eps
			down := tr.run(examples{b: b}, false)
			tr.params[i] = old
			numeric := (up - down) / (2 * eps)
			if d := math.Abs(numeric - float64(grad[i])); d > 1e-4+0.02*math.Abs(numeric) {
				t.Errorf("%d outputs: parameter %d: gradient %g, finite difference %g", outputs, i, grad[i], numeric)
			}
			if grad[i] != 0 {
				checked++
			}
		}
		if checked < len(probes)/2 {
			t.Errorf("%d outputs: only %d of %d probed gradients are non-zero", outputs, checked, len(probes))
		}
	}
}

// splitTrichess holds out the games data.HeldOut picks.
func splitTrichess(records data.TrichessRecords, fraction float64) (train, val data.TrichessRecords) {
	for _, r := range records {
		if data.HeldOut(r.GameID, fraction, 1) {
			val = append(val, r)
		} else {
			train = append(train, r)
		}
	}
	return train, val
}

func TestTrichessFitsMaterial(t *testing.T) {
	records := randomTrichessGames(t, 30, 4)
	train, val := splitTrichess(records, 0.2)
	cfg := DefaultConfig()
	cfg.Lambda = 0
	cfg.LearningRate = 3e-3
	tr, err := New(cfg, nnue.Trichess, 32, 5)
	if err != nil {
		t.Fatal(err)
	}
	before := tr.ValidationLoss(val)
	var last float64
	for range 8 {
		last = tr.Epoch(train, 256)
	}
	after := tr.ValidationLoss(val)
	t.Logf("%d training positions: last epoch's loss %.5f, validation loss %.5f -> %.5f after %d steps", len(train), last, before, after, tr.Steps())
	if last > 0.001 || after > before/5 {
		t.Errorf("last epoch's loss %.5f, validation loss %.5f -> %.5f: want below 0.001 and a fifth of the start", last, before, after)
	}
}

// TestTrichessLinearPathFitsMaterialSooner checks what the linear path
// is for: on leads that are material alone, a net with it fits in a
// hundred steps clearly closer than the hidden units alone.
func TestTrichessLinearPathFitsMaterialSooner(t *testing.T) {
	records := randomTrichessGames(t, 30, 4)
	train, val := splitTrichess(records, 0.2)
	var losses [2]float64
	for i, linear := range []bool{false, true} {
		cfg := DefaultConfig()
		cfg.Lambda = 0
		cfg.Linear = linear
		tr, err := New(cfg, nnue.Trichess, 32, 5)
		if err != nil {
			t.Fatal(err)
		}
		for range 6 {
			tr.Epoch(train, 256)
		}
		losses[i] = tr.ValidationLoss(val)
		t.Logf("linear path %v: validation loss %.5f after %d steps", linear, losses[i], tr.Steps())
	}
	if losses[1] > 0.8*losses[0] {
		t.Errorf("validation loss %.5f with the linear path, %.5f without: want under 0.8 times", losses[1], losses[0])
	}
}

func TestTrichessDeterministic(t *testing.T) {
	records := randomTrichessGames(t, 1, 8)
	run := func(threads int) *nnue.Net {
		cfg := DefaultConfig()
		cfg.Threads = threads
		tr, err := New(cfg, nnue.Trichess, 16, 9)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			tr.Epoch(records, 100)
		}
		return tr.Net()
	}
	a, b, c, d := run(1), run(1), run(3), run(3)
	for i := range a.FT {
		if a.FT[i] != b.FT[i] || c.FT[i] != d.FT[i] {
			t.Fatalf("two runs with the same threads differ at weight %d: %v, %v and %v, %v", i, a.FT[i], b.FT[i], c.FT[i], d.FT[i])
		}
		// Three threads sum the gradient in another order: close, not equal.
		if math.Abs(float64(a.FT[i]-c.FT[i])) > 1e-4 {
			t.Fatalf("one and three threads differ at weight %d: %v, %v", i, a.FT[i], c.FT[i])
		}
	}
}
