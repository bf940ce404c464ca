package nnue

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
// evaluators' shared part: ply i's accumulators, one a perspective, are at
// acc[(i·persp + c)·H:], ready or computed from the nearest ready
// ancestor's by the deltas its game's Push listed, when first needed.
// With a net's linear path, lin[i·persp + c] is ply i's sum of the PSQT
// weights of perspective c's features, kept the same way.
type path struct {
	net   *Net
	k     *kernels
	persp int
	stack []entry
	acc   []float32
	lin   []float32
}

// grow makes room for ply.
func (e *path) grow(ply int) {
	for len(e.stack) <= ply {
		e.stack = append(e.stack, entry{})
		e.acc = append(e.acc, make([]float32, e.persp*e.net.Hidden)...)
		e.lin = append(e.lin, make([]float32, e.persp)...)
	}
}

// Reserve makes room for the positions of plies 0 to plies, so that a
// search no deeper than that allocates nothing.
func (e *path) Reserve(plies int) {
	e.grow(plies)
}

// at is perspective c's accumulator at ply.
func (e *path) at(ply, c int) []float32 {
	h := e.net.Hidden
	off := (e.persp*ply + c) * h
	return e.acc[off : off+h : off+h]
}

// refresh sets perspective c's accumulator at ply from the active
// features feats.
func (e *path) refresh(ply, c int, feats []int32) {
	e.k.refresh(e.at(ply, c), e.net.FTBias, e.net.FT, feats)
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
			e.k.update(e.at(i, c), e.at(i-1, c), e.net.FT, d.added[:d.nAdd], d.removed[:d.nSub])
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
// the dot products of mover's activations with the first H output
// weights, then those of the perspectives after it in turn, plus
// mover's linear path.
func (e *path) value(ply, mover int) float32 {
	if !e.stack[ply].ready {
		e.materialize(ply)
	}
	h := e.net.Hidden
	y := e.net.OutBias + e.lin[e.persp*ply+mover]
	for i := range e.persp {
		c := mover + i
		if c >= e.persp {
			c -= e.persp
		}
		y += e.k.dot(e.at(ply, c), e.net.Out[i*h:(i+1)*h])
	}
	return y
}
