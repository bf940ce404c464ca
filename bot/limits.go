package bot

import (
	"fmt"
	"strings"
	"time"
)

// Limits bound one search. A zero field is no bound; at least one of Sims
// and Time must be set.
type Limits struct {
	// Sims is the number of new simulations (net evaluations, roughly) to
	// run; simulations kept from an earlier move by tree reuse are not
	// counted.
	Sims int
	// Time is the longest the search may take.
	Time time.Duration
}

// Validate reports a limit that cannot be searched with.
func (l Limits) Validate() error {
	switch {
	case l.Sims < 0:
		return fmt.Errorf("simulations must not be negative, got %d", l.Sims)
	case l.Time < 0:
		return fmt.Errorf("time must not be negative, got %v", l.Time)
	case l.Sims == 0 && l.Time == 0:
		return fmt.Errorf("give a number of simulations or a time per move")
	case l.Sims > MaxSims:
		return fmt.Errorf("simulations %d exceed the maximum %d", l.Sims, MaxSims)
	case l.Time > MaxTime:
		return fmt.Errorf("time %v exceeds the maximum %v", l.Time, MaxTime)
	}
	return nil
}

// String is a short description such as "200 sims" or "2s".
func (l Limits) String() string {
	var parts []string
	if l.Sims > 0 {
		parts = append(parts, fmt.Sprintf("%d sims", l.Sims))
	}
	if l.Time > 0 {
		parts = append(parts, l.Time.String())
	}
	return strings.Join(parts, ", ")
}

// MaxSims and MaxTime bound what a single search may be asked for.
const (
	MaxSims = 1 << 20
	MaxTime = time.Hour
)

// levelSims maps the named levels 1..len(levelSims) to simulations per
// move. Level 1 plays the net's first choice after one simulation.
var levelSims = []int{1, 8, 32, 100, 200, 400, 800, 1600}

// Levels is the number of named strength levels.
var Levels = len(levelSims)

// DefaultLevel is the level interfaces use when none is chosen.
const DefaultLevel = 6

// Level returns the limits of strength level n (1..Levels).
func Level(n int) (Limits, error) {
	if n < 1 || n > len(levelSims) {
		return Limits{}, fmt.Errorf("level %d is not in 1..%d", n, len(levelSims))
	}
	return Limits{Sims: levelSims[n-1]}, nil
}

// LevelList describes the levels' simulations per move, e.g. "1=1, 2=8,
// 3=32".
func LevelList() string {
	parts := make([]string, len(levelSims))
	for i, sims := range levelSims {
		parts[i] = fmt.Sprintf("%d=%d", i+1, sims)
	}
	return strings.Join(parts, ", ")
}
