package web

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/record"
)

// game is one browser tab's game: people in some seats, the engine in the
// others.
type game struct {
	mu  sync.Mutex
	id  string
	eg  engine.Game
	rec *record.Game
	bot *bot.Bot
	// humans says which seats people play.
	humans []bool
	level  int
	limits bot.Limits
	// last is the engine's analysis of its last move, or nil.
	last *bot.Analysis
	// note is a message for the player about the last action, e.g. a
	// declined armistice.
	note string
	used time.Time
}

// State is the game as the page sees it.
type State struct {
	ID string `json:"id"`
	// Game is "trench" or "trichess".
	Game     string `json:"game"`
	Position string `json:"position"`
	// Board lists the pieces: square name → piece. In Trench a letter,
	// upper-case for Black, lower-case for White; in Trichess the owner's
	// letter and the kind, e.g. "wK", "rP".
	Board  map[string]string `json:"board"`
	ToMove string            `json:"to_move"`
	// Players names the seats in order; Humans those people play.
	Players []string `json:"players"`
	Humans  []string `json:"humans"`
	// Human is the first human seat (Trench's one human).
	Human  string `json:"human"`
	Level  int    `json:"level"`
	Levels int    `json:"levels"`
	// Scores are the players' points in seat order: in Trench Black's and
	// White's captured points, in Trichess the titles' points once the
	// game is over.
	Scores []int `json:"scores"`
	// Material is each Trichess player's material on the board; Checks
	// the Trichess players in check.
	Material   []int    `json:"material,omitempty"`
	Checks     []string `json:"checks,omitempty"`
	QuietPlies int      `json:"quiet_plies"`
	QuietLimit int      `json:"quiet_limit"`
	WinScore   int      `json:"win_score,omitempty"`
	MoveNumber int      `json:"move_number"`
	Moves      []string `json:"moves"`
	// Legal lists the legal moves when a human is to move.
	Legal []LegalMove `json:"legal"`
	// Last is the last move played, or nil.
	Last *LegalMove `json:"last"`
	Over bool       `json:"over"`
	// Result describes a finished game, e.g. "black wins 25-12 (by the
	// rules)" or "checkmate: White seigneur, Red vassal, Black serf".
	Result string `json:"result,omitempty"`
	// Engine is the engine's analysis of its last move, with its
	// evaluation also given from Black's side for Trench's bar.
	Engine *EngineInfo `json:"engine,omitempty"`
	// Evaluator describes what the engine searches with.
	Evaluator string `json:"evaluator"`
	Note      string `json:"note,omitempty"`
}

// LegalMove is one move with what it takes.
type LegalMove struct {
	Move     string   `json:"move"`
	From     string   `json:"from"`
	To       string   `json:"to"`
	Captures []string `json:"captures"`
}

// EngineInfo is the engine's view after its last move.
type EngineInfo struct {
	Move string `json:"move"`
	// Player is the seat the engine moved for.
	Player string   `json:"player"`
	PV     []string `json:"pv"`
	// BlackWin, Draw and BlackLoss are the chances from Black's side;
	// ScoreDiff is Black's expected final points minus White's (Trench).
	BlackWin  float64 `json:"black_win"`
	Draw      float64 `json:"draw"`
	BlackLoss float64 `json:"black_loss"`
	ScoreDiff float64 `json:"score_diff"`
	// Seats is every player's evaluation, in seat order.
	Seats   []SeatEval `json:"seats"`
	Sims    int        `json:"sims"`
	Seconds float64    `json:"seconds"`
}

// SeatEval is the engine's evaluation for one player.
type SeatEval struct {
	Player string `json:"player"`
	// Value is the search's value for the player, in [-1, 1].
	Value float64 `json:"value"`
	// Points is Trichess's expected title points (0 to 3).
	Points    float64 `json:"points,omitempty"`
	Win       float64 `json:"win"`
	Draw      float64 `json:"draw"`
	Loss      float64 `json:"loss"`
	ScoreDiff float64 `json:"score_diff"`
}

// describe returns a Trench move with its route's captures.
func describe(p *trench.Position, m trench.Move) LegalMove {
	lm := LegalMove{Move: m.String(), From: m.From().String(), To: m.To().String(), Captures: []string{}}
	for b := p.Captured(m); b != 0; b &= b - 1 {
		lm.Captures = append(lm.Captures, trench.Square(bitIndex(b)).String())
	}
	sort.Strings(lm.Captures)
	return lm
}

// describeTrichess returns a Trichess move with the piece it takes.
func describeTrichess(p *trichess.Position, m trichess.Move) LegalMove {
	lm := LegalMove{Move: m.String(), From: m.From().String(), To: m.To().String(), Captures: []string{}}
	if _, _, ok := p.PieceAt(m.To()); ok {
		lm.Captures = append(lm.Captures, m.To().String())
	}
	return lm
}

func bitIndex(b uint64) int {
	n := 0
	for b&1 == 0 {
		b >>= 1
		n++
	}
	return n
}

// humanToMove reports whether a person plays the seat to move.
func (g *game) humanToMove() bool {
	return !g.rec.Over() && g.humans[g.rec.Current().ToMove()]
}

// state builds the page's view of g. The caller holds g.mu.
func (g *game) state() *State {
	cur := g.rec.Current()
	st := &State{
		ID: g.id, Game: g.eg.Name(), Position: cur.String(), Board: map[string]string{},
		Level: g.level, Levels: bot.Levels, Moves: append([]string{}, g.rec.Notation()...), Legal: []LegalMove{},
		Over: g.rec.Over(), Note: g.note, Evaluator: g.bot.String(), Humans: []string{},
	}
	for p := range g.humans {
		name := record.PlayerName(g.eg, p)
		st.Players = append(st.Players, name)
		if g.humans[p] {
			st.Humans = append(st.Humans, name)
		}
	}
	st.Human = st.Humans[0]
	st.ToMove = record.PlayerName(g.eg, cur.ToMove())
	switch s := cur.(type) {
	case *trench.State:
		g.trenchState(st, s)
	case *trichess.State:
		g.trichessState(st, s)
	}
	if o, ok := g.rec.Outcome(); ok {
		st.Result = o.Summary(g.eg)
		if ts, ok := cur.(*trichess.State); ok && g.rec.Ending() == record.ByRules {
			st.Result = ts.Outcome().String()
		}
	}
	if a := g.last; a != nil {
		w, d, l, diff := a.For(int(trench.Black))
		e := &EngineInfo{Move: a.Move, Player: record.PlayerName(g.eg, a.ToMove), PV: append([]string{}, a.PV...),
			Sims: a.Sims, Seconds: a.Elapsed.Seconds()}
		if g.eg.Players() == 2 {
			e.BlackWin, e.Draw, e.BlackLoss, e.ScoreDiff = w, d, l, diff
		}
		for p, pe := range a.Players {
			se := SeatEval{Player: record.PlayerName(g.eg, p), Value: pe.Value, Win: pe.Win, Draw: pe.Draw, Loss: pe.Loss, ScoreDiff: pe.ScoreDiff}
			if g.eg.Name() == trichess.Game.Name() {
				se.Points = trichess.ExpectedPoints(pe.Value)
			}
			e.Seats = append(e.Seats, se)
		}
		st.Engine = e
	}
	return st
}

// trenchState fills in a Trench position.
func (g *game) trenchState(st *State, cur *trench.State) {
	p := &cur.Position
	st.Scores = []int{p.Score(trench.Black), p.Score(trench.White)}
	st.QuietPlies, st.QuietLimit, st.WinScore, st.MoveNumber = p.QuietPlies(), trench.QuietLimit, trench.WinScore, p.MoveNumber()
	for s := trench.Square(0); s < 64; s++ {
		if c, k, ok := p.PieceAt(s); ok {
			l := string("PSKCG"[k])
			if c == trench.White {
				l = string("pskcg"[k])
			}
			st.Board[s.String()] = l
		}
	}
	if g.humanToMove() {
		for _, m := range p.GenerateMoves(nil) {
			st.Legal = append(st.Legal, describe(p, m))
		}
	}
	if n := g.rec.Len(); n > 0 {
		prev := g.rec.Position(n - 1).(*trench.State)
		m, _ := trench.ActionToMove(g.rec.Moves()[n-1], prev.SideToMove())
		lm := describe(&prev.Position, m)
		st.Last = &lm
	}
}

// trichessState fills in a Trichess position.
func (g *game) trichessState(st *State, cur *trichess.State) {
	pts := cur.Outcome().Points()
	st.Scores = pts[:]
	st.QuietPlies, st.QuietLimit, st.MoveNumber = cur.QuietPlies(), trichess.QuietLimit, cur.MoveNumber()
	for c := trichess.White; c <= trichess.Black; c++ {
		st.Material = append(st.Material, cur.Material(c))
		if !cur.Over() && cur.InCheck(c) {
			st.Checks = append(st.Checks, record.PlayerName(g.eg, int(c)))
		}
	}
	for s := trichess.Square(0); s < trichess.NumSquares; s++ {
		if c, k, ok := cur.PieceAt(s); ok {
			st.Board[s.String()] = string([]byte{c.Letter(), k.Letter()})
		}
	}
	if g.humanToMove() {
		for _, m := range cur.Moves() {
			st.Legal = append(st.Legal, describeTrichess(&cur.Position, m))
		}
	}
	if n := g.rec.Len(); n > 0 {
		prev := g.rec.Position(n - 1).(*trichess.State)
		if m, ok := prev.ActionToMove(g.rec.Moves()[n-1]); ok {
			lm := describeTrichess(&prev.Position, m)
			st.Last = &lm
		}
	}
}

// engineReply lets the engine move while it is its turn (in Trichess it
// may play two seats in a row). The caller holds g.mu.
func (g *game) engineReply(ctx context.Context, s *Server) error {
	for !g.rec.Over() && !g.humans[g.rec.Current().ToMove()] {
		a, err := g.search(ctx, s)
		if err != nil {
			return err
		}
		if err := g.rec.PlayAction(a.Action); err != nil {
			return fmt.Errorf("the engine's move %s: %w", a.Move, err)
		}
		g.last = a
	}
	return nil
}

// search searches the current position, one search at a time per server
// slot, and returns ctx's error when ctx ends first. The caller holds g.mu.
func (g *game) search(ctx context.Context, s *Server) (*bot.Analysis, error) {
	select {
	case s.searches <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.searches }()
	if err := g.bot.SetPosition(g.rec.Current()); err != nil {
		return nil, err
	}
	a, err := g.bot.Search(ctx, g.limits)
	if err == nil && ctx.Err() != nil {
		// A search stopped because its request is gone: its move is not
		// played.
		return nil, ctx.Err()
	}
	return a, err
}
