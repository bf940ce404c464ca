package nnue

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"trench/checkpoints"
	"trench/internal/atomicfile"
)

// File layout. All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "TRNCHNUE"
//	8       4     format version (uint32: 1, or 2 with the linear path)
//	12      4     feature set (uint32, FeatureSet.ID: 1 Trench, 2 Trichess)
//	16      4     inputs (uint32, FeatureSet.Inputs)
//	20      4     hidden size H (uint32)
//	24      4·n   the weights as float32 (IEEE 754 bits): FT (Inputs·H,
//	              row by row), FTBias (H), Out (Perspectives·H), OutBias (1),
//	              and in version 2 PSQT (Inputs)
//	24+4n   4     CRC-32C (Castagnoli) of every byte before it
//
// Nothing may follow the checksum. A net without the linear path is
// written as version 1, so its file is what it was before version 2.
const (
	// Magic opens every net file.
	Magic = checkpoints.NNUEMagic
	// Version is the newest format version this package writes and
	// reads: a net with the linear path (Net.PSQT).
	Version = 2
	// versionPlain is the format of a net without the linear path.
	versionPlain = 1
	headerSize   = 24
)

// Sentinel errors for damaged or unsuitable files, wrapped in messages
// naming the file.
var (
	// ErrMagic: the file does not start with Magic.
	ErrMagic = errors.New("not an nnue net file")
	// ErrVersion: the format version or feature set is not this
	// package's.
	ErrVersion = errors.New("unsupported nnue net format")
	// ErrGame: the file is a net of another game's feature set than the
	// one asked for.
	ErrGame = errors.New("nnue net of another game")
	// ErrSize: the sizes are out of range or the file's length disagrees.
	ErrSize = errors.New("bad nnue net size")
	// ErrChecksum: the checksum does not match.
	ErrChecksum = errors.New("nnue net checksum mismatch")
	// ErrWeights: a weight is not a finite number.
	ErrWeights = errors.New("bad nnue weight")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fileSize is the length of a Trench net's file for hidden size h,
// without the linear path.
func fileSize(h int) int { return Trench.fileSize(h, false) }

// fileSize is the length of a file of the set for hidden size h, with
// the linear path or without.
func (fs *FeatureSet) fileSize(h int, linear bool) int {
	n := fs.Inputs*h + h + fs.Perspectives*h + 1
	if linear {
		n += fs.Inputs
	}
	return headerSize + 4*n + 4
}

// Encode returns the net in the file format above, or an error if its
// sizes disagree or a weight is not finite.
func (n *Net) Encode() ([]byte, error) {
	if err := n.check(); err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	fs := n.set()
	version := versionPlain
	if n.PSQT != nil {
		version = Version
	}
	buf := make([]byte, 0, fs.fileSize(n.Hidden, n.PSQT != nil))
	buf = append(buf, Magic...)
	for _, v := range []int{version, int(fs.ID), fs.Inputs, n.Hidden} {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
	}
	for _, t := range [][]float32{n.FT, n.FTBias, n.Out, {n.OutBias}, n.PSQT} {
		for _, v := range t {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli)), nil
}

// Decode reads a Trench net in the file format above; name names the
// data in errors.
func Decode(data []byte, name string) (*Net, error) { return Trench.Decode(data, name) }

// Decode reads a net of the set in the file format above, refusing a net
// of another set (ErrGame, naming both games); name names the data in
// errors.
func (fs *FeatureSet) Decode(data []byte, name string) (*Net, error) {
	fail := func(sentinel error, format string, args ...any) error {
		return fmt.Errorf("%s: %w: %s", name, sentinel, fmt.Sprintf(format, args...))
	}
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, fail(ErrMagic, "it does not start with %q", Magic)
	}
	if len(data) < headerSize {
		return nil, fail(ErrSize, "%d bytes, shorter than the %d-byte header", len(data), headerSize)
	}
	u32 := func(off int) int { return int(binary.LittleEndian.Uint32(data[off:])) }
	v := u32(8)
	if v != Version && v != versionPlain {
		return nil, fail(ErrVersion, "format version %d, this build reads %d and %d", v, versionPlain, Version)
	}
	linear := v == Version
	if id := uint32(u32(12)); id != fs.ID {
		if other := featureSet(id); other != nil {
			return nil, fail(ErrGame, "a %s net, want a %s net", other, fs)
		}
		return nil, fail(ErrVersion, "feature set %d, this build has %d for %s", id, fs.ID, fs.Game)
	}
	if in := u32(16); in != fs.Inputs {
		return nil, fail(ErrSize, "%d inputs, want %d", in, fs.Inputs)
	}
	h := u32(20)
	if h < MinHidden || h > MaxHidden {
		return nil, fail(ErrSize, "hidden size %d is not in %d..%d", h, MinHidden, MaxHidden)
	}
	if want := fs.fileSize(h, linear); len(data) != want {
		return nil, fail(ErrSize, "%d bytes, want %d for hidden size %d in format version %d", len(data), want, h, v)
	}
	body := data[:len(data)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(body):]); got != want {
		return nil, fail(ErrChecksum, "computed %08x, stored %08x", got, want)
	}
	ft, out := fs.Inputs*h, fs.Perspectives*h
	psqt := 0
	if linear {
		psqt = fs.Inputs
	}
	w := make([]float32, ft+h+out+1+psqt)
	for i := range w {
		w[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[headerSize+4*i:]))
	}
	n := &Net{
		Set:     fs,
		Hidden:  h,
		FT:      w[:ft],
		FTBias:  w[ft : ft+h],
		Out:     w[ft+h : ft+h+out],
		OutBias: w[ft+h+out],
	}
	if linear {
		n.PSQT = w[ft+h+out+1:]
	}
	if err := n.check(); err != nil {
		return nil, fail(ErrWeights, "%v", err)
	}
	return n, nil
}

// Save writes the net to file atomically.
func (n *Net) Save(file string) error {
	data, err := n.Encode()
	if err != nil {
		return err
	}
	if err := atomicfile.Write(file, data); err != nil {
		return fmt.Errorf("nnue: saving %s: %w", file, err)
	}
	return nil
}

// FileSet reads the header of the net file file alone and returns the
// feature set it names (its game), nil for a set this build does not
// know, or an error naming the file when it cannot be read or is not a
// net file.
func FileSet(file string) (*FeatureSet, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	defer f.Close()
	var h [headerSize]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("%s: %w", file, ErrMagic)
	}
	return featureSet(binary.LittleEndian.Uint32(h[12:])), nil
}

// Load reads a Trench net file written by Save.
func Load(file string) (*Net, error) { return Trench.Load(file) }

// Load reads a net file of the set written by Save, refusing a net of
// another set.
func (fs *FeatureSet) Load(file string) (*Net, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	return fs.Decode(data, file)
}
