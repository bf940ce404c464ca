package trench

// quietKeys are mixed into SearchKey by the quiet-ply count.
var quietKeys [QuietLimit + 1]uint64

func init() {
	// splitmix64 from a seed of its own.
	state := uint64(0x7472656e63680002)
	for i := range quietKeys {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		quietKeys[i] = z ^ z>>31
	}
}

// SearchKey is the Zobrist hash with the quiet-ply count, which decides
// draws, mixed in (engine.SearchKeyer).
func (s *State) SearchKey() uint64 {
	return s.hash ^ quietKeys[min(int(s.quiet), QuietLimit)]
}
