package onnx

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of the ONNX messages this package writes (onnx.proto3).
const (
	modelIRVersion     = 1
	modelProducerName  = 2
	modelDocString     = 6
	modelGraph         = 7
	modelOpsetImport   = 8
	modelMetadataProps = 14

	opsetDomain  = 1
	opsetVersion = 2

	entryKey   = 1
	entryValue = 2

	graphNode        = 1
	graphName        = 2
	graphInitializer = 5
	graphInput       = 11
	graphOutput      = 12

	nodeInput     = 1
	nodeOutput    = 2
	nodeName      = 3
	nodeOpType    = 4
	nodeAttribute = 5

	attrName = 1
	attrI    = 3
	attrInts = 8
	attrType = 20

	tensorDims     = 1
	tensorDataType = 2
	tensorName     = 8
	tensorRawData  = 9

	valueInfoName = 1
	valueInfoType = 2

	typeTensor       = 1
	tensorElemType   = 1
	tensorShape      = 2
	shapeDim         = 1
	dimValue         = 1
	dimParam         = 2
	attrTypeInt      = 2
	attrTypeInts     = 7
	dataTypeFloat    = 1
	dataTypeInt64    = 7
	wireBytes        = protowire.BytesType
	wireVarint       = protowire.VarintType
	floatBytesPerVal = 4
)

// msg is an encoded protobuf message under construction.
type msg []byte

func (m msg) str(num protowire.Number, s string) msg {
	m = protowire.AppendTag(m, num, wireBytes)
	return protowire.AppendString(m, s)
}

func (m msg) bytes(num protowire.Number, b []byte) msg {
	m = protowire.AppendTag(m, num, wireBytes)
	return protowire.AppendBytes(m, b)
}

func (m msg) sub(num protowire.Number, sub msg) msg { return m.bytes(num, sub) }

func (m msg) varint(num protowire.Number, v int64) msg {
	m = protowire.AppendTag(m, num, wireVarint)
	return protowire.AppendVarint(m, uint64(v))
}

// packed appends a packed repeated int64 field.
func (m msg) packed(num protowire.Number, vs []int64) msg {
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(v))
	}
	return m.bytes(num, p)
}

// floatTensor encodes a float32 TensorProto with its values as raw
// little-endian bytes.
func floatTensor(name string, dims []int64, data []float32) msg {
	raw := make([]byte, 0, floatBytesPerVal*len(data))
	for _, v := range data {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	return msg(nil).packed(tensorDims, dims).varint(tensorDataType, dataTypeFloat).str(tensorName, name).bytes(tensorRawData, raw)
}

// int64Tensor encodes an int64 TensorProto with its values as raw
// little-endian bytes.
func int64Tensor(name string, dims []int64, data []int64) msg {
	raw := make([]byte, 0, 8*len(data))
	for _, v := range data {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
	}
	return msg(nil).packed(tensorDims, dims).varint(tensorDataType, dataTypeInt64).str(tensorName, name).bytes(tensorRawData, raw)
}

// attribute is an encoded AttributeProto.
type attribute = msg

func intsAttr(name string, vs ...int64) attribute {
	return msg(nil).str(attrName, name).varint(attrType, attrTypeInts).packed(attrInts, vs)
}

func intAttr(name string, v int64) attribute {
	return msg(nil).str(attrName, name).varint(attrType, attrTypeInt).varint(attrI, v)
}

// valueInfo encodes a float32 ValueInfoProto whose dimension 0 is the
// symbolic batch size and the others dims.
func valueInfo(name string, dims ...int64) msg {
	shape := msg(nil).sub(shapeDim, msg(nil).str(dimParam, BatchDim))
	for _, d := range dims {
		shape = shape.sub(shapeDim, msg(nil).varint(dimValue, d))
	}
	tensor := msg(nil).varint(tensorElemType, dataTypeFloat).sub(tensorShape, shape)
	return msg(nil).str(valueInfoName, name).sub(valueInfoType, msg(nil).sub(typeTensor, tensor))
}
