package trichess

// Perft counts the legal move sequences of length depth from p (a game
// that ends stops its sequences; repetition, which needs the history, is
// not judged). Moves at the last ply are counted, not played.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if p.decided() {
		return 0
	}
	var buf [MaxMoves]Move
	var n uint64
	var child Position
	x := p.exposure()
	for _, m := range p.genPseudo(buf[:0], false) {
		ok := p.playLegal(m, &child, x)
		switch {
		case !ok:
		case depth == 1:
			n++
		default:
			n += Perft(&child, depth-1)
		}
	}
	return n
}
