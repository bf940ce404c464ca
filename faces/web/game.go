package web

import (
	"context"
	"fmt"
	"sync"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/games/plugin"
	"trench/record"
)

// game is one browser tab's game: people in some seats, the bot in the
// others.
type game struct {
	mu sync.Mutex
	id string
	eg engine.Game
	// plug is the game's plug-in, with its web board.
	plug *plugin.Plugin
	rec  *record.Game
	bot  bot.Bot
	// humans says which seats people play.
	humans []bool
	level  int
	limits bot.Limits
	// last is the bot's analysis of its last move, or nil.
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
	// Engine is the bot's analysis of its last move, with its
	// evaluation also given from Black's side for Trench's bar.
	Engine *BotInfo `json:"engine,omitempty"`
	// Evaluator describes what the bot searches with.
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

// BotInfo is the bot's view after its last move.
type BotInfo struct {
	Move string `json:"move"`
	// Player is the seat the bot moved for.
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
	// Nodes and Depth say how far a bot of the alphabeta kind searched
	// (bot.Analysis.Nodes, Depth); zero for mcts, whose Sims say it.
	Nodes int `json:"nodes,omitempty"`
	Depth int `json:"depth,omitempty"`
	// Guard says how the classical search replaced the search's move
	// (bot.Analysis.Guard); empty when it did not.
	Guard string `json:"guard,omitempty"`
	// Endgame says what the classical search chose in the endgame
	// (bot.Analysis.Endgame); empty when the tree search chose.
	Endgame string `json:"endgame,omitempty"`
}

// SeatEval is the bot's evaluation for one player.
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
	board := g.plug.Web
	for sq, piece := range board.Pieces(cur) {
		st.Board[sq] = piece
	}
	status := board.Status(cur)
	st.Scores, st.Material = status.Scores, status.Material
	st.QuietPlies, st.QuietLimit, st.WinScore, st.MoveNumber = status.QuietPlies, status.QuietLimit, status.WinScore, status.MoveNumber
	for _, p := range status.Checks {
		st.Checks = append(st.Checks, record.PlayerName(g.eg, p))
	}
	if g.humanToMove() {
		for _, m := range board.Moves(cur) {
			st.Legal = append(st.Legal, LegalMove(m))
		}
	}
	if n := g.rec.Len(); n > 0 {
		if m, ok := board.Move(g.rec.Position(n-1), g.rec.Moves()[n-1]); ok {
			lm := LegalMove(m)
			st.Last = &lm
		}
	}
	if o, ok := g.rec.Outcome(); ok {
		st.Result = o.Summary(g.eg)
		if g.plug.RulesResult != nil && g.rec.Ending() == record.ByRules {
			st.Result = g.plug.RulesResult(cur)
		}
	}
	if a := g.last; a != nil {
		w, d, l, diff := a.For(0) // the first seat's side: Trench's Black
		e := &BotInfo{Move: a.Move, Player: record.PlayerName(g.eg, a.ToMove), PV: append([]string{}, a.PV...),
			Sims: a.Sims, Nodes: a.Nodes, Depth: a.Depth, Seconds: a.Elapsed.Seconds(), Guard: a.Guard, Endgame: a.Endgame}
		if g.eg.Players() == 2 {
			e.BlackWin, e.Draw, e.BlackLoss, e.ScoreDiff = w, d, l, diff
		}
		for p, pe := range a.Players {
			se := SeatEval{Player: record.PlayerName(g.eg, p), Value: pe.Value, Win: pe.Win, Draw: pe.Draw, Loss: pe.Loss, ScoreDiff: pe.ScoreDiff}
			if g.plug.ExpectedPoints != nil {
				se.Points = g.plug.ExpectedPoints(pe.Value)
			}
			e.Seats = append(e.Seats, se)
		}
		st.Engine = e
	}
	return st
}

// botReply lets the bot move while it is its turn (in Trichess it
// may play two seats in a row). The caller holds g.mu.
func (g *game) botReply(ctx context.Context, s *Server) error {
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
