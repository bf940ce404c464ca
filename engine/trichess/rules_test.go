package trichess

import (
	"slices"
	"strings"
	"testing"

	"trench/engine"
)

// build makes a state from placements such as "Wa1=wK Wa4=rR", checked by
// the strict position parser.
func build(t *testing.T, side Color, castling string, quiet int, placements string) *State {
	t.Helper()
	var p Position
	for c := range p.king {
		p.king[c] = NoSquare
	}
	for _, pl := range strings.Fields(placements) {
		s, err := ParseSquare(pl[:3])
		if err != nil || len(pl) != 6 {
			t.Fatalf("placement %q: %v", pl, err)
		}
		p.put(Color(strings.IndexByte("wrb", pl[4])), Kind(strings.IndexByte(kindLetters, pl[5])), s)
	}
	p.side, p.quiet, p.moveNumber = side, uint8(quiet), 10
	fen := strings.Replace(p.FEN(), "-,-,-", castling, 1)
	q, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return NewState(q)
}

func moveStrings(moves []Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// wantMoves checks that the legal moves starting from the square from are
// exactly want (sorted), or all legal moves when from is "".
func wantMoves(t *testing.T, s *State, from string, want ...string) {
	t.Helper()
	var got []string
	for _, m := range moveStrings(s.Moves()) {
		if strings.HasPrefix(m, from) {
			got = append(got, m)
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: moves from %q = %v, want %v", s, from, got, want)
	}
}

// wantIllegal checks that move is refused with a reason containing why.
func wantIllegal(t *testing.T, s *State, move, why string) {
	t.Helper()
	_, err := s.ParseAction(move)
	if err == nil || !strings.Contains(err.Error(), why) {
		t.Errorf("%s: ParseAction(%s) = %v, want an error saying %q", s, move, err, why)
	}
}

func wantOutcome(t *testing.T, s *State, ending Ending, white, red, black Title) {
	t.Helper()
	o := s.Outcome()
	want := Outcome{Ending: ending, Titles: [3]Title{white, red, black}}
	if o != want {
		t.Errorf("%s: outcome %v, want %v", s, o, want)
	}
	if !s.Over() || len(s.LegalActions(nil)) != 0 {
		t.Errorf("%s: over %v with %d legal actions, want over with none", s, s.Over(), len(s.LegalActions(nil)))
	}
	if got := engine.EndReason(s); got != ending.String() {
		t.Errorf("%s: end reason %q, want %q", s, got, ending)
	}
	pts := s.Scores(nil)
	res := s.Result(nil)
	for c, tt := range want.Titles {
		if got := engine.Title(s, c); got != tt.String() {
			t.Errorf("%s: %s's title %q, want %q", s, Color(c), got, tt)
		}
		if pts[c] != float32(tt.Points()) || res[c] != float32(2*tt.Points()-3)/3 {
			t.Errorf("%s: %s scores %v and result %v, want %d points", s, Color(c), pts[c], res[c], tt.Points())
		}
	}
}

func TestStartPerft(t *testing.T) {
	p := StartPosition()
	for d, want := range []uint64{20, 400, 8000} {
		if got := Perft(&p, d+1); got != want {
			t.Errorf("perft %d = %d, want %d", d+1, got, want)
		}
	}
}

func TestCheckAndEscape(t *testing.T) {
	// Red's rook on Wa4 checks White's king on Wa1 along the a-file.
	s := build(t, White, "-,-,-", 0, "Wa1=wK Wh2=wR Wa4=rR Rh1=rK Bd1=bK")
	if !s.InCheck(White) {
		t.Fatal("White is not in check")
	}
	// Step aside or block; every other move leaves the king in check.
	wantMoves(t, s, "", "Wa1Wb1", "Wa1Wb2", "Wh2Wa2")
	wantIllegal(t, s, "Wa1Wa2", "leaves the mover's king in check")
	wantIllegal(t, s, "Wh2Wh3", "leaves the mover's king in check")
}

func TestShieldRule(t *testing.T) {
	// White's knight on Wa2 stands between Red's rook on Wa4 and Black's
	// king on Wa1: White (moving after Black, before Red) may not expose
	// Black to Red.
	s := build(t, White, "-,-,-", 0, "Wh1=wK Wa2=wN Wa4=rR Rh1=rK Wa1=bK")
	wantMoves(t, s, "Wa2")
	wantIllegal(t, s, "Wa2Wc3", "shield rule: it exposes Black's king to Red")
	if len(s.Moves()) == 0 {
		t.Error("White has no move at all")
	}
	// Red may not expose White to Black, even by a capture that takes
	// the shielding knight away from the line.
	s = build(t, Red, "-,-,-", 0, "Wa1=wK Wa2=rN Wc3=bP Wa4=bR Rh1=rK Bd1=bK")
	wantMoves(t, s, "Wa2")
	wantIllegal(t, s, "Wa2Wc3", "shield rule: it exposes White's king to Black")
	// Black may not expose Red to White; without White's rook it may.
	s = build(t, Black, "-,-,-", 0, "Wh1=wK Ra1=rK Ra2=bN Ra4=wR Bd1=bK")
	wantMoves(t, s, "Ra2")
	s = build(t, Black, "-,-,-", 0, "Wh1=wK Ra1=rK Ra2=bN Bd1=bK")
	wantMoves(t, s, "Ra2", "Ra2Rb4", "Ra2Rc1", "Ra2Rc3")
}

func TestNonAggression(t *testing.T) {
	// White (K, Q, R: 14 points) may not take Red's knight (Red: 3 points)
	// standing in Red's own section.
	s := build(t, White, "-,-,-", 0, "Wh1=wK Wa1=wQ Rc1=wR Rc3=rN Rh4=rK Bd1=bK")
	wantMoves(t, s, "Rc1", "Rc1Ra1", "Rc1Rb1", "Rc1Rc2", "Rc1Rd1", "Rc1Re1", "Rc1Rf1", "Rc1Rg1", "Rc1Rh1")
	wantIllegal(t, s, "Rc1Rc3", "non-aggression: Red has at least 3 points less than White")
	// Unless the capture gives check to Red's king.
	s = build(t, White, "-,-,-", 0, "Wh1=wK Wa1=wQ Rc1=wR Rc3=rN Rc4=rK Bd1=bK")
	if _, err := s.ParseAction("Rc1Rc3"); err != nil {
		t.Errorf("the capture that checks Red is refused: %v", err)
	}
	// Two points apart, the capture is allowed.
	s = build(t, White, "-,-,-", 0, "Wh1=wK Rc1=wR Rc3=rN Rh4=rK Bd1=bK")
	if _, err := s.ParseAction("Rc1Rc3"); err != nil {
		t.Errorf("capture between players 2 points apart refused: %v", err)
	}
	// Outside Red's section the knight has no protection.
	s = build(t, White, "-,-,-", 0, "Wh1=wK Wa1=wQ Wc1=wR Wc3=rN Rh4=rK Bd1=bK")
	if _, err := s.ParseAction("Wc1Wc3"); err != nil {
		t.Errorf("capture in White's own section refused: %v", err)
	}
}

func TestLiberation(t *testing.T) {
	// White's pawn on Bd2 heads for Black's rank 1; White has everything
	// but its king and that pawn captured, so it chooses among five kinds.
	s := build(t, White, "-,-,-", 0, "Wh1=wK Bd2=wP Rh1=rK Bh4=bK")
	wantMoves(t, s, "Bd2", "Bd2Bd1=B", "Bd2Bd1=N", "Bd2Bd1=P", "Bd2Bd1=Q", "Bd2Bd1=R")
	wantIllegal(t, s, "Bd2Bd1", "frees a captured piece")
	a, err := s.ParseAction("Bd2Bd1=N")
	if err != nil {
		t.Fatal(err)
	}
	s.Play(a)
	if c, k, ok := s.PieceAt(mustSquare(t, "Bd1")); !ok || c != White || k != Knight {
		t.Errorf("after Bd2Bd1=N: %s on Bd1, want a White knight", s)
	}
	if s.Material(White) != 3 {
		t.Errorf("White's material %d after freeing a knight, want 3", s.Material(White))
	}
	// With nothing captured, the pawn stays a pawn and cannot move on.
	s = build(t, White, "-,-,-", 0, "Wa1=wR Wb1=wN Wc1=wB Wd1=wQ We1=wK Wf1=wB Wg1=wN Wh1=wR "+
		"Wa2=wP Wb2=wP Wc2=wP We2=wP Wf2=wP Wg2=wP Wh2=wP Bd2=wP Rh1=rK Bh4=bK")
	wantMoves(t, s, "Bd2", "Bd2Bd1")
	wantIllegal(t, s, "Bd2Bd1=Q", "no captured piece of that kind")
	a, err = s.ParseAction("Bd2Bd1")
	if err != nil {
		t.Fatal(err)
	}
	s.Play(a)
	if c, k, ok := s.PieceAt(mustSquare(t, "Bd1")); !ok || c != White || k != Pawn {
		t.Errorf("after Bd2Bd1 with nothing captured: want a White pawn on Bd1 in %s", s)
	}
	// Red and Black pass; the pawn on Bd1 has no move.
	for _, m := range []string{"Rh1Rg1", "Bh4Bg4"} {
		a, err := s.ParseAction(m)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(a)
	}
	wantMoves(t, s, "Bd1")
}

func mustSquare(t *testing.T, name string) Square {
	t.Helper()
	s, err := ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCastling(t *testing.T) {
	// Red's rook on Wf4 attacks Wf1: White may not castle king-side
	// through it, but may castle queen-side.
	s := build(t, White, "KQ,-,-", 0, "Wa1=wR We1=wK Wh1=wR Wf4=rR Rd1=rK Bd1=bK")
	wantMoves(t, s, "We1", "We1Wc1", "We1Wd1", "We1Wd2", "We1We2")
	wantIllegal(t, s, "We1Wg1", "cannot go to Wg1")
	a, err := s.ParseAction("We1Wc1")
	if err != nil {
		t.Fatal(err)
	}
	s.Play(a)
	if _, k, _ := s.PieceAt(mustSquare(t, "Wd1")); k != Rook || s.CanCastle(White, false) || s.CanCastle(White, true) {
		t.Errorf("after castling queen-side: %s, want the rook on Wd1 and no rights", s)
	}
	// Without the attacker both castlings are there; in check, neither.
	s = build(t, White, "KQ,-,-", 0, "Wa1=wR We1=wK Wh1=wR Rd1=rK Bd1=bK")
	wantMoves(t, s, "We1", "We1Wc1", "We1Wd1", "We1Wd2", "We1We2", "We1Wf1", "We1Wf2", "We1Wg1")
	s = build(t, White, "KQ,-,-", 0, "Wa1=wR We1=wK Wh1=wR We4=rR Rd1=rK Bd1=bK")
	wantMoves(t, s, "We1", "We1Wd1", "We1Wd2", "We1Wf1", "We1Wf2")
}

func TestEndings(t *testing.T) {
	// Red's rooks on the a- and b-files mate White's king in the corner.
	s := build(t, White, "-,-,-", 0, "Wa1=wK Wa4=rR Wb4=rR Rh1=rK Bc1=bK")
	wantOutcome(t, s, Checkmate, Serf, Seigneur, Vassal)
	// The same by Black.
	s = build(t, White, "-,-,-", 0, "Wa1=wK Wa4=bR Wb4=bR Rh1=rK Bc1=bK")
	wantOutcome(t, s, Checkmate, Serf, Vassal, Seigneur)
	// Red's rooks on the files and Black's on ranks 1 and 2 each mate alone.
	s = build(t, White, "-,-,-", 0, "Wa1=wK Wa4=rR Wb4=rR Wh1=bR Wh2=bR Rd1=rK Bd1=bK")
	wantOutcome(t, s, DoubleCheckmate, Serf, Chevalier, Chevalier)
	// Red checks and covers Wa2, Black covers Wb1 and Wb2: a coalition
	// mate. Black moved before White: vassal; White and Red chevalier.
	s = build(t, White, "-,-,-", 0, "Wa1=wK Wa4=rR Wb4=bR Rd1=rK Bd1=bK")
	wantOutcome(t, s, EchecEtPat, Chevalier, Chevalier, Vassal)
	// The same coalition mate of Red, whose previous player is White.
	s = build(t, Red, "-,-,-", 0, "Ra1=rK Ra4=bR Rb4=wR Wd1=wK Bd1=bK")
	wantOutcome(t, s, EchecEtPat, Vassal, Chevalier, Chevalier)
	// Not in check, no move: pat.
	s = build(t, White, "-,-,-", 0, "Wa1=wK Wb4=rR Wh2=rR Rd1=rK Bd1=bK")
	wantOutcome(t, s, Pat, Vassal, Vassal, Vassal)
}

func TestEchecEtFat(t *testing.T) {
	// White's rook lands on Wd4 between Red's king on Wa4 and Black's on
	// Wh4, checking both: the game ends at once.
	s := build(t, White, "-,-,-", 0, "Wh1=wK Wd1=wR Wa4=rK Wh4=bK")
	a, err := s.ParseAction("Wd1Wd4")
	if err != nil {
		t.Fatal(err)
	}
	s.Play(a)
	wantOutcome(t, s, EchecEtFat, Seigneur, Serf, Serf)
	if _, err := Game.ParseState(s.String()); err != nil {
		t.Errorf("the position after échec et fat does not parse: %v", err)
	}
}

func TestQuietPlies(t *testing.T) {
	s := build(t, White, "-,-,-", QuietLimit-1, "Wh1=wK Wd1=wR Wc2=wP Ra4=rK Bh4=bK")
	pawn := s.Clone().(*State)
	a, _ := s.ParseAction("Wd1Wd2")
	s.Play(a)
	wantOutcome(t, s, QuietPlies, Vassal, Vassal, Vassal)
	a, _ = pawn.ParseAction("Wc2Wc3")
	pawn.Play(a)
	if pawn.Over() || pawn.QuietPlies() != 0 {
		t.Errorf("a pawn move at ply 149 without capture: over %v, quiet %d", pawn.Over(), pawn.QuietPlies())
	}
}

func TestRepetition(t *testing.T) {
	s := Game.Start().(*State)
	shuffle := []string{"Wb1Wc3", "Rb1Rc3", "Bb1Bc3", "Wc3Wb1", "Rc3Rb1", "Bc3Bb1"}
	for round := range 2 {
		for i, m := range shuffle {
			if s.Over() {
				t.Fatalf("round %d move %d: over early: %v", round, i, s.Outcome())
			}
			a, err := s.ParseAction(m)
			if err != nil {
				t.Fatal(err)
			}
			s.Play(a)
		}
		if got := s.Repetitions(); got != round+1 {
			t.Errorf("after round %d: the start position occurred %d times before, want %d", round, got, round+1)
		}
	}
	wantOutcome(t, s, Repetition, Vassal, Vassal, Vassal)
}

func TestMaterials(t *testing.T) {
	if got := Game.Start().(engine.Material).Materials(nil); !slices.Equal(got, []float32{ArmyPoints, ArmyPoints, ArmyPoints}) {
		t.Errorf("materials at the start %v, want %d each", got, ArmyPoints)
	}
	// White's rook takes Red's queen.
	s := build(t, White, "-,-,-", 0, "Wa1=wK Wd1=wR Wd4=rQ Wh3=rP Rd1=rK Bd1=bK Bb2=bB")
	if got := s.Materials(nil); !slices.Equal(got, []float32{5, 10, 3}) {
		t.Errorf("materials %v, want [5 10 3]", got)
	}
	a, err := s.ParseAction("Wd1Wd4")
	if err != nil {
		t.Fatal(err)
	}
	s.Play(a)
	if got := s.Materials(nil); !slices.Equal(got, []float32{5, 1, 3}) {
		t.Errorf("after Wd1Wd4: materials %v, want [5 1 3]", got)
	}
}
