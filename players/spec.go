// Package players names the players that can take a seat in a game: the
// baselines (random, greedy, the classical alphabeta engine) and the
// net players (policy, mcts, minimax), each made from a spec string such as
// "alphabeta:depth=3" or "mcts:net=runs/x,sims=200,algo=gumbel".
//
// A spec is a kind, optionally followed by a colon and comma-separated
// key=value options. A Loader turns specs into Makers, checking every
// option and loading every net before any game starts, and shares each
// net among all the players that name it.
package players

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"trench/internal/excerpt"
)

// Spec is a parsed player spec.
type Spec struct {
	// Kind is the player's kind, e.g. "alphabeta".
	Kind string
	// Options are the key=value options in the order given.
	Options []Option
}

// Option is one key=value option of a spec.
type Option struct{ Key, Value string }

// String is the spec's text form, as ParseSpec reads it.
func (s Spec) String() string {
	if len(s.Options) == 0 {
		return s.Kind
	}
	parts := make([]string, len(s.Options))
	for i, o := range s.Options {
		parts[i] = o.Key + "=" + o.Value
	}
	return s.Kind + ":" + strings.Join(parts, ",")
}

// ParseSpec reads "KIND" or "KIND:KEY=VALUE,KEY=VALUE". It checks the
// syntax only; Loader.Load checks the kind and its options.
func ParseSpec(text string) (Spec, error) {
	kind, rest, hasOpts := strings.Cut(strings.TrimSpace(text), ":")
	if kind == "" {
		return Spec{}, fmt.Errorf("player %s: no player kind (want e.g. %q)", excerpt.Quote(text), "alphabeta:depth=3")
	}
	for _, r := range kind {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return Spec{}, fmt.Errorf("player %s: kind %s has a character %s that is not a lowercase letter, digit, - or _", excerpt.Quote(text), excerpt.Quote(kind), excerpt.Quote(string(r)))
		}
	}
	s := Spec{Kind: kind}
	if !hasOpts {
		return s, nil
	}
	if rest == "" {
		return Spec{}, fmt.Errorf("player %s: nothing after the colon (want KEY=VALUE options)", excerpt.Quote(text))
	}
	for _, part := range strings.Split(rest, ",") {
		key, value, ok := strings.Cut(part, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok || key == "" || value == "" {
			return Spec{}, fmt.Errorf("player %s: option %s is not KEY=VALUE", excerpt.Quote(text), excerpt.Quote(part))
		}
		if slices.ContainsFunc(s.Options, func(o Option) bool { return o.Key == key }) {
			return Spec{}, fmt.Errorf("player %s: option %s given twice", excerpt.Quote(text), excerpt.Quote(key))
		}
		s.Options = append(s.Options, Option{key, value})
	}
	return s, nil
}

// options reads a spec's options against the keys its kind knows.
type options struct {
	spec Spec
}

func newOptions(s Spec, known ...string) (*options, error) {
	for _, o := range s.Options {
		if !slices.Contains(known, o.Key) {
			if len(known) == 0 {
				return nil, fmt.Errorf("player %s: %s takes no options, got %s", excerpt.Quote(s.String()), s.Kind, excerpt.Quote(o.Key))
			}
			return nil, fmt.Errorf("player %s: unknown option %s for %s (known: %s)", excerpt.Quote(s.String()), excerpt.Quote(o.Key), s.Kind, strings.Join(known, ", "))
		}
	}
	return &options{spec: s}, nil
}

func (o *options) get(key string) (string, bool) {
	for _, opt := range o.spec.Options {
		if opt.Key == key {
			return opt.Value, true
		}
	}
	return "", false
}

func (o *options) str(key, def string) string {
	if v, ok := o.get(key); ok {
		return v
	}
	return def
}

func (o *options) int(key string, def, lo, hi int) (int, error) {
	v, ok := o.get(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("player %s: %s must be a whole number in %d..%d, got %s", excerpt.Quote(o.spec.String()), key, lo, hi, excerpt.Quote(v))
	}
	return n, nil
}

func (o *options) float(key string, def, lo, hi float64) (float64, error) {
	v, ok := o.get(key)
	if !ok {
		return def, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x >= lo && x <= hi) {
		return 0, fmt.Errorf("player %s: %s must be a number in %g..%g, got %s", excerpt.Quote(o.spec.String()), key, lo, hi, excerpt.Quote(v))
	}
	return x, nil
}

func (o *options) duration(key string) (time.Duration, error) {
	v, ok := o.get(key)
	if !ok {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 || d > time.Hour {
		return 0, fmt.Errorf("player %s: %s must be a duration such as 200ms or 2s, up to 1h, got %s", excerpt.Quote(o.spec.String()), key, excerpt.Quote(v))
	}
	return d, nil
}

// searchLimits reads the depth, time and nodes options of a classical
// search's spec, depth in 1..maxDepth; with none of them given the depth
// is 3.
func (o *options) searchLimits(maxDepth int) (depth int, limit time.Duration, nodes uint64, err error) {
	if depth, err = o.int("depth", 0, 1, maxDepth); err != nil {
		return 0, 0, 0, err
	}
	if limit, err = o.duration("time"); err != nil {
		return 0, 0, 0, err
	}
	n, err := o.int("nodes", 0, 1, 1<<40)
	if err != nil {
		return 0, 0, 0, err
	}
	if depth == 0 && limit == 0 && n == 0 {
		depth = 3
	}
	return depth, limit, uint64(n), nil
}
