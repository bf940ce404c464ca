package onnx

import (
	"errors"
	"fmt"
	"strconv"

	"trench/nnue"
)

// Names of the NNUE model's input and outputs.
const (
	// InputFeatures is batch × P × F, P the net's perspectives and F its
	// feature set's inputs (nnue.FeatureSet): each position's features
	// as 0 or 1, row 0 seen from the side to move's perspective, then
	// from each player after it in the order of play (Trench: the other
	// player; nnue.Features and nnue.TrichessFeatures of each perspective).
	InputFeatures = "/input/features"
	// OutputLogit is batch × 1: the net's output y for the side to move,
	// what nnue.Net.Evaluate returns (Trench; σ(y) the side to move's
	// chance of winning) or the mover's of nnue.Net.TrichessValues.
	OutputLogit = "/output/logit"
	// OutputCentipoints is batch × 1: y·nnue.EvalScale, the search's
	// evaluation before it is rounded and clamped (nnue.Centipoints).
	OutputCentipoints = "/output/centipoints"
)

// NNUESource says where an NNUE came from, for the model's
// metadata_props.
type NNUESource struct {
	// File names the net file or the built-in net.
	File string
	// SHA256 is the hex SHA-256 of the net's file image.
	SHA256 string
}

// NNUEMetadata returns the metadata_props of the model of n from src, in
// the order EncodeNNUE writes them.
func NNUEMetadata(n *nnue.Net, src NNUESource) [][2]string {
	fs := n.FeatureSet()
	shape := fmt.Sprintf("nnue %d→%d×%d→1 screlu", fs.Inputs, n.Hidden, fs.Perspectives)
	if n.PSQT != nil {
		shape += ", with the linear path"
	}
	return [][2]string{
		{"game", fs.Game},
		{"net", shape},
		{"feature_set", strconv.Itoa(int(fs.ID))},
		{"feature_shape", fmt.Sprintf("%dx%d", fs.Perspectives, fs.Inputs)},
		{"feature_doc", "the NNUE's features of docs/onnx.md: row 0 the side to move's, then each player's after it in the order of play"},
		{"hidden", strconv.Itoa(n.Hidden)},
		{"eval_scale", strconv.Itoa(nnue.EvalScale)},
		{"checkpoint", src.File},
		{"checkpoint_sha256", src.SHA256},
	}
}

// EncodeNNUE returns the ONNX model of n, with src in its metadata: the
// feature transformer as a MatMul of the dense features, its bias,
// SCReLU (Clip then Mul), the perspectives' activations flattened
// side to move first, and the output layer as a Gemm. It fails only for
// a net this build cannot evaluate (nnue.Net.Check).
func EncodeNNUE(n *nnue.Net, src NNUESource) ([]byte, error) {
	if n == nil {
		return nil, errors.New("onnx: no nnue net")
	}
	if err := n.Check(); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	model := msg(nil).varint(modelIRVersion, IRVersion).
		str(modelProducerName, Producer).
		str(modelDocString, fmt.Sprintf("logit and centipoints of a %s NNUE with %d hidden units per perspective; see docs/onnx.md", n.FeatureSet().Game, n.Hidden)).
		sub(modelGraph, nnueGraph(n)).
		sub(modelOpsetImport, msg(nil).str(opsetDomain, "").varint(opsetVersion, Opset))
	for _, kv := range NNUEMetadata(n, src) {
		model = model.sub(modelMetadataProps, msg(nil).str(entryKey, kv[0]).str(entryValue, kv[1]))
	}
	return model, nil
}

// nnueGraph encodes the GraphProto of n, computing the side to move's
// value as nnue.Net.Evaluate (Trench) and nnue.Net.TrichessValues
// compute it: y = OutBias + Σ_k Σ screlu(acc_k)·Out[kH:(k+1)H] (+ the
// PSQT weights of the side to move's features, with the linear path),
// each accumulator acc_k FTBias plus the FT rows of perspective k's
// active features.
func nnueGraph(n *nnue.Net) msg {
	fs := n.FeatureSet()
	h, inputs, views := int64(n.Hidden), int64(fs.Inputs), int64(fs.Perspectives)
	b := &builder{}
	acc := b.node("MatMul", "/ft/matmul", "", []string{InputFeatures,
		b.init("/ft/w", []int64{inputs, h}, n.FT)})
	acc = b.node("Add", "/ft/add", "", []string{acc, b.init("/ft/b", []int64{h}, n.FTBias)})
	clipped := b.node("Clip", "/screlu/clip", "", []string{acc,
		b.init("/screlu/min", nil, []float32{0}), b.init("/screlu/max", nil, []float32{1})})
	act := b.node("Mul", "/screlu/square", "", []string{clipped, clipped})
	act = b.node("Flatten", "/out/flatten", "", []string{act}, intAttr("axis", 1))
	name := OutputLogit
	if n.PSQT != nil {
		name = ""
	}
	logit := b.node("Gemm", "/out/gemm", name, []string{act,
		b.init("/out/w", []int64{views * h, 1}, n.Out),
		b.init("/out/b", []int64{1}, []float32{n.OutBias})})
	if n.PSQT != nil {
		// The linear path reads the side to move's features alone: a
		// MatMul of every row flattened, the other rows' weights 0.
		flat := b.node("Flatten", "/psqt/flatten", "", []string{InputFeatures}, intAttr("axis", 1))
		w := append(append([]float32(nil), n.PSQT...), make([]float32, (views-1)*inputs)...)
		lin := b.node("MatMul", "/psqt/matmul", "", []string{flat,
			b.init("/psqt/w", []int64{views * inputs, 1}, w)})
		logit = b.node("Add", "/out/add_psqt", OutputLogit, []string{logit, lin})
	}
	b.node("Mul", "/out/scale", OutputCentipoints, []string{logit,
		b.init("/out/scale/factor", nil, []float32{nnue.EvalScale})})

	g := msg(nil).str(graphName, fs.Game+"-nnue")
	for _, node := range b.nodes {
		g = g.sub(graphNode, node)
	}
	for _, t := range b.inits {
		g = g.sub(graphInitializer, t)
	}
	g = g.sub(graphInput, valueInfo(InputFeatures, views, inputs))
	g = g.sub(graphOutput, valueInfo(OutputLogit, 1))
	return g.sub(graphOutput, valueInfo(OutputCentipoints, 1))
}
