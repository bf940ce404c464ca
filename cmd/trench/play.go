package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"trench/atomicfile"
	"trench/bot"
	"trench/engine"
	"trench/engine/trench"
	"trench/excerpt"
	"trench/record"
)

// stdin is where play and engine read their input; tests replace it.
var stdin io.Reader = os.Stdin

var playCommand = command{
	name:    "play",
	summary: "play against the engine in the terminal",
	usage: `Usage:
  trench play [--game trench|trichess] [--side COLOUR | --seats COLOURS]
              [--level N | --sims N | --time D] [--net REF] [flags]

Plays a game against the engine in the terminal.

Trench (the default): the board is drawn as a diamond with the trench
across the middle (Black's corner a1 at the bottom), or as a square with
--square. Black's pieces are upper-case (P S K C G), White's lower-case;
with colour, Black's are red and White's cyan. Empty trench squares are
"-". You play one side (--side black or white).

Trichess (--game trichess): the board is drawn as the hexagon it is, the
three sections around the centre: White's back rank at the bottom, Red's
upper right, Black's upper left, file letters outside every back rank and
rank digits outside the side edges. A piece is its owner's letter and its
kind (wK, rP, bN); empty squares are "." in White's section, ":" in
Red's and "+" in Black's, and with colour each section is drawn in its
player's colour. --seats says which seats are human (e.g. --seats red, or
--seats white,black for two humans); the engine plays the others. No net
for Trichess is built in: give --net (a checkpoint or run directory from
trench train --game trichess), or the engine searches with a material
evaluation and says so.

Type a move in notation (d4d5 in Trench, We2We4 in Trichess), or a command:
  moves SQUARE   the legal moves of the piece on SQUARE, marked on the board
  hint           the engine's suggestion for you, with its evaluation
  go             let the engine play your move
  undo           take back your last move (and the engine's replies)
  armistice      (Trench) offer to stop here, scored by points; the engine
                 accepts when it is not behind and does not expect to gain
  resign         (Trench) give up the game; Trichess has no resignation
  save FILE      write the game to FILE;  load FILE  continue a saved game
  new            start a new game;  level N  change the engine's strength
  view           (Trench) switch between the diamond and the square board
  board, help, quit

After each engine move it shows its evaluation and its main line: in
Trench win/draw/loss chances and the expected final score difference
from its side; in Trichess every player's expected points (seigneur 3,
chevalier 2, vassal 1, serf 0) and value.

Examples:
  trench play
  trench play --side white --level 6
  trench play --time 3s --square --color never
  trench play --net runs/first --load game.txt
  trench play --game trichess --seats red --level 2
  trench play --game trichess --seats white,black --net runs/trichess
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		bf := bindBotFlags(fs)
		gameName := bindGameFlag(fs)
		side := fs.String("side", "", "Trench: your colour, black (moves first, the default) or white")
		seats := fs.String("seats", "", "the human seats, comma-separated (Trichess: white, red, black; default white)")
		square := fs.Bool("square", false, "Trench: draw the board as a square instead of a diamond")
		color := fs.String("color", "auto", "colours: auto (when the output is a terminal), always or never")
		fen := fs.String("fen", "", "start from this position string instead of the start")
		load := fs.String("load", "", "continue the game saved in this file")
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
			humans, err := parseSeats(g, *side, *seats)
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
			if *square && g.Name() != trench.Game.Name() {
				return &exitError{2, fmt.Errorf("--square draws Trench boards only")}
			}
			game := record.New(g.Start())
			if *fen != "" {
				s, err := g.ParseState(*fen)
				if err != nil {
					return &exitError{2, fmt.Errorf("--fen: %v", err)}
				}
				game = record.New(s)
			}
			if *load != "" {
				if game, err = loadGame(g, *load); err != nil {
					return &exitError{2, err}
				}
			}
			b, err := bf.load(g, stderr)
			if err != nil {
				return &exitError{2, err}
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			p := &playSession{
				out: stdout, in: bufio.NewReader(stdin), bot: b, game: game, view: view,
				humans: humans, limits: limits, style: boardStyle{square: *square, color: useColor},
			}
			p.greet()
			return p.run(ctx)
		}
	},
}

// parseSeats reads --side (Trench's one human) or --seats (any game's
// human seats) into a set of human players.
func parseSeats(g engine.Game, side, seats string) ([]bool, error) {
	humans := make([]bool, g.Players())
	switch {
	case side != "" && seats != "":
		return nil, errors.New("give --side or --seats, not both")
	case side != "":
		if g.Players() != 2 {
			return nil, fmt.Errorf("--side is for two-player games; %s takes --seats", g.Name())
		}
		p, err := parseSide(side)
		if err != nil {
			return nil, err
		}
		humans[p] = true
		return humans, nil
	case seats == "":
		humans[0] = true // Black in Trench, White in Trichess: the first to move
		return humans, nil
	}
	for _, name := range strings.Split(seats, ",") {
		p := playerByName(g, strings.TrimSpace(name))
		if p < 0 {
			return nil, fmt.Errorf("--seats: no seat %s in %s (seats: %s)", excerpt.Quote(name), g.Name(), strings.Join(playerNames(g), ", "))
		}
		if humans[p] {
			return nil, fmt.Errorf("--seats: %s given twice", name)
		}
		humans[p] = true
	}
	return humans, nil
}

// playerNames lists a game's player names in seat order.
func playerNames(g engine.Game) []string {
	names := make([]string, g.Players())
	for p := range names {
		names[p] = record.PlayerName(g, p)
	}
	return names
}

// playerByName returns the player called name (or its initial), or -1.
func playerByName(g engine.Game, name string) int {
	name = strings.ToLower(name)
	for p, n := range playerNames(g) {
		if name == n || (len(name) == 1 && name[0] == n[0]) {
			return p
		}
	}
	return -1
}

func parseSide(s string) (int, error) {
	switch strings.ToLower(s) {
	case "black", "b":
		return int(trench.Black), nil
	case "white", "w":
		return int(trench.White), nil
	}
	return 0, fmt.Errorf("--side must be black or white, got %s", excerpt.Quote(s))
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
	return false, fmt.Errorf("--color must be auto, always or never, got %s", excerpt.Quote(mode))
}

// loadGame reads a saved game of game eg.
func loadGame(eg engine.Game, path string) (*record.Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g, err := record.Parse(data, path)
	if err != nil {
		return nil, err
	}
	if g.EngineGame().Name() != eg.Name() {
		return nil, fmt.Errorf("%s: a %s game, not %s", path, g.EngineGame().Name(), eg.Name())
	}
	return g, nil
}

// playSession is one terminal game between people and the engine.
type playSession struct {
	out  io.Writer
	in   *bufio.Reader
	bot  *bot.Bot
	game *record.Game
	view gameView
	// humans says which seats people play; the engine plays the others.
	humans []bool
	limits bot.Limits
	style  boardStyle
	marks  map[int]squareMark
	// announced is set once the end of the current game was shown.
	announced bool
}

// eg is the game being played.
func (p *playSession) eg() engine.Game { return p.game.EngineGame() }

// seatNames lists the seats whose humans value is want, by name.
func (p *playSession) seatNames(want bool) []string {
	var names []string
	for s, h := range p.humans {
		if h == want {
			names = append(names, record.PlayerName(p.eg(), s))
		}
	}
	return names
}

// greet says who plays what.
func (p *playSession) greet() {
	g := p.eg()
	you := strings.Join(p.seatNames(true), " and ")
	if engines := p.seatNames(false); len(engines) > 0 {
		fmt.Fprintf(p.out, "%s: you play %s; the engine plays %s with %s, %s per move.\n",
			p.view.title(), you, strings.Join(engines, " and "), p.bot, p.limits)
	} else {
		fmt.Fprintf(p.out, "%s: you play every seat (%s); hints use %s, %s per move.\n", p.view.title(), you, p.bot, p.limits)
	}
	if p.bot.Net() == nil {
		fmt.Fprintf(p.out, "No %s net is loaded, so the engine is weak: it sees mates and material only. Give --net with a checkpoint from trench train --game %s for a real opponent.\n", g.Name(), g.Name())
	}
	fmt.Fprintf(p.out, "Type a move such as %s, or \"help\".\n", p.view.example())
}

// run plays until the input ends or the player quits.
func (p *playSession) run(ctx context.Context) error {
	p.show()
	for {
		if !p.game.Over() && !p.humans[p.game.Current().ToMove()] {
			if err := p.engineMove(ctx); err != nil {
				return err
			}
			p.show()
			continue
		}
		if p.game.Over() && !p.announced {
			fmt.Fprintf(p.out, "Game over: %s.\nType undo, new, save FILE or quit.\n", p.view.result(p.game))
			p.announced = true
		}
		prompt := strings.Join(p.seatNames(true), "/")
		if !p.game.Over() {
			prompt = record.PlayerName(p.eg(), p.game.Current().ToMove())
		}
		fmt.Fprintf(p.out, "%s> ", prompt)
		line, err := readLine(p.in, maxLine)
		if errors.Is(err, errLineTooLong) {
			fmt.Fprintf(p.out, "%v\n", err)
			continue
		}
		if err != nil {
			fmt.Fprintln(p.out)
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		quit, err := p.command(ctx, strings.TrimSpace(line))
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

// show draws the board with the status line.
func (p *playSession) show() {
	cur := p.game.Current()
	marks := p.marks
	if marks == nil && p.game.Len() > 0 {
		marks = p.view.lastMove(p.game.Position(p.game.Len()-1), p.game.Moves()[p.game.Len()-1])
	}
	fmt.Fprintln(p.out)
	p.view.draw(p.out, p.style, cur, marks)
	p.marks = nil
	fmt.Fprintln(p.out, p.view.status(cur, p.humans))
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
	fmt.Fprintf(p.out, "\n%s plays %s · %s · %d sims in %.1fs\n  main line: %s\n",
		p.view.engineName(cur.ToMove()), a.Move, p.view.evalText(a, cur.ToMove()), a.Sims, a.Elapsed.Seconds(), strings.Join(a.PV, " "))
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
		fmt.Fprint(p.out, p.view.help())
	case "board":
		p.show()
	case "view":
		if p.eg().Name() != trench.Game.Name() {
			return false, fmt.Errorf("%s has one view", p.view.title())
		}
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
		mover, err := p.humanTurn()
		if err != nil {
			return false, err
		}
		if err := p.bot.SetPosition(p.game.Current()); err != nil {
			return false, err
		}
		a, err := p.bot.Search(ctx, p.limits)
		if err != nil {
			return false, err
		}
		if err := p.game.PlayAction(a.Action); err != nil {
			return false, err
		}
		fmt.Fprintf(p.out, "%s plays %s (engine's choice: %s)\n", record.PlayerName(p.eg(), mover), a.Move, p.view.evalText(a, mover))
		p.show()
	case "undo":
		p.undo()
	case "armistice", "offer":
		return false, p.offerArmistice(ctx)
	case "resign":
		if p.game.Over() {
			return false, record.ErrOver
		}
		mover, err := p.humanTurn()
		if err != nil {
			return false, err
		}
		if err := p.game.Resign(mover); err != nil {
			if errors.Is(err, record.ErrNoResignation) {
				return false, fmt.Errorf("%s has no resignation: its rules end a game only by mate, pat, échec et fat, 150 quiet plies or repetition; play on, undo, new or quit", p.view.title())
			}
			return false, err
		}
	case "new":
		p.game = record.New(p.eg().Start())
		p.announced = false
		p.show()
	case "level":
		s, err := arg()
		if err != nil {
			return false, err
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return false, fmt.Errorf("level %s is not a number", excerpt.Quote(s))
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
		p.game.Tags = p.game.Tags[:0]
		for seat, h := range p.humans {
			who := "trench " + p.limits.String()
			if h {
				who = "you"
			}
			p.game.Tags = append(p.game.Tags, record.Tag{Key: playerTag(p.eg(), seat), Value: who})
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
		g, err := loadGame(p.eg(), path)
		if err != nil {
			return false, err
		}
		p.game, p.announced = g, false
		fmt.Fprintf(p.out, "loaded %d moves from %s\n", g.Len(), path)
		p.show()
	default:
		if len(fields) != 1 {
			return false, fmt.Errorf("unknown command %s (type help)", excerpt.Quote(fields[0]))
		}
		if _, err := p.humanTurn(); err != nil {
			return false, err
		}
		move := p.view.normalize(fields[0])
		if _, err := p.game.Play(move); err != nil {
			return false, fmt.Errorf("%s: %v (type help for commands)", fields[0], err)
		}
		p.show()
	}
	return false, nil
}

// playerTag is the save file's tag naming who played seat p: "Black",
// "White", "Red".
func playerTag(g engine.Game, p int) string {
	n := record.PlayerName(g, p)
	return strings.ToUpper(n[:1]) + n[1:]
}

// humanTurn checks that a human may move now and returns the seat.
func (p *playSession) humanTurn() (int, error) {
	if p.game.Over() {
		return 0, record.ErrOver
	}
	mover := p.game.Current().ToMove()
	if !p.humans[mover] {
		return 0, errors.New("it is not your move")
	}
	return mover, nil
}

// showMoves marks and lists the legal moves of the piece on sq.
func (p *playSession) showMoves(text string) error {
	marks, list, err := p.view.pieceMoves(p.game.Current(), text)
	if err != nil {
		return err
	}
	sq := p.view.normalize(text)
	if len(list) == 0 {
		fmt.Fprintf(p.out, "the piece on %s has no legal move\n", sq)
		return nil
	}
	p.marks = marks
	p.show()
	fmt.Fprintf(p.out, "%s: %s\n", sq, strings.Join(list, "; "))
	return nil
}

// hint shows the engine's suggestion for the human to move.
func (p *playSession) hint(ctx context.Context) error {
	mover, err := p.humanTurn()
	if err != nil {
		return err
	}
	if err := p.bot.SetPosition(p.game.Current()); err != nil {
		return err
	}
	a, err := p.bot.Search(ctx, p.limits)
	if err != nil {
		return err
	}
	fmt.Fprintf(p.out, "hint: %s · for %s: %s\n  main line: %s\n", a.Move, record.PlayerName(p.eg(), mover), p.view.evalText(a, mover), strings.Join(a.PV, " "))
	return nil
}

// undo takes back the last human move and everything after it, or a
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
		if p.humans[mover] {
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

// offerArmistice asks the engine to stop the game here (two-player games
// against the engine only).
func (p *playSession) offerArmistice(ctx context.Context) error {
	if p.game.Over() {
		return record.ErrOver
	}
	if p.eg().Players() != 2 {
		return fmt.Errorf("%s has no armistice", p.view.title())
	}
	engineSide := -1
	for s, h := range p.humans {
		if !h {
			engineSide = s
		}
	}
	if engineSide < 0 {
		return errors.New("there is no engine to offer an armistice to")
	}
	cur := p.game.Current()
	if err := p.bot.SetPosition(cur); err != nil {
		return err
	}
	a, err := p.bot.Search(ctx, p.limits)
	if err != nil {
		return err
	}
	if !bot.AcceptsArmistice(cur, engineSide, a) {
		fmt.Fprintf(p.out, "trench declines the armistice (for itself it sees %s)\n", p.view.evalText(a, engineSide))
		return nil
	}
	if err := p.game.AgreeArmistice(); err != nil {
		return err
	}
	fmt.Fprintln(p.out, "trench accepts the armistice")
	return nil
}
