package trichess

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A position's binary form, BinarySize bytes, integers little-endian:
//
//	0   12  occupied squares: bit s%8 of byte s/8 is square s
//	12  48  one byte per occupied square in square order: 1 + colour·6 +
//	        kind (docs/trichess.md's colours White 0, Red 1, Black 2 and
//	        kinds pawn 0 to king 5); bytes past the last piece are 0
//	60  1   castling rights: bit 2c is c's king-side right, 2c+1 its
//	        queen-side; the other bits 0
//	61  1   the side to move (0 White, 1 Red, 2 Black)
//	62  1   plies since the last capture or pawn move (0..QuietLimit)
//	63  2   the move number (1..65535)
const (
	// BinarySize is the size of a position's binary form.
	BinarySize = binOccupied + binPieces + 5
	// binOccupied and binPieces are the sizes of the occupancy and piece
	// fields; three armies have at most 48 pieces.
	binOccupied = NumSquares / 8
	binPieces   = 3 * 16
)

// ErrBinary is wrapped by the errors of DecodeBinary.
var ErrBinary = errors.New("bad binary position")

// AppendBinary appends the position's binary form (BinarySize bytes) to
// dst.
func (p *Position) AppendBinary(dst []byte) []byte {
	var b [BinarySize]byte
	i := binOccupied
	for s, pc := range p.board {
		if pc != 0 {
			b[s/8] |= 1 << (s % 8)
			b[i] = byte(pc)
			i++
		}
	}
	o := binOccupied + binPieces
	b[o], b[o+1], b[o+2] = p.castling, byte(p.side), p.quiet
	binary.LittleEndian.PutUint16(b[o+3:], p.moveNumber)
	return append(dst, b[:]...)
}

// DecodeBinary reads a position from the first BinarySize bytes of b,
// checking it as ParseFEN does (one king each, no more pieces of a kind
// than an army has, no pawn on its own rank 1, castling rights with their
// king and rook at home, the player who moved last not in check) and that
// every spare bit and byte is 0. The error wraps ErrBinary.
func DecodeBinary(b []byte) (Position, error) {
	var p Position
	if err := p.decodeBinary(b); err != nil {
		return Position{}, fmt.Errorf("%w: %v", ErrBinary, err)
	}
	return p, nil
}

func (p *Position) decodeBinary(b []byte) error {
	if len(b) < BinarySize {
		return fmt.Errorf("%d bytes, want %d", len(b), BinarySize)
	}
	b = b[:BinarySize]
	for c := range p.king {
		p.king[c] = NoSquare
	}
	i := binOccupied
	for s := Square(0); s < NumSquares; s++ {
		if b[s/8]>>(s%8)&1 == 0 {
			continue
		}
		if i == binOccupied+binPieces {
			return fmt.Errorf("more than %d occupied squares", binPieces)
		}
		code := int(b[i])
		if code < 1 || code > numColors*numKinds {
			return fmt.Errorf("piece code %d on %s, want 1..%d", code, s, numColors*numKinds)
		}
		i++
		pc := piece(code)
		if err := p.place(pc.color(), pc.kind(), s); err != nil {
			return err
		}
	}
	for ; i < binOccupied+binPieces; i++ {
		if b[i] != 0 {
			return fmt.Errorf("byte %d after the last piece is %d, want 0", i, b[i])
		}
	}
	if err := p.checkArmies(); err != nil {
		return err
	}
	o := binOccupied + binPieces
	castling, side, quiet := b[o], b[o+1], b[o+2]
	if castling>>(2*numColors) != 0 {
		return fmt.Errorf("castling byte %#02x: want 6 bits", castling)
	}
	for c := White; c < numColors; c++ {
		for _, queen := range []bool{false, true} {
			if castling&castleBit(c, queen) == 0 {
				continue
			}
			if err := p.grantCastling(c, queen); err != nil {
				return err
			}
		}
	}
	if side >= numColors {
		return fmt.Errorf("side to move %d, want 0..2", side)
	}
	p.side = Color(side)
	if quiet > QuietLimit {
		return fmt.Errorf("%d quiet plies, more than %d", quiet, QuietLimit)
	}
	p.quiet = quiet
	p.moveNumber = binary.LittleEndian.Uint16(b[o+3:])
	if p.moveNumber < 1 {
		return errors.New("move number 0: it starts at 1")
	}
	return p.finish()
}
