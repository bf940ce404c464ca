package nnue

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trench/engine/trichess"
)

// trichessSeats are the three seats in the order of play.
var trichessSeats = [3]trichess.Color{trichess.White, trichess.Red, trichess.Black}

func mustTrichessNet(t testing.TB, hidden int, seed uint64) *Net {
	t.Helper()
	net, err := Trichess.New(hidden, seed)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// randomTrichessPositions plays games of random legal moves from the
// start and returns every position reached, n at least.
func randomTrichessPositions(n int, seed uint64) []trichess.Position {
	r := rand.New(rand.NewPCG(seed, 3))
	var out []trichess.Position
	var moves []trichess.Move
	for len(out) < n {
		p := trichess.StartPosition()
		for {
			out = append(out, p)
			moves = p.GenerateMoves(moves[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[r.IntN(len(moves))])
		}
	}
	return out
}

func TestTrichessStartIsSymmetric(t *testing.T) {
	p := trichess.StartPosition()
	white := TrichessFeatures(&p, trichess.White, nil)
	// 48 pieces, three materials, six castling rights, the quiet bucket,
	// the player to move.
	if len(white) != 59 {
		t.Fatalf("the start position has %d features, want 59", len(white))
	}
	n := len(white) - 1
	for _, c := range trichessSeats {
		f := TrichessFeatures(&p, c, nil)
		if !slices.Equal(f[:n], white[:n]) {
			t.Fatalf("the start position's features differ by seat:\nWhite %v\n%v %v", white, c, f)
		}
		// White moves: White is rel 0 from White, 2 from Red, 1 from Black.
		if want := int32(tcMoverBase + (3-int(c))%3); f[n] != want {
			t.Errorf("from %v: the mover's feature %d, want %d", c, f[n], want)
		}
	}
}

// rotateTrichess returns p with every seat moved one place on in the
// order of play: White's pieces, rights and turn become Red's, Red's
// Black's, Black's White's, each section's content moving with them.
func rotateTrichess(t *testing.T, p *trichess.Position) trichess.Position {
	t.Helper()
	fields := strings.Split(p.FEN(), " ")
	swap := strings.NewReplacer("w", "r", "r", "b", "b", "w")
	sec := strings.Split(fields[0], "|")
	fields[0] = swap.Replace(strings.Join([]string{sec[2], sec[0], sec[1]}, "|"))
	fields[1] = swap.Replace(fields[1])
	rights := strings.Split(fields[2], ",")
	fields[2] = strings.Join([]string{rights[2], rights[0], rights[1]}, ",")
	q, err := trichess.ParseFEN(strings.Join(fields, " "))
	if err != nil {
		t.Fatalf("the rotation of %s: %v", p.FEN(), err)
	}
	return q
}

// TestTrichessFeaturesRotate checks that one net serves every seat: a
// position with the seats rotated, seen from the rotated seat, has the
// same features, and the same values seat for seat.
func TestTrichessFeaturesRotate(t *testing.T) {
	ps := randomTrichessPositions(300, 1)
	net := mustTrichessNet(t, 32, 2)
	for i := 0; i < len(ps); i += 7 {
		p := &ps[i]
		q := rotateTrichess(t, p)
		for _, c := range trichessSeats {
			f, g := TrichessFeatures(p, c, nil), TrichessFeatures(&q, c.Next(), nil)
			if !slices.Equal(f, g) {
				t.Fatalf("%s from %v: %v\nrotated %s from %v: %v", p.FEN(), c, f, q.FEN(), c.Next(), g)
			}
		}
		v, w := net.TrichessValues(p), net.TrichessValues(&q)
		for _, c := range trichessSeats {
			if v[c] != w[c.Next()] {
				t.Fatalf("%s: %v's value %v, the rotated position's %v", p.FEN(), c, v[c], w[c.Next()])
			}
		}
	}
}

// TestTrichessFeatures reads the features back: every piece feature
// names a piece on the board, every piece has one, and the counters are
// the position's.
func TestTrichessFeatures(t *testing.T) {
	ps := randomTrichessPositions(2000, 2)
	for i := 0; i < len(ps); i += 13 {
		p := &ps[i]
		for _, c := range trichessSeats {
			f := TrichessFeatures(p, c, nil)
			if len(f) > TrichessMaxActive || len(f) != len(slices.Compact(slices.Clone(f))) {
				t.Fatalf("%s from %v: %d features, some repeated: %v", p.FEN(), c, len(f), f)
			}
			pieces := 0
			for s := trichess.Square(0); s < trichess.NumSquares; s++ {
				if _, _, ok := p.PieceAt(s); ok {
					pieces++
				}
			}
			want := trichessCounters(p)
			var got tcCounters
			movers := 0
			for _, x := range f[:pieces] {
				rel, k, o := int(x)/576, trichess.Kind(int(x)%576/96), int(x)%96
				s := trichess.Square((o + 32*int(c)) % 96)
				owner := trichess.Color((int(c) + rel) % 3)
				if pc, pk, ok := p.PieceAt(s); !ok || pc != owner || pk != k {
					t.Fatalf("%s from %v: feature %d names %v's %v on %v, not on the board", p.FEN(), c, x, owner, k, s)
				}
			}
			for _, x := range f[pieces:] {
				switch {
				case x < tcMaterialBase:
					t.Fatalf("%s from %v: piece feature %d among the counters", p.FEN(), c, x)
				case x < tcProtectedBase:
					r := int(x-tcMaterialBase) / 40
					got.material[(int(c)+r)%3] = uint8(int(x-tcMaterialBase) % 40)
				case x < tcCastleBase:
					// The protections: TestTrichessProtection.
				case x < tcQuietBase:
					r, q := int(x-tcCastleBase)/2, int(x-tcCastleBase)%2
					got.castling |= 1 << (2*((int(c)+r)%3) + q)
				case x < tcMoverBase:
					got.quiet = uint8(x - tcQuietBase)
				case x < TrichessInputs:
					if mover := trichess.Color((int(c) + int(x-tcMoverBase)) % 3); mover != p.SideToMove() {
						t.Fatalf("%s from %v: feature %d names %v to move", p.FEN(), c, x, mover)
					}
					movers++
				default:
					t.Fatalf("%s from %v: feature %d out of range", p.FEN(), c, x)
				}
			}
			if got != want {
				t.Fatalf("%s from %v: counters %+v read back, want %+v", p.FEN(), c, got, want)
			}
			if movers != 1 {
				t.Fatalf("%s from %v: %d features of the player to move, want 1", p.FEN(), c, movers)
			}
			for x := trichess.White; x <= trichess.Black; x++ {
				if got.material[x] != uint8(p.Material(x)) {
					t.Fatalf("%s: %v's material %d, the position's %d", p.FEN(), x, got.material[x], p.Material(x))
				}
			}
		}
	}
}

func TestTrichessProtection(t *testing.T) {
	// White has lost a queen: Red and Black may not capture White's
	// pieces in White's section; nobody else is protected.
	p, err := trichess.ParseFEN("wRwNwB1wKwBwNwR/wPwPwPwPwPwPwPwP/8/8|rRrNrBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 w KQ,KQ,KQ 0 1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[trichess.Color][]int32{
		// From White: White (rel 0) protected from the next (Red, j 0)
		// and the previous (Black, j 1).
		trichess.White: {tcProtectedBase, tcProtectedBase + 1},
		// From Red: White is rel 2.
		trichess.Red: {tcProtectedBase + 4, tcProtectedBase + 5},
		// From Black: White is rel 1.
		trichess.Black: {tcProtectedBase + 2, tcProtectedBase + 3},
	}
	for c, w := range want {
		var got []int32
		for _, x := range TrichessFeatures(&p, c, nil) {
			if x >= tcProtectedBase && x < tcCastleBase {
				got = append(got, x)
			}
		}
		if !slices.Equal(got, w) {
			t.Errorf("from %v: protection features %v, want %v", c, got, w)
		}
	}
}

func TestTrichessSaveLoad(t *testing.T) {
	net := mustTrichessNet(t, 24, 15)
	file := filepath.Join(t.TempDir(), "trichess.nnue")
	if err := net.Save(file); err != nil {
		t.Fatal(err)
	}
	got, err := Trichess.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if got.Set != Trichess || got.Hidden != net.Hidden || !slices.Equal(got.FT, net.FT) || !slices.Equal(got.FTBias, net.FTBias) ||
		!slices.Equal(got.Out, net.Out) || got.OutBias != net.OutBias {
		t.Error("the loaded net differs from the saved one")
	}
	// A net of the other game is refused, naming the file and both games.
	trenchFile := filepath.Join(t.TempDir(), "trench.nnue")
	trenchNet, _ := New(16, 1)
	if err := trenchNet.Save(trenchFile); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		load func(string) (*Net, error)
		file string
	}{{Load, file}, {Trichess.Load, trenchFile}} {
		_, err := tc.load(tc.file)
		if !errors.Is(err, ErrGame) || !strings.Contains(err.Error(), tc.file) ||
			!strings.Contains(err.Error(), "trench") || !strings.Contains(err.Error(), "trichess") {
			t.Errorf("loading %s as the other game's: %v, want %v naming the file and both games", tc.file, err, ErrGame)
		}
	}
	// The header alone names each file's game.
	for _, tc := range []struct {
		file string
		want *FeatureSet
	}{{file, Trichess}, {trenchFile, Trench}} {
		if fs, err := FileSet(tc.file); err != nil || fs != tc.want {
			t.Errorf("FileSet(%s) = %v, %v, want %v", tc.file, fs, err, tc.want)
		}
	}
	notNet := filepath.Join(t.TempDir(), "x.nnue")
	if err := os.WriteFile(notNet, []byte("TRNCH"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{notNet, filepath.Join(t.TempDir(), "missing.nnue")} {
		if _, err := FileSet(bad); err == nil || !strings.Contains(err.Error(), filepath.Base(bad)) {
			t.Errorf("FileSet(%s): %v, want an error naming it", bad, err)
		}
	}
	if _, _, err := LoadRef(file); !errors.Is(err, ErrGame) {
		t.Errorf("LoadRef of a Trichess net: %v, want %v", err, ErrGame)
	}
}

func TestTrichessDecodeRefuses(t *testing.T) {
	net := mustTrichessNet(t, 16, 16)
	good, err := net.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if want := Trichess.fileSize(16, false); len(good) != want {
		t.Fatalf("%d bytes, want %d", len(good), want)
	}
	corrupt := slices.Clone(good)
	corrupt[headerSize+100] ^= 0x40
	inputs := slices.Clone(good)
	inputs[16]++
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", good[:len(good)-4], ErrSize},
		{"header cut", good[:headerSize-1], ErrSize},
		{"corrupted", corrupt, ErrChecksum},
		{"inputs", reseal(inputs), ErrSize},
		{"NaN", reseal(slices.Concat(good[:len(good)-8], []byte{0, 0, 0xc0, 0x7f}, good[len(good)-4:])), ErrWeights},
	} {
		_, err := Trichess.Decode(tc.data, "t.nnue")
		if !errors.Is(err, tc.want) || !strings.HasPrefix(err.Error(), "t.nnue: ") {
			t.Errorf("%s: error %v, want %v naming t.nnue", tc.name, err, tc.want)
		}
	}
	if _, err := Trichess.Decode(good, "t.nnue"); err != nil {
		t.Errorf("the good file: %v", err)
	}
}
