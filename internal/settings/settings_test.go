package settings

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// sample is a struct of every kind of setting the package reads.
type sample struct {
	Name    string        `key:"name" help:"a name"`
	Mode    string        `key:"mode" alias:"m|style" values:"fast|slow" help:"how"`
	Count   int           `key:"count" min:"1" max:"MaxCount" help:"how many"`
	Weight  float64       `key:"weight" alias:"w" min:"0" max:"1" help:"how much"`
	On      bool          `key:"on" help:"whether"`
	Wait    time.Duration `key:"wait" min:"1ns" max:"1h" help:"how long"`
	Level   int           `key:"level" min:"1" max:"3" help:"strength"`
	Unbound int           `key:"unbound" help:"any number"`
}

var declared = Must[sample](Options{
	Bounds: map[string]float64{"MaxCount": 100},
	Notes:  map[string]string{"level": "1=weak, 3=strong"},
})

func defaults() sample {
	return sample{Name: "x", Mode: "fast", Count: 5, Weight: 0.5, Level: 2}
}

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		want       func(*sample) // the settings after; nil: an error
		err        string
	}{
		{"name", "y", func(s *sample) { s.Name = "y" }, ""},
		{"mode", "slow", func(s *sample) { s.Mode = "slow" }, ""},
		{"m", "slow", func(s *sample) { s.Mode = "slow" }, ""},
		{"style", "slow", func(s *sample) { s.Mode = "slow" }, ""},
		{"count", "100", func(s *sample) { s.Count = 100 }, ""},
		{"weight", "0.25", func(s *sample) { s.Weight = 0.25 }, ""},
		{"w", "1", func(s *sample) { s.Weight = 1 }, ""},
		{"on", "1", func(s *sample) { s.On = true }, ""},
		{"on", "true", func(s *sample) { s.On = true }, ""},
		{"on", "0", func(s *sample) {}, ""},
		{"wait", "200ms", func(s *sample) { s.Wait = 200 * time.Millisecond }, ""},
		{"unbound", "-7", func(s *sample) { s.Unbound = -7 }, ""},
		// Out of range.
		{"count", "0", nil, `count must be a whole number in 1..100, got "0"`},
		{"count", "101", nil, `count must be a whole number in 1..100, got "101"`},
		{"weight", "1.5", nil, `weight must be a number in 0..1, got "1.5"`},
		{"w", "-1", nil, `w must be a number in 0..1, got "-1" (w is weight)`},
		{"weight", "NaN", nil, `weight must be a number in 0..1, got "NaN"`},
		{"wait", "2h", nil, `wait must be a duration such as 200ms or 2s, up to 1h, got "2h"`},
		{"wait", "0s", nil, `wait must be a duration such as 200ms or 2s, up to 1h, got "0s"`},
		{"mode", "medium", nil, `mode must be fast or slow, got "medium"`},
		{"style", "medium", nil, `style must be fast or slow, got "medium"`},
		// Bad values.
		{"count", "many", nil, `count must be a whole number in 1..100, got "many"`},
		{"count", "2.5", nil, `count must be a whole number in 1..100, got "2.5"`},
		{"weight", "half", nil, `weight must be a number in 0..1, got "half"`},
		{"on", "yes", nil, `on must be 1 or 0 (or true or false), got "yes"`},
		{"wait", "soon", nil, `wait must be a duration such as 200ms or 2s, up to 1h, got "soon"`},
		{"unbound", "1e3", nil, `unbound must be a whole number, got "1e3"`},
		// Unknown keys name the known ones.
		{"colour", "red", nil, `unknown option "colour" (known: name, mode, count, weight, on, wait, level, unbound)`},
		{"Mode", "fast", nil, `unknown option "Mode" (known: name, mode,`},
	} {
		got := defaults()
		err := declared.Set(&got, tc.key, tc.value)
		if tc.want == nil {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Set(%s, %s) = %v, want %q", tc.key, tc.value, err, tc.err)
			}
			if got != defaults() {
				t.Errorf("Set(%s, %s) failed but changed the settings to %+v", tc.key, tc.value, got)
			}
			continue
		}
		want := defaults()
		tc.want(&want)
		if err != nil || got != want {
			t.Errorf("Set(%s, %s) = %+v, %v, want %+v", tc.key, tc.value, got, err, want)
		}
	}
}

func TestCanonicalAndKeys(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		ok        bool
	}{{"mode", "mode", true}, {"m", "mode", true}, {"style", "mode", true}, {"w", "weight", true}, {"colour", "", false}} {
		if key, ok := declared.Canonical(tc.name); key != tc.key || ok != tc.ok {
			t.Errorf("Canonical(%s) = %s, %v, want %s, %v", tc.name, key, ok, tc.key, tc.ok)
		}
	}
	if got := strings.Join(declared.Keys(), " "); got != "name mode count weight on wait level unbound" {
		t.Errorf("Keys() = %s", got)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		change func(*sample)
		prefix string
		want   string // "" for none
	}{
		{func(*sample) {}, "", ""},
		{func(s *sample) { s.Count = 0 }, "", "count must be in 1..100, got 0"},
		{func(s *sample) { s.Count = 0 }, "--", "--count must be in 1..100, got 0"},
		{func(s *sample) { s.Mode = "" }, "", `mode must be fast or slow, got ""`},
		{func(s *sample) { s.Weight = 2 }, "--", "--weight must be in 0..1, got 2"},
		{func(s *sample) { s.Wait = 2 * time.Hour }, "", "wait must be in 1ns..1h, got 2h0m0s"},
	} {
		s := defaults()
		s.Wait = time.Second
		tc.change(&s)
		err := declared.Validate(s, tc.prefix)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("Validate(%+v, %q) = %v, want %q", s, tc.prefix, err, tc.want)
		}
	}
}

func TestBind(t *testing.T) {
	s := defaults()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	declared.Bind(fs, &s, "name")
	if fs.Lookup("name") != nil {
		t.Error("the skipped name was bound")
	}
	for key, help := range map[string]string{"count": "how many (1..100)", "level": "strength (1=weak, 3=strong)", "mode": "how", "on": "whether"} {
		if f := fs.Lookup(key); f == nil || f.Usage != help {
			t.Errorf("--%s: %+v, want help %q", key, f, help)
		}
	}
	if err := fs.Parse([]string{"--mode=slow", "--count=7", "--weight=0.125", "--on", "--wait=3s", "--level=3", "--unbound=-2"}); err != nil {
		t.Fatal(err)
	}
	want := sample{Name: "x", Mode: "slow", Count: 7, Weight: 0.125, On: true, Wait: 3 * time.Second, Level: 3, Unbound: -2}
	if s != want {
		t.Errorf("flags gave %+v, want %+v", s, want)
	}
}

func TestUsage(t *testing.T) {
	got := declared.Usage(sample{Mode: "fast", Count: 5, Weight: 0.5, On: true, Level: 2}, "  ")
	want := `  name=NAME (default none): a name
  mode=fast|slow (default fast; old key m, style): how
  count=1..100 (default 5): how many
  weight=0..1 (default 0.5; old key w): how much
  on=0|1 (default 1): whether
  wait=1ns..1h (default none): how long
  level=1..3 (default 2): strength (1=weak, 3=strong)
  unbound=UNBOUND (default 0): any number
`
	if got != want {
		t.Errorf("Usage:\n%s\nwant:\n%s", got, want)
	}
}

// TestNewRefusesBadTags checks that each mistake a declaration can make
// is reported, naming the field.
func TestNewRefusesBadTags(t *testing.T) {
	check := func(name string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	_, err := New[int](Options{})
	check("not a struct", err, "int is not a struct")
	_, err = New[struct {
		A int `key:"a"`
	}](Options{})
	check("no help", err, "field A")
	_, err = New[struct {
		a int `key:"a" help:"h"`
	}](Options{})
	check("unexported", err, "field a")
	_, err = New[struct {
		A int `key:"a" help:"h"`
		B int `key:"b" alias:"a" help:"h"`
	}](Options{})
	check("a name twice", err, `names "a" twice`)
	_, err = New[struct {
		A []int `key:"a" help:"h"`
	}](Options{})
	check("a type", err, "cannot read, []int")
	_, err = New[struct {
		A int `key:"a" values:"x|y" help:"h"`
	}](Options{})
	check("values on a number", err, "has values but is not a string")
	_, err = New[struct {
		A int `key:"a" min:"1" help:"h"`
	}](Options{})
	check("half a range", err, "one end of a range")
	_, err = New[struct {
		A bool `key:"a" min:"0" max:"1" help:"h"`
	}](Options{})
	check("a range on a bool", err, "has a range but is not a number")
	_, err = New[struct {
		A int `key:"a" min:"1" max:"Top" help:"h"`
	}](Options{})
	check("an unnamed bound", err, `bound "Top"`)
	_, err = New[struct {
		A int `key:"a" help:"h"`
	}](Options{Notes: map[string]string{"b": "x"}})
	check("a note for no key", err, `a note for "b"`)
}

// FuzzSet checks that Set never panics and either refuses a value,
// leaving the settings as they were, or takes one Validate accepts.
func FuzzSet(f *testing.F) {
	for _, k := range append(declared.Keys(), "m", "w", "none") {
		f.Add(k, "1")
	}
	f.Add("wait", "1h0m0.000000001s")
	f.Add("weight", "-0")
	f.Add("count", "9223372036854775807")
	f.Fuzz(func(t *testing.T, key, value string) {
		s := defaults()
		s.Wait = time.Second
		before := s
		if err := declared.Set(&s, key, value); err != nil {
			if s != before {
				t.Errorf("Set(%q, %q) failed (%v) but changed the settings", key, value, err)
			}
			return
		}
		if err := declared.Validate(s, ""); err != nil {
			t.Errorf("Set(%q, %q) took a value Validate refuses: %v", key, value, err)
		}
	})
}
