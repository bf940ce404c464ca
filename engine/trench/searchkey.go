package trench

// quietKeys are mixed into SearchKey by the quiet-ply count; they are
// drawn with the Zobrist keys.
var quietKeys [QuietLimit + 1]uint64

// SearchKey is the Zobrist hash with the quiet-ply count, which decides
// draws, mixed in: the key of search tables (engine.SearchKeyer, and the
// classical search's transposition table).
func (p *Position) SearchKey() uint64 {
	return p.hash ^ quietKeys[min(int(p.quiet), QuietLimit)]
}
