package plugin

import (
	"context"
	"time"

	"trench/engine"
)

// Classical is a game's hand-written search engine (Trench's alphabeta):
// the arena's alphabeta player, minimax's hand blend and a line of trench
// bench.
type Classical interface {
	// Name is the engine's name, e.g. "alphabeta".
	Name() string
	// MaxDepth is the deepest search it takes, in plies.
	MaxDepth() int
	// NewSearcher makes a searcher with a table of 2^tableBits entries.
	NewSearcher(tableBits int) (ClassicalSearcher, error)
	// Value is its hand-written evaluation of s, which is not over, for
	// the player to move, as a value in (-1, 1).
	Value(s engine.State) float32
	// NodesPerSecond measures its search's speed on one core for about d.
	NodesPerSecond(ctx context.Context, d time.Duration) (float64, error)
}

// ClassicalSearcher searches positions one after another, keeping its
// table between them.
type ClassicalSearcher interface {
	// Move returns the best action in s, which is not over, within limits.
	Move(ctx context.Context, s engine.State, limits ClassicalLimits) (int, error)
}

// ClassicalLimits bound a classical search; zero fields do not bound it.
type ClassicalLimits struct {
	// Depth is the nominal depth of the last iteration, in plies.
	Depth int
	// Time is the longest the search may take.
	Time time.Duration
	// Nodes stops the search after about this many nodes.
	Nodes uint64
}
