// Package terminal is trench play: a game between people at a terminal
// and the bot, read from an input and written to an output. It draws
// the board with the game's terminal view (games/plugin.TerminalView),
// takes moves in the game's notation and commands (moves, hint, go, undo,
// armistice, resign, save, load, new, level, view), and lets the bot
// play the seats people do not.
package terminal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"trench/bot"
	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/atomicfile"
	"trench/internal/excerpt"
	"trench/internal/textline"
	"trench/record"
)

// Options configure a terminal game.
type Options struct {
	// Bot is the bot; it plays the seats people do not and gives hints.
	Bot bot.Bot
	// Game is the game to play on: a start position or a loaded game.
	Game *record.Game
	// Humans says which seats people play (see Seats).
	Humans []bool
	// Limits bound the bot's searches.
	Limits bot.Limits
	// Style is how the board is drawn.
	Style plugin.Style
}

// Play greets the players, then plays until in ends or a player quits,
// reading commands and moves from in and writing the board and the
// bot's moves to out. It returns ctx's error when ctx ends first.
func Play(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	g := o.Game.EngineGame()
	view, err := View(g)
	if err != nil {
		return err
	}
	if len(o.Humans) != g.Players() {
		return fmt.Errorf("%d seats given for %s's %d players", len(o.Humans), g.Name(), g.Players())
	}
	if o.Style.Square && !view.SquareView() {
		return fmt.Errorf("%s has no square view", games.Title(g))
	}
	p := &session{out: out, in: bufio.NewReader(in), bot: o.Bot, game: o.Game, view: view,
		humans: o.Humans, limits: o.Limits, style: o.Style}
	p.greet()
	return p.run(ctx)
}

// View returns the terminal view of g, or an error saying that the
// terminal cannot show it.
func View(g engine.Game) (plugin.TerminalView, error) {
	if p := games.Of(g); p != nil && p.Terminal != nil && p.Playable {
		return p.Terminal, nil
	}
	return nil, fmt.Errorf("trench play cannot show %s games (it plays %s)", g.Name(), strings.Join(games.PlayableNames(), " and "))
}

// Seats reads --side (the one human of a two-player game) or --seats
// (any game's human seats, by name or initial, comma-separated) into the
// seats people play; with neither, people play the first seat.
func Seats(g engine.Game, side, seats string) ([]bool, error) {
	humans := make([]bool, g.Players())
	switch {
	case side != "" && seats != "":
		return nil, errors.New("give --side or --seats, not both")
	case side != "":
		if g.Players() != 2 {
			return nil, fmt.Errorf("--side is for two-player games; %s takes --seats", g.Name())
		}
		p := playerByName(g, side)
		if p < 0 {
			return nil, fmt.Errorf("--side must be %s, got %s", strings.Join(playerNames(g), " or "), excerpt.Quote(side))
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

// LoadGame reads the game saved in the file path, which must be a game of
// eg.
func LoadGame(eg engine.Game, path string) (*record.Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g, err := record.Parse(data, path)
	if err != nil {
		return nil, err
	}
	if !engine.Same(g.EngineGame(), eg) {
		return nil, fmt.Errorf("%s: a %s game, not %s", path, g.EngineGame().Name(), eg.Name())
	}
	return g, nil
}

// session is one terminal game between people and the bot.
type session struct {
	out  io.Writer
	in   *bufio.Reader
	bot  bot.Bot
	game *record.Game
	view plugin.TerminalView
	// humans says which seats people play; the bot plays the others.
	humans []bool
	limits bot.Limits
	style  plugin.Style
	marks  map[int]plugin.Mark
	// announced is set once the end of the current game was shown.
	announced bool
}

// eg is the game being played.
func (p *session) eg() engine.Game { return p.game.EngineGame() }

// seatNames lists the seats whose humans value is want, by name.
func (p *session) seatNames(want bool) []string {
	var names []string
	for s, h := range p.humans {
		if h == want {
			names = append(names, record.PlayerName(p.eg(), s))
		}
	}
	return names
}

// greet says who plays what.
func (p *session) greet() {
	g := p.eg()
	you := strings.Join(p.seatNames(true), " and ")
	if bots := p.seatNames(false); len(bots) > 0 {
		fmt.Fprintf(p.out, "%s: you play %s; the bot plays %s with %s, %s per move.\n",
			games.Title(p.eg()), you, strings.Join(bots, " and "), p.bot, p.limits)
	} else {
		fmt.Fprintf(p.out, "%s: you play every seat (%s); hints use %s, %s per move.\n", games.Title(p.eg()), you, p.bot, p.limits)
	}
	if t, ok := p.bot.(*bot.Tree); ok && t.Net() == nil {
		fmt.Fprintf(p.out, "The bot searches without a net: capture-first priors and material values. Give --net with a run of trench train --game %s to play a trained net.\n", g.Name())
	}
	fmt.Fprintf(p.out, "Type a move such as %s, or \"help\".\n", p.view.Example())
}

// run plays until the input ends or the player quits.
func (p *session) run(ctx context.Context) error {
	p.show()
	for {
		if !p.game.Over() && !p.humans[p.game.Current().ToMove()] {
			if err := p.botMove(ctx); err != nil {
				return err
			}
			p.show()
			continue
		}
		if p.game.Over() && !p.announced {
			fmt.Fprintf(p.out, "Game over: %s.\nType undo, new, save FILE or quit.\n", p.result())
			p.announced = true
		}
		prompt := strings.Join(p.seatNames(true), "/")
		if !p.game.Over() {
			prompt = record.PlayerName(p.eg(), p.game.Current().ToMove())
		}
		fmt.Fprintf(p.out, "%s> ", prompt)
		line, err := textline.Read(p.in, textline.Max)
		if errors.Is(err, textline.ErrTooLong) {
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
func (p *session) show() {
	cur := p.game.Current()
	marks := p.marks
	if marks == nil && p.game.Len() > 0 {
		marks = p.view.LastMove(p.game.Position(p.game.Len()-1), p.game.Moves()[p.game.Len()-1])
	}
	fmt.Fprintln(p.out)
	p.view.Draw(p.out, p.style, cur, marks)
	p.marks = nil
	fmt.Fprintln(p.out, p.view.Status(cur, p.humans))
}

// search lets the bot search the current position within the session's
// limits and returns the position with the bot's analysis. When ctx ends
// during the search it returns ctx's error: nothing is played, suggested
// or agreed from a search cut short.
func (p *session) search(ctx context.Context) (engine.State, *bot.Analysis, error) {
	cur := p.game.Current()
	if err := p.bot.SetPosition(cur); err != nil {
		return nil, nil, err
	}
	a, err := p.bot.Search(ctx, p.limits)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return cur, a, nil
}

// botMove lets the bot search and play.
func (p *session) botMove(ctx context.Context) error {
	cur, a, err := p.search(ctx)
	if err != nil {
		return err
	}
	if err := p.game.PlayAction(a.Action); err != nil {
		return err
	}
	fmt.Fprintf(p.out, "\n%s plays %s · %s · %s in %.1fs\n  main line: %s\n",
		p.botName(cur.ToMove()), a.Move, p.evalText(a, cur.ToMove()), a.Effort(), a.Elapsed.Seconds(), strings.Join(a.PV, " "))
	if a.Guard != "" {
		fmt.Fprintf(p.out, "  check: %s\n", a.Guard)
	}
	if a.Endgame != "" {
		fmt.Fprintf(p.out, "  endgame: %s\n", a.Endgame)
	}
	return nil
}

// command runs one line of input and reports whether to quit.
func (p *session) command(ctx context.Context, line string) (bool, error) {
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
		fmt.Fprint(p.out, p.view.Help())
	case "board":
		p.show()
	case "view":
		if !p.view.SquareView() {
			return false, fmt.Errorf("%s has one view", games.Title(p.eg()))
		}
		p.style.Square = !p.style.Square
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
		_, a, err := p.search(ctx)
		if err != nil {
			return false, err
		}
		if err := p.game.PlayAction(a.Action); err != nil {
			return false, err
		}
		fmt.Fprintf(p.out, "%s plays %s (the bot's choice: %s)\n", record.PlayerName(p.eg(), mover), a.Move, p.evalText(a, mover))
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
				return false, fmt.Errorf("%s has no resignation: its rules end a game only by mate, pat, échec et fat, 150 quiet plies or repetition; play on, undo, new or quit", games.Title(p.eg()))
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
		l, err := bot.Level(p.bot.Kind(), n)
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
		g, err := LoadGame(p.eg(), path)
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
		move := p.view.Normalize(fields[0])
		if _, err := p.game.Play(move); err != nil {
			return false, fmt.Errorf("%s: %v (type help for commands)", fields[0], err)
		}
		p.show()
	}
	return false, nil
}

// playerTag is the save file's tag naming who played seat p: "Black",
// "White", "Red".
func playerTag(g engine.Game, p int) string { return capitalize(record.PlayerName(g, p)) }

// humanTurn checks that a human may move now and returns the seat.
func (p *session) humanTurn() (int, error) {
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
func (p *session) showMoves(text string) error {
	marks, list, err := p.view.PieceMoves(p.game.Current(), text)
	if err != nil {
		return err
	}
	sq := p.view.Normalize(text)
	if len(list) == 0 {
		fmt.Fprintf(p.out, "the piece on %s has no legal move\n", sq)
		return nil
	}
	p.marks = marks
	p.show()
	fmt.Fprintf(p.out, "%s: %s\n", sq, strings.Join(list, "; "))
	return nil
}

// hint shows the bot's suggestion for the human to move.
func (p *session) hint(ctx context.Context) error {
	mover, err := p.humanTurn()
	if err != nil {
		return err
	}
	_, a, err := p.search(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(p.out, "hint: %s · for %s: %s\n  main line: %s\n", a.Move, record.PlayerName(p.eg(), mover), p.evalText(a, mover), strings.Join(a.PV, " "))
	return nil
}

// undo takes back the last human move and everything after it, or a
// resignation or armistice.
func (p *session) undo() {
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

// offerArmistice asks the bot to stop the game here (two-player games
// against the bot only).
func (p *session) offerArmistice(ctx context.Context) error {
	if p.game.Over() {
		return record.ErrOver
	}
	if p.eg().Players() != 2 {
		return fmt.Errorf("%s has no armistice", games.Title(p.eg()))
	}
	botSide := -1
	for s, h := range p.humans {
		if !h {
			botSide = s
		}
	}
	if botSide < 0 {
		return errors.New("there is no bot to offer an armistice to")
	}
	cur, a, err := p.search(ctx)
	if err != nil {
		return err
	}
	if !bot.AcceptsArmistice(cur, botSide, a) {
		fmt.Fprintf(p.out, "trench declines the armistice (for itself it sees %s)\n", p.evalText(a, botSide))
		return nil
	}
	if err := p.game.AgreeArmistice(); err != nil {
		return err
	}
	fmt.Fprintln(p.out, "trench accepts the armistice")
	return nil
}
