package nn

import (
	"fmt"
	"math"
	"sync"

	gemmpkg "trench/nn/gemm"
)

// Inference is the fast batched forward pass used by search: convolutions
// as matrix products with batch normalization folded into the kernels and
// biases. Its 3×3 convolutions read their neighbourhoods straight from
// zero-padded planes into the product's panels (gemm.MulGathered) when
// the board's width is a multiple of 8, and go through an im2col matrix
// on SGEMM otherwise. It is an immutable snapshot of a net's weights, safe for
// concurrent use by any number of goroutines; each call borrows scratch
// space from a pool, so steady-state calls do not allocate.
type Inference struct {
	cfg   Config
	convs []foldedConv // stem, blocks (two each), policy, value
	pout  foldedConv   // a spatial policy head's output convolution
	// pmap locates each action's logit in pout's output; pOne is
	// plane·h·w + square, the index in the output of a batch of one.
	pmap policyMap
	pOne []int32
	pfc  dense // a dense policy head's layer
	// gathered is set when the board's width is a multiple of 8: every
	// convolution is then a gemm.MulGathered product.
	gathered bool
	vfc1     dense
	vfc2     dense
	sfc      dense
	pool     sync.Pool
}

// foldedConv is a convolution followed by batch norm, folded into a kernel
// w (out × in·k·k) and a bias b (out).
type foldedConv struct {
	in, out, k int
	w, b       []float32
	linear     bool // no ReLU after the bias
	// packed is w packed for gemm.MulGathered when the net's convolutions
	// are gathered (Inference.gathered); nil otherwise.
	packed *gemmpkg.PackedA
}

// planes is an activation: channel-major planes (ch × n·h·w) and, for
// gathered convolutions, the same planes with a border of zeros
// (ch × n·(h+2)·(w+2)), nil where no 3×3 convolution reads them.
type planes struct {
	dense, pad []float32
}

// dense is a kernel w (in × out) and bias b (out).
type dense struct {
	in, out int
	w, b    []float32
}

// NewInference folds and copies w into a fast forward pass. Later changes
// to w do not affect it.
func NewInference(w *Weights) (*Inference, error) {
	if err := w.check("weights"); err != nil {
		return nil, err
	}
	c := w.Config
	inf := &Inference{cfg: c}
	fold := func(name string) foldedConv {
		k := w.Get(name + "/conv")
		scale, bias := w.Get(name+"/bn/scale"), w.Get(name+"/bn/bias")
		mean, variance := w.Get(name+"/bn/mean"), w.Get(name+"/bn/var")
		out := len(scale)
		per := len(k) / out
		f := foldedConv{out: out, w: make([]float32, len(k)), b: make([]float32, out)}
		for o := 0; o < out; o++ {
			a := float64(scale[o]) / math.Sqrt(float64(variance[o])+BNEpsilon)
			for i := 0; i < per; i++ {
				f.w[o*per+i] = float32(float64(k[o*per+i]) * a)
			}
			f.b[o] = float32(float64(bias[o]) - float64(mean[o])*a)
		}
		return f
	}
	stem := fold("stem")
	stem.in, stem.k = c.Shape.Planes, 3
	inf.convs = append(inf.convs, stem)
	for b := 0; b < c.Blocks; b++ {
		for _, half := range []string{"1", "2"} {
			f := fold(fmt.Sprintf("block%d/%s", b, half))
			f.in, f.k = c.Channels, 3
			inf.convs = append(inf.convs, f)
		}
	}
	for _, head := range []string{"policy", "value"} {
		f := fold(head)
		f.in, f.k = c.Channels, 1
		if head == "policy" && c.PolicyPlanes > 0 {
			f.k = 3
		}
		inf.convs = append(inf.convs, f)
	}
	cp := func(name string) dense {
		kw := w.Get(name + "/w")
		b := append([]float32(nil), w.Get(name+"/b")...)
		return dense{in: len(kw) / len(b), out: len(b), w: append([]float32(nil), kw...), b: b}
	}
	if c.PolicyPlanes > 0 {
		inf.pout = foldedConv{in: c.PolicyChannels, out: c.PolicyPlanes, k: c.policyKernel(), linear: true,
			w: append([]float32(nil), w.Get("policy/out/conv")...), b: append([]float32(nil), w.Get("policy/out/b")...)}
		inf.pmap = c.policyMap()
		inf.pOne = make([]int32, len(inf.pmap.plane))
		for a, k := range inf.pmap.plane {
			inf.pOne[a] = k*int32(c.Shape.Height*c.Shape.Width) + inf.pmap.square[a]
		}
	} else {
		inf.pfc = cp("policy/fc")
	}
	inf.vfc1, inf.vfc2, inf.sfc = cp("value/fc1"), cp("value/fc2"), cp("score/fc")
	if c.Shape.Width%8 == 0 {
		inf.gathered = true
		for _, f := range append(pointers(inf.convs), &inf.pout) {
			if k := f.in * f.k * f.k; k > 0 {
				f.packed = gemmpkg.PackA(f.out, k, f.w, k)
			}
		}
	}
	inf.pool.New = func() any { return new(Workspace) }
	return inf, nil
}

// pointers returns a pointer to each element of s.
func pointers[T any](s []T) []*T {
	ps := make([]*T, len(s))
	for i := range s {
		ps[i] = &s[i]
	}
	return ps
}

// Config returns the architecture.
func (inf *Inference) Config() Config { return inf.cfg }

// Workspace is scratch space for Inference.ForwardWith. A Workspace may be
// used by one goroutine at a time; it grows to the largest batch seen.
type Workspace struct {
	x, col, a, t, u []float32
	// For gathered convolutions (Inference.gathered): xp, ap, tp, up and
	// php hold x, a, t, u and ph again as planes with a border of zeros;
	// rowOff, runOff and padRunOff locate their neighbourhoods and
	// interiors, pointRowOff and pointRunOff the dense planes that 1×1
	// convolutions read (gemm.MulGathered).
	xp, ap, tp, up, php       []float32
	rowOff, runOff, padRunOff []int32
	pointRowOff, pointRunOff  []int32
	ph, pf                    []float32
	vh, vf, hidden            []float32
	wdl                       []float32
}

// grow returns s with n elements, reallocated (zeroed) if its capacity is
// smaller.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Forward evaluates n positions. input holds n×Planes×Height×Width
// features. It writes, for each position i:
//
//   - policy[i*Actions : (i+1)*Actions]: raw policy logits (the caller masks
//     illegal actions and applies the softmax);
//   - value[i*Seats*3 : (i+1)*Seats*3]: win, draw, loss probabilities
//     (softmax applied) for each seat, seat 0 being the player to move;
//   - score[i*Seats : (i+1)*Seats]: the predicted final score difference of
//     each seat, in points (the head's output times ScoreScale).
//
// Any output may be nil to skip copying it. Forward panics only on
// slices too short for n, which is a programming error.
func (inf *Inference) Forward(input []float32, n int, policy, value, score []float32) {
	ws := inf.pool.Get().(*Workspace)
	inf.ForwardWith(ws, input, n, policy, value, score)
	inf.pool.Put(ws)
}

// ForwardWith is Forward with caller-owned scratch space.
func (inf *Inference) ForwardWith(ws *Workspace, input []float32, n int, policy, value, score []float32) {
	c := inf.cfg
	hw := c.Shape.Height * c.Shape.Width
	cols := n * hw
	if n <= 0 {
		return
	}
	if len(input) < n*c.Shape.Size() || (policy != nil && len(policy) < n*c.Actions) ||
		(value != nil && len(value) < n*c.Seats*3) || (score != nil && len(score) < n*c.Seats) {
		panic(fmt.Sprintf("nn: Forward of %d positions: buffers too short", n))
	}
	ws.a = grow(ws.a, c.Channels*cols)
	ws.t = grow(ws.t, c.Channels*cols)
	ws.u = grow(ws.u, c.Channels*cols)
	ws.ph = grow(ws.ph, c.PolicyChannels*cols)
	ws.pf = grow(ws.pf, max(c.PolicyChannels, c.PolicyPlanes)*cols)
	ws.vh = grow(ws.vh, c.ValueChannels*cols)
	ws.vf = grow(ws.vf, c.ValueChannels*cols)
	ws.hidden = grow(ws.hidden, n*c.ValueHidden)
	ws.wdl = grow(ws.wdl, n*(c.Seats*3))
	var x planes // the input: padded planes, or dense ones for im2col
	a, t, u := planes{dense: ws.a}, planes{dense: ws.t}, planes{dense: ws.u}
	ph := planes{dense: ws.ph}
	nPlanes := c.Shape.Planes
	if inf.gathered {
		inf.layOut(ws, n)
		x.pad, a.pad, t.pad, u.pad, ph.pad = ws.xp, ws.ap, ws.tp, ws.up, ws.php
		// The input goes straight into the interiors of the padded planes.
		h, w := c.Shape.Height, c.Shape.Width
		pw, area := w+2, (h+2)*(w+2)
		for i := 0; i < n; i++ {
			for p := 0; p < nPlanes; p++ {
				from := input[(i*nPlanes+p)*hw:][:hw]
				to := ws.xp[p*n*area+i*area+pw+1:]
				for y := range h {
					copy(to[y*pw:y*pw+w], from[y*w:y*w+w])
				}
			}
		}
	} else {
		// Channel-major layout: x[p][i*hw+s] for position i, square s.
		ws.x = grow(ws.x, nPlanes*cols)
		x.dense = ws.x
		for i := 0; i < n; i++ {
			for p := 0; p < nPlanes; p++ {
				copy(ws.x[p*cols+i*hw:p*cols+i*hw+hw], input[(i*nPlanes+p)*hw:(i*nPlanes+p+1)*hw])
			}
		}
	}
	inf.conv(ws, &inf.convs[0], x, a, n, nil)
	for b := 0; b < c.Blocks; b++ {
		inf.conv(ws, &inf.convs[1+2*b], a, t, n, nil)
		inf.conv(ws, &inf.convs[2+2*b], t, u, n, a.dense)
		a, u = u, a
	}
	heads := len(inf.convs) - 2
	inf.conv(ws, &inf.convs[heads], a, ph, n, nil)
	inf.conv(ws, &inf.convs[heads+1], a, planes{dense: ws.vh}, n, nil)

	switch {
	case policy == nil:
	case c.PolicyPlanes > 0:
		inf.conv(ws, &inf.pout, ph, planes{dense: ws.pf}, n, nil)
		if n == 1 {
			// The search's usual call: one index per action.
			logits, pf := policy[:len(inf.pOne)], ws.pf[:c.PolicyPlanes*hw]
			for a, k := range inf.pOne {
				logits[a] = pf[k]
			}
			break
		}
		// The biases are in pf already (pout is a conv).
		inf.pmap.gather(policy, ws.pf, nil, n, c.Actions, hw)
	default:
		flatten(ws.ph, ws.pf, c.PolicyChannels, n, hw)
		inf.pfc.apply(ws.pf, policy, n, false)
	}
	if value == nil && score == nil {
		return
	}
	flatten(ws.vh, ws.vf, c.ValueChannels, n, hw)
	inf.vfc1.apply(ws.vf, ws.hidden, n, true)
	if value != nil {
		inf.vfc2.apply(ws.hidden, ws.wdl, n, false)
		for g := 0; g < n*c.Seats; g++ {
			softmax3(ws.wdl[3*g:3*g+3], value[3*g:3*g+3])
		}
	}
	if score != nil {
		inf.sfc.apply(ws.hidden, score, n, false)
		for i := range score[:n*c.Seats] {
			score[i] *= c.ScoreScale
		}
	}
}

// conv applies f to src (in × n·hw) into dst (out × n·hw), adds the
// residual res if not nil, and applies ReLU unless f is linear. A gathered
// 3×3 convolution reads src.pad; a gathered one also writes dst.pad when
// it is not nil.
func (inf *Inference) conv(ws *Workspace, f *foldedConv, src, dst planes, n int, res []float32) {
	h, w := inf.cfg.Shape.Height, inf.cfg.Shape.Width
	hw := h * w
	cols := n * hw
	if f.packed != nil {
		ep := gemmpkg.Epilogue{Bias: f.b, ReLU: !f.linear}
		if res != nil {
			ep.Res, ep.LdRes = res, cols
		}
		if dst.pad != nil {
			ep.Pad, ep.PadStride, ep.PadRunOff = dst.pad, n*(h+2)*(w+2), ws.padRunOff
		}
		if f.k == 3 {
			gemmpkg.MulGathered(f.packed, cols, src.pad, ws.rowOff[:f.in*9], ws.runOff, dst.dense, cols, ep)
		} else {
			// A 1×1 convolution's B is the dense planes as they are.
			gemmpkg.MulGathered(f.packed, cols, src.dense, ws.pointRowOff[:f.in], ws.pointRunOff, dst.dense, cols, ep)
		}
		return
	}
	out := dst.dense
	if f.k == 3 {
		// A few positions at a time, so that their im2col rows stay in
		// the cache until the product packs them.
		kk := f.in * 9
		step := max(1, convChunk/(kk*hw))
		ws.col = grow(ws.col, kk*min(step, n)*hw)
		for i := 0; i < n; i += step {
			np := min(step, n-i)
			b := ws.col[:kk*np*hw]
			im2col3Strided(src.dense[i*hw:], cols, b, f.in, np, h, w)
			gemm(f.out, np*hw, kk, f.w, kk, b, np*hw, out[i*hw:], cols)
		}
	} else {
		gemm(f.out, cols, f.in, f.w, f.in, src.dense, cols, out, cols)
	}
	for o := 0; o < f.out; o++ {
		row := out[o*cols : (o+1)*cols]
		bias := f.b[o]
		switch {
		case f.linear:
			for j, v := range row {
				row[j] = v + bias
			}
		case res != nil:
			r := res[o*cols : (o+1)*cols]
			for j, v := range row {
				row[j] = max(v+bias+r[j], 0)
			}
		default:
			for j, v := range row {
				row[j] = max(v+bias, 0)
			}
		}
	}
}

// layOut readies ws for gathered convolutions of a batch of n: the padded
// planes and the offsets of gemm.MulGathered. Whatever the batch, a padded
// buffer is a row of blocks of area floats, one per plane and position,
// and only their interiors are ever written: their borders stay zero from
// the allocation on. Position i's square (y, x) sits at i·area +
// (y+1)·pw + x+1 of a padded plane, its neighbour (y+t/3-1, x+t%3-1) at
// i·area + y·pw + x + (t/3)·pw + t%3: row ci·9+t of a 3×3 convolution's
// im2col matrix is plane ci shifted by tap t.
func (inf *Inference) layOut(ws *Workspace, n int) {
	c := inf.cfg
	h, w := c.Shape.Height, c.Shape.Width
	hw, pw := h*w, w+2
	area := (h + 2) * pw
	cols, stride := n*hw, n*area
	ws.xp = grow(ws.xp, c.Shape.Planes*stride)
	ws.ap = grow(ws.ap, c.Channels*stride)
	ws.tp = grow(ws.tp, c.Channels*stride)
	ws.up = grow(ws.up, c.Channels*stride)
	ws.php = grow(ws.php, c.PolicyChannels*stride)
	maxIn := max(c.Shape.Planes, c.Channels, c.PolicyChannels)
	ws.rowOff = grow(ws.rowOff, maxIn*9)
	ws.pointRowOff = grow(ws.pointRowOff, maxIn)
	for ci := range maxIn {
		for t := range 9 {
			ws.rowOff[ci*9+t] = int32(ci*stride + t/3*pw + t%3)
		}
		ws.pointRowOff[ci] = int32(ci * cols)
	}
	ws.runOff = grow(ws.runOff, cols/8)
	ws.padRunOff = grow(ws.padRunOff, cols/8)
	ws.pointRunOff = grow(ws.pointRunOff, cols/8)
	for q := range ws.runOff {
		j := 8 * q
		i, s := j/hw, j%hw
		ws.runOff[q] = int32(i*area + s/w*pw + s%w)
		ws.padRunOff[q] = ws.runOff[q] + int32(pw+1)
		ws.pointRunOff[q] = int32(j)
	}
}

// im2col3 lays out the 3×3 neighbourhoods (zero padded) of src
// (in × n·h·w) as rows (in·9 × n·h·w). Each row is the whole plane
// shifted by one offset in one copy, with the squares whose neighbour lies
// off the board (or would wrap to the next row or position) cleared.
func im2col3(src, dst []float32, in, n, h, w int) {
	im2col3Strided(src, n*h*w, dst, in, n, h, w)
}

// convChunk is the most floats of im2col rows (512 KiB, half an L2 cache
// of the development machine) the forward pass lays out before
// multiplying them: rows still in the cache are cheaper to pack. At batch
// 32 this made the medium net's pass about 12% faster and the compact
// net's about 3%. A variable so that tests can cut batches into many
// chunks.
var convChunk = 128 << 10

// im2col3Strided is im2col3 for n positions of src whose planes are
// stride floats apart.
func im2col3Strided(src []float32, stride int, dst []float32, in, n, h, w int) {
	cols := n * h * w
	for ci := 0; ci < in; ci++ {
		plane := src[ci*stride : ci*stride+cols]
		for t := 0; t < 9; t++ {
			row := dst[(ci*9+t)*cols : (ci*9+t+1)*cols]
			dy, dx := t/3-1, t%3-1
			if off := dy*w + dx; off >= 0 {
				copy(row[:cols-off], plane[off:])
				clear(row[cols-off:])
			} else {
				copy(row[-off:], plane[:cols+off])
				clear(row[:-off])
			}
			clearOffBoard(row, n, h, w, dy, dx)
		}
	}
}

// clearOffBoard zeroes the squares of row (n positions of h×w) whose
// neighbour at (dy, dx) lies off the board.
func clearOffBoard(row []float32, n, h, w, dy, dx int) {
	hw := h * w
	for i := 0; i < n; i++ {
		p := row[i*hw : (i+1)*hw]
		switch dy {
		case -1:
			clear(p[:w])
		case 1:
			clear(p[hw-w:])
		}
		switch dx {
		case -1:
			for y := 0; y < hw; y += w {
				p[y] = 0
			}
		case 1:
			for y := w - 1; y < hw; y += w {
				p[y] = 0
			}
		}
	}
}

// flatten turns a head's channel-major map (ch × n·hw) into one row per
// position (n × ch·hw), the order of gorgonia's reshape.
func flatten(src, dst []float32, ch, n, hw int) {
	cols := n * hw
	for i := 0; i < n; i++ {
		for c := 0; c < ch; c++ {
			copy(dst[i*ch*hw+c*hw:i*ch*hw+(c+1)*hw], src[c*cols+i*hw:c*cols+i*hw+hw])
		}
	}
}

// apply computes out (n × d.out) = x (n × d.in) · w + b, with ReLU if relu.
func (d *dense) apply(x, out []float32, n int, relu bool) {
	for i := 0; i < n; i++ {
		copy(out[i*d.out:(i+1)*d.out], d.b)
	}
	gemmAcc(n, d.out, d.in, x, d.in, d.w, d.out, out, d.out)
	if relu {
		for i, v := range out[:n*d.out] {
			out[i] = max(v, 0)
		}
	}
}

func softmax3(logits, out []float32) {
	m := max(logits[0], logits[1], logits[2])
	e0 := math.Exp(float64(logits[0] - m))
	e1 := math.Exp(float64(logits[1] - m))
	e2 := math.Exp(float64(logits[2] - m))
	s := e0 + e1 + e2
	out[0], out[1], out[2] = float32(e0/s), float32(e1/s), float32(e2/s)
}
