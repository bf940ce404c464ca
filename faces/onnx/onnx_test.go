package onnx

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"trench/checkpoints"
	"trench/nn"
)

// fields is a decoded protobuf message: each field's values in order,
// varints as uint64 and length-delimited fields as []byte.
type fields map[protowire.Number][]any

// parse decodes one message level of b, failing on anything but varint
// and length-delimited fields, which are all Encode writes.
func parse(t *testing.T, b []byte) fields {
	t.Helper()
	f := fields{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatalf("field %d: %v", num, protowire.ParseError(n))
			}
			f[num], b = append(f[num], v), b[n:]
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				t.Fatalf("field %d: %v", num, protowire.ParseError(n))
			}
			f[num], b = append(f[num], v), b[n:]
		default:
			t.Fatalf("field %d has wire type %d", num, typ)
		}
	}
	return f
}

func (f fields) str(num protowire.Number) string {
	if len(f[num]) == 0 {
		return ""
	}
	return string(f[num][0].([]byte))
}

func (f fields) strs(num protowire.Number) []string {
	var out []string
	for _, v := range f[num] {
		out = append(out, string(v.([]byte)))
	}
	return out
}

func (f fields) int(num protowire.Number) int64 {
	if len(f[num]) == 0 {
		return 0
	}
	return int64(f[num][0].(uint64))
}

// ints decodes a packed repeated int64 field.
func (f fields) ints(t *testing.T, num protowire.Number) []int64 {
	var out []int64
	for _, v := range f[num] {
		b := v.([]byte)
		for len(b) > 0 {
			x, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatalf("packed field %d: %v", num, protowire.ParseError(n))
			}
			out, b = append(out, int64(x)), b[n:]
		}
	}
	return out
}

func (f fields) subs(t *testing.T, num protowire.Number) []fields {
	var out []fields
	for _, v := range f[num] {
		out = append(out, parse(t, v.([]byte)))
	}
	return out
}

// shapeOf reads a ValueInfoProto's name and dimensions, the symbolic ones
// by name.
func shapeOf(t *testing.T, vi fields) (string, []string) {
	tensor := vi.subs(t, valueInfoType)[0].subs(t, typeTensor)[0]
	if got := tensor.int(tensorElemType); got != dataTypeFloat {
		t.Errorf("%s has element type %d, want float", vi.str(valueInfoName), got)
	}
	var dims []string
	for _, d := range tensor.subs(t, tensorShape)[0].subs(t, shapeDim) {
		if p := d.str(dimParam); p != "" {
			dims = append(dims, p)
		} else {
			dims = append(dims, strconv.FormatInt(d.int(dimValue), 10))
		}
	}
	return vi.str(valueInfoName), dims
}

// TestEncodeStructure decodes each test net's model and checks its
// header, metadata, inputs and outputs, that every node reads only values
// defined before it, the operators of the residual layout, and that the
// initializers hold the folded weights.
func TestEncodeStructure(t *testing.T) {
	for _, net := range testNets(t) {
		t.Run(net.name, func(t *testing.T) {
			c := net.w.Config
			src := Source{Game: net.game.Name(), Planes: "planes", Checkpoint: "ckpt", Step: 7, SHA256: "00"}
			b, err := Encode(net.w, src)
			if err != nil {
				t.Fatal(err)
			}
			m := parse(t, b)
			if m.int(modelIRVersion) != IRVersion || m.str(modelProducerName) != Producer {
				t.Errorf("IR version %d, producer %q", m.int(modelIRVersion), m.str(modelProducerName))
			}
			if ops := m.subs(t, modelOpsetImport); len(ops) != 1 || ops[0].str(opsetDomain) != "" || ops[0].int(opsetVersion) != Opset {
				t.Errorf("opset imports %v", m[modelOpsetImport])
			}
			var meta [][2]string
			for _, e := range m.subs(t, modelMetadataProps) {
				meta = append(meta, [2]string{e.str(entryKey), e.str(entryValue)})
			}
			if want := Metadata(c, src); !slices.Equal(meta, want) {
				t.Errorf("metadata %v, want %v", meta, want)
			}

			g := m.subs(t, modelGraph)[0]
			ins, outs := g.subs(t, graphInput), g.subs(t, graphOutput)
			if len(ins) != 1 {
				t.Fatalf("%d inputs", len(ins))
			}
			name, dims := shapeOf(t, ins[0])
			if want := []string{BatchDim, strconv.Itoa(c.Shape.Planes), strconv.Itoa(c.Shape.Height), strconv.Itoa(c.Shape.Width)}; name != InputPlanes || !slices.Equal(dims, want) {
				t.Errorf("input %s %v, want %s %v", name, dims, InputPlanes, want)
			}
			wantOuts := map[string][]string{
				OutputPolicy: {BatchDim, strconv.Itoa(c.Actions)},
				OutputWDL:    {BatchDim, strconv.Itoa(c.Seats), "3"},
				OutputScore:  {BatchDim, strconv.Itoa(c.Seats)},
			}
			if len(outs) != len(wantOuts) {
				t.Errorf("%d outputs, want %d", len(outs), len(wantOuts))
			}
			for _, o := range outs {
				name, dims := shapeOf(t, o)
				if !slices.Equal(dims, wantOuts[name]) {
					t.Errorf("output %s %v, want %v", name, dims, wantOuts[name])
				}
			}

			defined := map[string]bool{InputPlanes: true}
			inits := map[string]fields{}
			for _, init := range g.subs(t, graphInitializer) {
				name := init.str(tensorName)
				inits[name], defined[name] = init, true
				size := int64(1)
				for _, d := range init.ints(t, tensorDims) {
					size *= d
				}
				per := map[int64]int64{dataTypeFloat: 4, dataTypeInt64: 8}[init.int(tensorDataType)]
				if raw := init.f(tensorRawData); per == 0 || int64(len(raw)) != size*per {
					t.Errorf("initializer %s: type %d, %d bytes for %d values", name, init.int(tensorDataType), len(raw), size)
				}
			}
			ops := map[string]int{}
			for _, n := range g.subs(t, graphNode) {
				for _, in := range n.strs(nodeInput) {
					if !defined[in] {
						t.Errorf("node %s reads %s before it is defined", n.str(nodeName), in)
					}
				}
				for _, out := range n.strs(nodeOutput) {
					if defined[out] {
						t.Errorf("node %s defines %s again", n.str(nodeName), out)
					}
					defined[out] = true
				}
				ops[n.str(nodeOpType)]++
			}
			for out := range wantOuts {
				if !defined[out] {
					t.Errorf("no node computes %s", out)
				}
			}
			convs, gemms := 1+2*c.Blocks+2, 3
			if c.PolicyPlanes > 0 {
				convs++
			} else {
				gemms++
			}
			if ops["Conv"] != convs || ops["Add"] != c.Blocks || ops["Gemm"] != gemms || ops["Softmax"] != 1 {
				t.Errorf("operators %v: want %d Conv, %d Add, %d Gemm, 1 Softmax", ops, convs, c.Blocks, gemms)
			}

			// The stem's initializers are its kernel and bias with batch
			// norm folded in, value by value.
			k, s := net.w.Get("stem/conv"), net.w.Get("stem/bn/scale")
			mean, variance, shift := net.w.Get("stem/bn/mean"), net.w.Get("stem/bn/var"), net.w.Get("stem/bn/bias")
			kw, bias := floats(inits["/stem/w"].f(tensorRawData)), floats(inits["/stem/b"].f(tensorRawData))
			per := len(k) / len(s)
			for o := range s {
				a := float64(s[o]) / math.Sqrt(float64(variance[o])+nn.BNEpsilon)
				if want := float32(float64(shift[o]) - float64(mean[o])*a); bias[o] != want {
					t.Fatalf("stem bias %d is %v, want %v", o, bias[o], want)
				}
				for i := 0; i < per; i++ {
					if want := float32(float64(k[o*per+i]) * a); kw[o*per+i] != want {
						t.Fatalf("stem kernel %d,%d is %v, want %v", o, i, kw[o*per+i], want)
					}
				}
			}
		})
	}
}

// f returns the bytes of a length-delimited field.
func (f fields) f(num protowire.Number) []byte {
	if len(f[num]) == 0 {
		return nil
	}
	return f[num][0].([]byte)
}

func floats(raw []byte) []float32 {
	out := make([]float32, len(raw)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}

// TestEncodeRefusesBadWeights has Encode return an error, not panic, for
// weights that do not match their config.
func TestEncodeRefusesBadWeights(t *testing.T) {
	net := randomNet(t)
	short := net.w.Clone()
	short.Tensors = short.Tensors[:len(short.Tensors)-1]
	misshapen := net.w.Clone()
	misshapen.Tensors[0].Data = misshapen.Tensors[0].Data[1:]
	for _, tc := range []struct {
		name string
		w    *nn.Weights
	}{
		{"nil", nil},
		{"a tensor short", short},
		{"a tensor misshapen", misshapen},
	} {
		if _, err := Encode(tc.w, Source{}); err == nil {
			t.Errorf("%s: no error", tc.name)
		} else if tc.w != nil && !errors.Is(err, checkpoints.ErrShape) {
			t.Errorf("%s: %v does not wrap checkpoints.ErrShape", tc.name, err)
		}
	}
}
