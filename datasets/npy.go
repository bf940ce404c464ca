package datasets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// array is one numpy array: its dtype, shape and raw little-endian data.
type array struct {
	dtype string // numpy descr: "<f4", "<i4", "<i8", "|u1", or "|S<n>"
	shape []int
	data  []byte
}

var dtypeSize = map[string]int{"<f4": 4, "<i4": 4, "<i8": 8, "|u1": 1}

// itemSize is the byte size of one element of a dtype, including numpy's
// fixed-width byte strings "|S<n>".
func itemSize(dtype string) (int, bool) {
	if n, ok := dtypeSize[dtype]; ok {
		return n, true
	}
	if strings.HasPrefix(dtype, "|S") {
		n, err := strconv.Atoi(dtype[2:])
		return n, err == nil && n > 0 && n <= 1<<16 && dtype[2] != '0'
	}
	return 0, false
}

// encodeNPY writes an array in the .npy format, version 1.0.
func encodeNPY(a array) []byte {
	dims := make([]string, len(a.shape))
	for i, d := range a.shape {
		dims[i] = strconv.Itoa(d)
	}
	shape := strings.Join(dims, ", ")
	if len(a.shape) == 1 {
		shape += ","
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", a.dtype, shape)
	// Pad with spaces and a newline so that the data starts on a 64-byte
	// boundary, as numpy does.
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	b.Write(a.data)
	return b.Bytes()
}

var npyHeader = regexp.MustCompile(`^\{'descr': '([<|][a-zA-Z][0-9]{1,5})', 'fortran_order': False, 'shape': \(([0-9, ]*)\), \} *\n$`)

// maxElements bounds an array's size, so that a corrupt header cannot ask
// for an absurd allocation.
const maxElements = 1 << 31

// decodeNPY reads an array written by encodeNPY.
func decodeNPY(raw []byte) (array, error) {
	if len(raw) < 10 || string(raw[:6]) != "\x93NUMPY" {
		return array{}, errors.New("not a .npy array (bad magic)")
	}
	if raw[6] != 1 || raw[7] != 0 {
		return array{}, fmt.Errorf("unsupported .npy version %d.%d, want 1.0", raw[6], raw[7])
	}
	n := int(binary.LittleEndian.Uint16(raw[8:10]))
	if len(raw) < 10+n {
		return array{}, errors.New(".npy header is truncated")
	}
	m := npyHeader.FindStringSubmatch(string(raw[10 : 10+n]))
	if m == nil {
		return array{}, fmt.Errorf("unsupported .npy header %q", raw[10:10+n])
	}
	a := array{dtype: m[1]}
	size, ok := itemSize(a.dtype)
	if !ok {
		return array{}, fmt.Errorf("unsupported dtype %q", a.dtype)
	}
	count := 1
	for _, f := range strings.Split(m[2], ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 || d > maxElements {
			return array{}, fmt.Errorf("bad dimension %q in .npy shape", f)
		}
		a.shape = append(a.shape, d)
		count *= d
		if count > maxElements || count*size > maxElements {
			return array{}, errors.New(".npy array is too large")
		}
	}
	if len(a.shape) == 0 {
		return array{}, errors.New(".npy array has no shape")
	}
	a.data = raw[10+n:]
	if len(a.data) != count*size {
		return array{}, fmt.Errorf(".npy data has %d bytes, want %d for shape %v", len(a.data), count*size, a.shape)
	}
	return a, nil
}

func float32Array(v []float32, shape ...int) array {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return array{"<f4", shape, b}
}

func int32Array(v []int32, shape ...int) array {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return array{"<i4", shape, b}
}

func int64Array(v []int64, shape ...int) array {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return array{"<i8", shape, b}
}

func uint8Array(v []uint8, shape ...int) array {
	return array{"|u1", shape, append([]byte(nil), v...)}
}

// check verifies an array's dtype and shape; -1 in want matches any size.
func (a array) check(name, dtype string, want ...int) error {
	if a.dtype != dtype {
		return fmt.Errorf("array %s: dtype %s, want %s", name, a.dtype, dtype)
	}
	if len(a.shape) != len(want) {
		return fmt.Errorf("array %s: shape %v, want %d dimensions", name, a.shape, len(want))
	}
	for i, w := range want {
		if w >= 0 && a.shape[i] != w {
			return fmt.Errorf("array %s: shape %v, want %v", name, a.shape, want)
		}
	}
	return nil
}

func (a array) float32s() []float32 {
	v := make([]float32, len(a.data)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(a.data[4*i:]))
	}
	return v
}

func (a array) int32s() []int32 {
	v := make([]int32, len(a.data)/4)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(a.data[4*i:]))
	}
	return v
}

func (a array) int64s() []int64 {
	v := make([]int64, len(a.data)/8)
	for i := range v {
		v[i] = int64(binary.LittleEndian.Uint64(a.data[8*i:]))
	}
	return v
}
