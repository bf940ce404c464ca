package players

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"trench/engine/trench"
	"trench/games/plugin"
	"trench/players/minimax"
)

// TestDepthFirstLimits checks the limits the alphabeta and minimax
// players search with: depth 3 when no limit is given, no depth when
// only a time or nodes is, and what is given otherwise, old keys read as
// their new names.
func TestDepthFirstLimits(t *testing.T) {
	l := NewLoader(trench.Game)
	defer l.Close()
	for _, tc := range []struct {
		opts  string
		depth int
		time  time.Duration
		nodes uint64
		bits  int
	}{
		{"", 3, 0, 0, 18},
		{"depth=5", 5, 0, 0, 18},
		{"time=50ms", 0, 50 * time.Millisecond, 0, 18},
		{"nodes=2000", 0, 0, 2000, 18},
		{"time=1s,depth=4", 4, time.Second, 0, 18},
		{"nodes=9,tt=12", 0, 0, 9, 12},
	} {
		withOpts := func(kind, extra string) string {
			opts := strings.Trim(tc.opts+","+extra, ",")
			if opts == "" {
				return kind
			}
			return kind + ":" + opts
		}
		spec := withOpts("alphabeta", "net=default")
		m, err := l.Load(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		p, err := m.NewPlayer(1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		want := plugin.ClassicalLimits{Depth: tc.depth, Time: tc.time, Nodes: tc.nodes}
		if got := p.(*alphaBetaPlayer).limits; got != want || m.Timed != (tc.time > 0) {
			t.Errorf("%s: limits %+v, timed %v, want %+v", spec, got, m.Timed, want)
		}
		spec = withOpts("minimax", "net=none")
		if m, err = l.Load(spec); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if p, err = m.NewPlayer(1); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		wantMM := minimax.Limits{Depth: tc.depth, Time: tc.time, Nodes: tc.nodes}
		if got := p.(*minimaxPlayer).limits; got != wantMM || m.Timed != (tc.time > 0) {
			t.Errorf("%s: limits %+v, timed %v, want %+v", spec, got, m.Timed, wantMM)
		}
	}
}

// TestMinimaxSettingsRead checks that a minimax spec's options reach the
// search's options, and that without them it searches with the
// search's defaults.
func TestMinimaxSettingsRead(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want minimaxSettings
	}{
		{"minimax", minimaxSettings{Net: "default", Depth: 3, Quiesce: minimax.DefaultOptions.Quiescence, Mat: minimax.DefaultOptions.Material, TT: minimax.DefaultTableBits}},
		{"minimax:net=none,quiesce=0,mat=0.25,hand=0.5,batch=true,tt=12,depth=2",
			minimaxSettings{Net: "none", Depth: 2, Mat: 0.25, Hand: 0.5, Batch: true, TT: 12}},
	} {
		s, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		got := minimaxDefaults()
		if _, err := readOptions(s, minimaxDeclared, &got); err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v, want %+v", tc.spec, got, err, tc.want)
		}
	}
}

// TestPlayersUsageIsDeclared checks that the help of the players whose
// options are declared lists each option from its declaration, with its
// default and old keys.
func TestPlayersUsageIsDeclared(t *testing.T) {
	u := Usage()
	for _, want := range []string{
		"  alphabeta[:KEY=VALUE,...]: ",
		"\n    depth=1..64 (default 3): ",
		"\n    tt=10..30 (default 18): ",
		"\n    time=1ns..1h (default none): ",
		"\n    nnue=NNUE (default none; old key net): ",
		"  minimax[:KEY=VALUE,...]: ",
		"\n    depth=1..32 (default 3): ",
		"\n    quiesce=0|1 (default 1): ",
		"\n    mat=0..1 (default 0.75): ",
		"\n    net=NET (default default): the net at the leaves",
		"  policy[:KEY=VALUE,...]: ",
	} {
		if !strings.Contains(u, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
	for _, keys := range [][]string{alphaBetaDeclared.Keys(), minimaxDeclared.Keys(), policyDeclared.Keys()} {
		for _, k := range keys {
			if !strings.Contains(u, "\n    "+k+"=") {
				t.Errorf("usage lacks the option %s", k)
			}
		}
	}
}

// readers are the options readers of the kinds whose options are
// declared, each returning the settings it read.
var readers = map[string]func(Spec) (any, map[string]bool, error){
	"alphabeta": func(s Spec) (any, map[string]bool, error) {
		o := alphaBetaDefaults()
		given, err := readOptions(s, alphaBetaDeclared, &o)
		return o, given, err
	},
	"minimax": func(s Spec) (any, map[string]bool, error) {
		o := minimaxDefaults()
		given, err := readOptions(s, minimaxDeclared, &o)
		return o, given, err
	},
	"policy": func(s Spec) (any, map[string]bool, error) {
		var o policySettings
		given, err := readOptions(s, policyDeclared, &o)
		return o, given, err
	},
	"random": func(s Spec) (any, map[string]bool, error) {
		var o struct{}
		given, err := readOptions(s, noOptions, &o)
		return o, given, err
	},
}

// FuzzReadOptions checks that reading a spec's options through each
// declared kind never panics, that a refusal names the spec, and that
// what is read reads again the same from the spec's text form.
func FuzzReadOptions(f *testing.F) {
	for _, s := range []string{"alphabeta:depth=3,net=x", "minimax:net=none,quiesce=true,mat=0.5,time=20ms", "alphabeta:nnue=a,net=b",
		"minimax:nodes=1099511627776", "alphabeta:time=1h0m0.000000001s", "policy:net=x", "random:x=1", "alphabeta:tt=10,eval=rules"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSpec(text)
		if err != nil {
			return
		}
		for kind, read := range readers {
			s.Kind = kind
			got, given, err := read(s)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "player ") {
					t.Errorf("%s: an error that does not name the spec: %v", s, err)
				}
				continue
			}
			if len(given) != len(s.Options) {
				t.Errorf("%s: %d options given, %d read", s, len(s.Options), len(given))
			}
			again, err := ParseSpec(s.String())
			if err != nil {
				t.Fatalf("%s does not parse again: %v", s, err)
			}
			if got2, _, err := read(again); err != nil || !reflect.DeepEqual(got, got2) {
				t.Errorf("%s read %+v, then %+v, %v", s, got, got2, err)
			}
		}
	})
}
