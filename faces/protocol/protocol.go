// Package protocol speaks trench's text protocol, in the manner of UCI
// and GTP: commands one a line on an input, answers on an output, a
// search running in the background that stop, quit and the end of the
// input end at once. It drives one bot over one game; what it knows of a
// game comes from the engine contract, and the board a "show" prints
// from the Board the caller gives.
package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/internal/excerpt"
	"trench/internal/textline"
	"trench/record"
	"trench/searchconfig"
)

// Bot is the bot the protocol drives; *bot.Bot is one.
type Bot interface {
	// NewGame forgets the search tree.
	NewGame()
	// SetPosition moves the bot to s, keeping what it can of its tree.
	SetPosition(s engine.State) error
	// Search searches the position within limits.
	Search(ctx context.Context, limits bot.Limits) (*bot.Analysis, error)
	// InEndgame reports whether a classical search chooses the next move
	// (bot.Endgame), which then searches with the whole limit at once.
	InEndgame() bool
	// String describes the bot's evaluator, e.g. its net, for "id net".
	String() string
	// Kind is its kind of search (searchconfig.MCTS or AlphaBeta): the
	// alphabeta kind searches by nodes and with the whole limit at once.
	Kind() string
}

// Board draws a position as text for "show": the game's own picture of
// it, after the position string.
type Board func(w io.Writer, s engine.State)

// Config is what a session needs.
type Config struct {
	// Game is the game played.
	Game engine.Game
	// NewBot makes the session's bot.
	NewBot func() (Bot, error)
	// Limits bound a "go" that gives none.
	Limits bot.Limits
	// Board, if not nil, draws the board under "show"'s position string.
	Board Board
}

// Session is one conversation of the protocol with one bot, from the
// game's start.
type Session struct {
	game   engine.Game
	bot    Bot
	limits bot.Limits
	board  Board
	pos    engine.State

	outMu sync.Mutex
	out   io.Writer

	// the running search, if any
	cancel context.CancelFunc
	done   chan struct{}
}

// New checks cfg and makes its bot.
func New(cfg Config) (*Session, error) {
	switch {
	case cfg.Game == nil:
		return nil, errors.New("protocol: no game")
	case cfg.NewBot == nil:
		return nil, errors.New("protocol: no bot")
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, err
	}
	b, err := cfg.NewBot()
	if err != nil {
		return nil, err
	}
	return &Session{game: cfg.Game, bot: b, limits: cfg.Limits, board: cfg.Board, pos: cfg.Game.Start()}, nil
}

// Run reads commands from in and answers on out until "quit" or the end
// of in, either of which ends a running search first; its first line, an
// info string, names the bot and its net. It returns nil
// then, or the error reading in.
func (e *Session) Run(in io.Reader, out io.Writer) error {
	e.out = out
	e.println("info string bot %s", e.bot)
	r := bufio.NewReader(in)
	for {
		line, err := textline.Read(r, textline.Max)
		if errors.Is(err, textline.ErrTooLong) {
			e.println("error %v", err)
			continue
		}
		if err != nil {
			e.stop()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		cmd, args := fields[0], fields[1:]
		switch cmd {
		case "quit":
			e.stop()
			return nil
		case "isready":
			e.println("readyok")
			continue
		case "stop":
			e.stop()
			continue
		}
		// Other commands wait for a running search to end.
		e.wait()
		if err := e.command(cmd, args); err != nil {
			e.println("error %v", err)
		}
	}
}

func (e *Session) println(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", args...)
}

// wait waits for a running search to end.
func (e *Session) wait() {
	if e.done != nil {
		<-e.done
		e.done, e.cancel = nil, nil
	}
}

// stop ends a running search at once and waits for its bestmove.
func (e *Session) stop() {
	if e.cancel != nil {
		e.cancel()
	}
	e.wait()
}

func (e *Session) command(cmd string, args []string) error {
	switch cmd {
	case "trench", "uci":
		e.println("id name trench")
		e.println("id net %s", e.bot)
		e.println("id levels %d (%s)", bot.Levels, searchconfig.LevelListOf(e.bot.Kind()))
		e.println("trenchok")
	case "newgame":
		e.bot.NewGame()
	case "position":
		p, err := parsePosition(e.game, args)
		if err != nil {
			return err
		}
		e.pos = p
	case "go":
		l, err := parseGo(args, e.limits, e.bot.Kind())
		if err != nil {
			return err
		}
		e.startSearch(l)
	case "show", "d":
		var b strings.Builder
		fmt.Fprintf(&b, "position %s\n", e.pos)
		if e.board != nil {
			e.board(&b, e.pos)
		}
		e.outMu.Lock()
		fmt.Fprint(e.out, b.String())
		e.outMu.Unlock()
	case "moves":
		var list []string
		for _, a := range e.pos.LegalActions(nil) {
			list = append(list, e.pos.ActionString(a))
		}
		e.println("moves %s", strings.Join(list, " "))
	default:
		return fmt.Errorf("unknown command %s", excerpt.Quote(cmd))
	}
	return nil
}

// parsePosition reads the arguments of "position" for game g:
// "startpos" or "fen" and the fields of a position string, then
// optionally "moves" and moves in the game's notation, each checked.
func parsePosition(g engine.Game, args []string) (engine.State, error) {
	if len(args) == 0 {
		return nil, errors.New("position: want startpos or fen POSITION")
	}
	var s engine.State
	rest := args[1:]
	switch args[0] {
	case "startpos":
		s = g.Start()
	case "fen":
		n := len(strings.Fields(g.Start().String()))
		if len(rest) < n {
			return nil, fmt.Errorf("position fen: want the %d fields of a position string", n)
		}
		var err error
		if s, err = g.ParseState(strings.Join(rest[:n], " ")); err != nil {
			return nil, err
		}
		rest = rest[n:]
	default:
		return nil, fmt.Errorf("position: want startpos or fen, got %s", excerpt.Quote(args[0]))
	}
	if len(rest) == 0 {
		return s, nil
	}
	if rest[0] != "moves" {
		return nil, fmt.Errorf("position: want \"moves\" after the position, got %s", excerpt.Quote(rest[0]))
	}
	rec := record.New(s)
	for i, m := range rest[1:] {
		if _, err := rec.Play(m); err != nil {
			return nil, fmt.Errorf("position: move %d %s: %v", i+1, excerpt.Quote(m), err)
		}
	}
	return rec.Current(), nil
}

// parseGo reads the arguments of "go": pairs of "sims N", "nodes N",
// "time MS" and "level N", read as the search settings of those keys
// (searchconfig.Config.Set) for a bot of kind (a level is simulations
// for mcts, nodes for alphabeta); none gives def.
func parseGo(args []string, def bot.Limits, kind string) (bot.Limits, error) {
	if len(args)%2 != 0 {
		return def, errors.New("go: want pairs such as \"sims 400\" or \"time 2000\"")
	}
	c := searchconfig.Play()
	c.Kind, c.Sims, c.Nodes, c.Time = kind, 0, 0, 0
	given := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		key, value := args[i], args[i+1]
		if key != "sims" && key != "nodes" && key != "time" && key != "level" {
			return def, fmt.Errorf("go: unknown limit %s (sims, nodes, time or level)", excerpt.Quote(key))
		}
		if n, err := strconv.Atoi(value); err != nil || n < 1 {
			return def, fmt.Errorf("go: %s %s is not a positive number", key, excerpt.Quote(value))
		}
		if key == "time" {
			value += "ms"
		}
		if err := c.Set(key, value); err != nil {
			return def, fmt.Errorf("go: %w", err)
		}
		given[key] = true
	}
	if len(given) == 0 {
		return def, nil
	}
	if err := searchconfig.CheckLimits(func(k string) bool { return given[k] }, ""); err != nil {
		return def, fmt.Errorf("go: %w", err)
	}
	if err := c.Validate(); err != nil {
		return def, fmt.Errorf("go: %w", err)
	}
	l, err := bot.LimitsOf(c)
	if err != nil {
		return def, fmt.Errorf("go: %w", err)
	}
	return l, nil
}

// startSearch searches the position in the background, printing info
// lines and the best move.
func (e *Session) startSearch(l bot.Limits) {
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel, e.done = cancel, make(chan struct{})
	pos := e.pos.Clone()
	go func() {
		defer close(e.done)
		defer cancel()
		if pos.Over() {
			e.println("info string the game is over")
			e.println("bestmove none")
			return
		}
		if err := e.bot.SetPosition(pos); err != nil {
			e.println("error %v", err)
			return
		}
		a, err := e.search(ctx, l)
		if err != nil {
			e.println("error %v", err)
			return
		}
		e.println("bestmove %s", a.Move)
	}()
}

// search runs the search in steps, printing an info line after each.
func (e *Session) search(ctx context.Context, l bot.Limits) (*bot.Analysis, error) {
	start := time.Now()
	total := 0
	alphaBeta := e.bot.Kind() == searchconfig.AlphaBeta
	var last *bot.Analysis
	for {
		step := bot.Limits{}
		whole := e.bot.InEndgame() || alphaBeta
		if whole {
			// The classical search chooses with the whole limit at once.
			step = l
		} else if l.Sims > 0 {
			step.Sims = min(l.Sims-total, max(50, l.Sims/4))
		}
		if l.Time > 0 && !alphaBeta {
			step.Time = min(l.Time-time.Since(start), time.Second)
		}
		if step.Time < 0 || (l.Time > 0 && step.Time == 0) {
			break
		}
		a, err := e.bot.Search(ctx, step)
		if err != nil {
			if last != nil {
				break
			}
			if ctx.Err() == nil {
				return nil, err
			}
			// Stopped before the root was evaluated: one simulation
			// (for alpha-beta, its least node budget) still gives a move.
			least := bot.Limits{Sims: 1}
			if alphaBeta {
				least = bot.Limits{Nodes: 1}
			}
			if a, err = e.bot.Search(context.Background(), least); err != nil {
				return nil, err
			}
		}
		total += a.Sims
		last = a
		values := ""
		if len(a.Players) > 2 {
			values = "values"
			for _, pe := range a.Players {
				values += fmt.Sprintf(" %.3f", pe.Value)
			}
			values += " "
		}
		if alphaBeta {
			e.println("info depth %d nodes %d time %d wdl %.0f %.0f %.0f value %.3f %spv %s",
				a.Depth, a.Nodes, time.Since(start).Milliseconds(), 1000*a.Win, 1000*a.Draw, 1000*a.Loss,
				a.Value, values, strings.Join(a.PV, " "))
			break
		}
		e.println("info sims %d visits %d time %d wdl %.0f %.0f %.0f value %.3f points %.1f %spv %s",
			total, a.Visits, time.Since(start).Milliseconds(), 1000*a.Win, 1000*a.Draw, 1000*a.Loss,
			a.Value, a.ScoreDiff, values, strings.Join(a.PV, " "))
		if a.Guard != "" {
			e.println("info string %s", a.Guard)
		}
		if a.Endgame != "" {
			e.println("info string %s", a.Endgame)
			break
		}
		if ctx.Err() != nil || a.Stopped || (l.Sims > 0 && total >= l.Sims) || (l.Time > 0 && time.Since(start) >= l.Time) {
			break
		}
	}
	return last, nil
}
