package searchconfig

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"trench/engine/tictactoe"
	"trench/engine/trench"
)

// sample returns a value of setting f that differs from Play's and is
// in f's range, found from its tags alone.
func sample(t *testing.T, f field) string {
	t.Helper()
	v := reflect.ValueOf(Play()).Field(f.index)
	switch x := v.Interface().(type) {
	case string:
		for _, w := range f.values {
			if w != x {
				return w
			}
		}
		if len(f.values) > 0 {
			return x // the only value
		}
		return x + "-other"
	case bool:
		return strconv.FormatBool(!x)
	case time.Duration:
		return (x + 1500*time.Millisecond).String()
	case int:
		lo, hi := int(bound(f.min)), int(bound(f.max))
		if x+1 <= hi {
			return strconv.Itoa(max(lo, x+1))
		}
		return strconv.Itoa(lo)
	case float64:
		lo, hi := bound(f.min), bound(f.max)
		y := lo + (hi-lo)*0.375
		if y == x {
			y = lo
		}
		return strconv.FormatFloat(y, 'g', -1, 64)
	}
	t.Fatalf("setting %s has a type the test does not know", f.key)
	return ""
}

// TestEveryFieldIsAFlagAndASpecKey checks that each field of Config is
// read by every reader without a word of its own: as a flag of Bind, as
// a spec key of Set (and so a key of the arena's specs and, for the
// limits, of the protocol's go), and that a web server's options, which
// hold a Config, carry it.
func TestEveryFieldIsAFlagAndASpecKey(t *testing.T) {
	typ := reflect.TypeOf(Config{})
	if len(Keys()) != typ.NumField() {
		t.Fatalf("%d keys for %d fields", len(Keys()), typ.NumField())
	}
	for i, f := range fields {
		key := f.key
		if key == "" || typ.Field(i).Tag.Get("help") == "" {
			t.Errorf("field %s has no key or no help", typ.Field(i).Name)
			continue
		}
		value := sample(t, f)
		byFlag := Play()
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		byFlag.Bind(fs)
		if fs.Lookup(key) == nil {
			t.Errorf("no flag --%s", key)
			continue
		}
		if err := fs.Parse([]string{"--" + key + "=" + value}); err != nil {
			t.Errorf("--%s=%s: %v", key, value, err)
			continue
		}
		bySpec := Play()
		if err := bySpec.Set(key, value); err != nil {
			t.Errorf("Set(%s, %s): %v", key, value, err)
			continue
		}
		if reflect.DeepEqual(bySpec, Play()) && len(f.values) != 1 {
			t.Errorf("Set(%s, %s) changed nothing", key, value)
		}
		if !reflect.DeepEqual(byFlag, bySpec) {
			t.Errorf("%s=%s: the flag gives %+v, the spec key %+v", key, value, byFlag, bySpec)
		}
	}
}

// TestOldKeysParse checks that the old spec keys, still in arena logs
// and commands, read to the same settings as the new ones.
func TestOldKeysParse(t *testing.T) {
	pairs := []struct{ old, key, value string }{
		{"algo", "search", "gumbel"},
		{"ptemp", "policy-temperature", "1.2"},
		{"rootfpu", "root-fpu", "0.3"},
		{"mmw", "minimax-weight", "0.5"},
		{"quiesce", "quiescence", "0"},
		{"qvalue", "quiescence-value", "shift"},
		{"mat", "material-value", "0.75"},
		{"cprior", "capture-prior", "0.25"},
		{"guarddepth", "guard-depth", "6"},
		{"endgamedepth", "endgame-depth", "6"},
		{"sym", "symmetries", "1"},
	}
	for _, p := range pairs {
		a, b := Arena(), Arena()
		if err := a.Set(p.old, p.value); err != nil {
			t.Fatalf("Set(%s): %v", p.old, err)
		}
		if err := b.Set(p.key, p.value); err != nil {
			t.Fatalf("Set(%s): %v", p.key, err)
		}
		if a != b || a == Arena() {
			t.Errorf("%s=%s gives %+v, %s=%s %+v", p.old, p.value, a, p.key, p.value, b)
		}
		if k, ok := Canonical(p.old); !ok || k != p.key {
			t.Errorf("Canonical(%s) = %s, %v", p.old, k, ok)
		}
	}
}

// TestRangesRefused checks that a value out of range or of the wrong
// form is refused with an error naming the key, and leaves Validate's
// and the flags' errors naming it too.
func TestRangesRefused(t *testing.T) {
	for _, tc := range []struct{ key, value, want string }{
		{"threads", "0", `threads must be a whole number in 1..256, got "0"`},
		{"threads", "257", "threads must be a whole number in 1..256"},
		{"threads", "x", `threads must be a whole number in 1..256, got "x"`},
		{"level", "9", "level must be a whole number in 1..8"},
		{"sims", "-1", "sims must be a whole number in 0..1048576"},
		{"time", "2h", "time must be a duration such as 200ms or 2s, up to 1h"},
		{"time", "soon", `time must be a duration`},
		{"guard", "0.6", `guard must be a number in 0..0.5, got "0.6"`},
		{"mat", "2", `mat must be a number in 0..1, got "2" (mat is material-value)`},
		{"cpuct", "NaN", "cpuct must be a number in 0..20"},
		{"search", "alpha", `search must be puct or gumbel, got "alpha"`},
		{"kind", "minimax", `kind must be mcts, got "minimax"`},
		{"sym", "2", "sym must be 1 or 0"},
		{"depth", "3", `unknown option "depth" (known: kind, net,`},
	} {
		c := Arena()
		err := c.Set(tc.key, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%s, %s) = %v, want %q", tc.key, tc.value, err, tc.want)
		}
	}
	c := Play()
	c.Threads = 1000
	if err := c.ValidateFlags(); err == nil || !strings.Contains(err.Error(), "--threads must be in 1..256, got 1000") {
		t.Errorf("ValidateFlags = %v", err)
	}
	for name, c := range map[string]Config{"Play": Play(), "Arena": Arena(), "SelfPlay": SelfPlay()} {
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestFlags checks the flags' cross-checks and a level's limits.
func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		sims      int
		time      time.Duration
		wantError string
	}{
		{nil, 400, 0, ""},
		{[]string{"--level", "2"}, 8, 0, ""},
		{[]string{"--sims", "50"}, 50, 0, ""},
		{[]string{"--time", "2s"}, 0, 2 * time.Second, ""},
		{[]string{"--level", "2", "--sims", "5"}, 0, 0, "give --level or --sims/--time, not both"},
		{[]string{"--threads", "0"}, 0, 0, "--threads must be in 1..256"},
	} {
		c := Play()
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		c.Bind(fs, "net")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := c.Flags(fs)
		if tc.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("%v: %v, want %q", tc.args, err, tc.wantError)
			}
			continue
		}
		sims, d, err := c.LimitsOf()
		if err != nil || sims != tc.sims || d != tc.time {
			t.Errorf("%v: %d, %v, %v", tc.args, sims, d, err)
		}
	}
	if fs := pflag.NewFlagSet("x", pflag.ContinueOnError); true {
		c := Play()
		c.Bind(fs, "net")
		if fs.Lookup("net") != nil {
			t.Error("skipped --net was bound")
		}
	}
}

// TestFit checks that defaults that need a classical search are dropped
// for a game without one, unless given.
func TestFit(t *testing.T) {
	c := Play()
	c.Fit(trench.Game, nil)
	if c.Guard == 0 || c.Endgame == 0 {
		t.Errorf("Trench lost its guard or endgame: %+v", c)
	}
	c.Fit(tictactoe.Game{}, func(k string) bool { return k == "guard" })
	if c.Guard == 0 || c.Endgame != 0 {
		t.Errorf("tic-tac-toe: guard %g endgame %g, want the given guard kept and the endgame dropped", c.Guard, c.Endgame)
	}
}

// FuzzSet checks that Set never panics and leaves either an error or a
// valid config.
func FuzzSet(f *testing.F) {
	for _, k := range Keys() {
		f.Add(k, "1")
	}
	f.Add("time", "1h1s")
	f.Add("mat", "-0")
	f.Fuzz(func(t *testing.T, key, value string) {
		c := Arena()
		if err := c.Set(key, value); err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Errorf("Set(%q, %q) took a value Validate refuses: %v", key, value, err)
		}
	})
}

// TestUsage checks that the spec usage lists every key with its default
// and old keys.
func TestUsage(t *testing.T) {
	u := Usage(Arena(), "  ")
	for _, want := range []string{"  sims=0..1048576 (default 0): ", "  level=1..8 (default 5): ", "(default 0.5; old key mat): ",
		"search=puct|gumbel (default puct; old key algo)", "symmetries=0|1 (default 0; old key sym)"} {
		if !strings.Contains(u, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
	if n := strings.Count(u, "\n"); n != len(Keys()) {
		t.Errorf("usage has %d lines for %d keys", n, len(Keys()))
	}
}
