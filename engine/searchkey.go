package engine

// SearchKeyer is implemented by states whose Hash leaves out a counter
// that decides the game's future, such as the plies since the last
// capture: SearchKey hashes what Hash covers and that counter too, so
// that a search's transposition table does not answer for one position
// with what it found for another that ends differently. Searches use
// Hash for states without it.
type SearchKeyer interface {
	SearchKey() uint64
}

// SearchKey is s's SearchKeyer key, or its Hash.
func SearchKey(s State) uint64 {
	if k, ok := s.(SearchKeyer); ok {
		return k.SearchKey()
	}
	return s.Hash()
}
