package players

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/nn/nntest"
	"trench/nnue"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		text, want, err string
	}{
		{"random", "random", ""},
		{" alphabeta:depth=3 ", "alphabeta:depth=3", ""},
		{"mcts:net=runs/x,sims=200,algo=gumbel", "mcts:net=runs/x,sims=200,algo=gumbel", ""},
		{"policy:net=/tmp/a b/c.tnet", "policy:net=/tmp/a b/c.tnet", ""},
		{"", "", "no player kind"},
		{":depth=3", "", "no player kind"},
		{"Alpha", "", "not a lowercase letter"},
		{"alphabeta:", "", "nothing after the colon"},
		{"alphabeta:depth", "", `"depth" is not KEY=VALUE`},
		{"alphabeta:depth=", "", "is not KEY=VALUE"},
		{"alphabeta:depth=2,depth=3", "", "given twice"},
	}
	for _, tt := range tests {
		s, err := ParseSpec(tt.text)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSpec(%q) error %v, want %q", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || s.String() != tt.want {
			t.Errorf("ParseSpec(%q) = %q, %v, want %q", tt.text, s, err, tt.want)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"random", "alphabeta:depth=3", "mcts:net=a,sims=2", "a:b=c,d", ":", "x:=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSpec(text)
		if err != nil {
			return
		}
		again, err := ParseSpec(s.String())
		if err != nil || again.String() != s.String() {
			t.Errorf("%q parses to %q, which reparses to %q, %v", text, s, again, err)
		}
		l := NewLoader(tictactoe.Game{})
		defer l.Close()
		l.Load(text) // must not panic
	})
}

// saveTiny writes a tiny trench net as a run's checkpoint and returns its
// path.
func saveTiny(t *testing.T, run string, step uint64) string {
	t.Helper()
	return saveTinyFor(t, trench.Game, run, step)
}

// saveTinyFor writes a tiny net for game g, with one value per seat for
// games of more than two players as trench train makes them, as a run's
// checkpoint and returns its path.
func saveTinyFor(t *testing.T, g engine.Game, run string, step uint64) string {
	t.Helper()
	c := nntest.TinyFor(t, g)
	if g.Players() <= 2 {
		c.Seats = 1
	}
	return nntest.SaveToRun(t, c, run, step)
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tnet")
	if err := os.WriteFile(bad, []byte("TRNCHNET garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "emptyrun")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		game       engine.Game
		spec, want string
	}{
		{trench.Game, "stockfish", `unknown kind "stockfish" (known: random, greedy, alphabeta, policy, bot, mcts, minimax)`},
		{trench.Game, "random:seed=3", "random takes no options"},
		{trench.Game, "alphabeta:dpth=3", `unknown option "dpth" for alphabeta (known: depth, time, nodes, tt, eval, nnue, search)`},
		{trench.Game, "alphabeta:eval=learnt", `unknown evaluation "learnt" (known: hand, rules, nnue)`},
		{trench.Game, "alphabeta:eval=nnue", "the nnue evaluation needs a net"},
		{trench.Game, "alphabeta:eval=net", "the nnue evaluation needs a net"},
		{trench.Game, "alphabeta:nnue=" + bad, bad + ": not an nnue net file"},
		{trench.Game, "alphabeta:net=" + bad, bad + ": not an nnue net file"},
		{trench.Game, "alphabeta:nnue=default,net=default", `options "nnue" and "net" both set nnue; give it once`},
		{trench.Game, "alphabeta:eval=rules,net=" + bad, `the "rules" evaluation reads no net`},
		{trench.Game, "alphabeta:depth=0", "depth must be a whole number in 1..64"},
		{trench.Game, "alphabeta:depth=x", "depth must be"},
		{trench.Game, "alphabeta:time=fast", "time must be a duration"},
		{trench.Game, "alphabeta:tt=40", "tt must be"},
		{tictactoe.Game{}, "alphabeta", "alphabeta plays only trench and trichess, not tictactoe"},
		{trench.Game, "alphabeta:search=brs", `search "brs": this game's alphabeta has one search algorithm`},
		{trichess.Game, "alphabeta:search=best", `unknown search "best" (known: brs, paranoid, maxn)`},
		{trichess.Game, "alphabeta:eval=nnue,nnue=" + bad, bad + ": not an nnue net file"},
		{trench.Game, "alphabeta:net=default,eval=hand", `the "hand" evaluation reads no net`},
		{trench.Game, "bot:kind=alphabeta,sims=10", "sims limits the mcts kind; the alphabeta kind searches by nodes"},
		{trench.Game, "bot:nodes=1000", "nodes limits the alphabeta kind; the mcts kind searches by sims"},
		{trench.Game, "bot:kind=alphabeta,eval=net", `eval must be hand or rules or nnue, got "net"`},
		{trench.Game, "bot:kind=alphabeta,nnue=" + bad, bad + `" is a conv-net checkpoint file, not an efficiently updatable net`},
		{trench.Game, "bot:kind=alphabeta,level=2,nodes=300", "give level or sims/nodes/time, not both"},
		{trench.Game, "bot:net=none,value=deep", `player "bot:net=none,value=deep": value must be net or nnue or qnnue or hand or qhand, got "deep"`},
		{trench.Game, "bot:kind=alphabeta,value=qnnue", "value qnnue sets the mcts kind's leaf values; the alphabeta kind evaluates with eval"},
		{trench.Game, "bot:net=none,value=qnnue,nnue=" + bad, bad + `" is a conv-net checkpoint file, not an efficiently updatable net`},
		{trench.Game, "bot:kind=minimax", "kind must be mcts or alphabeta"},
		{trench.Game, "mcts:algo=alphazero", "algo must be puct or gumbel"},
		{trench.Game, "mcts:sims=-1", "sims must be"},
		{trench.Game, "mcts:net=none,quiesce=2", `quiesce must be 1 or 0 (or true or false), got "2" (quiesce is quiescence)`},
		{trench.Game, "mcts:net=none,qvalue=resolved", `player "mcts:net=none,qvalue=resolved": qvalue must be net or shift, got "resolved"`},
		{trench.Game, "mcts:net=none,quiesce=0,qvalue=shift", "shifting them needs quiescence"},
		{trench.Game, "mcts:net=none,solver=2", "solver must be 1 or 0"},
		{trench.Game, "mcts:net=none,sym=2", "sym must be 1 or 0"},
		{trench.Game, "mcts:net=none,algo=gumbel,solver=1", "the solver works with PUCT, not gumbel"},
		{trench.Game, "mcts:net=none,mmw=1.5", "mmw must be"},
		{trench.Game, "mcts:net=none,algo=gumbel,mmw=0.3", "minimax backups work with PUCT, not gumbel"},
		{trench.Game, "mcts:net=none,mat=1.5", "mat must be"},
		{trench.Game, "mcts:net=none,cprior=-1", "cprior must be"},
		{trench.Game, "mcts:net=none,cpuct=-0.5", "cpuct must be a number in 0..20"},
		{trench.Game, "mcts:net=none,fpu=3", "fpu must be a number in 0..2"},
		{trench.Game, "mcts:net=none,rootfpu=x", "rootfpu must be"},
		{trench.Game, "mcts:net=none,threads=0", "threads must be a whole number in 1..256"},
		{trench.Game, "mcts:net=none,threads=257", "threads must be"},
		{trench.Game, "mcts:net=none,threads=two", "threads must be"},
		{trench.Game, "mcts:net=none,guard=0.6", "guard must be a number in 0..0.5"},
		{trench.Game, "mcts:net=none,guard=0.2,guarddepth=0", "guarddepth must be a whole number in 1..64"},
		{trench.Game, "mcts:net=none,guard=0.2,guardmargin=2", `unknown option "guardmargin"`},
		{trench.Game, "mcts:net=none,endgame=-1", "endgame must be a number in 0..1000"},
		{trench.Game, "mcts:net=none,endgame=15,endgamedepth=0", "endgamedepth must be a whole number in 1..64"},
		{trench.Game, "mcts:net=" + filepath.Join(dir, "missing.tnet"), "missing.tnet"},
		{trench.Game, "policy:net=" + bad, "bad.tnet"},
		{trench.Game, "policy:net=" + empty, "emptyrun"},
		{tictactoe.Game{}, "policy", "tictactoe"},
		{tictactoe.Game{}, "mcts", "no net is built in for this game: tictactoe"},
		{trichess.Game, "mcts:net=none,guard=0.2", "guard: trichess has 3 players; the guard checks for a forced loss against one opponent, in two-player games"},
		{trichess.Game, "mcts:net=none,endgame=10", "endgame: trichess has 3 players"},
		{tictactoe.Game{}, "mcts:net=none,guard=0.2", "guard: tictactoe has no classical search (trench and trichess have)"},
	}
	for _, tt := range tests {
		l := NewLoader(tt.game)
		_, err := l.Load(tt.spec)
		l.Close()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%q) error %v, want one containing %q", tt.spec, err, tt.want)
		}
	}
}

// Players that name one checkpoint, by file or by its run directory,
// share one loaded net.
func TestNetsShared(t *testing.T) {
	run := t.TempDir()
	path := saveTiny(t, run, 7)
	l := NewLoader(trench.Game)
	defer l.Close()
	a, err := l.Load("policy:net=" + path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Load("mcts:net=" + run + ",sims=8")
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Load("policy")
	if err != nil {
		t.Fatal(err)
	}
	if a.Net != b.Net || a.Net.Net.Step != 7 {
		t.Errorf("file and run directory loaded apart: %p %p", a.Net, b.Net)
	}
	if c.Net == a.Net {
		t.Error("the default net shares the checkpoint's")
	}
}

// A net loaded once is not read again for the same ref: with its file
// gone, the ref still gives the net loaded before.
func TestNetLoadedOnce(t *testing.T) {
	tests := []struct {
		name string
		ref  func(run, path string) string
	}{
		{"checkpoint file", func(_, path string) string { return path }},
		{"run directory", func(run, _ string) string { return run }},
		{"run directory with a trailing slash", func(run, _ string) string { return run + "/" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := t.TempDir()
			path := saveTiny(t, run, 5)
			l := NewLoader(trench.Game)
			defer l.Close()
			first, err := l.Net(tc.ref(run, path))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			again, err := l.Net(tc.ref(run, path))
			if err != nil {
				t.Fatalf("second load read the checkpoint again: %v", err)
			}
			if again != first {
				t.Errorf("second load gave another net: %p, want %p", again, first)
			}
		})
	}
}

// Players naming a run directory whose newest checkpoint is damaged play
// the newest that loads, and the loader warns once, naming the file.
func TestNetRunDirWarnsOnce(t *testing.T) {
	run := t.TempDir()
	good := saveTiny(t, run, 3)
	damaged := saveTiny(t, run, 4)
	if err := os.WriteFile(damaged, []byte("TRNCHNET"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings strings.Builder
	l := NewLoader(trench.Game)
	l.Warnings = &warnings
	defer l.Close()
	for _, spec := range []string{"mcts:net=" + run + ",sims=8", "policy:net=" + run} {
		m, err := l.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		if m.Net.Net.Source != good {
			t.Errorf("%s plays %s, want %s", spec, m.Net.Net.Source, good)
		}
	}
	if n := strings.Count(warnings.String(), "warning: passing over "+damaged); n != 1 {
		t.Errorf("%d warnings naming %s, want 1: %q", n, damaged, warnings.String())
	}
}

// The search's constants in a spec reach the search: at the start, where
// the no-net search's moves look alike, a first-play reduction at the root
// keeps 30 simulations on fewer moves, and so does a smaller cpuct under
// it; a first-play reduction below the root makes the principal variation
// longer.
func TestMCTSSearchConstants(t *testing.T) {
	tried := func(spec string) (visited, pv int) {
		t.Helper()
		l := NewLoader(trench.Game)
		defer l.Close()
		m, err := l.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.NewPlayer(1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Move(context.Background(), trench.Game.Start()); err != nil {
			t.Fatal(err)
		}
		res := p.(*botPlayer).res
		for _, a := range res.Actions {
			if a.Visits > 0 {
				visited++
			}
		}
		return visited, len(res.PV)
	}
	tests := []struct{ narrow, wide string }{
		{"mcts:net=none,sims=30,rootfpu=1", "mcts:net=none,sims=30"},
		{"mcts:net=none,sims=30,rootfpu=1,cpuct=0.5", "mcts:net=none,sims=30,rootfpu=1,cpuct=5"},
	}
	for _, tt := range tests {
		n, _ := tried(tt.narrow)
		w, _ := tried(tt.wide)
		if n >= w {
			t.Errorf("%s visited %d root moves, %s %d: want fewer", tt.narrow, n, tt.wide, w)
		}
	}
	deep, wide := "mcts:net=none,sims=30,rootfpu=1,fpu=2", "mcts:net=none,sims=30,rootfpu=1"
	_, d := tried(deep)
	_, w := tried(wide)
	if d <= w {
		t.Errorf("%s has a principal variation of %d moves, %s %d: want more", deep, d, wide, w)
	}
}

// A maker says whether its players are limited by time and how many
// threads they search with; time-limited net players evaluate on their
// own threads, the others through the shared batcher.
func TestTimedAndThreads(t *testing.T) {
	run := t.TempDir()
	saveTiny(t, run, 1)
	l := NewLoader(trench.Game)
	defer l.Close()
	tests := []struct {
		spec    string
		timed   bool
		threads int
		direct  bool
	}{
		{"random", false, 0, false},
		{"alphabeta:depth=2", false, 0, false},
		{"alphabeta:time=50ms", true, 0, false},
		{"policy:net=" + run, false, 0, false},
		{"mcts:net=" + run + ",sims=8", false, 1, false},
		{"mcts:net=" + run + ",sims=8,threads=3", false, 3, false},
		{"mcts:net=" + run + ",time=20ms", true, 1, true},
		{"mcts:net=" + run + ",time=20ms,threads=2,quiesce=0,mat=0,cprior=0", true, 2, true},
		{"mcts:net=none,time=20ms", true, 1, false},
		{"minimax:net=" + run + ",depth=2", false, 0, false},
		{"minimax:net=" + run + ",time=20ms", true, 0, false},
		{"bot:kind=alphabeta,eval=hand,level=1", false, 0, false},
		{"bot:kind=alphabeta,eval=hand,time=20ms,threads=4", true, 0, false},
		{"bot:net=" + run + ",sims=8,threads=2", false, 2, false},
	}
	for _, tt := range tests {
		m, err := l.Load(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if m.Timed != tt.timed || m.Threads != tt.threads {
			t.Errorf("%s: timed %v, %d threads; want %v, %d", tt.spec, m.Timed, m.Threads, tt.timed, tt.threads)
		}
		p, err := m.NewPlayer(1)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.(*botPlayer); !ok || m.Net == nil {
			continue
		}
		before, _, _ := m.Net.Eval.Stats()
		if _, err := p.Move(context.Background(), trench.Game.Start()); err != nil {
			t.Fatal(err)
		}
		after, _, _ := m.Net.Eval.Stats()
		if direct := after == before; direct != tt.direct {
			t.Errorf("%s: evaluates directly %v, want %v (%d batcher calls)", tt.spec, direct, tt.direct, after-before)
		}
	}
}

// Every kind of player plays legal moves through a whole game.
func TestPlayersPlayLegalGames(t *testing.T) {
	run := t.TempDir()
	saveTiny(t, run, 1)
	netFile := filepath.Join(run, "net.nnue")
	if net, err := nnue.New(16, 1); err != nil || net.Save(netFile) != nil {
		t.Fatal("cannot save an nnue net")
	}
	l := NewLoader(trench.Game)
	defer l.Close()
	for _, spec := range []string{"random", "greedy", "alphabeta:depth=1", "alphabeta:nodes=2000", "alphabeta:depth=1,eval=rules", "alphabeta:nodes=2000,net=" + netFile, "alphabeta:depth=1,eval=net,net=" + netFile, "alphabeta:nodes=2000,nnue=" + netFile, "alphabeta:depth=1,eval=nnue,nnue=" + netFile, "policy:net=" + run, "mcts:net=" + run + ",sims=4", "mcts:net=" + run + ",time=2ms,algo=gumbel", "mcts:net=" + run + ",time=1ns", "mcts:net=none,sims=8", "mcts:net=" + run + ",sims=8,quiesce=0,mat=0,cprior=1", "mcts:net=" + run + ",sims=8,qvalue=shift,solver=1", "mcts:net=" + run + ",sims=8,mmw=0.4", "mcts:net=" + run + ",sims=8,sym=1", "mcts:net=" + run + ",sims=16,threads=2", "mcts:net=" + run + ",time=3ms,threads=2", "mcts:net=" + run + ",sims=8,guard=0.2,guarddepth=2", "mcts:net=" + run + ",time=5ms,guard=0.5", "mcts:net=" + run + ",time=5ms,guard=0.1,endgame=2", "mcts:net=" + run + ",sims=8,endgame=1,endgamedepth=2", "minimax:net=" + run + ",depth=2", "minimax:net=none,nodes=300", "minimax:net=" + run + ",time=5ms,batch=1,quiesce=0,mat=0",
		"bot:kind=alphabeta,nnue=" + netFile + ",level=1", "bot:kind=alphabeta,eval=rules,nodes=2000", "bot:kind=alphabeta,nnue=default,time=3ms", "bot:kind=alphabeta,eval=nnue,nnue=" + netFile + ",nodes=3000,endgame=2", "mcts:kind=alphabeta,eval=hand,level=1", "bot:net=" + run + ",sims=4"} {
		playLegal(t, l, spec, 30, 1, 2)
	}
}

// playLegal has the players of spec, loaded by l, play l's game from the
// start for up to plies plies, seat i's player made with seeds[i],
// failing the test on an error or an illegal move.
func playLegal(t *testing.T, l *Loader, spec string, plies int, seeds ...uint64) {
	t.Helper()
	m, err := l.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]Player, len(seeds))
	for i, seed := range seeds {
		if ps[i], err = m.NewPlayer(seed); err != nil {
			t.Fatal(err)
		}
	}
	s := l.Game().Start()
	for ply := 0; !s.Over() && ply < plies; ply++ {
		a, err := ps[s.ToMove()].Move(context.Background(), s.Clone())
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if err := engine.PlayChecked(s, a); err != nil {
			t.Fatalf("%s at ply %d: %v", spec, ply, err)
		}
	}
}

func TestGreedyTakesMost(t *testing.T) {
	l := NewLoader(trench.Game)
	m, err := l.Load("greedy")
	if err != nil {
		t.Fatal(err)
	}
	// Black's soldier on e6 can take a soldier on d6 or a colonel on f6.
	s, err := trench.Game.ParseState("7g/8/3pPc2/8/8/8/8/1G6 b 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(10) {
		p, _ := m.NewPlayer(seed)
		a, err := p.Move(context.Background(), s)
		if err != nil || s.ActionString(a) != "e6f6" {
			t.Errorf("seed %d: greedy played %s, %v; want e6f6", seed, s.ActionString(a), err)
		}
	}
}

func TestUsageNamesEveryKind(t *testing.T) {
	u := Usage()
	for _, k := range Kinds() {
		if !strings.Contains(u, k) {
			t.Errorf("usage does not mention %s", k)
		}
	}
}

// Every kind of player but alphabeta plays legal Trichess moves, the net
// players with a three-seat net.
func TestPlayersPlayTrichess(t *testing.T) {
	run := t.TempDir()
	saveTinyFor(t, trichess.Game, run, 1)
	l := NewLoader(trichess.Game)
	defer l.Close()
	for _, spec := range []string{"random", "greedy", "policy:net=" + run, "mcts:net=" + run + ",sims=4", "mcts:net=" + run + ",sims=3,algo=gumbel"} {
		playLegal(t, l, spec, 24, 0, 1, 2)
	}
}

// In Trichess, where points come only with the end, greedy takes the
// piece worth most, and prefers points (a title) to any capture.
func TestGreedyTrichess(t *testing.T) {
	l := NewLoader(trichess.Game)
	m, err := l.Load("greedy")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ fen, want string }{
		// White's rook on Wd1 can take Black's knight on Wb1 or Red's
		// queen on Wd3.
		{"1bN1wR4/7wK/3rQ4/8|rK7/8/8/8|bK7/8/8/8 w -,-,- 0 10", "Wd1Wd3"},
		// White's knight can take Red's rook on Wa3, but the rook's move
		// to Wd4 checks both kings: échec et fat, seigneur.
		{"1wN1wR3wK/8/rR7/rK6bK|8/8/8/8|8/8/8/8 w -,-,- 0 10", "Wd1Wd4"},
	}
	for _, tc := range tests {
		s, err := trichess.Game.ParseState(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(8) {
			p, _ := m.NewPlayer(seed)
			a, err := p.Move(context.Background(), s)
			if err != nil || s.ActionString(a) != tc.want {
				t.Errorf("%s, seed %d: greedy played %s, %v; want %s", tc.fen, seed, s.ActionString(a), err, tc.want)
			}
		}
	}
}

// Guarded players, and players whose endgame alphabeta plays, made and
// playing at once each have a classical searcher of their own (run under
// -race by CI).
func TestGuardedPlayersAtOnce(t *testing.T) {
	for _, tt := range []struct {
		spec  string
		plies int
	}{
		{"mcts:net=none,sims=8,guard=0.2,guarddepth=3", 6},
		{"mcts:net=none,sims=8,endgame=1,endgamedepth=2", 40}, // past the first capture
	} {
		playAtOnce(t, tt.spec, tt.plies)
	}
}

// playAtOnce has four players of spec play Trench, each its own game of up
// to plies plies, at once.
func playAtOnce(t *testing.T, spec string, plies int) {
	t.Helper()
	l := NewLoader(trench.Game)
	defer l.Close()
	m, err := l.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			p, err := m.NewPlayer(uint64(i))
			if err != nil {
				errs[i] = err
				return
			}
			s := trench.Game.Start()
			for ply := 0; ply < plies && !s.Over(); ply++ {
				a, err := p.Move(context.Background(), s.Clone())
				if err != nil {
					errs[i] = err
					return
				}
				s.Play(a)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s, player %d: %v", spec, i, err)
		}
	}
}

func TestNewMaker(t *testing.T) {
	var seeds []uint64
	m := NewMaker("first", true, func(seed uint64) (Player, error) {
		seeds = append(seeds, seed)
		return &randomPlayer{}, nil
	})
	if m.Name != "first" || !m.Timed {
		t.Errorf("maker %q, timed %v", m.Name, m.Timed)
	}
	if _, err := m.NewPlayer(7); err != nil || len(seeds) != 1 || seeds[0] != 7 {
		t.Errorf("NewPlayer(7): %v, seeds %v", err, seeds)
	}
}
