package searchconfig

import (
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/nnue"
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
		{"kind", "minimax", `kind must be mcts or alphabeta, got "minimax"`},
		{"eval", "net", `eval must be hand or rules or nnue, got "net"`},
		{"nodes", "-1", `nodes must be a whole number in 0..1073741824, got "-1"`},
		{"sym", "2", "sym must be 1 or 0"},
		{"value", "deep", `value must be net or nnue or qnnue or hand or qhand, got "deep"`},
		{"depth", "3", `unknown option "depth" (known: kind, eval, nnue, net,`},
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
		args        []string
		sims, nodes int
		time        time.Duration
		wantError   string
	}{
		{nil, 400, 0, 0, ""},
		{[]string{"--level", "2"}, 8, 0, 0, ""},
		{[]string{"--sims", "50"}, 50, 0, 0, ""},
		{[]string{"--time", "2s"}, 0, 0, 2 * time.Second, ""},
		{[]string{"--level", "2", "--sims", "5"}, 0, 0, 0, "give --level or --sims/--nodes/--time, not both"},
		{[]string{"--threads", "0"}, 0, 0, 0, "--threads must be in 1..256"},
		{[]string{"--kind", "alphabeta"}, 0, 300000, 0, ""},
		{[]string{"--kind", "alphabeta", "--level", "1"}, 0, 1000, 0, ""},
		{[]string{"--kind", "alphabeta", "--nodes", "5000"}, 0, 5000, 0, ""},
		{[]string{"--kind", "alphabeta", "--time", "200ms"}, 0, 0, 200 * time.Millisecond, ""},
		{[]string{"--kind", "alphabeta", "--sims", "50"}, 0, 0, 0, "--sims limits the mcts kind; the alphabeta kind searches by --nodes"},
		{[]string{"--nodes", "50"}, 0, 0, 0, "--nodes limits the alphabeta kind; the mcts kind searches by --sims"},
		{[]string{"--kind", "alphabeta", "--level", "2", "--nodes", "5"}, 0, 0, 0, "give --level or --sims/--nodes/--time, not both"},
		{[]string{"--kind", "minimax"}, 0, 0, 0, "--kind must be mcts or alphabeta"},
		{[]string{"--kind", "alphabeta", "--eval", "net"}, 0, 0, 0, "--eval must be hand or rules or nnue"},
		{[]string{"--value", "qnnue", "--sims", "50"}, 50, 0, 0, ""},
		{[]string{"--kind", "alphabeta", "--value", "nnue"}, 0, 0, 0, "--value nnue sets the mcts kind's leaf values; the alphabeta kind evaluates with --eval"},
		{[]string{"--value", "q"}, 0, 0, 0, `--value must be net or nnue or qnnue or hand or qhand, got "q"`},
	} {
		c := Play()
		c.Kind = MCTS // the table's limits are the tree search's unless --kind says otherwise
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
		sims, nodes, d, err := c.LimitsOf()
		if err != nil || sims != tc.sims || nodes != tc.nodes || d != tc.time {
			t.Errorf("%v: %d sims, %d nodes, %v, %v", tc.args, sims, nodes, d, err)
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
	c.Endgame = 15
	c.Fit(trench.Game, nil)
	if c.Guard == 0 || c.Endgame == 0 {
		t.Errorf("Trench lost its guard or endgame: %+v", c)
	}
	c.Fit(tictactoe.Game{}, func(k string) bool { return k == "guard" })
	if c.Guard == 0 || c.Endgame != 0 {
		t.Errorf("tic-tac-toe: guard %g endgame %g, want the given guard kept and the endgame dropped", c.Guard, c.Endgame)
	}
	// The alphabeta kind with the NNUE: Trichess, whose classical search
	// has an NNUE built in, keeps it; tic-tac-toe, which has no classical
	// search, gets the tree search unless kind was given.
	for _, tc := range []struct {
		g         engine.Game
		given     []string
		kind      string
		eval      string
		nodes     int
		validates bool
	}{
		{trichess.Game, nil, AlphaBeta, EvalNNUE, 5000, true},
		{trichess.Game, []string{"kind"}, AlphaBeta, EvalNNUE, 5000, true},
		{trichess.Game, []string{"eval"}, AlphaBeta, EvalNNUE, 5000, true},
		{tictactoe.Game{}, nil, MCTS, EvalNNUE, 0, true},
		{tictactoe.Game{}, []string{"nodes"}, MCTS, EvalNNUE, 5000, false},
		{tictactoe.Game{}, []string{"kind"}, AlphaBeta, EvalNNUE, 5000, true},
	} {
		c := Play()
		c.Kind, c.Nodes = AlphaBeta, 5000
		c.Fit(tc.g, func(k string) bool { return slices.Contains(tc.given, k) })
		if c.Kind != tc.kind || c.Eval != tc.eval || c.Nodes != tc.nodes || (c.Validate() == nil) != tc.validates {
			t.Errorf("alphabeta fitted to %s, %v given: kind %s, eval %s, %d nodes, %v", tc.g.Name(), tc.given, c.Kind, c.Eval, c.Nodes, c.Validate())
		}
	}
	c = Play()
	c.Kind = AlphaBeta
	if c.Fit(trench.Game, nil); c.Kind != AlphaBeta {
		t.Errorf("Trench lost the alphabeta kind")
	}
	// The net: Trichess's bot plays without its built-in net unless one
	// is given; Trench's keeps it.
	for _, tc := range []struct {
		g     engine.Game
		given bool
		want  string
	}{{trench.Game, false, shipped.Ref}, {trichess.Game, false, NoNet}, {trichess.Game, true, shipped.Ref}} {
		c := Play()
		c.Fit(tc.g, func(k string) bool { return k == "net" && tc.given })
		if c.Net != tc.want {
			t.Errorf("%s, net given %v: net %q, want %q", tc.g.Name(), tc.given, c.Net, tc.want)
		}
	}
	// The NNUE's leaf values: kept for both games, each of which has an
	// NNUE built in, given or not.
	for _, tc := range []struct {
		g     engine.Game
		given bool
		nnue  string
		want  string
	}{{trench.Game, false, "", ValueQNNUE}, {trichess.Game, false, "", ValueQNNUE}, {trichess.Game, true, "", ValueQNNUE}, {trichess.Game, false, "tc.nnue", ValueQNNUE}} {
		c := Arena()
		c.Value, c.NNUE = ValueQNNUE, tc.nnue
		c.Fit(tc.g, func(k string) bool { return tc.given && k == "value" })
		if c.Value != tc.want {
			t.Errorf("value qnnue fitted to %s, given %v, nnue %q: %s, want %s", tc.g.Name(), tc.given, tc.nnue, c.Value, tc.want)
		}
	}
	// Trichess's alphabeta kind keeps the nnue evaluation and values of
	// a Trichess NNUE file, or of one the loader will have to name as
	// unreadable, and drops those of a Trench NNUE file (a server's
	// --nnue serving both games).
	dir := t.TempDir()
	tcFile, trenchFile := filepath.Join(dir, "tc.nnue"), filepath.Join(dir, "trench.nnue")
	tcNet, err := nnue.Trichess.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	trenchNet, err := nnue.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := tcNet.Save(tcFile); err != nil {
		t.Fatal(err)
	}
	if err := trenchNet.Save(trenchFile); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, eval, value string
	}{
		{tcFile, EvalNNUE, ValueQNNUE},
		{filepath.Join(dir, "missing.nnue"), EvalNNUE, ValueQNNUE},
		{trenchFile, "hand", ValueNet},
	} {
		c := Play()
		c.Kind, c.NNUE, c.Value = AlphaBeta, tc.file, ValueQNNUE
		if c.Fit(trichess.Game, nil); c.Kind != AlphaBeta || c.Eval != tc.eval || c.Value != tc.value {
			t.Errorf("alphabeta with nnue %s fitted to trichess: kind %s, eval %s, value %s, want eval %s, value %s",
				tc.file, c.Kind, c.Eval, c.Value, tc.eval, tc.value)
		}
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
		if k, _ := Canonical(key); k == "nodes" {
			// Nodes limit the alphabeta kind only, a check across
			// settings that Validate makes once all are set.
			c.Kind = AlphaBeta
		}
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

// TestPlayIsTheNNUEBot checks the bot people play by default: the
// alphabeta kind with the built-in NNUE at level 6, every move its own.
func TestPlayIsTheNNUEBot(t *testing.T) {
	c := Play()
	sims, nodes, d, err := c.LimitsOf()
	if c.Kind != AlphaBeta || c.Eval != EvalNNUE || c.NNUE != "default" || c.Endgame != 0 || err != nil || sims != 0 || nodes != 300000 || d != 0 {
		t.Errorf("Play() = %+v: %d sims, %d nodes, %v, %v", c, sims, nodes, d, err)
	}
	if a := Arena(); a.Kind != MCTS {
		t.Errorf("Arena() is of kind %s: arena logs' mcts players are the tree search", a.Kind)
	}
}
