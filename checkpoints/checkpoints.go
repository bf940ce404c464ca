// Package checkpoints stores nets on disk: one file per checkpoint, holding
// metadata, an opaque architecture description and named float32 tensors.
// It knows nothing of training or search; package nn converts its weights
// to and from a Checkpoint.
//
// # File layout
//
// All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "TRNCHNET"
//	8       4     format version (uint32, currently 1)
//	12      8     body length L (uint64)
//	20      L     body
//	20+L    4     CRC-32C (Castagnoli) of bytes [0, 20+L)
//
// The body is:
//
//	u64 step, u64 games, u64 positions, i64 creation time (Unix ns)
//	str parent           (str = u32 length + UTF-8 bytes)
//	str config           (the net's architecture, JSON written by nn)
//	u32 tensor count, then tensors
//	u32 optimizer tensor count, then tensors
//
// and a tensor is: str name, u32 rank, rank × u32 dims, then the product of
// dims float32 values (IEEE 754 bits). Nothing may follow the checksum.
//
// Loading reports each kind of damage with its own sentinel error, usable
// with errors.Is, wrapped in a message naming the file and the offset:
// ErrMagic, ErrVersion, ErrTruncated, ErrChecksum, ErrCorrupt, and ErrShape
// (used by callers that find tensors of the wrong shape).
package checkpoints

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"time"

	"trench/internal/atomicfile"
)

// Magic opens every checkpoint file.
const Magic = "TRNCHNET"

// Version is the format version this package writes and reads.
const Version = 1

// headerSize is the size of the magic, version and body length.
const headerSize = 20

// Sentinel errors for damaged or unsuitable files.
var (
	// ErrMagic: the file does not start with Magic.
	ErrMagic = errors.New("not a checkpoint file")
	// ErrVersion: the file's format version is not Version.
	ErrVersion = errors.New("unsupported checkpoint version")
	// ErrTruncated: the file ends before its declared length.
	ErrTruncated = errors.New("truncated checkpoint")
	// ErrChecksum: the stored CRC-32C does not match the contents.
	ErrChecksum = errors.New("checkpoint checksum mismatch")
	// ErrCorrupt: the checksum matches but the body is malformed.
	ErrCorrupt = errors.New("malformed checkpoint")
	// ErrShape: a tensor's shape is not what the architecture or the
	// caller expects.
	ErrShape = errors.New("checkpoint shape mismatch")
	// ErrNone: a run directory holds no checkpoint.
	ErrNone = errors.New("no checkpoint")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Tensor is one named array of float32 values in row-major order.
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
}

// Checkpoint is the content of one checkpoint file.
type Checkpoint struct {
	// Step is the number of optimizer steps taken.
	Step uint64
	// Games and Positions are how many self-play games and training
	// positions the net has seen.
	Games, Positions uint64
	// Created is when the checkpoint was made.
	Created time.Time
	// Parent is the name of the checkpoint training started from, or "".
	Parent string
	// Config is the architecture, opaque to this package.
	Config []byte
	// Tensors are the weights and normalization statistics.
	Tensors []Tensor
	// Optimizer holds optimizer state (momentum buffers) so a resumed run
	// continues exactly; it may be empty.
	Optimizer []Tensor
	// Path is the file the checkpoint was loaded from; it is not stored.
	Path string
}

// Name is what errors and listings call c: the file it was loaded from,
// or "the checkpoint of step N" for one that did not come from a file.
func (c *Checkpoint) Name() string {
	if c.Path == "" {
		return fmt.Sprintf("the checkpoint of step %d", c.Step)
	}
	return c.Path
}

// Find returns the tensor of that name in ts, or nil.
func Find(ts []Tensor, name string) *Tensor {
	for i := range ts {
		if ts[i].Name == name {
			return &ts[i]
		}
	}
	return nil
}

// Encode returns the file image of c.
func (c *Checkpoint) Encode() ([]byte, error) {
	w := writer{buf: make([]byte, headerSize, headerSize+c.size())}
	copy(w.buf, Magic)
	binary.LittleEndian.PutUint32(w.buf[8:], Version)
	w.u64(c.Step)
	w.u64(c.Games)
	w.u64(c.Positions)
	w.u64(uint64(c.Created.UnixNano()))
	w.str(c.Parent)
	w.str(string(c.Config))
	for _, list := range [][]Tensor{c.Tensors, c.Optimizer} {
		w.u32(uint32(len(list)))
		for _, t := range list {
			n := 1
			for _, d := range t.Shape {
				if d < 0 || d > math.MaxUint32 {
					return nil, fmt.Errorf("checkpoint tensor %q: bad dimension %d", t.Name, d)
				}
				n *= d
			}
			if n != len(t.Data) {
				return nil, fmt.Errorf("checkpoint tensor %q: shape %v holds %d values, data has %d: %w", t.Name, t.Shape, n, len(t.Data), ErrShape)
			}
			w.str(t.Name)
			w.u32(uint32(len(t.Shape)))
			for _, d := range t.Shape {
				w.u32(uint32(d))
			}
			for _, v := range t.Data {
				w.u32(math.Float32bits(v))
			}
		}
	}
	binary.LittleEndian.PutUint64(w.buf[12:], uint64(len(w.buf)-headerSize))
	w.u32(crcOf(w.buf))
	return w.buf, nil
}

func (c *Checkpoint) size() int {
	n := 64 + len(c.Parent) + len(c.Config)
	for _, list := range [][]Tensor{c.Tensors, c.Optimizer} {
		for _, t := range list {
			n += 8 + len(t.Name) + 4*len(t.Shape) + 4*len(t.Data)
		}
	}
	return n
}

type writer struct{ buf []byte }

func (w *writer) u32(v uint32) { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }
func (w *writer) u64(v uint64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }
func (w *writer) str(s string) { w.u32(uint32(len(s))); w.buf = append(w.buf, s...) }

// Decode parses a file image. name labels errors (usually the path).
func Decode(data []byte, name string) (*Checkpoint, error) {
	fail := func(off int, sentinel error, format string, args ...any) error {
		return fmt.Errorf("%s: offset %d: %w: %s", name, off, sentinel, fmt.Sprintf(format, args...))
	}
	if len(data) < 8 || string(data[:8]) != Magic {
		if len(data) < 8 && string(data) == Magic[:len(data)] {
			return nil, fail(len(data), ErrTruncated, "file has %d bytes, shorter than the header", len(data))
		}
		return nil, fail(0, ErrMagic, "want magic %q", Magic)
	}
	if len(data) < 12 {
		return nil, fail(len(data), ErrTruncated, "file has %d bytes, shorter than the header", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != Version {
		return nil, fail(8, ErrVersion, "version %d, this program reads version %d", v, Version)
	}
	if len(data) < headerSize {
		return nil, fail(len(data), ErrTruncated, "file has %d bytes, shorter than the header", len(data))
	}
	bodyLen := binary.LittleEndian.Uint64(data[12:])
	avail := uint64(len(data) - headerSize)
	if bodyLen > avail || avail-bodyLen < 4 {
		return nil, fail(len(data), ErrTruncated, "header declares %d body bytes + 4 checksum bytes, file has %d after the header", bodyLen, avail)
	}
	end := headerSize + int(bodyLen)
	if extra := len(data) - end - 4; extra > 0 {
		return nil, fail(end+4, ErrCorrupt, "%d unexpected bytes after the checksum", extra)
	}
	if got, want := crcOf(data[:end]), binary.LittleEndian.Uint32(data[end:]); got != want {
		return nil, fail(end, ErrChecksum, "stored CRC-32C %08x, contents give %08x", want, got)
	}
	r := reader{data: data[:end], off: headerSize}
	c := &Checkpoint{Path: name}
	c.Step = r.u64()
	c.Games = r.u64()
	c.Positions = r.u64()
	c.Created = time.Unix(0, int64(r.u64()))
	c.Parent = r.str()
	c.Config = []byte(r.str())
	for _, list := range []*[]Tensor{&c.Tensors, &c.Optimizer} {
		count := int(r.u32())
		for i := 0; i < count && r.err == ""; i++ {
			var t Tensor
			t.Name = r.str()
			rank := int(r.u32())
			if rank > 8 {
				r.fail("tensor %q has rank %d", t.Name, rank)
				break
			}
			n := 1
			for j := 0; j < rank; j++ {
				d := int(r.u32())
				t.Shape = append(t.Shape, d)
				if d != 0 && n > (len(r.data)-r.off)/d {
					r.fail("tensor %q shape %v is larger than the file", t.Name, t.Shape)
				}
				n *= d
			}
			if r.err != "" {
				break
			}
			raw := r.bytes(4 * n)
			if raw == nil && n > 0 {
				break
			}
			t.Data = make([]float32, n)
			for j := range t.Data {
				t.Data[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
			}
			*list = append(*list, t)
		}
	}
	if r.err == "" && r.off != end {
		r.fail("%d unread body bytes", end-r.off)
	}
	if r.err != "" {
		return nil, fail(r.errOff, ErrCorrupt, "%s", r.err)
	}
	return c, nil
}

// reader parses the body; the first failure sticks and later reads return
// zero values.
type reader struct {
	data   []byte
	off    int
	err    string
	errOff int
}

func (r *reader) fail(format string, args ...any) {
	if r.err == "" {
		r.err, r.errOff = fmt.Sprintf(format, args...), r.off
	}
}

func (r *reader) bytes(n int) []byte {
	if r.err != "" {
		return nil
	}
	if n < 0 || n > len(r.data)-r.off {
		r.fail("a field of %d bytes runs past the body's end at %d", n, len(r.data))
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *reader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) str() string { return string(r.bytes(int(r.u32()))) }

// Load reads and verifies the checkpoint file at path.
func Load(path string) (*Checkpoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data, path)
}

// Save writes c to path atomically (internal/atomicfile): a crash
// leaves either the old file or the new one.
func (c *Checkpoint) Save(path string) error {
	data, err := c.Encode()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, data)
}

func crcOf(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
