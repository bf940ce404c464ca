package nn

import (
	"fmt"
	"math"
)

// fastTrainer is the hand-written training pass (BackendFast): the
// forward pass of the gorgonia graph in training mode and its backward
// pass, on the fast pass's machinery — channel-major activations
// (channel × position·square), im2col convolutions on GEMM. It reads the
// Trainer's parameters and running statistics in place, updates the
// statistics as gorgonia's batch norm does, and leaves the loss gradients
// in grads, laid out like the Trainer's parameters. Buffers grow to the
// largest batch seen and are reused, so steady-state steps do not
// allocate.
type fastTrainer struct {
	cfg   Config
	bnMom float32
	convs []ftConv  // stem, blocks (two each), policy, value
	pout  ftLinear  // a spatial policy head's output convolution
	pmap  policyMap // where each action's logit is in pout's output
	pfc   ftLinear  // a dense policy head's layer
	vfc1  ftLinear
	vfc2  ftLinear
	sfc   ftLinear
	grads [][]float32
	mm    *matmuls

	n, cols int
	x       []float32 // input, channel-major
	col     []float32 // im2col rows, then their gradient
	dz      []float32 // gradient before a batch norm
	dA, dA1 []float32 // trunk gradients
	logits  []float32 // policy logits (n × Actions), then their gradient
	pl      []float32 // spatial head's output planes, then their gradient
	pf, dpf []float32 // dense head's flattened input and its gradient
	dph     []float32 // gradient of the policy convolution's output
	vf, dvf []float32 // value head's flattened input and its gradient
	dvh     []float32
	hidden  []float32 // value hidden layer (n × ValueHidden)
	dhidden []float32
	wdl     []float32 // WDL logits (n × 3·Seats), then their gradient
	score   []float32 // score outputs (n × Seats), then their gradient
}

// ftConv is a convolution with batch norm and, unless it ends a block,
// ReLU: parameters and running statistics (views of the Trainer's), their
// gradients, and what the backward pass needs from the forward one.
type ftConv struct {
	in, out, k        int
	w, scale, bias    []float32
	gw, gscale, gbias []float32
	mean, variance    []float32
	invstd            []float32 // 1/√(batch variance + ε), per channel
	xhat              []float32 // normalized convolution output (out × cols)
	act               []float32 // output after ReLU (and the residual)
	// col keeps a 3×3 convolution's im2col rows from the forward pass
	// for the backward one, nil when the batch's rows would pass
	// keptColumns (then the backward pass lays them out again).
	col []float32
}

// keptColumns is the most floats of im2col rows the fast trainer keeps
// from the forward pass for the backward one, over all its layers (256
// MiB). Laying the rows out again took 8% of a Trichess compact net's
// step; the medium net at batch 256 would need about twice this. A
// variable so that tests can make the trainer lay them out again.
var keptColumns = 64 << 20

// ftLinear is a dense layer (w: in × out) or a spatial head's output
// convolution (w: out × in·9), with a bias, and their gradients.
type ftLinear struct {
	in, out int
	w, b    []float32
	gw, gb  []float32
}

func newFastTrainer(t *Trainer) (*fastTrainer, error) {
	c := t.cfg
	f := &fastTrainer{cfg: c, bnMom: float32(t.tc.BNMomentum), mm: newMatmuls(t.tc.Threads)}
	idx := map[string]int{}
	for i, s := range t.trainedSpecs {
		idx[s.name] = i
		f.grads = append(f.grads, make([]float32, len(t.params[i].Float32s())))
	}
	var missing []string
	param := func(name string) ([]float32, []float32) {
		i, ok := idx[name]
		if !ok {
			missing = append(missing, name)
			return nil, nil
		}
		return t.params[i].Float32s(), f.grads[i]
	}
	conv := func(name string, in, k int) {
		bn := len(f.convs)
		l := ftConv{in: in, k: k, mean: t.bnMean[bn].Float32s(), variance: t.bnVar[bn].Float32s()}
		l.w, l.gw = param(name + "/conv")
		l.scale, l.gscale = param(name + "/bn/scale")
		l.bias, l.gbias = param(name + "/bn/bias")
		l.out = len(l.scale)
		l.invstd = make([]float32, l.out)
		f.convs = append(f.convs, l)
	}
	linear := func(name, wname string, in, out int) ftLinear {
		l := ftLinear{in: in, out: out}
		l.w, l.gw = param(name + wname)
		l.b, l.gb = param(name + "/b")
		return l
	}
	hw := c.Shape.Height * c.Shape.Width
	conv("stem", c.Shape.Planes, 3)
	for b := 0; b < c.Blocks; b++ {
		conv(fmt.Sprintf("block%d/1", b), c.Channels, 3)
		conv(fmt.Sprintf("block%d/2", b), c.Channels, 3)
	}
	if c.PolicyPlanes > 0 {
		conv("policy", c.Channels, 3)
		k := c.policyKernel()
		f.pout = linear("policy/out", "/conv", c.PolicyChannels*k*k, c.PolicyPlanes)
		f.pmap = c.policyMap()
	} else {
		conv("policy", c.Channels, 1)
		f.pfc = linear("policy/fc", "/w", c.PolicyChannels*hw, c.Actions)
	}
	conv("value", c.Channels, 1)
	f.vfc1 = linear("value/fc1", "/w", c.ValueChannels*hw, c.ValueHidden)
	f.vfc2 = linear("value/fc2", "/w", c.ValueHidden, 3*c.Seats)
	f.sfc = linear("score/fc", "/w", c.ValueHidden, c.Seats)
	if len(missing) > 0 || len(f.convs) != len(t.bnMean) {
		return nil, fmt.Errorf("nn: fast trainer: parameters %v missing or %d batch norms for %d layers", missing, len(t.bnMean), len(f.convs))
	}
	return f, nil
}

// policyColumns returns the input of a spatial head's output convolution
// as a matrix (in·k² × n·hw): the policy convolution's output itself for
// a 1×1 kernel, its im2col rows for a 3×3 one.
func (f *fastTrainer) policyColumns(act []float32, n int) []float32 {
	c := f.cfg
	if f.pout.in == c.PolicyChannels {
		return act[:c.PolicyChannels*f.cols]
	}
	col := f.col[:f.pout.in*f.cols]
	im2col3(act, col, c.PolicyChannels, n, c.Shape.Height, c.Shape.Width)
	return col
}

// size makes the buffers fit a batch of n.
func (f *fastTrainer) size(n int) {
	c := f.cfg
	hw := c.Shape.Height * c.Shape.Width
	cols := n * hw
	f.n, f.cols = n, cols
	maxIn := max(c.Shape.Planes, c.Channels, c.PolicyChannels)
	maxOut := max(c.Channels, c.PolicyChannels, c.ValueChannels, c.PolicyPlanes)
	f.x = grow(f.x, c.Shape.Planes*cols)
	f.col = grow(f.col, maxIn*9*cols)
	f.dz = grow(f.dz, maxOut*cols)
	f.dA = grow(f.dA, c.Channels*cols)
	f.dA1 = grow(f.dA1, c.Channels*cols)
	f.logits = grow(f.logits, n*c.Actions)
	if c.PolicyPlanes > 0 {
		f.pl = grow(f.pl, c.PolicyPlanes*cols)
	} else {
		f.pf = grow(f.pf, n*c.PolicyChannels*hw)
		f.dpf = grow(f.dpf, n*c.PolicyChannels*hw)
	}
	f.dph = grow(f.dph, c.PolicyChannels*cols)
	f.vf = grow(f.vf, n*c.ValueChannels*hw)
	f.dvf = grow(f.dvf, n*c.ValueChannels*hw)
	f.dvh = grow(f.dvh, c.ValueChannels*cols)
	f.hidden = grow(f.hidden, n*c.ValueHidden)
	f.dhidden = grow(f.dhidden, n*c.ValueHidden)
	f.wdl = grow(f.wdl, n*3*c.Seats)
	f.score = grow(f.score, n*c.Seats)
	kept := 0
	for _, l := range f.convs {
		if l.k == 3 {
			kept += l.in * 9 * cols
		}
	}
	for i := range f.convs {
		l := &f.convs[i]
		l.xhat = grow(l.xhat, l.out*cols)
		l.act = grow(l.act, l.out*cols)
		if l.k == 3 && kept <= keptColumns {
			l.col = grow(l.col, l.in*9*cols)
		} else {
			l.col = nil
		}
	}
}

// step runs the forward and backward passes on b (already checked),
// updates the running statistics and returns the weighted losses; the
// gradients are left in f.grads.
func (f *fastTrainer) step(b *Batch, scoreWeight float32) Losses {
	c := f.cfg
	n := b.N
	f.size(n)
	hw := c.Shape.Height * c.Shape.Width
	cols := f.cols
	planes := c.Shape.Planes
	for i := 0; i < n; i++ {
		for p := 0; p < planes; p++ {
			copy(f.x[p*cols+i*hw:p*cols+i*hw+hw], b.Input[(i*planes+p)*hw:(i*planes+p+1)*hw])
		}
	}

	// Forward.
	f.convForward(&f.convs[0], f.x, nil)
	for k := 0; k < c.Blocks; k++ {
		f.convForward(&f.convs[1+2*k], f.convs[2*k].act, nil)
		f.convForward(&f.convs[2+2*k], f.convs[1+2*k].act, f.convs[2*k].act)
	}
	trunk := f.convs[2*c.Blocks].act
	pconv, vconv := &f.convs[len(f.convs)-2], &f.convs[len(f.convs)-1]
	f.convForward(pconv, trunk, nil)
	f.convForward(vconv, trunk, nil)
	if c.PolicyPlanes > 0 {
		kk := f.pout.in
		col := f.policyColumns(pconv.act, n)
		f.mm.gemm(false, false, c.PolicyPlanes, cols, kk, f.pout.w, kk, col, cols, 0, f.pl, cols)
		f.pmap.gather(f.logits, f.pl, f.pout.b, n, c.Actions, hw)
	} else {
		flatten(pconv.act, f.pf, c.PolicyChannels, n, hw)
		f.denseForward(&f.pfc, f.pf, f.logits, false)
	}
	flatten(vconv.act, f.vf, c.ValueChannels, n, hw)
	f.denseForward(&f.vfc1, f.vf, f.hidden, true)
	f.denseForward(&f.vfc2, f.hidden, f.wdl, false)
	f.denseForward(&f.sfc, f.hidden, f.score, false)

	// Losses, and their gradients with respect to the outputs, in place.
	var l Losses
	for i := 0; i < n; i++ {
		wi := 1 / float32(n)
		if b.Weight != nil {
			wi = b.Weight[i] / float32(n)
		}
		logits := f.logits[i*c.Actions : (i+1)*c.Actions]
		if b.PolicyOffset != nil {
			// As with the value offsets below, the gradient with
			// respect to the net's logits is that with respect to the
			// shifted ones.
			for a, o := range b.PolicyOffset[i*c.Actions : (i+1)*c.Actions] {
				logits[a] += o
			}
		}
		l.Policy += float64(wi) * crossEntropy(logits, b.Policy[i*c.Actions:(i+1)*c.Actions], wi)
		for s := 0; s < c.Seats; s++ {
			g := 3 * (i*c.Seats + s)
			var so float32
			if b.ValueOffset != nil {
				// The offsets shift the logits and scores; the gradients
				// with respect to the net's outputs are those with
				// respect to the shifted values.
				o := b.ValueOffset[i*c.Seats+s]
				f.wdl[g] += o
				f.wdl[g+2] -= o
				so = b.ScoreOffset[i*c.Seats+s] / c.ScoreScale
			}
			l.Value += float64(wi) * crossEntropy(f.wdl[g:g+3], b.Value[g:g+3], wi)
			d := f.score[i*c.Seats+s] + so - b.Score[i*c.Seats+s]/c.ScoreScale
			l.Score += float64(wi) * 0.5 * float64(d) * float64(d)
			f.score[i*c.Seats+s] = scoreWeight * wi * d
		}
	}

	// Backward: heads.
	dTrunk := f.dA[:c.Channels*cols]
	if c.PolicyPlanes > 0 {
		clear(f.pout.gb)
		clear(f.pl[:c.PolicyPlanes*cols])
		for _, a := range f.pmap.order {
			k := f.pmap.plane[a]
			to, gb := f.pl[int(k)*cols+int(f.pmap.square[a]):], float32(0)
			for i := 0; i < n; i++ {
				g := f.logits[i*c.Actions+int(a)]
				to[i*hw] = g
				gb += g
			}
			f.pout.gb[k] += gb
		}
		kk := f.pout.in
		col := f.policyColumns(pconv.act, n)
		f.mm.gemm(false, true, c.PolicyPlanes, kk, cols, f.pl, cols, col, cols, 0, f.pout.gw, kk)
		if kk == c.PolicyChannels {
			f.mm.gemm(true, false, kk, cols, c.PolicyPlanes, f.pout.w, kk, f.pl, cols, 0, f.dph, cols)
		} else {
			f.mm.gemm(true, false, kk, cols, c.PolicyPlanes, f.pout.w, kk, f.pl, cols, 0, col, cols)
			col2im3(col, f.dph, c.PolicyChannels, n, c.Shape.Height, c.Shape.Width, false)
		}
	} else {
		f.denseBackward(&f.pfc, f.pf, f.logits, f.dpf, 0)
		unflatten(f.dpf, f.dph, c.PolicyChannels, n, hw)
	}
	f.convBackward(pconv, trunk, f.dph, dTrunk, false)
	f.denseBackward(&f.vfc2, f.hidden, f.wdl, f.dhidden, 0)
	f.denseBackward(&f.sfc, f.hidden, f.score, f.dhidden, 1)
	for j, h := range f.hidden[:n*c.ValueHidden] {
		if h <= 0 {
			f.dhidden[j] = 0
		}
	}
	f.denseBackward(&f.vfc1, f.vf, f.dhidden, f.dvf, 0)
	unflatten(f.dvf, f.dvh, c.ValueChannels, n, hw)
	f.convBackward(vconv, trunk, f.dvh, dTrunk, true)

	// Backward: trunk. dTrunk holds the gradient of block k's output;
	// after the second convolution's backward pass it holds the gradient
	// before the final ReLU, which is also the skip connection's, and the
	// first convolution adds its input gradient to it.
	for k := c.Blocks - 1; k >= 0; k-- {
		in := f.convs[2*k].act
		f.convBackward(&f.convs[2+2*k], f.convs[1+2*k].act, dTrunk, f.dA1, false)
		f.convBackward(&f.convs[1+2*k], in, f.dA1, dTrunk, true)
	}
	f.convBackward(&f.convs[0], f.x, dTrunk, nil, false)
	return l
}

// crossEntropy returns −Σ t·log softmax(z) and overwrites z with its
// gradient scaled by w: w·(Σt·softmax(z) − t).
func crossEntropy(z, t []float32, w float32) float64 {
	t = t[:len(z)]
	m := z[0]
	for _, v := range z {
		m = max(m, v)
	}
	var sum, st, dot float64
	for j, tj := range t {
		if tj != 0 {
			st += float64(tj)
			dot += float64(tj) * float64(z[j]-m)
		}
	}
	expShifted(z, m)
	for _, e := range z {
		sum += float64(e)
	}
	loss := st*math.Log(sum) - dot
	a := st / sum
	for j, e := range z {
		z[j] = w * float32(a*float64(e)-float64(t[j]))
	}
	return loss
}

// expShifted sets each z[j] to e^(z[j]−m), for m ≥ every z[j], in float32
// within 2 ulp (0 below e^−87.3, where float32's normal range ends; NaN
// stays NaN): Cephes' expf, its range reduction to x = k·ln 2 + r,
// |r| ≤ ln 2 / 2, a polynomial for e^r, then 2^k laid into the exponent
// bits. The softmax of a Trichess net's 2,984 policy logits spent 8% of
// a training step in math.Exp.
func expShifted(z []float32, m float32) {
	for j, v := range z {
		x := v - m
		switch {
		case x != x:
			continue
		case x < -87.3:
			z[j] = 0
			continue
		}
		k := int32(x*1.44269504088896341 - 0.5) // round(x / ln 2), x ≤ 0
		kf := float32(k)
		r := x - kf*0.693359375 + kf*2.12194440e-4 // x − k·ln 2 in two parts
		p := float32(1.9875691500e-4)
		p = p*r + 1.3981999507e-3
		p = p*r + 8.3334519073e-3
		p = p*r + 4.1665795894e-2
		p = p*r + 1.6666665459e-1
		p = p*r + 5.0000001201e-1
		z[j] = (p*r*r + r + 1) * math.Float32frombits(uint32(k+127)<<23)
	}
}

// columns returns the buffer of 3×3 convolution l's im2col rows: its
// own, kept from the forward pass, or the shared one.
func (f *fastTrainer) columns(l *ftConv) []float32 {
	if l.col != nil {
		return l.col[:l.in*9*f.cols]
	}
	return f.col[:l.in*9*f.cols]
}

// convForward applies l to src (in × cols) with batch statistics,
// updating the running ones, adds res (if not nil) after the batch norm,
// and applies ReLU.
func (f *fastTrainer) convForward(l *ftConv, src, res []float32) {
	c := f.cfg
	cols := f.cols
	kk := l.in * l.k * l.k
	b := src
	if l.k == 3 {
		b = f.columns(l)
		im2col3(src, b, l.in, f.n, c.Shape.Height, c.Shape.Width)
	}
	f.mm.gemm(false, false, l.out, cols, kk, l.w, kk, b, cols, 0, l.xhat, cols)
	m := f.bnMom
	for o := 0; o < l.out; o++ {
		z := l.xhat[o*cols : (o+1)*cols]
		mean, ss := meanSquares(z)
		invstd := 1 / math.Sqrt(ss/float64(cols)+BNEpsilon)
		l.invstd[o] = float32(invstd)
		// gorgonia's update: the batch variance is unbiased here only.
		l.mean[o] = m*float32(mean) + (1-m)*l.mean[o]
		l.variance[o] = m*float32(ss/float64(cols-1)) + (1-m)*l.variance[o]
		mf, is := float32(mean), float32(invstd)
		g, be := l.scale[o], l.bias[o]
		a := l.act[o*cols : (o+1)*cols]
		if res != nil {
			r := res[o*cols : (o+1)*cols]
			for j, v := range z {
				xh := (v - mf) * is
				z[j] = xh
				a[j] = max(g*xh+be+r[j], 0)
			}
		} else {
			for j, v := range z {
				xh := (v - mf) * is
				z[j] = xh
				a[j] = max(g*xh+be, 0)
			}
		}
	}
}

// convBackward takes dAct, the loss gradient with respect to l's output,
// and leaves in it the gradient before the ReLU. It sets l's parameter
// gradients and, if dSrc is not nil, sets dSrc (adds to it if acc) to
// the gradient with respect to l's input src.
func (f *fastTrainer) convBackward(l *ftConv, src, dAct, dSrc []float32, acc bool) {
	c := f.cfg
	cols := f.cols
	dz := f.dz[:l.out*cols]
	inv := 1 / float64(cols)
	for o := 0; o < l.out; o++ {
		a := l.act[o*cols : (o+1)*cols]
		d := dAct[o*cols : (o+1)*cols]
		xh := l.xhat[o*cols : (o+1)*cols]
		reluMask(d, a)
		sb, sg := sums(d, xh)
		l.gscale[o], l.gbias[o] = float32(sg), float32(sb)
		k := l.scale[o] * l.invstd[o]
		mb, mg := float32(sb*inv), float32(sg*inv)
		out := dz[o*cols : (o+1)*cols]
		for j, v := range d {
			out[j] = k * (v - mb - xh[j]*mg)
		}
	}
	kk := l.in * l.k * l.k
	b := src
	if l.k == 3 {
		b = f.columns(l)
		if l.col == nil {
			im2col3(src, b, l.in, f.n, c.Shape.Height, c.Shape.Width)
		}
	}
	f.mm.gemm(false, true, l.out, kk, cols, dz, cols, b, cols, 0, l.gw, kk)
	if dSrc == nil {
		return
	}
	if l.k == 1 {
		beta := float32(0)
		if acc {
			beta = 1
		}
		f.mm.gemm(true, false, l.in, cols, l.out, l.w, l.in, dz, cols, beta, dSrc, cols)
		return
	}
	f.mm.gemm(true, false, kk, cols, l.out, l.w, kk, dz, cols, 0, b, cols)
	col2im3(b, dSrc, l.in, f.n, c.Shape.Height, c.Shape.Width, acc)
}

// reluMask zeroes d where the ReLU output a is zero. a comes from max(·,
// 0), so it is +0 or positive (or NaN, kept as the branch a ≤ 0 kept
// it); the mask is computed without a branch, which the signs of a
// trained net's activations made the step's costliest misprediction.
func reluMask(d, a []float32) {
	a = a[:len(d)]
	for j, v := range d {
		m := math.Float32bits(a[j])
		keep := uint32(int32(m|-m) >> 31)
		d[j] = math.Float32frombits(math.Float32bits(v) & keep)
	}
}

// denseForward sets out (n × l.out) = x (n × l.in) · w + b, with ReLU if
// relu.
func (f *fastTrainer) denseForward(l *ftLinear, x, out []float32, relu bool) {
	n := f.n
	out = out[:n*l.out]
	for i := 0; i < n; i++ {
		copy(out[i*l.out:(i+1)*l.out], l.b)
	}
	f.mm.gemm(false, false, n, l.out, l.in, x, l.in, l.w, l.out, 1, out, l.out)
	if relu {
		for i, v := range out {
			out[i] = max(v, 0)
		}
	}
}

// denseBackward sets l's gradients from dy, the gradient of its output,
// and sets dx (n × l.in) to beta·dx + the gradient of its input x.
func (f *fastTrainer) denseBackward(l *ftLinear, x, dy, dx []float32, beta float32) {
	n := f.n
	f.mm.gemm(true, false, l.in, l.out, n, x, l.in, dy, l.out, 0, l.gw, l.out)
	clear(l.gb)
	for i := 0; i < n; i++ {
		axpy(1, dy[i*l.out:(i+1)*l.out], l.gb)
	}
	f.mm.gemm(false, true, n, l.in, l.out, dy, l.out, l.w, l.out, beta, dx, l.in)
}

// sums returns Σd and Σd·x, accumulated in float64 with four partial
// sums each so that the additions do not wait on one another.
func sums(d, x []float32) (sd, sdx float64) {
	x = x[:len(d)]
	var a0, a1, a2, a3, b0, b1, b2, b3 float64
	j := 0
	for ; j+4 <= len(d); j += 4 {
		d0, d1, d2, d3 := float64(d[j]), float64(d[j+1]), float64(d[j+2]), float64(d[j+3])
		a0, a1, a2, a3 = a0+d0, a1+d1, a2+d2, a3+d3
		b0 += d0 * float64(x[j])
		b1 += d1 * float64(x[j+1])
		b2 += d2 * float64(x[j+2])
		b3 += d3 * float64(x[j+3])
	}
	for ; j < len(d); j++ {
		a0 += float64(d[j])
		b0 += float64(d[j]) * float64(x[j])
	}
	return a0 + a1 + a2 + a3, b0 + b1 + b2 + b3
}

// meanSquares returns the mean of z and the sum of its squared
// deviations from it, in float64 with four partial sums.
func meanSquares(z []float32) (mean, ss float64) {
	var a0, a1, a2, a3 float64
	j := 0
	for ; j+4 <= len(z); j += 4 {
		a0, a1, a2, a3 = a0+float64(z[j]), a1+float64(z[j+1]), a2+float64(z[j+2]), a3+float64(z[j+3])
	}
	for ; j < len(z); j++ {
		a0 += float64(z[j])
	}
	mean = (a0 + a1 + a2 + a3) / float64(len(z))
	a0, a1, a2, a3 = 0, 0, 0, 0
	j = 0
	for ; j+4 <= len(z); j += 4 {
		d0, d1, d2, d3 := float64(z[j])-mean, float64(z[j+1])-mean, float64(z[j+2])-mean, float64(z[j+3])-mean
		a0, a1, a2, a3 = a0+d0*d0, a1+d1*d1, a2+d2*d2, a3+d3*d3
	}
	for ; j < len(z); j++ {
		d := float64(z[j]) - mean
		a0 += d * d
	}
	return mean, a0 + a1 + a2 + a3
}

// unflatten is the inverse of flatten: rows per position (n × ch·hw) back
// to a channel-major map (ch × n·hw).
func unflatten(src, dst []float32, ch, n, hw int) {
	cols := n * hw
	for i := 0; i < n; i++ {
		for c := 0; c < ch; c++ {
			copy(dst[c*cols+i*hw:c*cols+i*hw+hw], src[i*ch*hw+c*hw:i*ch*hw+(c+1)*hw])
		}
	}
}

// col2im3 is the adjoint of im2col3: it adds each row of src (in·9 ×
// n·h·w) back onto the squares it was read from, into dst (in × n·h·w),
// which it clears first unless acc. It clears src's entries that im2col3
// would have zeroed.
func col2im3(src, dst []float32, in, n, h, w int, acc bool) {
	cols := n * h * w
	if !acc {
		clear(dst[:in*cols])
	}
	for ci := 0; ci < in; ci++ {
		plane := dst[ci*cols : (ci+1)*cols]
		for t := 0; t < 9; t++ {
			row := src[(ci*9+t)*cols : (ci*9+t+1)*cols]
			dy, dx := t/3-1, t%3-1
			clearOffBoard(row, n, h, w, dy, dx)
			if off := dy*w + dx; off >= 0 {
				axpy(1, row[:cols-off], plane[off:])
			} else {
				axpy(1, row[-off:], plane[:cols+off])
			}
		}
	}
}

// axpy adds a·x to y.
func axpy(a float32, x, y []float32) {
	gonumImpl.Saxpy(len(x), a, x, 1, y, 1)
}
