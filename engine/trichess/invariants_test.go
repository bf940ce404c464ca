package trichess

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"trench/engine"
)

var _ engine.State = (*State)(nil)

// checkInvariants checks, for one state, every invariant that move
// generation, notation, actions and play must keep.
func checkInvariants(t testing.TB, s *State) {
	t.Helper()
	fen := s.String()
	// A fresh copy judges the end and lists its captures without listing
	// every move; both must agree with the full list.
	fresh := &State{Position: s.Position, earlier: s.earlier}
	over, captures := fresh.Over(), fresh.CaptureActions(nil)
	actions := s.LegalActions(nil)
	if over != s.Over() || fresh.Outcome() != s.Outcome() {
		t.Fatalf("%s: judged without the move list: %v, with it: %v", fen, fresh.Outcome(), s.Outcome())
	}
	var want []int
	for i, m := range s.Moves() {
		if s.board[m.To()] != 0 {
			want = append(want, actions[i])
		}
	}
	if !slices.Equal(captures, want) || !slices.Equal(s.CaptureActions(nil), want) {
		t.Fatalf("%s: captures %v without the move list, %v with it; want %v", fen, captures, s.CaptureActions(nil), want)
	}
	if (len(actions) == 0) != s.Over() {
		t.Fatalf("%s: %d actions but Over() = %v", fen, len(actions), s.Over())
	}
	if q, err := ParseFEN(fen); err != nil || q.FEN() != fen || q.Hash() != s.Hash() {
		t.Fatalf("%s: the position string does not round-trip: %v", fen, err)
	}
	seen := map[int]bool{}
	for i, a := range actions {
		m := s.Moves()[i]
		if a < 0 || a >= ActionCount || seen[a] {
			t.Fatalf("%s: %s has action %d (out of range or shared)", fen, m, a)
		}
		seen[a] = true
		if back, ok := s.ActionToMove(a); !ok || back != m {
			t.Fatalf("%s: action %d of %s decodes to %s", fen, a, m, back)
		}
		if str := s.ActionString(a); str != m.String() {
			t.Fatalf("%s: ActionString(%d) = %q, want %q", fen, a, str, m)
		}
		if b, err := s.ParseAction(m.String()); err != nil || b != a {
			t.Fatalf("%s: %s parses to action %d, %v; want %d", fen, m, b, err, a)
		}
		child := s.Clone().(*State)
		child.Play(a)
		if s.String() != fen || len(s.LegalActions(nil)) != len(actions) {
			t.Fatalf("%s: playing %s on a clone changed the original", fen, m)
		}
		if child.Hash() != child.computeHash() {
			t.Fatalf("%s after %s: incremental hash differs from the hash from scratch", fen, m)
		}
		var taken int
		for c := range numColors {
			if Color(c) != s.side {
				taken += s.Material(Color(c)) - child.Material(Color(c))
			}
		}
		if v := s.CaptureValue(a); v != float32(taken) {
			t.Fatalf("%s: %s takes %d points, CaptureValue says %v", fen, m, taken, v)
		}
		if child.InCheck(s.side) {
			t.Fatalf("%s: %s leaves the mover in check", fen, m)
		}
	}
	// Actions that are not legal are refused by PlayChecked.
	for a := 0; a < ActionCount; a += 97 {
		if !seen[a] {
			if err := engine.PlayChecked(s.Clone(), a); !errors.Is(err, engine.ErrIllegalAction) {
				t.Fatalf("%s: PlayChecked of illegal action %d: %v", fen, a, err)
			}
		}
	}
	feats := make([]float32, FeatureShape.Size())
	s.EncodeFeatures(feats)
	kings := 0
	for _, v := range feats[int(King)*planeSize : int(King+1)*planeSize] {
		if v == 1 {
			kings++
		}
	}
	if kings != 1 {
		t.Fatalf("%s: the mover's king plane has %d ones", fen, kings)
	}
}

// playout plays random moves from s, checking the invariants at every ply,
// and returns how the game ended.
func playout(t testing.TB, s *State, r *rand.Rand, plies int) Ending {
	t.Helper()
	for range plies {
		checkInvariants(t, s)
		actions := s.LegalActions(nil)
		if len(actions) == 0 {
			return s.Outcome().Ending
		}
		s.Play(actions[r.IntN(len(actions))])
	}
	return s.Outcome().Ending
}

func TestRandomPlayouts(t *testing.T) {
	games, plies := 12, 600
	if testing.Short() {
		games, plies = 3, 200
	}
	r := rand.New(rand.NewPCG(1, 2))
	endings := map[Ending]int{}
	for range games {
		endings[playout(t, Game.Start().(*State), r, plies)]++
	}
	t.Logf("endings of %d random games: %v", games, endings)
}

func TestRaysAreReversible(t *testing.T) {
	// attacked looks along rays from the target: each ray from A through
	// B must come back from B to A through the same squares.
	for _, table := range []*[NumSquares][][]Square{&rookRays, &bishopRays} {
		for a := Square(0); a < NumSquares; a++ {
			for _, ray := range table[a] {
				for k, b := range ray {
					back := append([]Square{}, ray[:k]...)
					for i, j := 0, len(back)-1; i < j; i, j = i+1, j-1 {
						back[i], back[j] = back[j], back[i]
					}
					back = append(back, a)
					found := false
					for _, r := range table[b] {
						found = found || len(r) >= len(back) && equalSquares(r[:len(back)], back)
					}
					if !found {
						t.Fatalf("the ray %v from %s reaches %s, but no ray from %s goes back by %v", ray, a, b, b, back)
					}
				}
			}
		}
	}
}

func TestAttackedMatchesMoves(t *testing.T) {
	// A square holding an opponent's piece is attacked by the mover exactly
	// when a pseudo-legal move captures on it.
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		var p Position
		for i := range 30 {
			s := Square(r.IntN(NumSquares))
			if p.board[s] == 0 {
				p.put(Color(i%3), Kind(r.IntN(numKinds)), s)
			}
		}
		p.side = Color(r.IntN(3))
		captures := map[Square]bool{}
		for _, m := range p.PseudoLegalMoves(nil) {
			if p.board[m.To()] != 0 {
				captures[m.To()] = true
			}
		}
		for s := Square(0); s < NumSquares; s++ {
			if pc := p.board[s]; pc != 0 && pc.color() != p.side {
				if got := p.attacked(s, 1<<p.side); got != captures[s] {
					t.Fatalf("%s: %s attacked %v, a capture there %v", p.FEN(), s, got, captures[s])
				}
			}
		}
	}
}

func TestParseFENErrors(t *testing.T) {
	start := StartFEN
	for _, tc := range []struct{ text, want string }{
		{"", "want 5 fields"},
		{strings.Replace(start, " w ", " x ", 1), "side to move \"x\""},
		{strings.Replace(start, "/8/8|", "/8/7|", 1), "section White rank 4 \"7\": the rank has 7 squares"},
		{strings.Replace(start, "/8/8|", "/8/44|", 1), "two digits in a row"},
		{strings.Replace(start, "/8/8|", "/8/9|", 1), "character 1 \"9\""},
		{strings.Replace(start, "wRwNwB", "wRwXwB", 1), "character 4 \"X\": want a piece letter"},
		{strings.Replace(start, "wRwNwB", "wRxNwB", 1), "character 3 \"x\": want a digit"},
		{strings.Replace(start, "wRwNwB", "wRéNwB", 1), "character 3 \"é\": want a digit"},
		{strings.Replace(start, "/8/8|", "/8/7w|", 1), "has no piece letter"},
		{strings.Replace(start, "wKwB", "wQwB", 1), "White has 0 kings"},
		{strings.Replace(start, "/8/8|", "/8/wQ7|", 1), "White has 2 queens"},
		{strings.Replace(start, "/8/8|r", "/wK7/8|r", 1), "a second White king"},
		{strings.Replace(start, "wRwNwBwQ", "wPwNwBwQ", 1), "own rank 1"},
		{strings.Replace(start, "KQ,KQ,KQ", "KQ,KQ", 1), "want 3 comma-separated parts"},
		{strings.Replace(start, "KQ,KQ,KQ", "QK,KQ,KQ", 1), "White's part \"QK\""},
		{strings.Replace(start, "wRwNwBwQwKwBwNwR", "wRwNwBwQwKwBwN1", 1), "needs its king on We1 and a rook on Wh1"},
		{strings.Replace(start, " 0 1", " 151 1", 1), "quiet plies"},
		{strings.Replace(start, " 0 1", " 01 1", 1), "quiet plies"},
		{strings.Replace(start, " 0 1", " 0 0", 1), "move number"},
		{"wK7/8/8/8|rK7/8/8/8|bK7/8/8/8|8/8/8/8 w -,-,- 0 1", "want 3 sections"},
		{"wK7/8/8/rR7|rK7/8/8/8|bK7/8/8/8 r -,-,- 0 1", "White, who moved last, is in check"},
	} {
		_, err := ParseFEN(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFEN(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

func TestMoveNotationErrors(t *testing.T) {
	s := Game.Start().(*State)
	for _, tc := range []struct{ text, want string }{
		{"We2", "want a from-square and a to-square"},
		{"Xe2We4", "section \"X\""},
		{"Wi2We4", "file \"i\""},
		{"We5We4", "rank \"5\""},
		{"We2We4=K", "a liberation is written"},
		{"é2We4", "section \"é\""},
		{"We4We5", "rank \"5\""},
		{"We3We4", "no piece on We3"},
		{"Re2Re4", "Red's, and White is to move"},
		{"We2We5", "rank"},
		{"We2Wd3", "cannot go to Wd3"},
	} {
		_, err := s.ParseAction(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseAction(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

func FuzzParseFEN(f *testing.F) {
	f.Add(StartFEN)
	f.Add("wK7/8/8/8|rK7/8/8/8|bK7/8/8/8 w -,-,- 0 1")
	f.Add("wRwNwBwQwKwBwNwR/wPwPwPwPwPwPwPwP/8/8|rRrNrBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8|bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8 b K,Q,- 149 65535")
	f.Add("w")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseFEN(text)
		if err != nil {
			return
		}
		if got := p.FEN(); got != text {
			t.Fatalf("ParseFEN(%q).FEN() = %q", text, got)
		}
		if p.Hash() != p.computeHash() {
			t.Fatalf("%q: hash differs from the hash from scratch", text)
		}
		checkInvariants(t, NewState(p))
	})
}

func FuzzPlayout(f *testing.F) {
	f.Add(uint64(1), uint8(30))
	f.Add(uint64(7), uint8(200))
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8) {
		r := rand.New(rand.NewPCG(seed, seed>>32))
		playout(t, Game.Start().(*State), r, int(plies))
	})
}

// rotate relabels the players: each army moves to the next player's
// section and colour, so that White's pieces become Red's, and so on.
func rotate(p Position) Position {
	var q Position
	for c := range q.king {
		q.king[c] = NoSquare
	}
	for s, pc := range p.board {
		if pc != 0 {
			sq := Square(s)
			q.put(pc.color().Next(), pc.kind(), SquareAt(sq.Section().Next(), sq.File(), sq.Rank()))
		}
	}
	for c := White; c < numColors; c++ {
		for _, queen := range []bool{false, true} {
			if p.CanCastle(c, queen) {
				q.castling |= castleBit(c.Next(), queen)
			}
		}
	}
	q.side, q.quiet, q.moveNumber = p.side.Next(), p.quiet, p.moveNumber
	q.hash = q.computeHash()
	return q
}

func TestMoverFrame(t *testing.T) {
	// Features and actions are seen from the mover: relabelling the
	// players leaves them unchanged.
	r := rand.New(rand.NewPCG(7, 8))
	s := Game.Start().(*State)
	ply := 0
	for ; ply < 120 && !s.Over(); ply++ {
		rot := NewState(rotate(s.Position))
		a, b := make([]float32, FeatureShape.Size()), make([]float32, FeatureShape.Size())
		s.EncodeFeatures(a)
		rot.EncodeFeatures(b)
		if !slices.Equal(a, b) {
			t.Fatalf("%s: the features differ from those of its rotation %s", s, rot)
		}
		got, want := rot.LegalActions(nil), s.LegalActions(nil)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: the legal actions differ from those of its rotation %s", s, rot)
		}
		if s.Outcome().Ending != rot.Outcome().Ending {
			t.Fatalf("%s: ending %v, its rotation's %v", s, s.Outcome().Ending, rot.Outcome().Ending)
		}
		actions := s.LegalActions(nil)
		s.Play(actions[r.IntN(len(actions))])
	}
	if ply < 30 {
		t.Errorf("the random game ended after %d plies; want a longer test", ply)
	}
}

func TestFeatureCells(t *testing.T) {
	for c := White; c < numColors; c++ {
		seen := map[int]bool{}
		for s := Square(0); s < NumSquares; s++ {
			i := cell(s, c)
			if i < 0 || i >= planeSize || seen[i] {
				t.Fatalf("%s's frame: %s at cell %d, out of range or shared", c, s, i)
			}
			seen[i] = true
		}
	}
	// The mover's files a-d on rank 4 sit next to the squares they cross
	// into, in the previous player's section.
	for f := range 4 {
		s := SquareAt(White, f, 3)
		t2, _, _ := step(s, stepF, false)
		if cell(t2, White) != cell(s, White)-8 {
			t.Errorf("%s (cell %d) crosses to %s (cell %d), not the cell above", s, cell(s, White), t2, cell(t2, White))
		}
	}
}

func FuzzParseAction(f *testing.F) {
	f.Add("We2We4")
	f.Add("Bd2Bd1=Q")
	f.Add("Wb1Wc3")
	f.Fuzz(func(t *testing.T, text string) {
		s := Game.Start().(*State)
		a, err := s.ParseAction(text)
		if err != nil {
			return
		}
		if got := s.ActionString(a); got != text {
			t.Fatalf("ParseAction(%q) = %d, which is written %q", text, a, got)
		}
	})
}

func FuzzReferenceLine(f *testing.F) {
	f.Add("wP Wa2: Wa3 Wa4")
	f.Add("r;Wa3=bB Wb1=rK Re1=rK Rh1=rR;Rb1Rb2")
	f.Add("b;;")
	f.Fuzz(func(t *testing.T, line string) {
		diff, err := CheckReferenceLine(line)
		if err == nil && !IsReferenceLine(line) {
			t.Fatalf("%q is not a reference line, yet it was checked: %q", line, diff)
		}
	})
}

func TestActionCells(t *testing.T) {
	g := Game.(engine.ActionCells)
	planes := g.ActionPlanes()
	if planes < 1 || planes*planeSize < ActionCount {
		t.Fatalf("%d action planes of %d cells cannot hold %d actions", planes, planeSize, ActionCount)
	}
	seen := map[int]int{}
	for a := range ActionCount {
		c := g.ActionCell(a)
		if c < 0 || c >= planes*planeSize {
			t.Fatalf("action %d at cell %d, outside [0, %d)", a, c, planes*planeSize)
		}
		if b, ok := seen[c]; ok {
			t.Fatalf("actions %d and %d share cell %d", b, a, c)
		}
		seen[c] = a
		if from := cell(actionFrom[a], White); c/planes != from {
			t.Errorf("action %d from %s sits at square %d, not its from-square's cell %d", a, actionFrom[a], c/planes, from)
		}
	}
	for _, a := range []int{-1, ActionCount} {
		if c := g.ActionCell(a); c != -1 {
			t.Errorf("ActionCell(%d) = %d, want -1", a, c)
		}
	}
	// The same step is the same move shape wherever it starts, and
	// different steps or freed pieces are different shapes.
	s := Game.Start().(*State)
	shape := func(text string) int {
		t.Helper()
		a, err := s.ParseAction(text)
		if err != nil {
			t.Fatal(err)
		}
		return g.ActionCell(a) % planes
	}
	if shape("We2We4") != shape("Wa2Wa4") {
		t.Errorf("two double pawn steps have shapes %d and %d", shape("We2We4"), shape("Wa2Wa4"))
	}
	if shape("We2We4") == shape("We2We3") || shape("Wb1Wc3") == shape("Wb1Wa3") {
		t.Error("different steps share a move shape")
	}
	libs := 0
	for a := range ActionCount {
		if actionLib[a] == Pawn {
			continue
		}
		libs++
		plain := pairAction[actionFrom[a]][actionTo[a]]
		if g.ActionCell(a)%planes == g.ActionCell(int(plain))%planes {
			t.Errorf("liberation %d and the plain move %d share a move shape", a, plain)
		}
	}
	if libs == 0 {
		t.Error("no liberation action to check")
	}
}

// TestExposureKeepsTheMoves checks along random games that the legal
// moves found with the position's exposure (testing a king only after
// moves that can uncover it) are those found by testing both kings after
// every move, in positions with and without checks.
func TestExposureKeepsTheMoves(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	r := rand.New(rand.NewPCG(3, 4))
	exposed := 0
	for range games {
		s := Game.Start().(*State)
		for range 400 {
			p := &s.Position
			var every []Move
			var child Position
			for _, m := range p.genPseudo(nil, false) {
				if p.playLegal(m, &child, anyExposure) {
					every = append(every, m)
				}
			}
			if got := p.legalMoves(nil); !slices.Equal(got, every) {
				t.Fatalf("%s: legal moves %v with the exposure, %v testing every move", s, got, every)
			}
			var caps []Move
			for _, m := range every {
				if p.board[m.To()] != 0 {
					caps = append(caps, m)
				}
			}
			if got := p.legalCaptures(nil); !slices.Equal(got, caps) {
				t.Fatalf("%s: legal captures %v with the exposure, %v testing every move", s, got, caps)
			}
			if x := p.exposure(); x.inCheck || x.shieldChecked {
				exposed++
			}
			actions := s.LegalActions(nil)
			if len(actions) == 0 {
				break
			}
			s.Play(actions[r.IntN(len(actions))])
		}
	}
	if exposed < 20 {
		t.Errorf("only %d positions with a king in check: the games do not exercise the exposure", exposed)
	}
}
