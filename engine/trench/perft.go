package trench

// Perft counts the move sequences of length depth from p. Moves at the last
// ply are counted, not played.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	stack := make([]Position, depth)
	stack[0] = *p
	return perft(stack)
}

// perft counts the move sequences of length len(stack) from stack[0],
// playing the moves of each ply into the next entry, so that no position
// of the count is allocated.
func perft(stack []Position) uint64 {
	p := &stack[0]
	if len(stack) == 1 {
		return uint64(p.CountMoves())
	}
	var buf [MaxMoves]Move
	var n uint64
	child := &stack[1]
	for _, m := range p.GenerateMoves(buf[:0]) {
		*child = *p
		child.Play(m)
		n += perft(stack[1:])
	}
	return n
}
