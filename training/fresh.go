package training

import (
	"trench/datasets"
	"trench/engine"
	"trench/nn"
)

// freshMax is the most positions of each arrival of new self-play data
// that freshLosses measures, spread evenly over the arrival.
const freshMax = 256

// freshLosses measures the training net on self-play positions as they
// arrive in the window, before any training step can draw them: how well
// what it learned carries to games it has not seen. Beside it, the same
// losses of the search's aids alone (material values, capture-first
// priors: nn.BaseLosses) on the same positions. It adds them up between
// checkpoints.
type freshLosses struct {
	game        engine.Game
	searchValue float32
	scoreWeight float64

	net, base nn.Losses // sums weighted by positions
	n         int

	samples []datasets.Sample
	batch   datasets.Batch
	nb      nn.Batch
}

func newFreshLosses(g engine.Game, searchValue, scoreWeight float64) *freshLosses {
	f := &freshLosses{game: g, searchValue: float32(searchValue), scoreWeight: scoreWeight}
	f.batch.PolicyOffsets = true
	return f
}

// measure adds the losses of t's net on the added newest positions of win.
func (f *freshLosses) measure(t *nn.Trainer, win *datasets.Window, added int) error {
	if added <= 0 {
		return nil
	}
	every := (added + freshMax - 1) / freshMax
	f.samples = f.samples[:0]
	i := 0
	win.Newest(added, func(s *datasets.Sample) {
		if i%every == 0 {
			f.samples = append(f.samples, *s)
		}
		i++
	})
	if len(f.samples) == 0 {
		return nil
	}
	if err := f.batch.FillFrom(f.game, f.samples); err != nil {
		return err
	}
	c := t.Config()
	toNN(&f.batch, &f.nb, c.Seats, nn.ValueBaseMaterial, f.searchValue)
	base, err := nn.BaseLosses(c, f.nb, f.scoreWeight)
	if err != nil {
		return err
	}
	own := f.nb
	if c.ValueBase == nn.ValueBaseNone {
		own.ValueOffset, own.ScoreOffset = nil, nil
	}
	if c.PolicyBase == nn.PolicyBaseNone {
		own.PolicyOffset = nil
	}
	inf, err := t.Inference()
	if err != nil {
		return err
	}
	net, err := inf.Losses(own, f.scoreWeight)
	if err != nil {
		return err
	}
	k := float64(len(f.samples))
	f.net = addLosses(f.net, net, k)
	f.base = addLosses(f.base, base, k)
	f.n += len(f.samples)
	return nil
}

// report writes the means since the last report into m and starts over.
func (f *freshLosses) report(m *Metrics) {
	if f.n > 0 {
		k := 1 / float64(f.n)
		m.FreshPositions = f.n
		m.FreshLossPolicy, m.FreshLossValue, m.FreshLossScore = k*f.net.Policy, k*f.net.Value, k*f.net.Score
		m.AidsLossPolicy, m.AidsLossValue, m.AidsLossScore = k*f.base.Policy, k*f.base.Value, k*f.base.Score
	}
	f.net, f.base, f.n = nn.Losses{}, nn.Losses{}, 0
}

// addLosses returns sum plus k times l.
func addLosses(sum, l nn.Losses, k float64) nn.Losses {
	return nn.Losses{Policy: sum.Policy + k*l.Policy, Value: sum.Value + k*l.Value, Score: sum.Score + k*l.Score,
		L2: sum.L2 + k*l.L2, Total: sum.Total + k*l.Total}
}
