// Package onnx writes a net (nn.Weights) as an ONNX model that other
// programs run: opset 17, float32, a dynamic batch size, batch
// normalization folded into the convolutions as nn.Inference folds it, the
// graph laid out as lc0's ONNX converter lays out a residual net (a stem
// convolution, residual blocks of two, then the policy, value and score
// heads). The model takes the game's feature planes and gives the net's
// raw heads, before the offsets of a value or policy base
// (tactics.ValueOffsets and tactics.PolicyOffsets), exactly what
// nn.Inference.Forward returns:
//
//   - InputPlanes: batch × Planes × Height × Width features
//     (engine.State.EncodeFeatures of each position);
//   - OutputPolicy: batch × Actions policy logits, unmasked;
//   - OutputWDL: batch × Seats × 3 win, draw and loss probabilities, seat
//     0 the player to move;
//   - OutputScore: batch × Seats predicted final score differences, in
//     points.
//
// EncodeNNUE writes Trench's efficiently updatable net (nnue.Net) in the
// same way: its input the two perspectives' features (InputFeatures),
// its outputs the logit that nnue.Net.Evaluate returns (OutputLogit) and
// that logit in the search's centipoints (OutputCentipoints).
//
// The protobuf is encoded by hand with protowire: the models need only a
// handful of ONNX's messages.
package onnx

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"trench/nn"
)

// Version numbers the model declares.
const (
	// Opset is the ONNX operator set of the model's nodes.
	Opset = 17
	// IRVersion is the ONNX IR version that goes with Opset.
	IRVersion = 8
)

// Names of the model's input, outputs and symbolic batch dimension.
const (
	InputPlanes  = "/input/planes"
	OutputPolicy = "/output/policy"
	OutputWDL    = "/output/wdl"
	OutputScore  = "/output/score"
	BatchDim     = "batch"
)

// Producer is the model's producer_name.
const Producer = "trench"

// Source says where a net came from, for the model's metadata_props.
type Source struct {
	// Game is the name of the game the net plays (engine.Game.Name).
	Game string
	// Planes describes the feature planes, e.g. where their layout is
	// documented.
	Planes string
	// Checkpoint names the checkpoint file or built-in net.
	Checkpoint string
	// Step is the checkpoint's training step.
	Step uint64
	// SHA256 is the hex SHA-256 of the checkpoint's file image.
	SHA256 string
}

// Metadata returns the model's metadata_props for a net of config c from
// src, in the order Encode writes them.
func Metadata(c nn.Config, src Source) [][2]string {
	base := func(s string) string {
		if s == "" {
			return "none"
		}
		return s
	}
	return [][2]string{
		{"game", src.Game},
		{"feature_planes", fmt.Sprintf("%d", c.Shape.Planes)},
		{"feature_shape", fmt.Sprintf("%dx%dx%d", c.Shape.Planes, c.Shape.Height, c.Shape.Width)},
		{"feature_doc", src.Planes},
		{"actions", strconv.Itoa(c.Actions)},
		{"seats", strconv.Itoa(c.Seats)},
		{"score_scale", strconv.FormatFloat(float64(c.ScoreScale), 'g', -1, 32)},
		{"value_base", base(c.ValueBase)},
		{"policy_base", base(c.PolicyBase)},
		{"net", c.String()},
		{"checkpoint", src.Checkpoint},
		{"checkpoint_step", strconv.FormatUint(src.Step, 10)},
		{"checkpoint_sha256", src.SHA256},
	}
}

// Encode returns the ONNX model of w, with src in its metadata. It fails
// only for weights that do not match their config.
func Encode(w *nn.Weights, src Source) ([]byte, error) {
	if w == nil {
		return nil, errors.New("onnx: no weights")
	}
	// nn.NewInference checks the tensors against the config.
	if _, err := nn.NewInference(w); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	g := graphOf(w)
	model := msg(nil).varint(modelIRVersion, IRVersion).
		str(modelProducerName, Producer).
		str(modelDocString, "policy logits, win/draw/loss probabilities and score of a "+w.Config.String()+" net; see docs/onnx.md").
		sub(modelGraph, g).
		sub(modelOpsetImport, msg(nil).str(opsetDomain, "").varint(opsetVersion, Opset))
	for _, kv := range Metadata(w.Config, src) {
		model = model.sub(modelMetadataProps, msg(nil).str(entryKey, kv[0]).str(entryValue, kv[1]))
	}
	return model, nil
}

// builder collects a graph's nodes and initializers.
type builder struct {
	nodes, inits []msg
}

// init adds a float32 initializer and returns its name.
func (b *builder) init(name string, dims []int64, data []float32) string {
	b.inits = append(b.inits, floatTensor(name, dims, data))
	return name
}

// node adds a node of op named name with one output, which is called out
// (or name when out is empty), and returns the output's name.
func (b *builder) node(op, name, out string, in []string, attrs ...attribute) string {
	if out == "" {
		out = name
	}
	n := msg(nil)
	for _, s := range in {
		n = n.str(nodeInput, s)
	}
	n = n.str(nodeOutput, out).str(nodeName, name).str(nodeOpType, op)
	for _, a := range attrs {
		n = n.sub(nodeAttribute, a)
	}
	b.nodes = append(b.nodes, n)
	return out
}

// conv adds a convolution whose batch norm (name/bn/...) is folded into
// its kernel and bias, followed by the residual res (if not empty) and a
// ReLU, and returns its output.
func (b *builder) conv(w *nn.Weights, name, x string, k int, res string) string {
	kw, bias := fold(w, name)
	out := len(bias)
	in := len(kw) / (out * k * k)
	node := "/" + name
	y := b.node("Conv", node+"/conv", "", []string{x,
		b.init(node+"/w", []int64{int64(out), int64(in), int64(k), int64(k)}, kw),
		b.init(node+"/b", []int64{int64(out)}, bias)},
		intsAttr("kernel_shape", int64(k), int64(k)), intsAttr("pads", pad(k)...))
	if res != "" {
		y = b.node("Add", node+"/add", "", []string{y, res})
	}
	return b.node("Relu", node+"/relu", "", []string{y})
}

// pad is the padding that keeps a k×k convolution's output the size of
// its input.
func pad(k int) []int64 {
	p := int64(k / 2)
	return []int64{p, p, p, p}
}

// dense adds the layer name/w (in × out), name/b as a Gemm on x
// (batch × in), with a ReLU if relu, and returns its output.
func (b *builder) dense(w *nn.Weights, name, x string, relu bool, out string) string {
	kw, bias := w.Get(name+"/w"), w.Get(name+"/b")
	node := "/" + name
	if relu {
		out = ""
	}
	y := b.node("Gemm", node+"/gemm", out, []string{x,
		b.init(node+"/w", []int64{int64(len(kw) / len(bias)), int64(len(bias))}, kw),
		b.init(node+"/b", []int64{int64(len(bias))}, bias)})
	if relu {
		y = b.node("Relu", node+"/relu", "", []string{y})
	}
	return y
}

// fold returns the kernel and bias of the convolution name with its batch
// norm folded in, computed as nn.Inference computes them.
func fold(w *nn.Weights, name string) (kernel, bias []float32) {
	k := w.Get(name + "/conv")
	scale, shift := w.Get(name+"/bn/scale"), w.Get(name+"/bn/bias")
	mean, variance := w.Get(name+"/bn/mean"), w.Get(name+"/bn/var")
	out := len(scale)
	per := len(k) / out
	kernel, bias = make([]float32, len(k)), make([]float32, out)
	for o := 0; o < out; o++ {
		a := float64(scale[o]) / math.Sqrt(float64(variance[o])+nn.BNEpsilon)
		for i := 0; i < per; i++ {
			kernel[o*per+i] = float32(float64(k[o*per+i]) * a)
		}
		bias[o] = float32(float64(shift[o]) - float64(mean[o])*a)
	}
	return kernel, bias
}

// graphOf encodes the GraphProto of w.
func graphOf(w *nn.Weights) msg {
	c := w.Config
	b := &builder{}
	x := b.conv(w, "stem", InputPlanes, 3, "")
	for i := 0; i < c.Blocks; i++ {
		y := b.conv(w, fmt.Sprintf("block%d/1", i), x, 3, "")
		x = b.conv(w, fmt.Sprintf("block%d/2", i), y, 3, x)
	}

	hw := c.Shape.Height * c.Shape.Width
	if c.PolicyPlanes > 0 {
		p := b.conv(w, "policy", x, 3, "")
		k := policyKernel(c)
		kw, bias := w.Get("policy/out/conv"), w.Get("policy/out/b")
		p = b.node("Conv", "/policy/out/conv", "", []string{p,
			b.init("/policy/out/w", []int64{int64(c.PolicyPlanes), int64(c.PolicyChannels), int64(k), int64(k)}, kw),
			b.init("/policy/out/b", []int64{int64(c.PolicyPlanes)}, bias)},
			intsAttr("kernel_shape", int64(k), int64(k)), intsAttr("pads", pad(k)...))
		// Output plane k at square s is cell s·PolicyPlanes + k of the
		// action encoding, element k·hw + s of the flattened planes.
		p = b.node("Flatten", "/policy/flatten", "", []string{p}, intAttr("axis", 1))
		cells := make([]int64, c.Actions)
		for a := range cells {
			cell := int64(a)
			if c.PolicyCells != nil {
				cell = int64(c.PolicyCells[a])
			}
			plane, square := cell%int64(c.PolicyPlanes), cell/int64(c.PolicyPlanes)
			cells[a] = plane*int64(hw) + square
		}
		b.inits = append(b.inits, int64Tensor("/policy/cells", []int64{int64(c.Actions)}, cells))
		b.node("Gather", "/policy/gather", OutputPolicy, []string{p, "/policy/cells"}, intAttr("axis", 1))
	} else {
		p := b.conv(w, "policy", x, 1, "")
		p = b.node("Flatten", "/policy/flatten", "", []string{p}, intAttr("axis", 1))
		b.dense(w, "policy/fc", p, false, OutputPolicy)
	}

	v := b.conv(w, "value", x, 1, "")
	v = b.node("Flatten", "/value/flatten", "", []string{v}, intAttr("axis", 1))
	hidden := b.dense(w, "value/fc1", v, true, "")
	wdl := b.dense(w, "value/fc2", hidden, false, "")
	b.inits = append(b.inits, int64Tensor("/value/shape", []int64{3}, []int64{-1, int64(c.Seats), 3}))
	wdl = b.node("Reshape", "/value/reshape", "", []string{wdl, "/value/shape"})
	b.node("Softmax", "/value/softmax", OutputWDL, []string{wdl}, intAttr("axis", -1))

	score := b.dense(w, "score/fc", hidden, false, "")
	b.node("Mul", "/score/scale", OutputScore, []string{score, b.init("/score/scale/factor", nil, []float32{c.ScoreScale})})

	g := msg(nil).str(graphName, "trench")
	for _, n := range b.nodes {
		g = g.sub(graphNode, n)
	}
	for _, t := range b.inits {
		g = g.sub(graphInitializer, t)
	}
	g = g.sub(graphInput, valueInfo(InputPlanes, int64(c.Shape.Planes), int64(c.Shape.Height), int64(c.Shape.Width)))
	g = g.sub(graphOutput, valueInfo(OutputPolicy, int64(c.Actions)))
	g = g.sub(graphOutput, valueInfo(OutputWDL, int64(c.Seats), 3))
	return g.sub(graphOutput, valueInfo(OutputScore, int64(c.Seats)))
}

// policyKernel is the size of a spatial policy head's output convolution
// (nn.Config.PolicyKernel, where 0 means 3).
func policyKernel(c nn.Config) int {
	if c.PolicyKernel == 0 {
		return 3
	}
	return c.PolicyKernel
}
