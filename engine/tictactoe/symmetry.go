package tictactoe

// symmetries[sym][i] is the square that square i maps to under symmetry
// sym: the identity, the three rotations and the four reflections.
var symmetries = func() [8][9]uint8 {
	maps := [8]func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return c, 2 - r },
		func(r, c int) (int, int) { return 2 - r, 2 - c },
		func(r, c int) (int, int) { return 2 - c, r },
		func(r, c int) (int, int) { return r, 2 - c },
		func(r, c int) (int, int) { return 2 - r, c },
		func(r, c int) (int, int) { return c, r },
		func(r, c int) (int, int) { return 2 - c, 2 - r },
	}
	var t [8][9]uint8
	for s, m := range maps {
		for i := range 9 {
			r, c := m(i/3, i%3)
			t[s][i] = uint8(r*3 + c)
		}
	}
	return t
}()
