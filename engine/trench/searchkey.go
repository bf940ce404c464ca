package trench

// quietKeys are mixed into SearchKey by the quiet-ply count; they are
// drawn with the Zobrist keys.
var quietKeys [QuietLimit + 1]uint64

// SearchKey is the Zobrist hash with the quiet-ply count, which decides
// draws, mixed in (engine.SearchKeyer).
func (s *State) SearchKey() uint64 {
	return s.hash ^ quietKeys[min(int(s.quiet), QuietLimit)]
}
