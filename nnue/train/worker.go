package train

import (
	"math"

	"trench/nnue"
)

// worker computes the loss and gradient of a part of a batch.
type worker struct {
	// grad is the part's gradient, laid out as Trainer.params.
	grad []float32
	// acc and dacc are each perspective's accumulator and its gradient,
	// the side to move's first; dout is scratch: one output's share of
	// an accumulator's gradient, the perspectives' summed.
	acc, dacc [][]float32
	dout      []float32
	feats     [][]int32
	// loss is the part's summed loss.
	loss float64
}

func newWorker(set *nnue.FeatureSet, h, total int) *worker {
	w := &worker{grad: make([]float32, total), dout: make([]float32, h)}
	for range set.Perspectives {
		w.acc = append(w.acc, make([]float32, h))
		w.dacc = append(w.dacc, make([]float32, h))
		w.feats = append(w.feats, make([]int32, 0, set.MaxActive))
	}
	return w
}

// run adds up the loss of the examples lo to hi of x and, if train is
// set, their gradient scaled by scale into w.grad (which it clears
// first).
func (w *worker) run(t *Trainer, x examples, lo, hi int, train bool, scale float32) {
	h := t.hidden
	np := t.set.Perspectives
	ftBias, out, outBias, psqtAt, _ := layout(t.set, h, t.linear)
	ft, bias, outW := t.params[:ftBias], t.params[ftBias:out], t.params[out:outBias]
	outB := float64(t.params[outBias])
	gft, gbias, gout := w.grad[:ftBias], w.grad[ftBias:out], w.grad[out:outBias]
	psqt, gpsqt := t.params[psqtAt:], w.grad[psqtAt:]
	if train {
		clear(w.grad)
	}
	w.loss = 0
	cfg := &t.cfg
	mirror := t.set.Mirror
	outs := x.b.Outputs()
	for i := lo; i < hi; i++ {
		ex := x.at(i)
		for k := range w.feats {
			w.feats[k] = x.b.Features(ex, k, w.feats[k])
		}
		if train && cfg.Mirror && mirror != nil && mirrored(t.seed, t.steps, i) {
			for _, fs := range w.feats {
				for j, f := range fs {
					fs[j] = mirror(f)
				}
			}
		}
		for k, fs := range w.feats {
			accumulate(w.acc[k], bias, ft, fs)
		}
		for j := range outs {
			// Output j reads perspective j first, then the next ones.
			s := head(w.acc[j], outW[:h])
			for k := 1; k < np; k++ {
				s += head(w.acc[(j+k)%np], outW[k*h:(k+1)*h])
			}
			if t.linear {
				for _, f := range w.feats[j] {
					s += psqt[f]
				}
			}
			y := float64(s) + outB
			pred := sigmoid(y)
			e := pred - cfg.target(x.b.Target(ex, j))
			ae := math.Abs(e)
			var de float64 // d|e|^p / de
			if cfg.Power == 2 {
				w.loss += e * e
				de = 2 * e
			} else {
				w.loss += math.Pow(ae, cfg.Power)
				de = cfg.Power * math.Pow(ae, cfg.Power-1) * math.Copysign(1, e)
			}
			if !train {
				continue
			}
			dy := float32(de*pred*(1-pred)) * scale
			w.grad[outBias] += dy
			if t.linear {
				for _, f := range w.feats[j] {
					gpsqt[f] += dy
				}
			}
			for k := range np {
				a := (j + k) % np
				g, o := gout[k*h:(k+1)*h], outW[k*h:(k+1)*h]
				if j == 0 {
					gOut(g, w.dacc[a], w.acc[a], o, dy)
				} else {
					gOut(g, w.dout, w.acc[a], o, dy)
					addTo(w.dacc[a], w.dout)
				}
			}
		}
		if !train {
			continue
		}
		// The bias's gradient: the perspectives' summed, then added.
		copy(w.dout, w.dacc[0])
		for _, d := range w.dacc[1:] {
			addTo(w.dout, d)
		}
		addTo(gbias, w.dout)
		for k, fs := range w.feats {
			d := w.dacc[k]
			for _, f := range fs {
				o := int(f) * h
				addTo(gft[o:o+h], d)
			}
		}
	}
}

// accumulate sets acc to bias plus the rows of ft (each len(acc) long)
// of the active features.
func accumulate(acc, bias, ft []float32, active []int32) {
	h := len(acc)
	copy(acc, bias)
	for _, f := range active {
		o := int(f) * h
		addTo(acc, ft[o:o+h])
	}
}
