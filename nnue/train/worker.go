package train

import (
	"math"

	"trench/nnue/data"
)

// mirrorTable maps each feature through the file↔rank mirror; the
// counters map to themselves.
var mirrorTable [numFeatures]uint16

func init() {
	for f := range mirrorTable {
		x := uint16(f)
		if x < scoreFeature {
			s := x % 64
			x = x - s + (s&7)*8 + s>>3
		}
		mirrorTable[f] = x
	}
}

// worker computes the loss and gradient of a part of a batch.
type worker struct {
	// grad is the part's gradient, laid out as Trainer.params.
	grad []float32
	// acc and dacc are each perspective's accumulator and its gradient,
	// the side to move's first.
	acc, dacc [2][]float32
	feats     [2][maxActive]uint16
	// loss is the part's summed loss.
	loss float64
}

func newWorker(h, total int) *worker {
	w := &worker{grad: make([]float32, total)}
	for i := range w.acc {
		w.acc[i] = make([]float32, h)
		w.dacc[i] = make([]float32, h)
	}
	return w
}

// run adds up the loss of records, which start at index offset of the
// batch, and, if train is set, their gradient scaled by scale into
// w.grad (which it clears first).
func (w *worker) run(t *Trainer, records []data.Record, offset int, train bool, scale float32) {
	h := t.hidden
	ftBias, out, outBias, _ := layout(h)
	ft, bias := t.params[:ftBias], t.params[ftBias:out]
	own, other := t.params[out:out+h], t.params[out+h:outBias]
	outB := float64(t.params[outBias])
	gft, gbias := w.grad[:ftBias], w.grad[ftBias:out]
	gown, gother := w.grad[out:out+h], w.grad[out+h:outBias]
	if train {
		clear(w.grad)
	}
	w.loss = 0
	cfg := &t.cfg
	for i := range records {
		r := &records[i]
		p := &r.Position
		stm := p.SideToMove()
		n0 := features(p, stm, &w.feats[0])
		n1 := features(p, stm.Other(), &w.feats[1])
		f0, f1 := w.feats[0][:n0], w.feats[1][:n1]
		if train && cfg.Mirror && mirrored(t.seed, t.steps, offset+i) {
			for j, f := range f0 {
				f0[j] = mirrorTable[f]
			}
			for j, f := range f1 {
				f1[j] = mirrorTable[f]
			}
		}
		accumulate(w.acc[0], bias, ft, f0)
		accumulate(w.acc[1], bias, ft, f1)
		y := float64(head(w.acc[0], own)+head(w.acc[1], other)) + outB
		pred := sigmoid(y)
		e := pred - cfg.target(r)
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
		gOut(gown, w.dacc[0], w.acc[0], own, dy)
		gOut(gother, w.dacc[1], w.acc[1], other, dy)
		gb := gbias[:len(w.dacc[0])]
		d0, d1 := w.dacc[0][:len(gb)], w.dacc[1][:len(gb)]
		for j := range gb {
			gb[j] += d0[j] + d1[j]
		}
		for _, f := range f0 {
			o := int(f) * h
			addTo(gft[o:o+h], d0)
		}
		for _, f := range f1 {
			o := int(f) * h
			addTo(gft[o:o+h], d1)
		}
	}
}

// accumulate sets acc to bias plus the rows of ft (each len(acc) long)
// of the active features.
func accumulate(acc, bias, ft []float32, active []uint16) {
	h := len(acc)
	copy(acc, bias)
	for _, f := range active {
		o := int(f) * h
		addTo(acc, ft[o:o+h])
	}
}
