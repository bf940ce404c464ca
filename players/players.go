package players

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"

	"trench/engine"
	"trench/internal/excerpt"
)

// Player chooses the moves of one seat in one game at a time. It may keep
// state from one move to the next (a search tree, a table); positions
// come in game order, but a Player must also accept any position.
type Player interface {
	// Move returns the action to play in s, which is not over.
	Move(ctx context.Context, s engine.State) (int, error)
}

// Maker makes the players of one spec, a fresh one for each game, sharing
// what can be shared (a loaded net). Its methods are safe for concurrent
// use.
type Maker struct {
	// Spec is the spec the maker was loaded from.
	Spec Spec
	// Name is how the player is shown: the spec's text.
	Name string
	// Net is the net the player uses, nil for classical players.
	Net *SharedNet
	// Timed is true when the player's moves are limited by time, so that
	// its strength depends on the cores it gets.
	Timed bool
	// Threads is the number of cores the player's search keeps busy while
	// it moves; 0 means 1.
	Threads int
	// newPlayer makes a player for one game; seed seeds its randomness.
	newPlayer func(seed uint64) (Player, error)
}

// NewPlayer makes a player for one game, its randomness seeded by seed.
func (m *Maker) NewPlayer(seed uint64) (Player, error) { return m.newPlayer(seed) }

// NewMaker returns the maker of a player built in code rather than from
// a spec (a search with an evaluation no spec names): name shows it,
// timed tells that its moves are limited by time, and newPlayer makes a
// player for one game.
func NewMaker(name string, timed bool, newPlayer func(seed uint64) (Player, error)) *Maker {
	return &Maker{Name: name, Timed: timed, newPlayer: newPlayer}
}

// kind describes one kind of player.
type kind struct {
	name, usage string
	load        func(l *Loader, s Spec) (*Maker, error)
}

// kinds lists every kind of player, in the order Usage shows them.
var kinds = []kind{
	{"random", "random: a uniformly random legal move", loadRandom},
	{"greedy", "greedy: the move that scores the most points, then (in games with piece values) takes the most material, else a random move", loadGreedy},
	{"alphabeta", "alphabeta[:depth=N|time=DUR|nodes=N,tt=BITS,eval=hand|rules|nnue,nnue=FILE|RUN|default,search=paranoid|brs|maxn]: the classical search (Trench and Trichess), by depth (1..64, default 3), time or nodes per move; tt sets its table to 2^BITS entries (default 18); eval is its evaluation: hand (the hand-written one, default), rules (the score difference alone) or nnue (an efficiently updatable net, given by nnue=, which implies eval=nnue: an nnue file, a run directory of trench train --preset nnue, its newest accepted net, or default, the one built in; the old spellings eval=net and net= still read; Trichess has the hand evaluation alone); search (Trichess only) is its three-player search: paranoid (default), brs (Best-Reply Search, BRS+) or maxn (max^n with shallow pruning); the fixed classical yardstick, where bot:kind=alphabeta is the bot", loadAlphaBeta},
	{"policy", "policy[:net=NET]: the net's most likely move, no search", loadPolicy},
	{"bot", botUsage, loadBot},
	{"mcts", "mcts[:KEY=VALUE,...]: the old name of bot, the same player with the same options", loadBot},
	{"minimax", "minimax[:net=NET|none,depth=N|time=DUR|nodes=N,quiesce=0|1,mat=W,hand=W,batch=0|1,tt=BITS]: alpha-beta search with the net's value at the leaves (two-player games), by depth (1..32, default 3), time or nodes per move; quiesce and mat as for mcts (default 1, 0.75); hand (Trench only, default 0) is the weight of alphabeta's hand-written evaluation blended into the leaves' values; batch=1 evaluates the children of a node above the leaves in one net call instead of one leaf at a time; tt sets its table to 2^BITS entries (default 18)", loadMinimax},
}

// Kinds lists the kinds of player.
func Kinds() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	return names
}

// Usage describes the spec syntax and every kind of player, for --help.
func Usage() string {
	var b strings.Builder
	b.WriteString("A player is KIND or KIND:KEY=VALUE,KEY=VALUE:\n")
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %s\n", k.usage)
	}
	b.WriteString("NET is a checkpoint file, a run directory (its newest checkpoint) or \"default\" (the net built in; the default);\na path with a comma cannot be named.\n")
	return b.String()
}

// Loader loads players for one game, sharing nets among them. Close it
// when done to stop the nets' batching goroutines.
type Loader struct {
	// Warnings, if set, receives a warning for each checkpoint of a run
	// directory passed over because it does not load (neteval.Net.WarnPassed).
	Warnings io.Writer

	game engine.Game
	mu   sync.Mutex
	// nets holds each loaded net by the file it came from; refs the same
	// nets by the ref that named them, so that naming one again reads
	// nothing.
	nets, refs map[string]*SharedNet
}

// NewLoader returns a loader for game g.
func NewLoader(g engine.Game) *Loader {
	return &Loader{game: g, nets: map[string]*SharedNet{}, refs: map[string]*SharedNet{}}
}

// Game returns the loader's game.
func (l *Loader) Game() engine.Game { return l.game }

// Load parses a spec and makes its maker, checking every option and
// loading any net; the error names the spec and what is wrong.
func (l *Loader) Load(text string) (*Maker, error) {
	s, err := ParseSpec(text)
	if err != nil {
		return nil, err
	}
	for _, k := range kinds {
		if k.name == s.Kind {
			m, err := k.load(l, s)
			if err != nil {
				return nil, err
			}
			m.Spec, m.Name = s, s.String()
			return m, nil
		}
	}
	return nil, fmt.Errorf("player %s: unknown kind %s (known: %s)", excerpt.Quote(text), excerpt.Quote(s.Kind), strings.Join(Kinds(), ", "))
}

// Close stops the shared nets' batching.
func (l *Loader) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, n := range l.nets {
		n.close()
	}
}

func loadRandom(l *Loader, s Spec) (*Maker, error) {
	if _, err := newOptions(s); err != nil {
		return nil, err
	}
	return &Maker{newPlayer: func(seed uint64) (Player, error) {
		return &randomPlayer{rng: rand.New(rand.NewPCG(seed, 0x72616e646f6d))}, nil
	}}, nil
}

type randomPlayer struct {
	rng     *rand.Rand
	actions []int
}

func (p *randomPlayer) Move(_ context.Context, s engine.State) (int, error) {
	p.actions = s.LegalActions(p.actions)
	if len(p.actions) == 0 {
		return 0, fmt.Errorf("random player: no legal move in %s", s)
	}
	return p.actions[p.rng.IntN(len(p.actions))], nil
}

func loadGreedy(l *Loader, s Spec) (*Maker, error) {
	if _, err := newOptions(s); err != nil {
		return nil, err
	}
	return &Maker{newPlayer: func(seed uint64) (Player, error) {
		return &greedyPlayer{rng: rand.New(rand.NewPCG(seed, 0x677265656479))}, nil
	}}, nil
}

// greedyPlayer plays the move that raises its score the most and, among
// those, in games whose pieces have values (engine.Material), the one
// that takes the most material from the opponents; it chooses at random
// among equals (so among all moves when none scores or captures).
type greedyPlayer struct {
	rng      *rand.Rand
	actions  []int
	best     []int
	scores   []float32
	material []float32
}

func (p *greedyPlayer) Move(_ context.Context, s engine.State) (int, error) {
	p.actions = s.LegalActions(p.actions)
	if len(p.actions) == 0 {
		return 0, fmt.Errorf("greedy player: no legal move in %s", s)
	}
	me := s.ToMove()
	p.scores = s.Scores(p.scores)
	before := p.scores[me]
	_, weighs := s.(engine.Material)
	var held float32
	if weighs {
		held = p.theirs(s, me)
	}
	bestGain, bestTaken := float32(-1), float32(-1)
	p.best = p.best[:0]
	for _, a := range p.actions {
		c := s.Clone()
		c.Play(a)
		p.scores = c.Scores(p.scores)
		gain := p.scores[me] - before
		var taken float32
		if weighs {
			taken = held - p.theirs(c, me)
		}
		switch {
		case gain > bestGain || gain == bestGain && taken > bestTaken:
			bestGain, bestTaken = gain, taken
			p.best = append(p.best[:0], a)
		case gain == bestGain && taken == bestTaken:
			p.best = append(p.best, a)
		}
	}
	sort.Ints(p.best)
	return p.best[p.rng.IntN(len(p.best))], nil
}

// theirs is the material on the board of everyone but player me in s,
// which implements engine.Material.
func (p *greedyPlayer) theirs(s engine.State, me int) float32 {
	p.material = s.(engine.Material).Materials(p.material)
	var sum float32
	for i, m := range p.material {
		if i != me {
			sum += m
		}
	}
	return sum
}
