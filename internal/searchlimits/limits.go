// Package searchlimits holds the limits of a depth-first alpha-beta
// search (package alphabeta's classical search of Trench and package
// minimax's search of any two-player game): a depth, a time, a node
// count or a soft node count, and when to start another iteration.
package searchlimits

import (
	"errors"
	"fmt"
	"time"
)

// Limits bound one search. A zero field is no bound; at least one must be
// set.
type Limits struct {
	// Depth is the nominal depth of the last iteration, in plies.
	Depth int
	// Time is the longest the search may take; the move comes from the
	// last iteration that finished, or the best move found so far in the
	// one that did not.
	Time time.Duration
	// Nodes stops the search after about this many nodes.
	Nodes uint64
	// SoftNodes starts no new iteration of iterative deepening once
	// this many nodes are searched; the iteration under way finishes
	// unless Nodes (the hard limit) cuts it. Searches by a node budget
	// thus mostly end on a finished iteration.
	SoftNodes uint64
}

// Check reports limits that cannot be searched with by a search that goes
// at most maxDepth plies deep.
func (l Limits) Check(maxDepth int) error {
	switch {
	case l.Depth < 0 || l.Depth > maxDepth:
		return fmt.Errorf("depth must be in 1..%d, got %d", maxDepth, l.Depth)
	case l.Time < 0:
		return fmt.Errorf("time must be positive, got %v", l.Time)
	case l.Depth == 0 && l.Time == 0 && l.Nodes == 0 && l.SoftNodes == 0:
		return errors.New("give a depth, a time or a node limit")
	case l.Nodes > 0 && l.SoftNodes > l.Nodes:
		return fmt.Errorf("soft node limit %d is above the node limit %d", l.SoftNodes, l.Nodes)
	}
	return nil
}

// Deepen reports whether iterative deepening goes on after an iteration
// that ended with score, elapsed after the search began with nodes
// searched: not after a forced result (a score beyond ±winBound), which a
// deeper search will not change, nor once half the time is spent (the
// next iteration would likely not finish), nor once the nodes or the
// soft nodes are.
func (l Limits) Deepen(score, winBound int, elapsed time.Duration, nodes uint64) bool {
	switch {
	case score > winBound || score < -winBound:
		return false
	case l.Time > 0 && elapsed > l.Time/2:
		return false
	case l.Nodes > 0 && nodes >= l.Nodes:
		return false
	case l.SoftNodes > 0 && nodes >= l.SoftNodes:
		return false
	}
	return true
}
