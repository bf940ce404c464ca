package engine

// Keys is a fixed stream of pseudo-random 64-bit keys, splitmix64 from a
// seed: the games draw their Zobrist keys from it, the same in every
// build.
type Keys struct{ state uint64 }

// NewKeys starts the stream of seed.
func NewKeys(seed uint64) *Keys { return &Keys{state: seed} }

// Next returns the stream's next key.
func (k *Keys) Next() uint64 {
	k.state += 0x9e3779b97f4a7c15
	z := k.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
