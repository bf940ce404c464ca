package bot

import (
	"fmt"
	"strings"
	"time"

	"trench/searchconfig"
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
	MaxSims = searchconfig.MaxSims
	MaxTime = searchconfig.MaxTime
)

// Levels is the number of named strength levels.
var Levels = searchconfig.Levels

// Level returns the limits of strength level n (1..Levels).
func Level(n int) (Limits, error) {
	sims, err := searchconfig.LevelSims(n)
	return Limits{Sims: sims}, err
}
