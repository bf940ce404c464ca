package web

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"trench/bot"
	"trench/engine/trench"
	"trench/record"
)

// game is one browser tab's game against the engine.
type game struct {
	mu     sync.Mutex
	id     string
	rec    *record.Game
	bot    *bot.Bot
	human  int
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
	ID       string `json:"id"`
	Position string `json:"position"`
	// Board lists the pieces: square name → piece letter, upper-case for
	// Black, lower-case for White.
	Board      map[string]string `json:"board"`
	ToMove     string            `json:"to_move"`
	Human      string            `json:"human"`
	Level      int               `json:"level"`
	Levels     int               `json:"levels"`
	Scores     [2]int            `json:"scores"`
	QuietPlies int               `json:"quiet_plies"`
	QuietLimit int               `json:"quiet_limit"`
	WinScore   int               `json:"win_score"`
	MoveNumber int               `json:"move_number"`
	Moves      []string          `json:"moves"`
	// Legal lists the human's legal moves when it is the human's turn.
	Legal []LegalMove `json:"legal"`
	// Last is the last move played, or nil.
	Last *LegalMove `json:"last"`
	Over bool       `json:"over"`
	// Result describes a finished game, e.g. "black wins 25-12 (by the rules)".
	Result string `json:"result,omitempty"`
	// Engine is the engine's analysis of its last move, with its
	// evaluation also given from Black's side for the bar.
	Engine *EngineInfo `json:"engine,omitempty"`
	Note   string      `json:"note,omitempty"`
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
	Move string   `json:"move"`
	PV   []string `json:"pv"`
	// BlackWin, Draw and BlackLoss are the chances from Black's side;
	// ScoreDiff is Black's expected final points minus White's.
	BlackWin  float64 `json:"black_win"`
	Draw      float64 `json:"draw"`
	BlackLoss float64 `json:"black_loss"`
	ScoreDiff float64 `json:"score_diff"`
	Sims      int     `json:"sims"`
	Seconds   float64 `json:"seconds"`
}

// describe returns the move with its route's captures.
func describe(p *trench.Position, m trench.Move) LegalMove {
	lm := LegalMove{Move: m.String(), From: m.From().String(), To: m.To().String(), Captures: []string{}}
	for b := p.Captured(m); b != 0; b &= b - 1 {
		lm.Captures = append(lm.Captures, trench.Square(bitIndex(b)).String())
	}
	sort.Strings(lm.Captures)
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

// state builds the page's view of g. The caller holds g.mu.
func (g *game) state() *State {
	cur := g.rec.Current().(*trench.State)
	p := &cur.Position
	st := &State{
		ID: g.id, Position: p.FEN(), Board: map[string]string{},
		ToMove: p.SideToMove().String(), Human: trench.Color(g.human).String(),
		Level: g.level, Levels: bot.Levels,
		Scores:     [2]int{p.Score(trench.Black), p.Score(trench.White)},
		QuietPlies: p.QuietPlies(), QuietLimit: trench.QuietLimit, WinScore: trench.WinScore,
		MoveNumber: p.MoveNumber(), Moves: append([]string{}, g.rec.Notation()...), Legal: []LegalMove{},
		Over: g.rec.Over(), Note: g.note,
	}
	for s := trench.Square(0); s < 64; s++ {
		if c, k, ok := p.PieceAt(s); ok {
			l := string("PSKCG"[k])
			if c == trench.White {
				l = string("pskcg"[k])
			}
			st.Board[s.String()] = l
		}
	}
	if o, ok := g.rec.Outcome(); ok {
		st.Result = o.Summary(trench.Game)
	} else if int(p.SideToMove()) == g.human {
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
	if a := g.last; a != nil {
		w, d, l, diff := a.For(int(trench.Black))
		st.Engine = &EngineInfo{Move: a.Move, PV: append([]string{}, a.PV...), BlackWin: w, Draw: d, BlackLoss: l,
			ScoreDiff: diff, Sims: a.Sims, Seconds: a.Elapsed.Seconds()}
	}
	return st
}

// engineReply lets the engine move while it is its turn. The caller holds
// g.mu.
func (g *game) engineReply(ctx context.Context, s *Server) error {
	if g.rec.Over() || g.rec.Current().ToMove() == g.human {
		return nil
	}
	a, err := g.search(ctx, s)
	if err != nil {
		return err
	}
	if err := g.rec.PlayAction(a.Action); err != nil {
		return fmt.Errorf("the engine's move %s: %w", a.Move, err)
	}
	g.last = a
	return nil
}

// search searches the current position, one search at a time per server
// slot. The caller holds g.mu.
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
	return g.bot.Search(ctx, g.limits)
}
