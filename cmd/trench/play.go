package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"trench/atomicfile"
	"trench/bot"
	"trench/engine/trench"
	"trench/record"
)

// stdin is where play and engine read their input; tests replace it.
var stdin io.Reader = os.Stdin

var playCommand = command{
	name:    "play",
	summary: "play against the engine in the terminal",
	usage: `Usage:
  trench play [--side black|white] [--level N | --sims N | --time D] [--net REF] [flags]

Plays a game against the engine in the terminal. The board is drawn as a
diamond with the trench across the middle (Black's corner a1 at the
bottom), or as a square with --square. Black's pieces are upper-case
(P S K C G), White's lower-case; with colour, Black's are red and White's
cyan. Empty trench squares are "-".

Type a move in notation (e.g. d4d5), or a command:
  moves SQUARE   the legal moves of the piece on SQUARE, marked on the board
  hint           the engine's suggestion for you, with its evaluation
  go             let the engine play your move
  undo           take back your last move (and the engine's reply)
  armistice      offer to stop here, scored by points; the engine accepts
                 when it is not behind and does not expect to gain
  resign         give up the game
  save FILE      write the game to FILE;  load FILE  continue a saved game
  new            start a new game;  level N  change the engine's strength
  view           switch between the diamond and the square board
  board, help, quit

After each engine move it shows its evaluation (win/draw/loss chances and
the expected final score difference, from its side) and its main line.

Examples:
  trench play
  trench play --side white --level 6
  trench play --time 3s --square --color never
  trench play --net runs/first --load game.txt
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		side := fs.String("side", "black", "your colour: black (moves first) or white")
		square := fs.Bool("square", false, "draw the board as a square instead of a diamond")
		color := fs.String("color", "auto", "colours: auto (when the output is a terminal), always or never")
		fen := fs.String("fen", "", "start from this position string instead of the start")
		load := fs.String("load", "", "continue the game saved in this file")
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %q", args[0])}
			}
			human, err := parseSide(*side)
			if err != nil {
				return &exitError{2, err}
			}
			useColor, err := colorMode(*color, stdout)
			if err != nil {
				return &exitError{2, err}
			}
			limits, err := bf.limits()
			if err != nil {
				return &exitError{2, err}
			}
			if *fen != "" && *load != "" {
				return &exitError{2, errors.New("give --fen or --load, not both")}
			}
			game := record.New(trench.Game.Start())
			if *fen != "" {
				s, err := trench.Game.ParseState(*fen)
				if err != nil {
					return &exitError{2, fmt.Errorf("--fen: %v", err)}
				}
				game = record.New(s)
			}
			if *load != "" {
				if game, err = loadGame(*load); err != nil {
					return &exitError{2, err}
				}
			}
			net, b, err := bf.load()
			if err != nil {
				return &exitError{2, err}
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			p := &playSession{
				out: stdout, in: bufio.NewScanner(stdin), bot: b, game: game,
				human: human, limits: limits, style: boardStyle{square: *square, color: useColor},
			}
			fmt.Fprintf(stdout, "Trench: you play %s against %s, %s per move.\nType a move such as d4d5, or \"help\".\n",
				record.PlayerName(trench.Game, human), net, limits)
			return p.run(ctx)
		}
	},
}

func parseSide(s string) (int, error) {
	switch strings.ToLower(s) {
	case "black", "b":
		return int(trench.Black), nil
	case "white", "w":
		return int(trench.White), nil
	}
	return 0, fmt.Errorf("--side must be black or white, got %q", s)
}

// colorMode decides whether to use ANSI colours.
func colorMode(mode string, out io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		f, ok := out.(*os.File)
		return ok && term.IsTerminal(int(f.Fd())), nil
	}
	return false, fmt.Errorf("--color must be auto, always or never, got %q", mode)
}

// loadGame reads a saved Trench game.
func loadGame(path string) (*record.Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g, err := record.Parse(data, path)
	if err != nil {
		return nil, err
	}
	if g.EngineGame().Name() != trench.Game.Name() {
		return nil, fmt.Errorf("%s: a %s game, not trench", path, g.EngineGame().Name())
	}
	return g, nil
}

// playSession is one terminal game against the engine.
type playSession struct {
	out    io.Writer
	in     *bufio.Scanner
	bot    *bot.Bot
	game   *record.Game
	human  int
	limits bot.Limits
	style  boardStyle
	marks  map[trench.Square]squareMark
	// announced is set once the end of the current game was shown.
	announced bool
}

func (p *playSession) engineSide() int { return 1 - p.human }

// position is the current position as a Trench position.
func (p *playSession) position() *trench.Position {
	return &p.game.Current().(*trench.State).Position
}

// run plays until the input ends or the player quits.
func (p *playSession) run(ctx context.Context) error {
	p.show()
	for {
		if !p.game.Over() && p.game.Current().ToMove() == p.engineSide() {
			if err := p.engineMove(ctx); err != nil {
				return err
			}
			p.show()
			continue
		}
		if p.game.Over() && !p.announced {
			o, _ := p.game.Outcome()
			fmt.Fprintf(p.out, "Game over: %s.\nType undo, new, save FILE or quit.\n", o.Summary(trench.Game))
			p.announced = true
		}
		fmt.Fprintf(p.out, "%s> ", record.PlayerName(trench.Game, p.human))
		if !p.in.Scan() {
			fmt.Fprintln(p.out)
			return p.in.Err()
		}
		quit, err := p.command(ctx, strings.TrimSpace(p.in.Text()))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(p.out, "%v\n", err)
		}
		if quit {
			return nil
		}
	}
}

// show draws the board with the status lines.
func (p *playSession) show() {
	pos := p.position()
	marks := p.marks
	if marks == nil && p.game.Len() > 0 {
		prev := p.game.Position(p.game.Len() - 1).(*trench.State)
		m, _ := trench.ActionToMove(p.game.Moves()[p.game.Len()-1], prev.SideToMove())
		marks = map[trench.Square]squareMark{m.From(): markFrom, m.To(): markLast}
	}
	fmt.Fprintln(p.out)
	p.style.drawBoard(p.out, pos, marks)
	p.marks = nil
	fmt.Fprintln(p.out, statusLine(pos))
}

// statusLine gives the scores, the quiet-ply count and whose move it is.
func statusLine(pos *trench.Position) string {
	turn := fmt.Sprintf("move %d, %s to play", pos.MoveNumber(), pos.SideToMove())
	if pos.Over() {
		turn = "game over"
	}
	return fmt.Sprintf("Black %d  White %d  (25 wins) · quiet plies %d/%d · %s",
		pos.Score(trench.Black), pos.Score(trench.White), pos.QuietPlies(), trench.QuietLimit, turn)
}

// engineMove lets the engine search and play.
func (p *playSession) engineMove(ctx context.Context) error {
	cur := p.game.Current()
	if err := p.bot.SetPosition(cur); err != nil {
		return err
	}
	a, err := p.bot.Search(ctx, p.limits)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := p.game.PlayAction(a.Action); err != nil {
		return err
	}
	fmt.Fprintf(p.out, "\ntrench plays %s · %s · %d sims in %.1fs\n  main line: %s\n",
		a.Move, evalText(a, p.engineSide()), a.Sims, a.Elapsed.Seconds(), strings.Join(a.PV, " "))
	return nil
}

// command runs one line of input and reports whether to quit.
func (p *playSession) command(ctx context.Context, line string) (bool, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false, nil
	}
	arg := func() (string, error) {
		if len(fields) != 2 {
			return "", fmt.Errorf("%s takes one argument", fields[0])
		}
		return fields[1], nil
	}
	switch strings.ToLower(fields[0]) {
	case "quit", "exit", "q":
		return true, nil
	case "help", "?":
		fmt.Fprint(p.out, playHelp)
	case "board":
		p.show()
	case "view":
		p.style.square = !p.style.square
		p.show()
	case "moves":
		sq, err := arg()
		if err != nil {
			return false, err
		}
		return false, p.showMoves(sq)
	case "hint":
		return false, p.hint(ctx)
	case "go":
		if err := p.humanTurn(); err != nil {
			return false, err
		}
		p.bot.SetPosition(p.game.Current())
		a, err := p.bot.Search(ctx, p.limits)
		if err != nil {
			return false, err
		}
		if err := p.game.PlayAction(a.Action); err != nil {
			return false, err
		}
		fmt.Fprintf(p.out, "you play %s (engine's choice: %s for you)\n", a.Move, evalText(a, p.human))
		p.show()
	case "undo":
		p.undo()
	case "armistice", "offer":
		return false, p.offerArmistice(ctx)
	case "resign":
		if err := p.game.Resign(p.human); err != nil {
			return false, err
		}
	case "new":
		p.game = record.New(trench.Game.Start())
		p.announced = false
		p.show()
	case "level":
		s, err := arg()
		if err != nil {
			return false, err
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return false, fmt.Errorf("level %q is not a number", s)
		}
		l, err := bot.Level(n)
		if err != nil {
			return false, err
		}
		p.limits = l
		fmt.Fprintf(p.out, "level %d: %s per move\n", n, l)
	case "save":
		path, err := arg()
		if err != nil {
			return false, err
		}
		p.game.Tags = []record.Tag{
			{Key: playerTag(p.human), Value: "you"},
			{Key: playerTag(p.engineSide()), Value: "trench " + p.limits.String()},
		}
		if err := atomicfile.Write(path, p.game.Marshal()); err != nil {
			return false, err
		}
		fmt.Fprintf(p.out, "saved %d moves to %s\n", p.game.Len(), path)
	case "load":
		path, err := arg()
		if err != nil {
			return false, err
		}
		g, err := loadGame(path)
		if err != nil {
			return false, err
		}
		p.game, p.announced = g, false
		fmt.Fprintf(p.out, "loaded %d moves from %s\n", g.Len(), path)
		p.show()
	default:
		if len(fields) != 1 {
			return false, fmt.Errorf("unknown command %q (type help)", fields[0])
		}
		if err := p.humanTurn(); err != nil {
			return false, err
		}
		if _, err := p.game.Play(fields[0]); err != nil {
			return false, fmt.Errorf("%s: %v (type help for commands)", fields[0], err)
		}
		p.show()
	}
	return false, nil
}

func playerTag(p int) string { return [2]string{"Black", "White"}[p] }

// humanTurn checks that the human may move now.
func (p *playSession) humanTurn() error {
	if p.game.Over() {
		return record.ErrOver
	}
	if p.game.Current().ToMove() != p.human {
		return errors.New("it is not your move")
	}
	return nil
}

// showMoves marks and lists the legal moves of the piece on sq.
func (p *playSession) showMoves(text string) error {
	sq, err := trench.ParseSquare(text)
	if err != nil {
		return err
	}
	pos := p.position()
	c, _, ok := pos.PieceAt(sq)
	if !ok {
		return fmt.Errorf("no piece on %s", sq)
	}
	if c != pos.SideToMove() {
		return fmt.Errorf("the piece on %s is %s's; %s is to move", sq, c, pos.SideToMove())
	}
	marks := map[trench.Square]squareMark{sq: markFrom}
	var list []string
	for _, m := range pos.GenerateMoves(nil) {
		if m.From() != sq {
			continue
		}
		took := pos.Captured(m)
		desc := m.String()
		if took != 0 {
			var names []string
			for b := took; b != 0; b &= b - 1 {
				s := trench.Square(trailingZeros(b))
				marks[s] = markCapture
				_, k, _ := pos.PieceAt(s)
				names = append(names, fmt.Sprintf("%s %s", k, s))
			}
			sort.Strings(names)
			desc += " takes " + strings.Join(names, ", ")
		} else {
			marks[m.To()] = markTarget
		}
		list = append(list, desc)
	}
	if len(list) == 0 {
		fmt.Fprintf(p.out, "the piece on %s has no legal move\n", sq)
		return nil
	}
	p.marks = marks
	p.show()
	fmt.Fprintf(p.out, "%s: %s\n", sq, strings.Join(list, "; "))
	return nil
}

func trailingZeros(b uint64) int {
	n := 0
	for b&1 == 0 {
		b >>= 1
		n++
	}
	return n
}

// hint shows the engine's suggestion for the human.
func (p *playSession) hint(ctx context.Context) error {
	if err := p.humanTurn(); err != nil {
		return err
	}
	if err := p.bot.SetPosition(p.game.Current()); err != nil {
		return err
	}
	a, err := p.bot.Search(ctx, p.limits)
	if err != nil {
		return err
	}
	fmt.Fprintf(p.out, "hint: %s · for you: %s\n  main line: %s\n", a.Move, evalText(a, p.human), strings.Join(a.PV, " "))
	return nil
}

// undo takes back the human's last move and everything after it, or a
// resignation or armistice.
func (p *playSession) undo() {
	p.announced = false
	if e := p.game.Ending(); e == record.Resignation || e == record.Armistice {
		p.game.Undo(0)
		fmt.Fprintln(p.out, "the game goes on")
		p.show()
		return
	}
	n := 0
	for p.game.Len() > 0 {
		mover := p.game.Position(p.game.Len() - 1).ToMove()
		p.game.Undo(1)
		n++
		if mover == p.human {
			break
		}
	}
	if n == 0 {
		fmt.Fprintln(p.out, "nothing to take back")
		return
	}
	fmt.Fprintf(p.out, "took back %d move(s)\n", n)
	p.show()
}

// offerArmistice asks the engine to stop the game here.
func (p *playSession) offerArmistice(ctx context.Context) error {
	if p.game.Over() {
		return record.ErrOver
	}
	cur := p.game.Current()
	if err := p.bot.SetPosition(cur); err != nil {
		return err
	}
	a, err := p.bot.Search(ctx, p.limits)
	if err != nil {
		return err
	}
	if !bot.AcceptsArmistice(cur, p.engineSide(), a) {
		fmt.Fprintf(p.out, "trench declines the armistice (for itself it sees %s)\n", evalText(a, p.engineSide()))
		return nil
	}
	if err := p.game.AgreeArmistice(); err != nil {
		return err
	}
	fmt.Fprintln(p.out, "trench accepts the armistice")
	return nil
}

const playHelp = `Moves: from-square then to-square, e.g. d4d5 (see RULES.md).
Commands:
  moves SQUARE   legal moves of the piece on SQUARE: <x> the piece, * a square
                 it can reach, [x] a piece it would take
  hint           the engine's suggestion for you
  go             let the engine play your move
  undo           take back your last move
  armistice      offer to stop and score by points
  resign         give up
  save FILE / load FILE
  new            new game          level N   engine strength 1..8
  view           diamond/square    board     draw the board again
  quit
`
