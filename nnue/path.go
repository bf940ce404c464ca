package nnue

import (
	"fmt"
	"unsafe"
)

// Bounds of the shared accumulator stack, over every feature set: the
// features one move turns on and off in one perspective (Trench's at
// most 3 and 8, Evaluator.Push; Trichess's 9 and 12,
// TrichessEvaluator.Push), and the perspectives of a position.
const (
	maxAdded        = 9
	maxRemoved      = 12
	maxPerspectives = 3
)

// delta is the features a move turns on and off in one perspective.
type delta struct {
	nAdd, nSub uint8
	added      [maxAdded]int32
	removed    [maxRemoved]int32
}

// entry is one ply of a path: its accumulators are ready, or follow from
// the parent's by each perspective's delta.
type entry struct {
	ready bool
	d     [maxPerspectives]delta
}

// path keeps the accumulators of one search path, every game's
// evaluators' shared part: ply i's accumulators, one a perspective, in
// the net's quantized form (q), are at acc[(i·persp + c)·H:], ready or
// computed from the nearest ready ancestor's by the deltas its game's
// Push listed, when first needed.
// With a net's linear path, lin[i·persp + c] is ply i's sum of the PSQT
// weights of perspective c's features, kept the same way.
type path struct {
	net   *Net
	q     *quantized
	k     *kernels
	persp int
	stack []entry
	acc   []int16
	lin   []float32
}

// newPath returns the path of a net of set fs, or an error if the net
// is of another set, checkSizes refuses it or its weights are too large
// to quantize.
func newPath(net *Net, fs *FeatureSet) (path, error) {
	if err := net.checkSet(fs); err != nil {
		return path{}, fmt.Errorf("nnue: %w", err)
	}
	q, err := quantize(net)
	if err != nil {
		return path{}, fmt.Errorf("nnue: %w", err)
	}
	return path{net: net, q: q, k: best, persp: fs.Perspectives}, nil
}

// grow makes room for ply.
func (e *path) grow(ply int) {
	for len(e.stack) <= ply {
		e.stack = append(e.stack, entry{})
		e.acc = append(e.acc, make([]int16, e.persp*e.net.Hidden)...)
		e.lin = append(e.lin, make([]float32, e.persp)...)
	}
}

// Reserve makes room for the positions of plies 0 to plies, so that a
// search no deeper than that allocates nothing.
func (e *path) Reserve(plies int) {
	e.grow(plies)
}

// at is perspective c's accumulator at ply.
func (e *path) at(ply, c int) []int16 {
	h := e.net.Hidden
	off := (e.persp*ply + c) * h
	return e.acc[off : off+h : off+h]
}

// refresh sets perspective c's accumulator at ply from the active
// features feats.
func (e *path) refresh(ply, c int, feats []int32) {
	e.k.refresh(e.at(ply, c), e.q.bias, e.q.ft, feats)
	e.lin[e.persp*ply+c] = e.net.linear(feats)
}

// push returns ply+1's entry, not ready, for its deltas to be listed.
func (e *path) push(ply int) *entry {
	e.grow(ply + 1)
	en := &e.stack[ply+1]
	en.ready = false
	return en
}

// materialize makes ply's accumulators ready from its nearest ready
// ancestor's.
func (e *path) materialize(ply int) {
	from := ply
	for !e.stack[from].ready {
		from--
	}
	for i := from + 1; i <= ply; i++ {
		en := &e.stack[i]
		for c := range e.persp {
			d := &en.d[c]
			e.update(e.at(i, c), e.at(i-1, c), d)
			if psqt := e.net.PSQT; psqt != nil {
				y := e.lin[e.persp*(i-1)+c]
				for _, f := range d.added[:d.nAdd] {
					y += psqt[f]
				}
				for _, f := range d.removed[:d.nSub] {
					y -= psqt[f]
				}
				e.lin[e.persp*i+c] = y
			}
		}
		en.ready = true
	}
}

// value is the net's output at ply for perspective mover: OutBias plus
// the dot product of the ply's accumulators with mover's output weights
// (the first H multiply mover's activations, the next H those of the
// perspective after it in turn: quantized.out), plus mover's linear
// path.
func (e *path) value(ply, mover int) float32 {
	if !e.stack[ply].ready {
		e.materialize(ply)
	}
	n := e.persp * e.net.Hidden
	acc := e.acc[ply*n : (ply+1)*n]
	return e.net.OutBias + e.lin[e.persp*ply+mover] + e.dot(acc, e.q.out[mover])
}

// update sets dst to src plus d: the kernel's vector loop called
// straight where the hidden width is a multiple of its width (it is the
// hot path of the search), its Go wrapper otherwise.
func (e *path) update(dst, src []int16, d *delta) {
	if k := e.k; k.width > 0 && len(dst)&(k.width-1) == 0 {
		k.updateWhole(unsafe.SliceData(dst), unsafe.SliceData(src), unsafe.SliceData(e.q.ft), len(dst),
			&d.added[0], int(d.nAdd), &d.removed[0], int(d.nSub))
		return
	}
	e.k.update(dst, src, e.q.ft, d.added[:d.nAdd], d.removed[:d.nSub])
}

// dot is the kernel's dot product of the accumulators acc with the
// output weights w, called as update calls its kernel.
func (e *path) dot(acc []int16, w []float32) float32 {
	if k := e.k; k.width > 0 && len(acc)&(k.width-1) == 0 {
		return k.dotWhole(unsafe.SliceData(acc), unsafe.SliceData(w), len(acc), e.q.scale)
	}
	return e.k.dot(acc, w, e.q.scale)
}
