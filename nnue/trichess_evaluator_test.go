package nnue

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"trench/engine/trichess"
)

func mustTrichessEvaluator(t testing.TB, net *Net) *TrichessEvaluator {
	t.Helper()
	e, err := NewTrichessEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkTrichess compares e's accumulators at ply and each seat's value
// with a fresh computation of p (checkPath), and the values with the
// float32 net's within quantizationBound.
func checkTrichess(t *testing.T, e *TrichessEvaluator, ply int, p *trichess.Position) {
	t.Helper()
	got := e.Values(ply)
	feats := func(c int) []int32 { return TrichessFeatures(p, trichess.Color(c), nil) }
	for _, c := range trichessSeats {
		if y := checkPath(t, &e.path, ply, int(c), feats); y != got[c] {
			t.Fatalf("%s: ply %d: %v's value %v, Values %v", e.k.name, ply, c, y, got[c])
		}
	}
	want := e.net.TrichessValues(p)
	for _, c := range trichessSeats {
		if math.Abs(float64(got[c]-want[c])) > quantizationBound(e.net, e.q) {
			t.Fatalf("%s: ply %d: %v's value %v, reference %v", e.k.name, ply, c, got[c], want[c])
		}
	}
	for _, c := range trichessSeats {
		if y := e.Value(ply, c); y != got[c] {
			t.Fatalf("%s: ply %d: %v's Value %v, Values %v", e.k.name, ply, c, y, got[c])
		}
	}
	if y := e.Output(ply, p); y != got[p.SideToMove()] {
		t.Fatalf("%s: ply %d: output %v, the mover's value %v", e.k.name, ply, y, got[p.SideToMove()])
	}
}

// trichessMoveKinds counts the kinds of move a test played.
type trichessMoveKinds struct{ captures, liberations, castlings int }

func (n *trichessMoveKinds) count(p *trichess.Position, m trichess.Move) {
	if _, _, ok := p.PieceAt(m.To()); ok {
		n.captures++
	}
	if _, ok := m.Liberation(); ok {
		n.liberations++
	}
	if _, k, _ := p.PieceAt(m.From()); k == trichess.King && m.From().File() == 4 && m.From().Rank() == 0 &&
		m.To().Rank() == 0 && (m.To().File() == 2 || m.To().File() == 6) && m.From().Section() == m.To().Section() {
		n.castlings++
	}
}

// playTrichess plays a game of random legal moves from p, at most
// maxPlies, pushing each onto e and checking e after every move.
func playTrichess(t *testing.T, e *TrichessEvaluator, r *rand.Rand, p trichess.Position, maxPlies int, kinds *trichessMoveKinds) int {
	e.SetRoot(&p)
	checkTrichess(t, e, 0, &p)
	var moves []trichess.Move
	ply := 0
	for ; ply < maxPlies; ply++ {
		moves = p.GenerateMoves(moves[:0])
		if len(moves) == 0 {
			break
		}
		m := moves[r.IntN(len(moves))]
		kinds.count(&p, m)
		child := p
		child.Play(m)
		e.Push(ply, &p, &child, m)
		p = child
		checkTrichess(t, e, ply+1, &p)
	}
	return ply
}

// TestTrichessIncrementalAlongGames plays 200 random games from the
// start, checking all three accumulators and values against a fresh
// computation after every move.
func TestTrichessIncrementalAlongGames(t *testing.T) {
	net := mustTrichessNet(t, 32, 3)
	e := mustTrichessEvaluator(t, net)
	r := rand.New(rand.NewPCG(4, 5))
	var kinds trichessMoveKinds
	plies := 0
	for range 200 {
		plies += playTrichess(t, e, r, trichess.StartPosition(), 1000, &kinds)
	}
	t.Logf("%d plies, %+v", plies, kinds)
	if kinds.captures == 0 || kinds.liberations == 0 || kinds.castlings == 0 {
		t.Errorf("the games played %+v: some kind of move untested", kinds)
	}
}

// TestTrichessKernels runs every vector path along a few games, at a
// hidden size that is not a multiple of the vector width.
func TestTrichessKernels(t *testing.T) {
	net := mustTrichessNet(t, 40, 6)
	for _, k := range allKernels() {
		e := mustTrichessEvaluator(t, net)
		e.k = k
		r := rand.New(rand.NewPCG(7, 8))
		var kinds trichessMoveKinds
		for range 5 {
			playTrichess(t, e, r, trichess.StartPosition(), 1000, &kinds)
		}
	}
}

// walkTrichess searches a random tree below p, the position at ply,
// evaluating some nodes, so that lazy updates span several plies and
// the stack is reused as a search reuses it.
func walkTrichess(t *testing.T, e *TrichessEvaluator, r *rand.Rand, p *trichess.Position, ply, depth int, checked *int) {
	if r.IntN(3) == 0 {
		checkTrichess(t, e, ply, p)
		*checked++
	}
	if depth == 0 {
		return
	}
	moves := p.GenerateMoves(nil)
	for i := 0; i < 3 && len(moves) > 0; i++ {
		m := moves[r.IntN(len(moves))]
		child := *p
		child.Play(m)
		e.Push(ply, p, &child, m)
		walkTrichess(t, e, r, &child, ply+1, depth-1, checked)
	}
}

func TestTrichessIncrementalAlongSearchPaths(t *testing.T) {
	for _, linear := range []bool{false, true} {
		net := mustTrichessNet(t, 48, 9)
		if linear {
			withPSQT(net, 3)
		}
		e := mustTrichessEvaluator(t, net)
		roots := randomTrichessPositions(500, 10)
		r := rand.New(rand.NewPCG(11, 12))
		checked := 0
		for i := 0; i < len(roots); i += 25 {
			e.SetRoot(&roots[i])
			walkTrichess(t, e, r, &roots[i], 0, 5, &checked)
		}
		if checked < 1000 {
			t.Errorf("linear path %v: only %d positions checked", linear, checked)
		}
	}
}

// FuzzTrichessIncremental plays random moves chosen by seed from the
// start or from a random position, checking the evaluator after every
// move.
func FuzzTrichessIncremental(f *testing.F) {
	f.Add(uint64(1), uint16(0), uint16(300))
	f.Add(uint64(2), uint16(200), uint16(100))
	net := withPSQT(mustTrichessNet(f, 16, 13), 4)
	f.Fuzz(func(t *testing.T, seed uint64, skip, plies uint16) {
		r := rand.New(rand.NewPCG(seed, 14))
		p := trichess.StartPosition()
		var moves []trichess.Move
		for range int(skip) % 400 {
			if moves = p.GenerateMoves(moves[:0]); len(moves) == 0 {
				break
			}
			p.Play(moves[r.IntN(len(moves))])
		}
		e := mustTrichessEvaluator(t, net)
		var kinds trichessMoveKinds
		playTrichess(t, e, r, p, int(plies)%500, &kinds)
	})
}

func TestTrichessEvaluatorRefuses(t *testing.T) {
	trenchNet, _ := New(16, 1)
	if _, err := NewTrichessEvaluator(trenchNet); err == nil || !strings.Contains(err.Error(), "trench") {
		t.Errorf("NewTrichessEvaluator of a Trench net: %v, want an error naming the game", err)
	}
	net := mustTrichessNet(t, 16, 1)
	if _, err := NewEvaluator(net); err == nil || !strings.Contains(err.Error(), "trichess") {
		t.Errorf("NewEvaluator of a Trichess net: %v, want an error naming the game", err)
	}
	net.Out = net.Out[:32]
	if _, err := NewTrichessEvaluator(net); err == nil {
		t.Error("NewTrichessEvaluator took a net with 32 output weights for 16 hidden units")
	}
}
