package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"trench/engine"
	"trench/games"
	"trench/internal/excerpt"
)

// GameLog is one game as the arena logs it, one JSON object a line:
// who sat where, the opening, the moves and how it ended, enough to
// replay and check it (Replay).
type GameLog struct {
	// Game is the game's name.
	Game string `json:"game"`
	// Table, Group and Seating place the game in the run (as in
	// Outcome): the table (one set of players), the opening group, and
	// the seating (which permutation of the table's players sits; for
	// two seats 0 or 1 for a pair's first or colour-swapped game). The
	// JSON names are those of the logs of earlier versions.
	Table   int `json:"meeting"`
	Group   int `json:"pair"`
	Seating int `json:"round"`
	// Players are the players' names by seat.
	Players []string `json:"players"`
	// Seats is the index of each seat's player in the run's list of
	// players (names can repeat). Logs of earlier versions lack it for
	// games of two seats.
	Seats []int `json:"seats,omitempty"`
	// Start is the opening position.
	Start string `json:"start"`
	// Moves are the moves played, in notation.
	Moves []string `json:"moves"`
	// Result is each seat's result (+1 win, 0 draw, -1 loss) and Scores
	// each seat's points captured.
	Result []float32 `json:"result"`
	Scores []float32 `json:"scores"`
	// Ending names how the game ended and Titles each seat's result, in
	// the game's words (engine.EndReason, engine.Title).
	Ending string   `json:"ending,omitempty"`
	Titles []string `json:"titles,omitempty"`
}

func (r *GameLog) write(w io.Writer) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(line, '\n'))
	return err
}

// maxLogLine bounds one line of a game log.
const maxLogLine = 4 << 20

// Replay reads a game log written by the arena and replays every
// game: each move must be legal, the game must end exactly after the last
// move, and the recorded result and scores must be what the rules give.
// It returns the number of games checked; the error names the line and
// what is wrong.
func Replay(r io.Reader, name string) (int, error) {
	return readLog(r, name, nil)
}

// readLog reads a game log, checks every game as Replay describes, and
// passes each with its line to use (when not nil). It returns the
// number of games read before any error, which names the line.
func readLog(r io.Reader, name string, use func(line int, rec *GameLog)) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLogLine)
	n := 0
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec GameLog
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return n, fmt.Errorf("%s:%d: not a game log line: %w", name, line, err)
		}
		if err := rec.Check(); err != nil {
			return n, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if use != nil {
			use(line, &rec)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		return n, fmt.Errorf("%s: %w", name, err)
	}
	return n, nil
}

// Check replays the game and reports the first disagreement with the
// rules.
func (r *GameLog) Check() error {
	g, err := games.ByName(r.Game)
	if err != nil {
		return err
	}
	s, err := g.ParseState(r.Start)
	if err != nil {
		return fmt.Errorf("start position: %w", err)
	}
	if len(r.Players) != g.Players() {
		return fmt.Errorf("%d players recorded, %s has %d", len(r.Players), g.Name(), g.Players())
	}
	for i, text := range r.Moves {
		if s.Over() {
			return fmt.Errorf("move %d, %s: the game was already over", i+1, text)
		}
		a, err := s.ParseAction(text)
		if err != nil {
			return fmt.Errorf("move %d, %s: %w", i+1, text, err)
		}
		s.Play(a)
	}
	if !s.Over() {
		return fmt.Errorf("the game is not over after its %d moves", len(r.Moves))
	}
	if got := s.Result(nil); !slices.Equal(got, r.Result) {
		return fmt.Errorf("recorded result %v, the rules give %v", r.Result, got)
	}
	if got := s.Scores(nil); !slices.Equal(got, r.Scores) {
		return fmt.Errorf("recorded scores %v, the rules give %v", r.Scores, got)
	}
	if got := engine.EndReason(s); r.Ending != "" && r.Ending != got {
		return fmt.Errorf("recorded ending %s, the rules give %s", excerpt.Quote(r.Ending), excerpt.Quote(got))
	}
	if r.Titles != nil {
		got := make([]string, g.Players())
		for p := range got {
			got[p] = engine.Title(s, p)
		}
		if !slices.Equal(got, r.Titles) {
			return fmt.Errorf("recorded titles %q, the rules give %q", r.Titles, got)
		}
	}
	if r.Seats != nil {
		if len(r.Seats) != g.Players() {
			return fmt.Errorf("%d seats recorded, %s has %d players", len(r.Seats), g.Name(), g.Players())
		}
		for i, p := range r.Seats {
			// A challenge seats its second player more than once, under
			// one name.
			if j := slices.Index(r.Seats[:i], p); p < 0 || j >= 0 && (len(r.Players) != len(r.Seats) || r.Players[j] != r.Players[i]) {
				return fmt.Errorf("seats %v: seat %d's player %d is negative or sits twice under two names", r.Seats, i, p)
			}
		}
	}
	return nil
}

// ReadOpeningsFile reads the openings of game g from the file at path
// (see ReadOpenings).
func ReadOpeningsFile(path string, g engine.Game) ([]engine.State, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpenings(f, path, g)
}

// ReadOpenings reads positions of game g, one a line; blank lines and
// lines starting with # are skipped. The error names the line.
func ReadOpenings(r io.Reader, name string, g engine.Game) ([]engine.State, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var out []engine.State
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		s, err := g.ParseState(trimmed)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if s.Over() {
			return nil, fmt.Errorf("%s:%d: %s is a finished game", name, line, excerpt.Quote(trimmed))
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions", name)
	}
	return out, nil
}
