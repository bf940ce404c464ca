package arena

import (
	"strings"
	"testing"

	"trench/engine/trench"
	"trench/engine/trichess"
)

// Replay must refuse, never panic on, any file.
func FuzzReplay(f *testing.F) {
	f.Add(`{"game":"trench","players":["a","b"],"start":"` + trench.StartFEN + `","moves":["d4e5"],"result":[0,0],"scores":[0,0]}`)
	f.Add(`{"game":"tictactoe","players":["a","b"],"start":"...\n...\n... x","moves":[],"result":[],"scores":[]}`)
	f.Add(`{"game":"trench","players":["a"],"start":"8/8/8/8/8/8/8/8 b 0 0 0 1"}`)
	f.Add(`{"game":"trichess","players":["a","b","c"],"seats":[2,0,1],"start":"` + trichess.Game.Start().String() + `","moves":["We2We4"],"result":[0,0,0],"scores":[0,0,0],"ending":"pat","titles":["vassal","vassal","vassal"]}`)
	f.Add(`{"game":"trichess","players":["a","b","c"],"seats":[-1,0,0],"start":"x"}`)
	f.Add("{}\n\n[1,2]\n")
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := Replay(strings.NewReader(text), "fuzz.jsonl"); err != nil && !strings.Contains(err.Error(), "fuzz.jsonl") {
			t.Errorf("error %q does not name the file", err)
		}
	})
}

// ReadOpenings must refuse, never panic on, any file, and whatever it
// accepts are unfinished positions that print back to themselves.
func FuzzReadOpenings(f *testing.F) {
	f.Add(trench.StartFEN + "\n# comment\n\n")
	f.Add("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 0 0 0 1\nbad\n")
	f.Add("7g/8/8/8/8/8/8/G7 b 25 0 0 1")
	f.Fuzz(func(t *testing.T, text string) {
		states, err := ReadOpenings(strings.NewReader(text), "fuzz.txt", trench.Game)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.txt") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		for _, s := range states {
			if s.Over() {
				t.Errorf("finished position %s accepted", s)
			}
			back, err := trench.Game.ParseState(s.String())
			if err != nil || back.String() != s.String() {
				t.Errorf("%s does not reparse: %v", s, err)
			}
		}
	})
}

// A tally must check, never panic on, any file, and what it tallies is
// what it read.
func FuzzTally(f *testing.F) {
	f.Add(`{"game":"trichess","meeting":0,"pair":0,"round":2,"players":["a","a","b"],"seats":[1,1,0],"start":"` + trichess.Game.Start().String() + `","moves":[],"result":[0,0,0],"scores":[0,0,0]}`)
	f.Add(`{"game":"trench","meeting":3,"pair":-1,"round":7,"players":["a","b"],"start":"` + trench.StartFEN + `","moves":[],"result":[0,0],"scores":[0,0]}`)
	f.Add("{}\n")
	f.Fuzz(func(t *testing.T, text string) {
		var tally Tally
		n, err := tally.Add(strings.NewReader(text), "fuzz.jsonl")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.jsonl") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if res, err := tally.Result(); err == nil && len(res.Outcomes) != n {
			t.Errorf("%d games read, %d tallied", n, len(res.Outcomes))
		}
	})
}
