package trench

import (
	"math/rand/v2"
	"slices"
	"testing"

	"trench/engine"
)

var _ engine.State = (*State)(nil)

// checkInvariants checks, for one position, every invariant that move
// generation must keep.
func checkInvariants(t *testing.T, p Position) {
	t.Helper()
	moves := p.GenerateMoves(nil)
	if n := p.CountMoves(); n != len(moves) {
		t.Fatalf("%s: CountMoves %d, GenerateMoves %d", p.FEN(), n, len(moves))
	}
	if (len(moves) == 0) != p.Over() {
		t.Fatalf("%s: %d moves but Over() = %v", p.FEN(), len(moves), p.Over())
	}
	var captures []Move
	for _, m := range moves {
		if p.Captured(m) != 0 {
			captures = append(captures, m)
		}
	}
	if got := p.GenerateCaptures(nil); !slices.Equal(got, captures) {
		t.Fatalf("%s: GenerateCaptures %v, the moves' captures %v", p.FEN(), got, captures)
	}
	if p.HasMoves() != (len(moves) > 0) {
		t.Fatalf("%s: %d moves but HasMoves() = %v", p.FEN(), len(moves), p.HasMoves())
	}
	st := NewState(p)
	var actions, captureActions []int
	for _, m := range moves {
		actions = append(actions, MoveToAction(m, p.side))
	}
	for _, m := range captures {
		captureActions = append(captureActions, MoveToAction(m, p.side))
	}
	if got := st.LegalActions(nil); !slices.Equal(got, actions) {
		t.Fatalf("%s: LegalActions %v, the moves' actions %v", p.FEN(), got, actions)
	}
	if got := st.CaptureActions(nil); !slices.Equal(got, captureActions) {
		t.Fatalf("%s: CaptureActions %v, the captures' actions %v", p.FEN(), got, captureActions)
	}
	seen := map[int]bool{}
	mirrored := p.Mirror()
	var want []Move
	for _, m := range moves {
		if parsed, err := p.ParseMove(m.String()); err != nil || parsed != m {
			t.Fatalf("%s: %s does not round-trip through notation: %v %v", p.FEN(), m, parsed, err)
		}
		a := MoveToAction(m, p.side)
		if a < 0 || a >= ActionCount || seen[a] {
			t.Fatalf("%s: %s has action %d (out of range or shared)", p.FEN(), m, a)
		}
		seen[a] = true
		if back, ok := ActionToMove(a, p.side); !ok || back != m {
			t.Fatalf("%s: action %d of %s decodes to %s", p.FEN(), a, m, back)
		}
		if ma := mirrorAction(a); ma != MoveToAction(MirrorMove(m), p.side) {
			t.Fatalf("%s: mirrored action of %s is %d, want %d", p.FEN(), m, ma, MoveToAction(MirrorMove(m), p.side))
		}
		want = append(want, MirrorMove(m))

		orig := p
		child := p
		child.Play(m)
		if p != orig {
			t.Fatalf("%s: playing %s on a copy changed the original", orig.FEN(), m)
		}
		if taken := p.Material(p.side.Other()) - child.Material(p.side.Other()); p.CaptureValue(m) != taken {
			t.Fatalf("%s: %s takes %d points, CaptureValue says %d", orig.FEN(), m, taken, p.CaptureValue(m))
		}
		for c := Black; c <= White; c++ {
			if child.Material(c) != child.materialFromScratch(c) {
				t.Fatalf("%s after %s: %s's material %d, counted from scratch %d", orig.FEN(), m, c, child.Material(c), child.materialFromScratch(c))
			}
		}
		if child.Hash() != child.computeHash() {
			t.Fatalf("%s after %s: incremental hash differs from the hash from scratch", orig.FEN(), m)
		}
		mc := mirrored
		mc.Play(MirrorMove(m))
		if mm := child.Mirror(); mm != mc {
			t.Fatalf("%s: %s then mirror differs from mirror then %s", orig.FEN(), m, MirrorMove(m))
		}
	}
	got := mirrored.GenerateMoves(nil)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: the mirror's moves %v are not the mirrored moves %v", p.FEN(), got, want)
	}
}

// playout plays random moves from p, checking the invariants at every ply.
func playout(t *testing.T, p Position, r *rand.Rand, plies int) {
	t.Helper()
	for i := 0; i < plies; i++ {
		checkInvariants(t, p)
		moves := p.GenerateMoves(nil)
		if len(moves) == 0 {
			return
		}
		p.Play(moves[r.IntN(len(moves))])
	}
}

func TestRandomPlayouts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	games := 200
	if testing.Short() {
		games = 20
	}
	for g := 0; g < games; g++ {
		playout(t, StartPosition(), r, 400)
	}
}

// FuzzPlayouts checks the move-generation invariants along random games
// from the start or from a perft test position.
func FuzzPlayouts(f *testing.F) {
	for i := range benchPositions {
		f.Add(uint64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, start uint8) {
		p := StartPosition()
		if int(start) < len(benchPositions) {
			p = mustParse(t, benchPositions[start])
		}
		playout(t, p, rand.New(rand.NewPCG(seed, 7)), 300)
	})
}

func TestStateContract(t *testing.T) {
	s := Game.Start().(*State)
	acts := s.LegalActions(nil)
	if len(acts) != 14 {
		t.Fatalf("%d legal actions at the start, want 14", len(acts))
	}
	for _, a := range acts {
		b, err := s.ParseAction(s.ActionString(a))
		if err != nil || b != a {
			t.Errorf("action %d (%s) parses back as %d, %v", a, s.ActionString(a), b, err)
		}
	}
	if err := engine.PlayChecked(s, 0); err == nil {
		t.Error("PlayChecked accepted an illegal action")
	}
	if s.FEN() != StartFEN {
		t.Error("a refused action changed the state")
	}
	s.Play(acts[0])
	if s.ToMove() != 1 || s.Ply() != 1 {
		t.Errorf("after one move: to move %d, ply %d", s.ToMove(), s.Ply())
	}
	// The start is symmetric under the point reflection, so White's first
	// moves in its own frame are Black's first moves.
	w, _ := Game.ParseState("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 0 0 0 1")
	got := w.LegalActions(nil)
	slices.Sort(got)
	slices.Sort(acts)
	if !slices.Equal(got, acts) {
		t.Errorf("White's start actions %v differ from Black's %v", got, acts)
	}
	var fb, fw [NumPlanes * 64]float32
	Game.Start().EncodeFeatures(fb[:])
	w.EncodeFeatures(fw[:])
	if fb != fw {
		t.Error("White's view of the mirrored start differs from Black's")
	}
	for i, sym := range []int{0, 1} {
		ts := s.Transform(sym)
		got := ts.LegalActions(nil)
		var want []int
		for _, a := range s.LegalActions(nil) {
			want = append(want, s.TransformAction(sym, a))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("symmetry %d: transformed actions differ", i)
		}
	}
}

func TestFeatures(t *testing.T) {
	p := mustParse(t, "8/8/8/3p4/3P4/8/8/8 w 4 7 10 20")
	var f [NumPlanes * 64]float32
	p.EncodeFeatures(f[:])
	at := func(plane int, sq string) float32 {
		s, _ := ParseSquare(sq)
		return f[plane*64+int(s)]
	}
	// White to move: White's soldier on d5 is seen rotated, on e4.
	if at(0, "e4") != 1 || at(5, "e5") != 1 || at(0, "d5") != 0 {
		t.Error("piece planes are not seen from White's side")
	}
	if at(10, "a8") != 1 || at(10, "a1") != 0 || at(11, "a1") != 1 || at(12, "h8") != 1 {
		t.Error("trench or territory planes wrong")
	}
	checks := []struct {
		plane int
		want  float32
	}{{13, 7.0 / 36}, {14, 4.0 / 36}, {15, 18.0 / 25}, {16, 21.0 / 25}, {17, 10.0 / 50}, {18, 1}}
	for _, c := range checks {
		if got := at(c.plane, "c3"); got != c.want {
			t.Errorf("plane %d = %v, want %v", c.plane, got, c.want)
		}
	}
}

func BenchmarkEncodeFeatures(b *testing.B) {
	p := mustParseB(b, benchPositions[1])
	var f [NumPlanes * 64]float32
	for b.Loop() {
		p.EncodeFeatures(f[:])
	}
}

// TestSpatialActions checks the layout engine.SpatialActions promises:
// every legal action a starts on square a/40 of the feature board, where
// one of the mover's piece planes is set, in games seen from either side.
func TestSpatialActions(t *testing.T) {
	sp, ok := Game.(engine.SpatialActions)
	if !ok {
		t.Fatal("Trench does not implement engine.SpatialActions")
	}
	planes := sp.ActionPlanes()
	if planes*FeatureShape.Height*FeatureShape.Width != ActionCount {
		t.Fatalf("%d planes × 64 squares != %d actions", planes, ActionCount)
	}
	r := rand.New(rand.NewPCG(3, 4))
	s := Game.Start()
	features := make([]float32, FeatureShape.Size())
	for ply := 0; ply < 200 && !s.Over(); ply++ {
		s.EncodeFeatures(features)
		legal := s.LegalActions(nil)
		for _, a := range legal {
			sq := a / planes
			own := false
			for k := 0; k < int(numKinds); k++ {
				own = own || features[k*64+sq] == 1
			}
			if !own {
				t.Fatalf("ply %d, %s: action %d (%s) starts on feature square %d, which holds none of the mover's pieces", ply, s, a, s.ActionString(a), sq)
			}
		}
		s.Play(legal[r.IntN(len(legal))])
	}
}
