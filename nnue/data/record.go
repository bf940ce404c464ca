// Package data stores the positions the NNUE trainer learns from, for
// Trench and Trichess: a record per position (the position, the search's
// scores and the game's result), shard files of records, and a window
// that samples from the newest positions of a directory of shards. A
// game's Codec (Trench, Trichess) holds its record format; the shard
// files and the window serve either through it. Records and
// TrichessRecords are the trainer's batches (train.Batch).
//
// # Trench record
//
// A Trench record takes RecordSize (40) bytes, little-endian:
//
//	0   8   occupied squares, both colours (bit s is square s, a1 = 0)
//	8   16  one 4-bit code per occupied square in square order, low
//	        nibble first: colour·5 + kind (Black 0..4, White 5..9);
//	        nibbles past the last piece are 0
//	24  1   bit 0: side to move (0 Black, 1 White); bits 1-2: the game's
//	        result for the side to move (0 loss, 1 draw, 2 win); the
//	        other bits 0
//	25  1   Black's score
//	26  1   White's score
//	27  1   plies since the last capture
//	28  2   move number
//	30  2   the search's score for the side to move, centipoints (int16)
//	32  8   the game's id
//
// # Trichess record
//
// A Trichess record takes TrichessRecordSize (80) bytes, little-endian:
//
//	0   65  the position (trichess.Position.AppendBinary)
//	65  6   each seat's search lead in centipoints (int16), White, Red,
//	        Black
//	71  1   each seat's final title (trichess.Title, 0..3) in 2 bits,
//	        White in bits 0-1, Red in 2-3, Black in 4-5; bits 6-7 0
//	72  8   the game's id
//
// # Shard
//
// A shard file is a header, the records and a checksum:
//
//	0   8   magic: "TRNNUEPS" for Trench, "TCNNUEPS" for Trichess
//	8   4   format version (uint32, FormatVersion)
//	12  4   record count n (uint32)
//	16  sn  the records, s bytes each (Trench 40, Trichess 80)
//	end 4   CRC-32C (Castagnoli) of everything before it
//
// Shards are written atomically, named so that sorting their names sorts
// them by creation time.
package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"trench/engine/trench"
)

// RecordSize is the size of an encoded record in bytes.
const RecordSize = 40

// MaxScore bounds a record's search score: ClampScore maps the search's
// scores, forced wins and losses included, into ±MaxScore centipoints.
const MaxScore = 32000

// Result is a game's result for one player.
type Result uint8

// The results, numbered as encoded.
const (
	Loss Result = 0
	Draw Result = 1
	Win  Result = 2
)

// Value is the result as a training target: 0 for a loss, 0.5 for a draw,
// 1 for a win.
func (r Result) Value() float32 { return float32(r) / 2 }

// String is "loss", "draw" or "win".
func (r Result) String() string {
	switch r {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return fmt.Sprintf("result(%d)", uint8(r))
}

// Record is one training position.
type Record struct {
	// Position is the position, not over.
	Position trench.Position
	// Score is the search's score for the side to move, in centipoints
	// (100 is one point of the game's score), within ±MaxScore.
	Score int16
	// Result is the game's result for the side to move.
	Result Result
	// GameID identifies the game the position comes from; the window
	// holds out whole games for validation by it.
	GameID uint64
}

// ClampScore converts a search score in centipoints to a record's,
// clamping it into ±MaxScore.
func ClampScore(cp int) int16 {
	return int16(max(-MaxScore, min(MaxScore, cp)))
}

// ErrRecord is wrapped by the errors of DecodeRecord.
var ErrRecord = errors.New("bad record")

// numKinds is the number of piece kinds, Soldier to General.
const numKinds = int(trench.General) + 1

// AppendRecord appends the encoding of r to dst. It does not check r:
// Encode does.
func AppendRecord(dst []byte, r *Record) []byte {
	p := &r.Position
	var b [RecordSize]byte
	occ := p.Occupied(trench.Black) | p.Occupied(trench.White)
	binary.LittleEndian.PutUint64(b[0:], occ)
	i := 0
	for bb := occ; bb != 0; bb &= bb - 1 {
		c, k, _ := p.PieceAt(trench.Square(bits.TrailingZeros64(bb)))
		code := byte(int(c)*numKinds + int(k))
		b[8+i/2] |= code << (4 * (i & 1))
		i++
	}
	b[24] = byte(p.SideToMove()) | byte(r.Result)<<1
	b[25], b[26] = byte(p.Score(trench.Black)), byte(p.Score(trench.White))
	b[27] = byte(p.QuietPlies())
	binary.LittleEndian.PutUint16(b[28:], uint16(p.MoveNumber()))
	binary.LittleEndian.PutUint16(b[30:], uint16(r.Score))
	binary.LittleEndian.PutUint64(b[32:], r.GameID)
	return append(dst, b[:]...)
}

// DecodeRecord decodes one record from the first RecordSize bytes of b,
// checking it: at most 32 pieces, valid piece codes and spare bits, a
// possible position (trench.FromBitboards) that is not over, a result and
// a score in range. The error wraps ErrRecord.
func DecodeRecord(b []byte, r *Record) error {
	if len(b) < RecordSize {
		return fmt.Errorf("%w: %d bytes, want %d", ErrRecord, len(b), RecordSize)
	}
	b = b[:RecordSize]
	occ := binary.LittleEndian.Uint64(b[0:])
	n := bits.OnesCount64(occ)
	if n > 32 {
		return fmt.Errorf("%w: %d occupied squares, more than the 32 pieces of both armies", ErrRecord, n)
	}
	var pieces [2][numKinds]uint64
	i := 0
	for bb := occ; bb != 0; bb &= bb - 1 {
		code := int(b[8+i/2]>>(4*(i&1))) & 15
		if code >= 2*numKinds {
			return fmt.Errorf("%w: piece code %d on %s, want 0..9", ErrRecord, code, trench.Square(bits.TrailingZeros64(bb)))
		}
		pieces[code/numKinds][code%numKinds] |= bb & -bb
		i++
	}
	for ; i < 32; i++ {
		if b[8+i/2]>>(4*(i&1))&15 != 0 {
			return fmt.Errorf("%w: piece code after the last of %d pieces", ErrRecord, n)
		}
	}
	flags := b[24]
	if flags>>3 != 0 || flags>>1&3 > byte(Win) {
		return fmt.Errorf("%w: flags byte %#02x: want side to move in bit 0, a result 0..2 in bits 1-2, other bits 0", ErrRecord, flags)
	}
	p, err := trench.FromBitboards(pieces, trench.Color(flags&1), int(b[25]), int(b[26]), int(b[27]), int(binary.LittleEndian.Uint16(b[28:])))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrRecord, err)
	}
	if p.Over() {
		return fmt.Errorf("%w: position %s: the game is over", ErrRecord, p.FEN())
	}
	score := int16(binary.LittleEndian.Uint16(b[30:]))
	if score < -MaxScore || score > MaxScore {
		return fmt.Errorf("%w: score %d outside ±%d", ErrRecord, score, MaxScore)
	}
	*r = Record{Position: p, Score: score, Result: Result(flags >> 1 & 3), GameID: binary.LittleEndian.Uint64(b[32:])}
	return nil
}

// check reports what makes r unfit to encode.
func (r *Record) check() error {
	switch {
	case r.Position.Over():
		return fmt.Errorf("position %s: the game is over", r.Position.FEN())
	case r.Result > Win:
		return fmt.Errorf("result %d, want 0..2", r.Result)
	case r.Score < -MaxScore || r.Score > MaxScore:
		return fmt.Errorf("score %d outside ±%d", r.Score, MaxScore)
	}
	return nil
}
