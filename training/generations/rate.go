package generations

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"trench/arena"
	"trench/engine"
	"trench/internal/searchlimits"
	"trench/training/rundir"
)

// RatingsFile is the file of a run directory where Rate keeps its
// lines, one a net rated.
const RatingsFile = "ratings.jsonl"

// RateConfig says how Rate rates a run's nets: each against the game's
// hand-written evaluation, both within the same limits, on the same
// openings for every net, so that the nets' differences are not the
// openings'.
type RateConfig struct {
	// Pairs is the game pairs of each net's match (Trichess: opening
	// groups of three games, the net in each seat against two copies of
	// the hand-written evaluation).
	Pairs int
	// Nodes or Time limits a move of the net: one of them.
	Nodes uint64
	Time  time.Duration
	// AnchorNodes or AnchorTime limits a move of the hand-written
	// evaluation, of the same kind as the net's; 0: the net's. More for
	// the anchor keeps strong nets' scores off 100%, where an Elo
	// interval is wide.
	AnchorNodes uint64
	AnchorTime  time.Duration
	// OpeningsFile, if set, is a file of opening positions (trench
	// openings makes balanced ones), used in turn; otherwise Seed draws
	// the run's --match-plies random plies.
	OpeningsFile string
	Seed         uint64
}

// Validate checks the settings; its errors name them as flags.
func (c RateConfig) Validate() error {
	switch {
	case c.Pairs < 1:
		return fmt.Errorf("--pairs must be at least 1, got %d", c.Pairs)
	case c.Time < 0:
		return fmt.Errorf("--ms must be positive, got %v", c.Time)
	case c.AnchorTime < 0:
		return fmt.Errorf("--anchor-ms must be positive, got %v", c.AnchorTime)
	case (c.Nodes > 0) == (c.Time > 0):
		return errors.New("give --nodes or --ms, one of them")
	case c.AnchorNodes > 0 && c.Time > 0, c.AnchorTime > 0 && c.Nodes > 0:
		return errors.New("give the anchor's limit as the net's: --anchor-nodes with --nodes, --anchor-ms with --ms")
	}
	return nil
}

// limits is a move's limits for the net.
func (c RateConfig) limits() searchlimits.Limits {
	return searchlimits.Limits{Nodes: c.Nodes, Time: c.Time}
}

// anchorLimits is a move's limits for the hand-written evaluation.
func (c RateConfig) anchorLimits() searchlimits.Limits {
	l := c.limits()
	if c.AnchorNodes > 0 {
		l.Nodes = c.AnchorNodes
	}
	if c.AnchorTime > 0 {
		l.Time = c.AnchorTime
	}
	return l
}

// Rating is a line of a run's ratings.jsonl: one generation's net
// against the hand-written evaluation.
type Rating struct {
	Time       time.Time `json:"time"`
	Generation int       `json:"generation"`
	// Net is the generation's net in the run's nets folder; SHA256 the
	// hex SHA-256 of the file that played.
	Net    string `json:"net"`
	SHA256 string `json:"sha256"`
	// Elapsed, Hours and Positions are the run's when the generation
	// ended, from its metrics line: the rating's place on the curve.
	Elapsed   float64 `json:"elapsed_s"`
	Hours     float64 `json:"hours"`
	Positions int     `json:"positions"`
	// Limits are the net's limits of a move ("nodes=20000", "200ms");
	// Pairs, Openings (the file's base name, empty for random plies)
	// and Seed the match's (RateConfig).
	Limits   string `json:"limits"`
	Pairs    int    `json:"pairs"`
	Openings string `json:"openings,omitempty"`
	Seed     uint64 `json:"seed"`
	// Standing is the net's against the hand-written evaluation, whose
	// name in Opponent carries its limits of a move.
	Standing arena.Standing `json:"standing"`
}

// same reports whether r rates the same file at the same limits against
// the same opponent on the same openings as o.
func (r Rating) same(o Rating) bool {
	return r.SHA256 == o.SHA256 && r.Limits == o.Limits && r.Standing.Opponent == o.Standing.Opponent && r.Pairs == o.Pairs && r.Openings == o.Openings && r.Seed == o.Seed
}

// ReadRatings reads a run's ratings (none without the file), skipping a
// line torn by a crash and counting it.
func ReadRatings(dir string) ([]Rating, int, error) {
	out, skipped, err := rundir.ReadJSONLines[Rating](filepath.Join(dir, RatingsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	return out, skipped, err
}

// Rate plays each finished generation's net of the run in dir, accepted
// or not, against the hand-written evaluation as rc says, and appends a
// line to the run's ratings.jsonl for each; a net already rated so (the
// same file, limits, opponent, pairs and seed) is not played again, so that a
// stopped rating resumes. When ctx is done it returns nil, the match
// in progress left out. It returns the ratings of rc's settings in
// generation order, each net's match summed up on opt.Progress. A net
// whose file differs from its metrics line's SHA-256 is an error naming
// the file. The caller holds the run's lock (rundir.Lock).
func Rate(ctx context.Context, dir string, rc RateConfig, opt Options) ([]Rating, error) {
	if err := rc.Validate(); err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		return nil, err
	}
	lines, _, err := ReadMetrics(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: no generation has finished: nothing to rate", dir)
	}
	done, _, err := ReadRatings(dir)
	if err != nil {
		return nil, err
	}
	rcp := recipeFor(cfg.Game)
	var (
		openings     []engine.State
		openingsName string
	)
	if rc.OpeningsFile != "" {
		if openings, err = arena.ReadOpeningsFile(rc.OpeningsFile, rcp.game()); err != nil {
			return nil, err
		}
		openingsName = filepath.Base(rc.OpeningsFile)
	}
	limits, anchor := rc.limits(), rc.anchorLimits()
	opponent := rcp.handMaker("alphabeta-hand:"+limitsName(anchor), anchor)
	match := cfg
	match.AnchorPairs = rc.Pairs
	var out []Rating
	for _, m := range lines {
		if m.Net == "" {
			continue
		}
		path := filepath.Join(dir, netsDir, m.Net)
		sum, err := fileSHA256(path)
		if err != nil {
			return out, err
		}
		if m.SHA256 != "" && sum != m.SHA256 {
			return out, fmt.Errorf("%s: its SHA-256 %s is not the %s its metrics line records", path, sum, m.SHA256)
		}
		r := Rating{Generation: m.Generation, Net: m.Net, SHA256: sum, Elapsed: m.Elapsed, Hours: m.Hours,
			Positions: m.Positions, Limits: limitsName(limits), Pairs: rc.Pairs, Openings: openingsName, Seed: rc.Seed, Standing: arena.Standing{Opponent: opponent.Name}}
		if prev, ok := rated(done, r); ok {
			out = append(out, prev)
			continue
		}
		net, err := rcp.set().Load(path)
		if err != nil {
			return out, err
		}
		cand := rcp.searchMaker(m.Net+":"+limitsName(limits), limits, net)
		fmt.Fprintf(opt.Progress, "rating %s at %s a move against %s, %d %s\n", m.Net, limitsName(limits), opponent.Name, rc.Pairs, openingsOf(rcp))
		progress, finish := gameBar(opt, m.Net, rcp.game().Players()*rc.Pairs)
		st, _, err := rcp.versus(ctx, match, cand, opponent, openings, rc.Seed, progress)
		finish()
		if ctx.Err() != nil {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		r.Time, r.Standing = time.Now().UTC(), st
		if err := rundir.AppendJSONLine(filepath.Join(dir, RatingsFile), r); err != nil {
			return out, err
		}
		fmt.Fprintf(opt.Progress, "generation %d (%.2f h): %s\n", r.Generation, r.Hours, standingText(st))
		out = append(out, r)
	}
	return out, nil
}

// rated returns the rating in done of the same net, opponent and
// openings as r, if there is one.
func rated(done []Rating, r Rating) (Rating, bool) {
	for _, d := range done {
		if d.same(r) {
			return d, true
		}
	}
	return Rating{}, false
}

// standingText sums up a rating's match: the net's wins, draws and
// losses, its score, and its Elo with the 95% interval per game and per
// pair (Trichess: per opening group, and its lead).
func standingText(s arena.Standing) string {
	return fmt.Sprintf("%d-%d-%d, score %.1f%%, Elo %s, per pair %s%s", s.Wins, s.Draws, s.Losses, 100*s.Score, s.Elo, s.PairElo, leadText(s))
}
