package games

import (
	"slices"
	"strings"
	"testing"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trichess"
)

func TestByName(t *testing.T) {
	g, err := ByName("trench")
	if err != nil || g.Name() != "trench" {
		t.Errorf("ByName(trench) = %v, %v", g, err)
	}
	if g, err := ByName("trichess"); err != nil || g.Players() != 3 {
		t.Errorf("ByName(trichess) = %v, %v", g, err)
	}
	if _, err := ByName("chess"); err == nil || !strings.Contains(err.Error(), "known: trench, trichess, tictactoe") {
		t.Errorf("ByName(chess) = %v, want an error listing the known games", err)
	}
	if Default().Name() != "trench" || !slices.Equal(PlayableNames(), []string{"trench", "trichess"}) {
		t.Errorf("default %s, playable %v", Default().Name(), PlayableNames())
	}
}

func TestPlayableByNameAndPerftNames(t *testing.T) {
	for _, tc := range []struct{ name, err string }{
		{"trench", ""},
		{"trichess", ""},
		{"tictactoe", "tictactoe cannot be played here (trench or trichess)"},
		{"go", `unknown game "go" (known: trench, trichess, tictactoe)`},
	} {
		g, err := PlayableByName(tc.name)
		if tc.err == "" && (err != nil || g.Name() != tc.name) || tc.err != "" && (err == nil || err.Error() != tc.err) {
			t.Errorf("PlayableByName(%q) = %v, %v; want error %q", tc.name, g, err, tc.err)
		}
	}
	if got := PerftNames(); !slices.Equal(got, []string{"trench", "trichess"}) {
		t.Errorf("PerftNames() = %v, want trench and trichess", got)
	}
}

// toyGame is a game with no plug-in.
type toyGame struct {
	engine.Game
	players int
}

func (g toyGame) Name() string { return "toy" }
func (g toyGame) Players() int { return g.players }

func TestSeatName(t *testing.T) {
	for _, tc := range []struct {
		game engine.Game
		seat int
		want string
	}{
		{All[0], 0, "black"},
		{All[0], 1, "white"},
		{trichess.Game, 1, "red"},
		{trichess.Game, 2, "black"},
		{trichess.Game, 5, "player 5"},
		{All[2], 0, "black"}, // tic-tac-toe names no seats
		{toyGame{players: 2}, 1, "white"},
		{toyGame{players: 4}, 3, "player 3"},
	} {
		if got := SeatName(tc.game, tc.seat); got != tc.want {
			t.Errorf("SeatName(%s, %d) = %q, want %q", tc.game.Name(), tc.seat, got, tc.want)
		}
	}
	if Of(toyGame{}) != nil || Title(toyGame{}) != "toy" || Title(trichess.Game) != "Trichess" {
		t.Errorf("a game without a plug-in: Of %v, titles %q, %q", Of(toyGame{}), Title(toyGame{}), Title(trichess.Game))
	}
}

// TestPlugins checks that every plug-in is whole: its seats match its
// players, a playable game has the views play and serve need, and its
// perft conventions and position help agree with its rules.
func TestPlugins(t *testing.T) {
	for _, p := range Plugins() {
		t.Run(p.Name(), func(t *testing.T) {
			g := p.Rules
			if p.Title == "" || p.PositionHelp == "" {
				t.Errorf("title %q, position help %q", p.Title, p.PositionHelp)
			}
			if p.Seats != nil && len(p.Seats) != g.Players() {
				t.Errorf("%d seat names for %d players", len(p.Seats), g.Players())
			}
			for i, s := range p.Seats {
				if s != strings.ToLower(s) || slices.Index(p.Seats, s) != i {
					t.Errorf("seat %d named %q: want distinct lower-case names", i, s)
				}
			}
			if p.Playable && (p.Terminal == nil || p.Web == nil) {
				t.Errorf("playable without a terminal view or a web board")
			}
			start := g.Start().String()
			if !strings.Contains(p.PositionHelp, start) {
				t.Errorf("the position help does not show the start %q", start)
			}
			if p.Perft != nil {
				if p.Perft.Start != start {
					t.Errorf("perft starts from %q, the rules from %q", p.Perft.Start, start)
				}
				pos, err := p.Perft.Parse(start)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := pos.Perft(1), uint64(len(g.Start().LegalActions(nil))); got != want {
					t.Errorf("perft 1 = %d, want the %d legal actions", got, want)
				}
				var total uint64
				for _, l := range pos.Divide(2) {
					total += l.Nodes
				}
				if total != pos.Perft(2) {
					t.Errorf("divide 2 sums to %d, perft 2 is %d", total, pos.Perft(2))
				}
				if _, err := p.Perft.Parse("8/8 b"); err == nil {
					t.Errorf("perft parsed a broken position")
				}
				if (p.Perft.IsReference == nil) != (p.Perft.CheckReference == nil) {
					t.Errorf("reference files half supported")
				}
			}
		})
	}
}

func TestClassicalOf(t *testing.T) {
	if c := ClassicalOf(Default()); c == nil || c.Name() != "alphabeta" {
		t.Errorf("ClassicalOf(trench) = %v, want alphabeta", c)
	}
	if c := ClassicalOf(trichess.Game); c == nil || c.Name() != "alphabeta" {
		t.Errorf("ClassicalOf(trichess) = %v, want alphabeta", c)
	}
	if c := ClassicalOf(toyGame{players: 2}); c != nil {
		t.Errorf("ClassicalOf(toy) = %v, want none", c)
	}
	if got := ClassicalNames(); got != "trench and trichess" {
		t.Errorf("ClassicalNames() = %q, want trench and trichess", got)
	}
	if got := ClassicalHave(); got != "trench and trichess have" {
		t.Errorf("ClassicalHave() = %q", got)
	}
	for _, tc := range []struct {
		g    engine.Game
		eval string
		want bool
	}{{Default(), "nnue", true}, {trichess.Game, "nnue", true}, {trichess.Game, "material", true}, {trichess.Game, "rules", false}, {toyGame{players: 2}, "hand", false}} {
		if got := HasEvaluation(tc.g, tc.eval); got != tc.want {
			t.Errorf("HasEvaluation(%s, %s) = %v", tc.g.Name(), tc.eval, got)
		}
	}
	if got := EvaluationNames("nnue"); got != "trench and trichess" {
		t.Errorf("EvaluationNames(nnue) = %q, want trench and trichess", got)
	}
	// Every game whose classical search has the nnue evaluation ships a
	// net for it, which shipped.Ref names (searchconfig relies on it),
	// and no other game ships one.
	for _, p := range Plugins() {
		_, _, ok := shipped.BuiltInNNUE(p.Name())
		if has := HasEvaluation(p.Rules, "nnue"); ok != has {
			t.Errorf("%s: nnue evaluation %v, NNUE built in %v", p.Name(), has, ok)
		}
	}
}
