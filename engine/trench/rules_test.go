package trench

import (
	"slices"
	"strings"
	"testing"
)

// movesFrom lists the legal moves of the piece on from, in notation, sorted.
func movesFrom(t *testing.T, p *Position, from string) []string {
	t.Helper()
	var out []string
	for _, m := range p.GenerateMoves(nil) {
		if m.From().String() == from {
			out = append(out, m.String())
		}
	}
	slices.Sort(out)
	return out
}

func mustParse(t *testing.T, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrenchRules checks each trench rule on a position built to show it:
// the exact legal moves of one piece.
func TestTrenchRules(t *testing.T) {
	tests := []struct {
		name, fen, from string
		want            []string
	}{
		{"frontal immunity: no capture of d5 from Black's own territory",
			"8/8/8/3p4/3P4/8/8/8 b 0 0 0 1", "d4", []string{"d4c4", "d4d3", "d4e4"}},
		{"rear vulnerability: capture of d5 from White's territory",
			"8/8/3P4/3p4/8/8/8/8 b 0 0 0 1", "d6", []string{"d6c6", "d6d5", "d6d7", "d6e6"}},
		{"blindsided: the trench piece cannot capture back into its own territory",
			"8/8/8/3P4/3p4/8/8/8 b 0 0 0 1", "d5", []string{"d5c5", "d5d6", "d5e5"}},
		{"rear capture by White of Black's trench piece from Black's territory",
			"8/8/8/3P4/3p4/8/8/8 w 0 0 0 1", "d4", []string{"d4c4", "d4d3", "d4d5", "d4e4"}},
		{"no enfilade: a Colonel in the trench cannot capture along it",
			"8/8/2C5/8/4p3/8/8/8 b 0 0 0 1", "c6", []string{"c6a6", "c6a8", "c6b6", "c6b7", "c6c2", "c6c3", "c6c4", "c6c5", "c6c7", "c6c8", "c6d5", "c6d6", "c6d7", "c6e6", "c6e8", "c6f6", "c6g6"}},
		{"no enfilade: nor pass a trench piece",
			"8/8/2C5/3p4/8/8/8/8 b 0 0 0 1", "c6", []string{"c6a6", "c6a8", "c6b6", "c6b7", "c6c2", "c6c3", "c6c4", "c6c5", "c6c7", "c6c8", "c6d6", "c6d7", "c6e6", "c6e8", "c6f6", "c6g6"}},
		{"full reach: captures everything passed, stops anywhere, stopped by a friend",
			"Gp1s1P2/8/8/8/8/8/8/8 b 0 0 0 1", "a8", []string{"a8a3", "a8a4", "a8a5", "a8a6", "a8a7", "a8b7", "a8b8", "a8c6", "a8c8", "a8d5", "a8d8", "a8e4", "a8e8", "a8f3"}},
		{"a soldier in the trench has no move along it",
			"8/8/8/3P4/8/8/8/8 b 0 0 0 1", "d5", []string{"d5c5", "d5d4", "d5d6", "d5e5"}},
		{"a sergeant in the trench has no move along it",
			"8/8/8/3S4/8/8/8/8 b 0 0 0 1", "d5", []string{"d5b5", "d5c5", "d5d3", "d5d4", "d5d6", "d5d7", "d5e5", "d5e6", "d5f5", "d5f7"}},
		{"a captain in the trench has no move along it",
			"8/8/8/3K4/8/8/8/8 b 0 0 0 1", "d5", []string{"d5a2", "d5a5", "d5b3", "d5b5", "d5c4", "d5c5", "d5d2", "d5d3", "d5d4", "d5d6", "d5d7", "d5d8", "d5e5", "d5e6", "d5f5", "d5f7", "d5g5", "d5g8"}},
		{"a general moves along the trench both ways",
			"8/8/8/8/4G3/8/8/8 b 0 0 0 1", "e4", []string{"a4", "a8", "b1", "b4", "b7", "c2", "c4", "c6", "d3", "d4", "d5", "e1", "e2", "e3", "e5", "e6", "e7", "e8", "f3", "f4", "f5", "g2", "g4", "g6", "h1", "h4", "h7"}},
		{"the vertical step crosses the trench line between two trench squares",
			"8/8/8/3p4/3Kp3/8/8/8 b 0 0 0 1", "d4", []string{"d4a1", "d4a4", "d4b2", "d4b4", "d4c3", "d4c4", "d4d1", "d4d2", "d4d3", "d4e5", "d4f6", "d4g7"}},
		{"White's sergeant moves forward towards a1",
			"8/8/8/8/8/3s4/8/8 w 0 0 0 1", "d3", []string{"d3b1", "d3b3", "d3c2", "d3c3", "d3d1", "d3d2", "d3d4", "d3d5", "d3e3", "d3f3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.fen)
			want := slices.Clone(tc.want)
			for i, w := range want {
				if len(w) == 2 {
					want[i] = tc.from + w
				}
			}
			slices.Sort(want)
			if got := movesFrom(t, &p, tc.from); !slices.Equal(got, want) {
				t.Errorf("moves from %s in %s:\n got %v\nwant %v", tc.from, tc.fen, got, want)
			}
		})
	}
}

// TestFullReachCaptures checks what each full-reach stop captures and
// scores.
func TestFullReachCaptures(t *testing.T) {
	tests := []struct {
		move     string
		captured int // pieces taken
		score    int
	}{
		{"a8b8", 1, 1},
		{"a8c8", 1, 1},
		{"a8d8", 2, 3},
		{"a8e8", 2, 3},
	}
	for _, tc := range tests {
		p := mustParse(t, "Gp1s1P2/8/8/8/8/8/8/8 b 0 0 0 1")
		m, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		before := p.Material(White)
		p.Play(m)
		if got := p.Score(Black); got != tc.score {
			t.Errorf("%s: Black's score %d, want %d", tc.move, got, tc.score)
		}
		if lost := before - p.Material(White); lost != tc.score {
			t.Errorf("%s: White lost %d points of material, want %d", tc.move, lost, tc.score)
		}
		if p.QuietPlies() != 0 {
			t.Errorf("%s: quiet plies %d after a capture", tc.move, p.QuietPlies())
		}
	}
}

// TestEndings checks the three ways a game ends and their results.
func TestEndings(t *testing.T) {
	tests := []struct {
		name, fen, move string
		over            bool
		winner          string // "black", "white" or "draw"
	}{
		{"25 points reached in the middle of a full-reach route", "Gp1s1P2/8/8/8/8/8/8/8 b 22 0 0 1", "a8d8", true, "black"},
		{"25 points passed with the route going on", "Gp1s1P2/8/8/8/8/8/8/8 b 22 0 0 1", "a8e8", true, "black"},
		{"24 points is not the end", "Gp1s1P2/8/8/8/8/8/8/8 b 22 0 0 1", "a8b8", false, ""},
		{"the 50th quiet ply ends the game: higher score wins", "8/8/8/8/8/8/1p6/P7 b 3 1 49 30", "a1a2", true, "black"},
		{"the 50th quiet ply with equal scores is a draw", "8/8/8/8/8/8/1p6/P7 b 2 2 49 30", "a1a2", true, "draw"},
		{"a capture on the 50th ply resets the count", "8/8/8/8/8/8/7p/Pp6 b 2 2 49 30", "a1b1", false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.fen)
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
			if p.Over() != tc.over {
				t.Fatalf("after %s: Over() = %v, want %v (%s)", tc.move, p.Over(), tc.over, p.FEN())
			}
			if tc.over {
				if n := p.CountMoves(); n != 0 {
					t.Errorf("a finished game has %d moves", n)
				}
				if got := winnerName(&p); got != tc.winner {
					t.Errorf("winner %s, want %s", got, tc.winner)
				}
			}
		})
	}
	t.Run("no legal move ends the game, scored by points", func(t *testing.T) {
		p := mustParse(t, "8/8/8/8/8/8/8/7p b 20 0 0 1")
		if !p.Over() || p.CountMoves() != 0 || winnerName(&p) != "black" {
			t.Errorf("Over %v, moves %d, winner %s; want over, 0, black", p.Over(), p.CountMoves(), winnerName(&p))
		}
		s := NewState(p)
		if r := s.Result(nil); r[0] != 1 || r[1] != -1 {
			t.Errorf("result %v, want [1 -1]", r)
		}
	})
}

func winnerName(p *Position) string {
	if w, ok := p.Winner(); ok {
		return w.String()
	}
	return "draw"
}

func TestParseMoveErrors(t *testing.T) {
	p := StartPosition()
	tests := []struct{ move, want string }{
		{"d4", "want a from-square and a to-square"},
		{"z4e4", "file a-h"},
		{"d9e4", "rank 1-8"},
		{"e4e5", "no piece on e4"},
		{"e5e4", "is white's"},
		{"d4d4", "must leave"},
		{"d4e6", "not on a straight line"},
		{"a1b2", "blocked"},
		{"d4c5", "does not move in that direction"},
		{"d4d6", "at most 1 squares"},
	}
	for _, tc := range tests {
		_, err := p.ParseMove(tc.move)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) = %v, want an error containing %q", tc.move, err, tc.want)
		}
	}
	if m, err := p.ParseMove("d4e4"); err != nil || m.String() != "d4e4" {
		t.Errorf("ParseMove(d4e4) = %v, %v", m, err)
	}
}
