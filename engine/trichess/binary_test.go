package trichess

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomPositions returns the positions of n random games of at most
// plies plies each, the start included.
func randomPositions(n, plies int, seed uint64) []Position {
	r := rand.New(rand.NewPCG(seed, 7))
	var out []Position
	var moves []Move
	for range n {
		p := StartPosition()
		for range plies {
			out = append(out, p)
			moves = p.GenerateMoves(moves[:0])
			if len(moves) == 0 || p.Outcome().Ending != NotOver {
				break
			}
			p.Play(moves[r.IntN(len(moves))])
		}
	}
	return out
}

func TestBinaryRoundTrip(t *testing.T) {
	positions := randomPositions(8, 400, 1)
	for _, fen := range []string{StartFEN, "wK7/8/8/8|rK7/8/8/8|bK7/8/8/8 b -,-,- 150 65535"} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, p)
	}
	for _, p := range positions {
		b := p.AppendBinary([]byte{9})
		if len(b) != 1+BinarySize || b[0] != 9 {
			t.Fatalf("%s: AppendBinary gave %d bytes after the 1 given, want %d", p.FEN(), len(b)-1, BinarySize)
		}
		got, err := DecodeBinary(b[1:])
		if err != nil {
			t.Fatalf("%s: %v", p.FEN(), err)
		}
		if got != p {
			t.Fatalf("%s decodes as %s (hash %x, want %x)", p.FEN(), got.FEN(), got.Hash(), p.Hash())
		}
	}
}

// binaryOf returns the binary form of the position fen with edit applied.
func binaryOf(t *testing.T, fen string, edit func(b []byte)) []byte {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	b := p.AppendBinary(nil)
	edit(b)
	return b
}

func TestDecodeBinaryErrors(t *testing.T) {
	o := binOccupied + binPieces
	kings := "wK7/8/8/8|rK7/8/8/8|bK7/8/8/8 w -,-,- 0 1"
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"short", binaryOf(t, StartFEN, func([]byte) {})[:BinarySize-1], "64 bytes, want 65"},
		{"bad piece code", binaryOf(t, StartFEN, func(b []byte) { b[binOccupied] = 19 }), "piece code 19"},
		{"empty piece code", binaryOf(t, StartFEN, func(b []byte) { b[binOccupied] = 0 }), "piece code 0"},
		{"byte after the last piece", binaryOf(t, kings, func(b []byte) { b[binOccupied+5] = 1 }), "after the last piece"},
		{"two kings", binaryOf(t, kings, func(b []byte) { b[1] |= 1; b[binOccupied+1] = 6 }), "a second White king"},
		{"no king", binaryOf(t, kings, func(b []byte) { b[binOccupied] = 5 }), "White has 0 kings"},
		{"pawn on rank 1", binaryOf(t, kings, func(b []byte) { b[binOccupied] = 1 }), "pawn on its own rank 1"},
		{"too many queens", binaryOf(t, StartFEN, func(b []byte) { b[binOccupied] = 5 }), "2 queens"},
		{"spare castling bits", binaryOf(t, kings, func(b []byte) { b[o] = 0x40 }), "castling byte"},
		{"castling without its rook", binaryOf(t, kings, func(b []byte) { b[o] = 1 }), "needs its king"},
		{"side to move", binaryOf(t, kings, func(b []byte) { b[o+1] = 3 }), "side to move 3"},
		{"quiet plies", binaryOf(t, kings, func(b []byte) { b[o+2] = QuietLimit + 1 }), "151 quiet plies"},
		{"move number", binaryOf(t, kings, func(b []byte) { b[o+3], b[o+4] = 0, 0 }), "move number 0"},
		// Red's queen next to White's king with Red to move: White moved
		// last and stands in check.
		{"last mover in check", binaryOf(t, "wKrQ6/8/8/8|rK7/8/8/8|bK7/8/8/8 w -,-,- 0 1", func(b []byte) { b[o+1] = 1 }), "who moved last, is in check"},
	}
	for _, tc := range tests {
		_, err := DecodeBinary(tc.b)
		if !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error wrapping ErrBinary containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzDecodeBinary(f *testing.F) {
	for _, p := range randomPositions(2, 60, 2) {
		f.Add(p.AppendBinary(nil))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodeBinary(b)
		if err != nil {
			return
		}
		if p.Hash() != p.computeHash() {
			t.Fatalf("decoded hash %x, computed %x", p.Hash(), p.computeHash())
		}
		again, err := ParseFEN(p.FEN())
		if err != nil {
			t.Fatalf("%s decoded but does not parse: %v", p.FEN(), err)
		}
		if again != p {
			t.Fatalf("%s: decoded and parsed positions differ", p.FEN())
		}
		if got := p.AppendBinary(nil); string(got) != string(b[:BinarySize]) {
			t.Fatalf("%s re-encodes differently", p.FEN())
		}
	})
}
