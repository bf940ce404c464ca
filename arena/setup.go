package arena

import (
	"fmt"
	"strings"

	"trench/engine"
	"trench/internal/excerpt"
	"trench/players"
)

// MaxParallel bounds Setup.Parallel.
const MaxParallel = 1024

// Setup is a match as trench arena's flags describe it, whose errors
// name them.
type Setup struct {
	// Game is the game played.
	Game engine.Game
	// Players are the players' specs (package players), at least one per
	// seat.
	Players []string
	// Games is the games per meeting of two players, or per table of a
	// game of more players, rounded up to whole seating groups.
	Games int
	// OpeningsFile, if set, is a file of opening positions; otherwise
	// each group's opening is OpeningPlies random plies.
	OpeningsFile string
	OpeningPlies int
	// Parallel is the games played at once (0: PlanGames decides).
	Parallel int
	// Seed seeds the openings and the players.
	Seed uint64
	// SPRT, if set, runs a sequential test between two players.
	SPRT *SPRT
	// Anchor is the player whose Elo is fixed (a spec or label; "" for
	// the first).
	Anchor string
	// Challenge seats the first of two players in each seat in turn
	// against copies of the second (Config.Challenge).
	Challenge bool
}

// Load checks the setup and loads its players with loader, which must be
// the setup's game's: it returns the match's Config (without its Log and
// Progress, and Parallel as given) and the index of the anchored player.
func (s Setup) Load(loader *players.Loader) (Config, int, error) {
	g, seats := s.Game, s.Game.Players()
	switch {
	case len(s.Players) < seats && !s.Challenge:
		return Config{}, 0, fmt.Errorf("%s needs at least %d players, got %d (run \"trench arena --help\")", g.Name(), seats, len(s.Players))
	case s.Games < 1:
		return Config{}, 0, fmt.Errorf("--games must be 1 or more, got %d", s.Games)
	case s.OpeningPlies < 0:
		return Config{}, 0, fmt.Errorf("--opening-plies must not be negative, got %d", s.OpeningPlies)
	case s.Parallel < 0 || s.Parallel > MaxParallel:
		return Config{}, 0, fmt.Errorf("--parallel must be in 0..%d, got %d", MaxParallel, s.Parallel)
	}
	seatings := Seatings(seats)
	if s.Challenge {
		if seats < 3 || len(s.Players) != 2 {
			return Config{}, 0, fmt.Errorf("--challenge needs exactly two players in a game of three or more seats, got %d players for %s's %d seats", len(s.Players), g.Name(), seats)
		}
		seatings = seats
	}
	cfg := Config{Game: g, Groups: (s.Games + seatings - 1) / seatings, OpeningPlies: s.OpeningPlies, Parallel: s.Parallel, Seed: s.Seed, SPRT: s.SPRT, Challenge: s.Challenge}
	if cfg.GameCount() > MaxGames {
		return Config{}, 0, fmt.Errorf("%d players at %d seats with --games %d make too many games", len(s.Players), seats, s.Games)
	}
	if s.SPRT != nil {
		if seats != 2 {
			return Config{}, 0, fmt.Errorf("--sprt: %s has %d players; the SPRT compares two players in games of two", g.Name(), seats)
		}
		if len(s.Players) != 2 {
			return Config{}, 0, fmt.Errorf("--sprt needs exactly two players in a game of two")
		}
		if err := s.SPRT.Validate(); err != nil {
			return Config{}, 0, err
		}
	}
	anchor := 0
	if s.Anchor != "" {
		if anchor = PlayerIndex(s.Players, s.Anchor); anchor < 0 {
			return Config{}, 0, fmt.Errorf("--anchor %s is none of the players (%s)", excerpt.Quote(s.Anchor), strings.Join(Labels(s.Players), ", "))
		}
	}
	if s.OpeningsFile != "" {
		var err error
		if cfg.Openings, err = ReadOpeningsFile(s.OpeningsFile, g); err != nil {
			return Config{}, 0, fmt.Errorf("--openings: %w", err)
		}
	}
	for _, spec := range s.Players {
		m, err := loader.Load(spec)
		if err != nil {
			return Config{}, 0, err
		}
		cfg.Players = append(cfg.Players, m)
	}
	return cfg, anchor, nil
}
