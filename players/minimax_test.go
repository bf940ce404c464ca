package players

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
)

func TestMinimaxSpecs(t *testing.T) {
	tests := []struct {
		spec, want string // want: the error, "" for a good spec
	}{
		{"minimax", ""},
		{"minimax:net=none,depth=2", ""},
		{"minimax:net=default,time=200ms,nodes=5000", ""},
		{"minimax:net=none,depth=4,quiesce=0,mat=0,batch=0,tt=12", ""},
		{"minimax:dpth=3", `unknown option "dpth" for minimax (known: net, depth, time, nodes, quiesce, mat, hand, batch, tt)`},
		{"minimax:depth=0", "depth must be a whole number in 1..32"},
		{"minimax:depth=33", "depth must be a whole number in 1..32"},
		{"minimax:time=soon", "time must be a duration"},
		{"minimax:time=-5ms", "time must be a duration"},
		{"minimax:nodes=0", "nodes must be a whole number"},
		{"minimax:quiesce=2", `quiesce must be 1 or 0 (or true or false), got "2"`},
		{"minimax:mat=1.5", "mat must be a number in 0..1"},
		{"minimax:batch=yes", `batch must be 1 or 0 (or true or false), got "yes"`},
		{"minimax:tt=5", "tt must be a whole number in 10..30"},
		{"minimax:hand=0.5,mat=0", ""},
		{"minimax:hand=2", "hand must be a number in 0..1"},
		{"minimax:net=" + filepath.Join(t.TempDir(), "missing.tnet"), "missing.tnet"},
	}
	for _, tt := range tests {
		l := NewLoader(trench.Game)
		m, err := l.Load(tt.spec)
		l.Close()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("Load(%q): %v", tt.spec, err)
		case tt.want == "" && m.Name != strings.TrimSpace(tt.spec):
			t.Errorf("Load(%q) named %q", tt.spec, m.Name)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Load(%q) error %v, want one containing %q", tt.spec, err, tt.want)
		}
	}
}

// minimax searches two-player games only, and says so.
func TestMinimaxRefusesThreePlayers(t *testing.T) {
	l := NewLoader(trichess.Game)
	defer l.Close()
	_, err := l.Load("minimax:net=none")
	if err == nil || !strings.Contains(err.Error(), "two-player games; trichess has 3 players") {
		t.Errorf("minimax for trichess: %v", err)
	}
	// Two-player games besides Trench are searched.
	lt := NewLoader(tictactoe.Game{})
	defer lt.Close()
	if _, err := lt.Load("minimax:net=none,depth=9"); err != nil {
		t.Errorf("minimax for tictactoe: %v", err)
	}
	if _, err := lt.Load("minimax:net=none,hand=0.5"); err == nil || !strings.Contains(err.Error(), "judges trench and trichess only, not tictactoe") {
		t.Errorf("minimax with hand for tictactoe: %v", err)
	}
}

// The player takes a forced win, with the shipped net and without a net.
func TestMinimaxTakesTheWin(t *testing.T) {
	l := NewLoader(trench.Game)
	defer l.Close()
	// Black's soldier on e6 takes White's captain on f6, which reaches
	// the winning score; the soldier on d6 is worth less.
	s, err := trench.Game.ParseState("7g/8/3pPk2/8/8/8/8/G7 b 24 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"minimax:depth=1", "minimax:net=none,depth=3", "minimax:nodes=200,batch=1", "minimax:depth=2,hand=0.5,mat=0"} {
		m, err := l.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := m.NewPlayer(1)
		a, err := p.Move(context.Background(), s)
		if err != nil || s.ActionString(a) != "e6f6" {
			t.Errorf("%s played %s, %v; want e6f6", spec, s.ActionString(a), err)
		}
	}
}

// A time-limited player keeps its time; a depth-limited one plays the
// same moves every time.
func TestMinimaxLimits(t *testing.T) {
	l := NewLoader(trench.Game)
	defer l.Close()
	m, err := l.Load("minimax:time=60ms")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.NewPlayer(1)
	s := trench.Game.Start()
	for range 3 {
		start := time.Now()
		a, err := p.Move(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		// The slack is for a loaded machine.
		if el := time.Since(start); el > 300*time.Millisecond {
			t.Errorf("a move of 60ms took %v", el)
		}
		s.Play(a)
	}
	m, err = l.Load("minimax:depth=2")
	if err != nil {
		t.Fatal(err)
	}
	var lines [2][]int
	for i := range lines {
		p, _ := m.NewPlayer(uint64(i))
		s := trench.Game.Start()
		for range 6 {
			a, err := p.Move(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			lines[i] = append(lines[i], a)
			s.Play(a)
		}
	}
	for j := range lines[0] {
		if lines[0][j] != lines[1][j] {
			t.Fatalf("two depth-2 players played %v and %v", lines[0], lines[1])
		}
	}
}
