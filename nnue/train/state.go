package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"

	"trench/internal/atomicfile"
	"trench/nnue"
)

// The trainer's state file, so that training stopped at any step goes on
// exactly as if it had not stopped. All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "TRNNUEST"
//	8       4     format version (uint32, StateVersion)
//	12      4     hidden units H (uint32)
//	16      8     steps taken (uint64)
//	24      8     the seed (uint64)
//	32      4     the feature set's ID (uint32, nnue.FeatureSet)
//	36      4     flags (uint32): bit 0, the net has the linear path
//	40      20    the shuffling generator's state (math/rand/v2 PCG's
//	              MarshalBinary)
//	60      4·3n  the parameters, then Adam's first and second moments,
//	              n = I·H + H + P·H + 1 (+ I with the linear path)
//	              float32 each (IEEE 754 bits) for the set's I inputs
//	              and P perspectives, in the order FT, FTBias, Out,
//	              OutBias, PSQT
//	end     4     CRC-32C (Castagnoli) of every byte before it
//
// Version 2 had no flags (no linear path): its generator's state starts
// at 36. Version 1, Trench's alone, had no feature set's ID either: its
// generator's state starts at 32. RestoreState reads both.
const (
	// StateMagic opens every trainer state file.
	StateMagic = "TRNNUEST"
	// StateVersion is the state format this package writes and reads.
	StateVersion   = 3
	stateHeader    = 40
	stateHeaderV2  = 36
	stateHeaderV1  = 32
	flagLinear     = 1
	pcgStateSize   = 20
	stateChecksum  = 4
	maxStateHidden = 1 << 16
)

// ErrState is wrapped by the errors of RestoreState and LoadState.
var ErrState = errors.New("bad trainer state")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MarshalState returns the trainer's whole state: its weights, Adam's
// moments, the step count and the shuffling generator.
func (t *Trainer) MarshalState() ([]byte, error) {
	rng, err := t.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if len(rng) != pcgStateSize {
		return nil, fmt.Errorf("the generator's state takes %d bytes, want %d", len(rng), pcgStateSize)
	}
	_, _, _, _, total := layout(t.set, t.hidden, t.linear)
	flags := uint32(0)
	if t.linear {
		flags |= flagLinear
	}
	buf := make([]byte, 0, stateHeader+pcgStateSize+12*total+stateChecksum)
	buf = append(buf, StateMagic...)
	buf = binary.LittleEndian.AppendUint32(buf, StateVersion)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(t.hidden))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(t.steps))
	buf = binary.LittleEndian.AppendUint64(buf, t.seed)
	buf = binary.LittleEndian.AppendUint32(buf, t.set.ID)
	buf = binary.LittleEndian.AppendUint32(buf, flags)
	buf = append(buf, rng...)
	for _, s := range [][]float32{t.params, t.m[:total], t.v[:total]} {
		for _, x := range s {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli)), nil
}

// RestoreState returns a trainer with cfg in the state MarshalState
// wrote, which must be of a net of set; name names the data in errors,
// which wrap ErrState.
func RestoreState(cfg Config, set *nnue.FeatureSet, state []byte, name string) (*Trainer, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %w: %s", name, ErrState, fmt.Sprintf(format, args...))
	}
	if len(state) < stateHeader+pcgStateSize+stateChecksum || string(state[:len(StateMagic)]) != StateMagic {
		return nil, fail("not a trainer state file (%d bytes)", len(state))
	}
	header, id, flags := stateHeader, binary.LittleEndian.Uint32(state[32:]), binary.LittleEndian.Uint32(state[36:])
	switch v := binary.LittleEndian.Uint32(state[8:]); v {
	case StateVersion:
	case 2:
		header, flags = stateHeaderV2, 0
	case 1:
		header, id, flags = stateHeaderV1, nnue.Trench.ID, 0
	default:
		return nil, fail("format version %d, this program reads 1 to %d", v, StateVersion)
	}
	if flags&^flagLinear != 0 {
		return nil, fail("unknown flags %#x", flags)
	}
	linear := flags&flagLinear != 0
	h := int(binary.LittleEndian.Uint32(state[12:]))
	if h < 1 || h > maxStateHidden {
		return nil, fail("%d hidden units", h)
	}
	if id != set.ID {
		return nil, fail("the state of a net of feature set %d, not of %v", id, set)
	}
	ftBias, out, outBias, psqt, total := layout(set, h, linear)
	if want := header + pcgStateSize + 12*total + stateChecksum; len(state) != want {
		return nil, fail("%d bytes, want %d for %d hidden units", len(state), want, h)
	}
	end := len(state) - stateChecksum
	if got, want := crc32.Checksum(state[:end], castagnoli), binary.LittleEndian.Uint32(state[end:]); got != want {
		return nil, fail("checksum %08x, stored %08x", got, want)
	}
	steps := binary.LittleEndian.Uint64(state[16:])
	if steps > math.MaxInt32 {
		return nil, fail("%d steps", steps)
	}
	seed := binary.LittleEndian.Uint64(state[24:])
	var pcg rand.PCG
	if err := pcg.UnmarshalBinary(state[header : header+pcgStateSize]); err != nil {
		return nil, fail("generator state: %v", err)
	}
	floats := state[header+pcgStateSize : end]
	read := func(part int) []float32 {
		out := make([]float32, total)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(floats[4*(part*total+i):]))
		}
		return out
	}
	params := read(0)
	w := &nnue.Net{Set: set, Hidden: h, FT: params[:ftBias], FTBias: params[ftBias:out], Out: params[out:outBias], OutBias: params[outBias]}
	if linear {
		w.PSQT = params[psqt:]
	}
	t, err := FromNet(cfg, w, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m, v := read(1), read(2)
	for i := range total {
		if !finite(m[i]) || !finite(v[i]) || v[i] < 0 {
			return nil, fail("Adam's moments at %d are %v and %v", i, m[i], v[i])
		}
	}
	copy(t.m, m)
	copy(t.v, v)
	*t.pcg = pcg
	t.steps = int(steps)
	return t, nil
}

func finite(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

// SaveState writes the trainer's state to file atomically.
func (t *Trainer) SaveState(file string) error {
	data, err := t.MarshalState()
	if err != nil {
		return err
	}
	return atomicfile.Write(file, data)
}

// LoadState reads a state file SaveState wrote and returns the trainer
// it holds, with cfg; it must be of a net of set.
func LoadState(cfg Config, set *nnue.FeatureSet, file string) (*Trainer, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return RestoreState(cfg, set, data, file)
}
