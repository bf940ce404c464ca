package main

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

	"github.com/spf13/pflag"

	"trench/bot"
	"trench/engine"
	"trench/excerpt"
	"trench/record"
)

var engineCommand = command{
	name:    "engine",
	summary: "speak a text protocol on stdin/stdout for GUIs and other programs",
	usage: `Usage:
  trench engine [--game trench|trichess] [--net REF] [--threads N]

Reads commands from standard input, one a line, and answers on standard
output, in the manner of UCI and GTP:

  trench                 identify: "id name ...", "id net ...", then "trenchok"
  isready                answers "readyok"
  newgame                forget the search tree
  position startpos [moves M1 M2 ...]
  position fen POSITION [moves M1 M2 ...]
                         set the position (the game's position string: 6
                         fields for Trench, 5 for Trichess), then play the
                         moves
  go [sims N] [time MS] [level N]
                         search the position (default: level 6); prints
                         "info ..." lines as it goes, then "bestmove MOVE"
                         ("bestmove none" when the game is over)
  stop                   end the search now; it answers bestmove
  show                   print the position string and the board
  moves                  list the legal moves: "moves d4d5 d4e4 ..."
  quit                   leave

While a search runs, isready, stop and quit are obeyed at once (quit ends
the search as stop does, then leaves); every other command waits for the
search to end and is obeyed after its bestmove. The end of the input
ends a running search at once, as quit does: to let a piped search run to
its limit, follow go with a command that waits, such as show. A line
longer than 1 MiB is answered "error line too long" and skipped.

An info line reads
  info sims 400 visits 412 time 1830 wdl 512 93 395 value 0.117 points 1.4 pv d4d5 e5e4 c4c5
with the simulations of this search, the root's visits (kept ones
included), milliseconds, win/draw/loss per mille and the value (win minus
loss) for the side to move, its expected final score difference, and the
principal variation. Trichess's info lines add, before pv, "values" and
every player's value in seat order (White, Red, Black). A command that
cannot be obeyed is answered "error MESSAGE" and changes nothing.

With --game trichess it plays Trichess: moves and squares in its notation
(We2We4), and without --net a material search (no Trichess net is built
in), which "id net" says.

Examples:
  printf 'position startpos moves d4d5\ngo sims 200\nshow\n' | trench engine
  trench engine --net runs/first
  printf 'position startpos moves We2We4\ngo sims 100\nshow\n' | trench engine --game trichess
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		gameName := bindGameFlag(fs)
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %s", excerpt.Quote(args[0]))}
			}
			g, err := playableGame(*gameName)
			if err != nil {
				return &exitError{2, err}
			}
			view, err := newView(g)
			if err != nil {
				return &exitError{2, err}
			}
			limits, err := bf.limits()
			if err != nil {
				return &exitError{2, err}
			}
			b, err := bf.load(g, stderr)
			if err != nil {
				return &exitError{2, err}
			}
			e := &engineSession{out: stdout, game: g, view: view, bot: b, limits: limits, pos: g.Start()}
			return e.run(stdin)
		}
	},
}

// engineSession is one run of the text protocol.
type engineSession struct {
	outMu  sync.Mutex
	out    io.Writer
	game   engine.Game
	view   gameView
	bot    *bot.Bot
	limits bot.Limits
	pos    engine.State

	// the running search, if any
	cancel context.CancelFunc
	done   chan struct{}
}

func (e *engineSession) println(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", args...)
}

// wait waits for a running search to end.
func (e *engineSession) wait() {
	if e.done != nil {
		<-e.done
		e.done, e.cancel = nil, nil
	}
}

// stop ends a running search at once and waits for its bestmove.
func (e *engineSession) stop() {
	if e.cancel != nil {
		e.cancel()
	}
	e.wait()
}

func (e *engineSession) run(in io.Reader) error {
	r := bufio.NewReader(in)
	for {
		line, err := readLine(r, maxLine)
		if errors.Is(err, errLineTooLong) {
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

func (e *engineSession) command(cmd string, args []string) error {
	switch cmd {
	case "trench", "uci":
		e.println("id name trench")
		e.println("id net %s", e.bot)
		e.println("id levels %d (%s)", bot.Levels, levelList())
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
		l, err := parseGo(args, e.limits)
		if err != nil {
			return err
		}
		e.startSearch(l)
	case "show", "d":
		e.println("position %s", e.pos)
		var b strings.Builder
		e.view.draw(&b, boardStyle{}, e.pos, nil)
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

// parsePosition reads the arguments of "position" for game g.
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

// parseGo reads the arguments of "go".
func parseGo(args []string, def bot.Limits) (bot.Limits, error) {
	if len(args)%2 != 0 {
		return def, errors.New("go: want pairs such as \"sims 400\" or \"time 2000\"")
	}
	var l bot.Limits
	for i := 0; i < len(args); i += 2 {
		n, err := strconv.Atoi(args[i+1])
		if err != nil || n < 1 {
			return def, fmt.Errorf("go: %s %s is not a positive number", args[i], excerpt.Quote(args[i+1]))
		}
		switch args[i] {
		case "sims":
			l.Sims = n
		case "time":
			if n > int(bot.MaxTime/time.Millisecond) {
				return def, fmt.Errorf("go: time %d ms exceeds %v", n, bot.MaxTime)
			}
			l.Time = time.Duration(n) * time.Millisecond
		case "level":
			lv, err := bot.Level(n)
			if err != nil {
				return def, fmt.Errorf("go: %v", err)
			}
			l = lv
		default:
			return def, fmt.Errorf("go: unknown limit %s (sims, time or level)", excerpt.Quote(args[i]))
		}
	}
	if l == (bot.Limits{}) {
		return def, nil
	}
	return l, l.Validate()
}

// startSearch searches the position in the background, printing info
// lines and the best move.
func (e *engineSession) startSearch(l bot.Limits) {
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
func (e *engineSession) search(ctx context.Context, l bot.Limits) (*bot.Analysis, error) {
	start := time.Now()
	total := 0
	var last *bot.Analysis
	for {
		step := bot.Limits{}
		if l.Sims > 0 {
			step.Sims = min(l.Sims-total, max(50, l.Sims/4))
		}
		if l.Time > 0 {
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
			// still gives a move.
			if a, err = e.bot.Search(context.Background(), bot.Limits{Sims: 1}); err != nil {
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
		e.println("info sims %d visits %d time %d wdl %.0f %.0f %.0f value %.3f points %.1f %spv %s",
			total, a.Visits, time.Since(start).Milliseconds(), 1000*a.Win, 1000*a.Draw, 1000*a.Loss,
			a.Value, a.ScoreDiff, values, strings.Join(a.PV, " "))
		if ctx.Err() != nil || a.Stopped || (l.Sims > 0 && total >= l.Sims) || (l.Time > 0 && time.Since(start) >= l.Time) {
			break
		}
	}
	return last, nil
}
