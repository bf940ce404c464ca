package data

import (
	"encoding/binary"
	"fmt"

	"trench/engine/trichess"
	"trench/nnue"
)

// TrichessRecordSize is the size of an encoded Trichess record in bytes.
const TrichessRecordSize = trichess.BinarySize + 6 + 1 + 8

// TrichessRecord is one Trichess training position.
type TrichessRecord struct {
	// Position is the position, not over.
	Position trichess.Position
	// Leads is each seat's lead by the search in centipoints, by colour
	// (White, Red, Black), within ±MaxScore.
	Leads [3]int16
	// Titles is each seat's title at the end of the game, by colour.
	Titles [3]trichess.Title
	// GameID identifies the game the position comes from; the window
	// holds out whole games for validation by it.
	GameID uint64
}

// AppendTrichessRecord appends the encoding of r to dst. It does not
// check r: Trichess.EncodeShard does.
func AppendTrichessRecord(dst []byte, r *TrichessRecord) []byte {
	dst = r.Position.AppendBinary(dst)
	for _, l := range r.Leads {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(l))
	}
	var titles byte
	for c, t := range r.Titles {
		titles |= byte(t&3) << (2 * c)
	}
	dst = append(dst, titles)
	return binary.LittleEndian.AppendUint64(dst, r.GameID)
}

// DecodeTrichessRecord decodes one record from the first
// TrichessRecordSize bytes of b, checking it: a valid position
// (trichess.DecodeBinary) that is not over, leads within ±MaxScore and
// the spare bits of the titles 0. The error wraps ErrRecord.
func DecodeTrichessRecord(b []byte, r *TrichessRecord) error {
	if len(b) < TrichessRecordSize {
		return fmt.Errorf("%w: %d bytes, want %d", ErrRecord, len(b), TrichessRecordSize)
	}
	p, err := trichess.DecodeBinary(b)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrRecord, err)
	}
	o := trichess.BinarySize
	rec := TrichessRecord{Position: p, GameID: binary.LittleEndian.Uint64(b[o+7:])}
	for c := range rec.Leads {
		rec.Leads[c] = int16(binary.LittleEndian.Uint16(b[o+2*c:]))
	}
	titles := b[o+6]
	if titles>>6 != 0 {
		return fmt.Errorf("%w: titles byte %#02x: want 2 bits a seat, bits 6-7 0", ErrRecord, titles)
	}
	for c := range rec.Titles {
		rec.Titles[c] = trichess.Title(titles >> (2 * c) & 3)
	}
	if err := rec.check(); err != nil {
		return fmt.Errorf("%w: %v", ErrRecord, err)
	}
	*r = rec
	return nil
}

// check reports what makes r unfit to encode.
func (r *TrichessRecord) check() error {
	if o := r.Position.Outcome(); o.Ending != trichess.NotOver {
		return fmt.Errorf("position %s: the game is over (%s)", r.Position.FEN(), o.Ending)
	}
	for c, l := range r.Leads {
		if l < -MaxScore || l > MaxScore {
			return fmt.Errorf("%s's lead %d outside ±%d", trichess.Color(c), l, MaxScore)
		}
	}
	for c, t := range r.Titles {
		if t > trichess.Seigneur {
			return fmt.Errorf("%s's title %d, want 0..3", trichess.Color(c), t)
		}
	}
	return nil
}

// LabelTrichess makes the records of one finished game: positions[i] is
// a position of the game and leads[i] the search's leads there, by
// colour (centipoints, clamped by ClampScore); outcome is how the game
// ended (a trichess.State's, which judges repetition too), whose titles
// every record gets.
func LabelTrichess(gameID uint64, positions []trichess.Position, leads [][3]int, outcome trichess.Outcome) ([]TrichessRecord, error) {
	if len(positions) != len(leads) {
		return nil, fmt.Errorf("game %d: %d positions and %d leads", gameID, len(positions), len(leads))
	}
	if outcome.Ending == trichess.NotOver {
		return nil, fmt.Errorf("game %d: the game is not over", gameID)
	}
	records := make([]TrichessRecord, len(positions))
	for i := range positions {
		p := &positions[i]
		if o := p.Outcome(); o.Ending != trichess.NotOver {
			return nil, fmt.Errorf("game %d: position %d, %s: the game is over (%s)", gameID, i, p.FEN(), o.Ending)
		}
		r := TrichessRecord{Position: *p, Titles: outcome.Titles, GameID: gameID}
		for c, l := range leads[i] {
			r.Leads[c] = ClampScore(l)
		}
		records[i] = r
	}
	return records, nil
}

// TrichessRecords is a batch of Trichess records for the trainer
// (train.Batch): each trains the three seats' values, output j the
// value of the seat j places after the side to move, read from the
// perspectives rotated by j.
type TrichessRecords []TrichessRecord

// Set is Trichess's feature set.
func (TrichessRecords) Set() *nnue.FeatureSet { return nnue.Trichess }

// Len is the number of records.
func (rs TrichessRecords) Len() int { return len(rs) }

// Outputs is 3: every seat's value.
func (TrichessRecords) Outputs() int { return 3 }

// seat is the seat k places after record i's side to move.
func (rs TrichessRecords) seat(i, k int) trichess.Color {
	return (rs[i].Position.SideToMove() + trichess.Color(k)) % 3
}

// Features returns record i's features seen from the seat k places
// after the side to move, stored in dst[:0].
func (rs TrichessRecords) Features(i, k int, dst []int32) []int32 {
	return nnue.TrichessFeatures(&rs[i].Position, rs.seat(i, k), dst)
}

// Target returns the result and score of the seat j places after record
// i's side to move: its title's points over 3 (seigneur 1, chevalier
// 2/3, vassal 1/3, serf 0) and its lead.
func (rs TrichessRecords) Target(i, j int) (result, score float64) {
	c := rs.seat(i, j)
	r := &rs[i]
	return float64(r.Titles[c].Points()) / 3, float64(r.Leads[c])
}
