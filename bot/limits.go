package bot

import (
	"fmt"
	"strings"
	"time"

	"trench/searchconfig"
)

// Limits bound one search. A zero field is no bound; at least one must
// be set, and of Sims and Nodes only the one of the bot's kind.
type Limits struct {
	// Sims is the number of new simulations (net evaluations, roughly) to
	// run; simulations kept from an earlier move by tree reuse are not
	// counted. It limits the mcts kind.
	Sims int
	// Nodes is the number of positions to search, quiescence included
	// (checked every 1024). It limits the alphabeta kind.
	Nodes int
	// Time is the longest the search may take.
	Time time.Duration
	// MultiPV, above 1, has the alphabeta kind search its best MultiPV
	// root moves in full, each with its exact score and main line
	// (Analysis.Moves), at the cost of depth; 0 or 1 searches for the
	// best move alone. The tree search reports every root move it
	// visited whatever it says.
	MultiPV int
}

// Validate reports a limit that cannot be searched with.
func (l Limits) Validate() error {
	switch {
	case l.Sims < 0:
		return fmt.Errorf("simulations must not be negative, got %d", l.Sims)
	case l.Nodes < 0:
		return fmt.Errorf("nodes must not be negative, got %d", l.Nodes)
	case l.Time < 0:
		return fmt.Errorf("time must not be negative, got %v", l.Time)
	case l.Sims == 0 && l.Nodes == 0 && l.Time == 0:
		return fmt.Errorf("give a number of simulations or nodes, or a time per move")
	case l.Sims > 0 && l.Nodes > 0:
		return fmt.Errorf("give simulations (mcts) or nodes (alphabeta), not both")
	case l.Sims > MaxSims:
		return fmt.Errorf("simulations %d exceed the maximum %d", l.Sims, MaxSims)
	case l.Nodes > MaxNodes:
		return fmt.Errorf("nodes %d exceed the maximum %d", l.Nodes, MaxNodes)
	case l.Time > MaxTime:
		return fmt.Errorf("time %v exceeds the maximum %v", l.Time, MaxTime)
	case l.MultiPV < 0 || l.MultiPV > MaxMultiPV:
		return fmt.Errorf("lines (multi-PV) must be in 0..%d, got %d", MaxMultiPV, l.MultiPV)
	}
	return nil
}

// String is a short description such as "200 sims", "30000 nodes",
// "2s" or "2s, 3 lines".
func (l Limits) String() string {
	var parts []string
	if l.Sims > 0 {
		parts = append(parts, fmt.Sprintf("%d sims", l.Sims))
	}
	if l.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", l.Nodes))
	}
	if l.Time > 0 {
		parts = append(parts, l.Time.String())
	}
	if l.MultiPV > 1 {
		parts = append(parts, fmt.Sprintf("%d lines", l.MultiPV))
	}
	return strings.Join(parts, ", ")
}

// MaxSims, MaxNodes, MaxTime and MaxMultiPV bound what a single search
// may be asked for.
const (
	MaxSims    = searchconfig.MaxSims
	MaxNodes   = searchconfig.MaxNodes
	MaxTime    = searchconfig.MaxTime
	MaxMultiPV = 256
)

// Levels is the number of named strength levels.
var Levels = searchconfig.Levels

// Level returns the limits of strength level n (1..Levels) for a bot of
// kind (searchconfig.MCTS or AlphaBeta): simulations or nodes.
func Level(kind string, n int) (Limits, error) {
	if kind == searchconfig.AlphaBeta {
		nodes, err := searchconfig.LevelNodes(n)
		return Limits{Nodes: nodes}, err
	}
	sims, err := searchconfig.LevelSims(n)
	return Limits{Sims: sims}, err
}
