package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// graph is one gorgonia graph of the net for a fixed batch size, either
// for training (batch statistics, loss and gradients) or for evaluation
// (running statistics, outputs only). Graphs of one Trainer share weight
// tensors; each holds its own batch-norm ops, whose running statistics the
// Trainer copies in before and out after every run.
type graph struct {
	n     int
	train bool
	g     *G.ExprGraph
	vm    G.VM
	// params[i] is the node of the Trainer's i-th trained parameter.
	params []*G.Node
	bn     []*G.BatchNormOp
	x      *G.Node
	xv     *tensor.Dense
	// Training inputs.
	policyT, valueT, scoreT, weight, scoreWeight *G.Node
	policyTV, valueTV, scoreTV, weightV          *tensor.Dense
	// Offsets added to the WDL logits ([o, 0, −o] per seat) and to the
	// score outputs (in units of ScoreScale); zero for a net without a
	// value base.
	valueOffset, scoreOffset   *G.Node
	valueOffsetV, scoreOffsetV *tensor.Dense
	// Offsets added to the policy logits; nil for a net without a
	// policy base.
	policyOffset  *G.Node
	policyOffsetV *tensor.Dense
	// Read back after a run.
	policyLoss, valueLoss, scoreLoss G.Value
	policyOut, valueOut, scoreOut    G.Value
}

func newInput(g *G.ExprGraph, name string, shape ...int) (*G.Node, *tensor.Dense) {
	d := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(shape...))
	return G.NewTensor(g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(d)), d
}

// build makes the graph of t's net for batch size n. gorgonia reports
// shape mistakes by panicking; those are bugs here, turned into errors.
func (t *Trainer) build(n int, train bool) (gr *graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			gr, err = nil, fmt.Errorf("nn: building the gorgonia graph: %v", r)
		}
	}()
	c := t.cfg
	h, w, hw := c.Shape.Height, c.Shape.Width, c.Shape.Height*c.Shape.Width
	gr = &graph{n: n, train: train, g: G.NewGraph()}
	g := gr.g
	nodes := map[string]*G.Node{}
	for i, s := range t.trainedSpecs {
		d := t.params[i]
		nd := G.NewTensor(g, tensor.Float32, d.Dims(), G.WithShape(d.Shape()...), G.WithName(s.name), G.WithValue(d))
		nodes[s.name] = nd
		gr.params = append(gr.params, nd)
	}
	gr.x, gr.xv = newInput(g, "x", n, c.Shape.Planes, h, w)

	convBN := func(x *G.Node, name string, k int, relu bool) *G.Node {
		pad := k / 2
		y := G.Must(G.Conv2d(x, nodes[name+"/conv"], tensor.Shape{k, k}, []int{pad, pad}, []int{1, 1}, []int{1, 1}))
		y, _, _, op, err := G.BatchNorm(y, nodes[name+"/bn/scale"], nodes[name+"/bn/bias"], t.tc.BNMomentum, BNEpsilon)
		if err != nil {
			panic(err)
		}
		gr.bn = append(gr.bn, op)
		if relu {
			y = G.Must(G.Rectify(y))
		}
		return y
	}
	denseL := func(x *G.Node, name string) *G.Node {
		y := G.Must(G.Mul(x, nodes[name+"/w"]))
		return G.Must(G.BroadcastAdd(y, nodes[name+"/b"], nil, []byte{0}))
	}

	x := convBN(gr.x, "stem", 3, true)
	for b := 0; b < c.Blocks; b++ {
		y := convBN(x, fmt.Sprintf("block%d/1", b), 3, true)
		y = convBN(y, fmt.Sprintf("block%d/2", b), 3, false)
		x = G.Must(G.Rectify(G.Must(G.Add(y, x))))
	}
	var policy *G.Node
	if c.PolicyPlanes > 0 {
		// Spatial head: plane k at square s is the logit of action
		// s·planes + k, so (n, planes, h, w) becomes (n, h, w, planes).
		p := convBN(x, "policy", 3, true)
		k := c.policyKernel()
		p = G.Must(G.Conv2d(p, nodes["policy/out/conv"], tensor.Shape{k, k}, []int{k / 2, k / 2}, []int{1, 1}, []int{1, 1}))
		p = G.Must(G.Transpose(p, 0, 2, 3, 1))
		p = G.Must(G.Reshape(p, tensor.Shape{n * hw, c.PolicyPlanes}))
		p = G.Must(G.BroadcastAdd(p, nodes["policy/out/b"], nil, []byte{0}))
		if c.PolicyCells == nil {
			policy = G.Must(G.Reshape(p, tensor.Shape{n, c.Actions}))
		} else {
			// Only the outputs at PolicyCells are actions. They are
			// gathered along the first axis: gorgonia's gradient of a
			// gather along the last one adds into the wrong places.
			p = G.Must(G.Reshape(p, tensor.Shape{n, hw * c.PolicyPlanes}))
			p = G.Must(G.Transpose(p, 1, 0))
			cells := make([]int, len(c.PolicyCells))
			for a, cell := range c.PolicyCells {
				cells[a] = int(cell)
			}
			idx := G.NewVector(g, tensor.Int, G.WithShape(len(cells)), G.WithName("policy/cells"),
				G.WithValue(tensor.New(tensor.WithShape(len(cells)), tensor.WithBacking(cells))))
			policy = G.Must(G.Transpose(G.Must(G.ByIndices(p, idx, 0)), 1, 0))
		}
	} else {
		p := convBN(x, "policy", 1, true)
		p = G.Must(G.Reshape(p, tensor.Shape{n, c.PolicyChannels * hw}))
		policy = denseL(p, "policy/fc")
	}
	v := convBN(x, "value", 1, true)
	v = G.Must(G.Reshape(v, tensor.Shape{n, c.ValueChannels * hw}))
	hidden := G.Must(G.Rectify(denseL(v, "value/fc1")))
	wdl := denseL(hidden, "value/fc2")
	score := denseL(hidden, "score/fc")

	if !train {
		G.Read(policy, &gr.policyOut)
		G.Read(wdl, &gr.valueOut)
		G.Read(score, &gr.scoreOut)
		gr.vm = G.NewTapeMachine(g, G.EvalMode())
		return gr, nil
	}

	gr.policyT, gr.policyTV = newInput(g, "policy_target", n, c.Actions)
	gr.valueT, gr.valueTV = newInput(g, "value_target", n*c.Seats, 3)
	gr.scoreT, gr.scoreTV = newInput(g, "score_target", n, c.Seats)
	gr.weight, gr.weightV = newInput(g, "weight", n)
	gr.valueOffset, gr.valueOffsetV = newInput(g, "value_offset", n, 3*c.Seats)
	gr.scoreOffset, gr.scoreOffsetV = newInput(g, "score_offset", n, c.Seats)
	wdl = G.Must(G.Add(wdl, gr.valueOffset))
	score = G.Must(G.Add(score, gr.scoreOffset))
	if c.PolicyBase != PolicyBaseNone {
		gr.policyOffset, gr.policyOffsetV = newInput(g, "policy_offset", n, c.Actions)
		policy = G.Must(G.Add(policy, gr.policyOffset))
	}
	gr.scoreWeight = G.NewScalar(g, tensor.Float32, G.WithName("score_weight"), G.WithValue(float32(t.tc.ScoreWeight)))

	// Per-sample cross-entropies and squared error, each (n).
	logp := logSoftmaxRows(policy, n, c.Actions)
	lp := G.Must(G.Neg(G.Must(G.Sum(G.Must(G.HadamardProd(gr.policyT, logp)), 1))))
	logq := logSoftmaxRows(wdl, n*c.Seats, 3)
	lv := G.Must(G.Neg(G.Must(G.Sum(G.Must(G.HadamardProd(gr.valueT, logq)), 1))))
	lv = G.Must(G.Sum(G.Must(G.Reshape(lv, tensor.Shape{n, c.Seats})), 1))
	d := G.Must(G.Sub(score, gr.scoreT))
	ls := G.Must(G.Sum(G.Must(G.Square(d)), 1))
	ls = G.Must(G.Mul(ls, G.NewConstant(float32(0.5))))

	// Weighted means: the weight input already holds w_i / n.
	pl := G.Must(G.Sum(G.Must(G.HadamardProd(gr.weight, lp))))
	vl := G.Must(G.Sum(G.Must(G.HadamardProd(gr.weight, lv))))
	sl := G.Must(G.Sum(G.Must(G.HadamardProd(gr.weight, ls))))
	total := G.Must(G.Add(G.Must(G.Add(pl, vl)), G.Must(G.Mul(sl, gr.scoreWeight))))
	G.Read(pl, &gr.policyLoss)
	G.Read(vl, &gr.valueLoss)
	G.Read(sl, &gr.scoreLoss)
	if _, err := G.Grad(total, gr.params...); err != nil {
		return nil, fmt.Errorf("nn: gradients: %w", err)
	}
	gr.vm = G.NewTapeMachine(g, G.BindDualValues(gr.params...))
	return gr, nil
}

// run executes the graph once with the Trainer's running statistics
// copied into its batch-norm ops, and copies them back after training.
func (t *Trainer) run(gr *graph) error {
	for i, op := range gr.bn {
		if err := op.SetStats(t.bnMean[i], t.bnVar[i]); err != nil {
			return err
		}
	}
	gr.vm.Reset()
	if err := gr.vm.RunAll(); err != nil {
		return fmt.Errorf("nn: gorgonia run: %w", err)
	}
	if gr.train {
		for i, op := range gr.bn {
			m, v := op.Stats()
			copy(t.bnMean[i].Float32s(), m.Data().([]float32))
			copy(t.bnVar[i].Float32s(), v.Data().([]float32))
		}
	}
	return nil
}

// logSoftmaxRows is the log-softmax of each row of x (rows×cols), built
// from elementwise ops. gorgonia's own softmax is wrong in v0.9.18: along
// the last axis it takes every row's maximum from the tensor's first
// element (overflow once logits grow), and along an inner axis its
// gradient is wrong. The row maximum is subtracted for stability; the
// gradient that flows into it cancels (log-softmax is shift invariant).
func logSoftmaxRows(x *G.Node, rows, cols int) *G.Node {
	x = G.Must(G.Reshape(x, tensor.Shape{rows, cols}))
	m := G.Must(G.Max(x, 1))
	s := G.Must(G.BroadcastSub(x, m, nil, []byte{1}))
	lse := G.Must(G.Log(G.Must(G.Sum(G.Must(G.Exp(s)), 1))))
	return G.Must(G.BroadcastSub(s, lse, nil, []byte{1}))
}
