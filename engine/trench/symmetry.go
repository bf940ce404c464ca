package trench

// Mirror returns the position mirrored across the a1–h8 diagonal, (f,r) ->
// (r,f): the game's one non-trivial symmetry (docs/rules.md, Symmetry). It keeps
// the trench, both territories and each player's forward direction.
func (p *Position) Mirror() Position {
	q := *p
	for c := range q.pieces {
		for k := range q.pieces[c] {
			q.pieces[c][k] = transpose(p.pieces[c][k])
		}
		q.occ[c] = transpose(p.occ[c])
	}
	q.hash = q.computeHash()
	return q
}

// MirrorMove maps a move through the file↔rank mirror.
func MirrorMove(m Move) Move {
	f, t := m.From(), m.To()
	return NewMove(SquareAt(f.Rank(), f.File()), SquareAt(t.Rank(), t.File()))
}
