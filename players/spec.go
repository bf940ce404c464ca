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
	"strings"
	"time"

	"trench/internal/excerpt"
	"trench/internal/settings"
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

// readOptions reads the options of spec s into *v through the settings
// its kind declares (package settings), old keys included, and returns
// the keys given, by their current names. A setting named twice, by its
// key and an old key, is refused. Errors name the spec.
func readOptions[T any](s Spec, declared *settings.Schema[T], v *T) (map[string]bool, error) {
	given := map[string]string{} // key: the name it was given by
	for _, o := range s.Options {
		key, ok := declared.Canonical(o.Key)
		switch {
		case !ok && len(declared.Keys()) == 0:
			return nil, fmt.Errorf("player %s: %s takes no options, got %s", excerpt.Quote(s.String()), s.Kind, excerpt.Quote(o.Key))
		case !ok:
			return nil, fmt.Errorf("player %s: unknown option %s for %s (known: %s)", excerpt.Quote(s.String()), excerpt.Quote(o.Key), s.Kind, strings.Join(declared.Keys(), ", "))
		case given[key] != "":
			return nil, fmt.Errorf("player %s: options %s and %s both set %s; give it once", excerpt.Quote(s.String()), excerpt.Quote(given[key]), excerpt.Quote(o.Key), key)
		}
		if err := declared.Set(v, o.Key, o.Value); err != nil {
			return nil, fmt.Errorf("player %s: %w", excerpt.Quote(s.String()), err)
		}
		given[key] = o.Key
	}
	keys := make(map[string]bool, len(given))
	for k := range given {
		keys[k] = true
	}
	return keys, nil
}

// declaredUsage describes a kind of player whose options are declared
// settings: its synopsis and what it is, then its options with their
// defaults, one a line.
func declaredUsage[T any](intro string, declared *settings.Schema[T], defaults T) string {
	return intro + "\n" + strings.TrimRight(declared.Usage(defaults, "    "), "\n")
}

// noOptions declares the settings of a kind that takes none.
var noOptions = settings.Must[struct{}](settings.Options{})

// maxNodes bounds the nodes option of the depth-first searches.
const maxNodes = 1 << 40

// depthFirstLimits returns the depth, time and nodes of a depth-first
// search's spec (alphabeta, minimax) from its settings: its depth (by
// default 3) unless time or nodes was given and depth was not.
func depthFirstLimits(depth int, t time.Duration, nodes int, given map[string]bool) (int, time.Duration, uint64) {
	if !given["depth"] && (given["time"] || given["nodes"]) {
		depth = 0
	}
	return depth, t, uint64(nodes)
}
