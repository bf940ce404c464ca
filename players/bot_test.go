package players

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"trench/bot"
	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/mcts"
	"trench/neteval"
	"trench/searchconfig"
)

// sameBotSims is the simulations both sides search with.
const sameBotSims = 200

// playBot is the bot trench play makes for game g with --net default and
// --threads 1: the built-in net, or tactics.Fallback for a game without one,
// and every other option at its default.
func playBot(t *testing.T, g engine.Game) bot.Bot {
	t.Helper()
	net, err := neteval.LoadNet(g, shipped.Ref)
	if errors.Is(err, neteval.ErrNoDefaultNet) {
		net, err = nil, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New(g, net, bot.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// arenaBot is the arena's mcts player for game g with the same net and
// limits as playBot's, seeded as trench play's bot is (mcts.DefaultParams'
// seed).
func arenaBot(t *testing.T, l *Loader) *botPlayer {
	t.Helper()
	net := shipped.Ref
	if _, err := neteval.LoadNet(l.Game(), net); errors.Is(err, neteval.ErrNoDefaultNet) {
		net = searchconfig.NoNet
	}
	m, err := l.Load(fmt.Sprintf("mcts:net=%s,sims=%d,threads=1", net, sameBotSims))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.NewPlayer(mcts.DefaultParams().Seed)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*botPlayer)
}

// sameSearch searches s with both and fails unless they choose the same
// move with the same visits at the root and at every root move. It
// returns trench play's analysis.
func sameSearch(t *testing.T, p *botPlayer, played bot.Bot, s engine.State) *bot.Analysis {
	t.Helper()
	ctx := context.Background()
	a, err := p.Move(ctx, s.Clone())
	if err != nil {
		t.Fatal(err)
	}
	if err := played.SetPosition(s); err != nil {
		t.Fatal(err)
	}
	want, err := played.Search(ctx, bot.Limits{Sims: sameBotSims})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]int{}
	for _, st := range p.res.Actions {
		got[st.Action] = st.Visits
	}
	wantVisits := map[int]int{}
	for _, m := range want.Moves {
		wantVisits[m.Action] = m.Visits
	}
	if a != want.Action || p.res.Visits != want.Visits || !maps.Equal(got, wantVisits) {
		t.Fatalf("at %s the arena's player chose %s with %d visits %v; trench play's bot %s with %d visits %v",
			s, s.ActionString(a), p.res.Visits, got, want.Move, want.Visits, wantVisits)
	}
	return want
}

// TestMCTSPlayerSearchesAsPlay searches positions, as --fen gives them,
// through the arena's mcts player and through the bot trench play makes,
// with the same seed and limits: the arena measures the engine people
// play, so both choose the same move with the same visits.
func TestMCTSPlayerSearchesAsPlay(t *testing.T) {
	for _, tc := range []struct {
		name string
		game engine.Game
		text string
	}{
		{"trench start", trench.Game, trench.Game.Start().String()},
		{"trench opening", trench.Game, "4skcg/4pskc/4ppsk/4pp1s/SPPP2p1/KSPP4/CKS1P3/GCKS4 b 0 0 2 2"},
		{"trichess start", trichess.Game, trichess.Game.Start().String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.game.ParseState(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			l := NewLoader(tc.game)
			defer l.Close()
			sameSearch(t, arenaBot(t, l), playBot(t, tc.game), s)
		})
	}
}

// TestMCTSPlayerKeepsTreeAsPlay plays a game through the arena's mcts
// player and through the bot trench play makes, side by side. Between
// their moves the other seats play the replies the search expected (its
// principal variation; a greedy move where it has none), one in Trench
// and two in Trichess, so that both keep the subtree of those moves and
// must keep it alike: the same move and visits at every move.
func TestMCTSPlayerKeepsTreeAsPlay(t *testing.T) {
	const moves = 30
	for _, g := range []engine.Game{trench.Game, trichess.Game} {
		t.Run(g.Name(), func(t *testing.T) {
			l := NewLoader(g)
			defer l.Close()
			p, played := arenaBot(t, l), playBot(t, g)
			greedy, err := l.Load("greedy")
			if err != nil {
				t.Fatal(err)
			}
			opponent, err := greedy.NewPlayer(1)
			if err != nil {
				t.Fatal(err)
			}
			s := g.Start()
			var expected []int // the replies the last search expected
			reused := false
			for move := 0; move < moves && !s.Over(); {
				if s.ToMove() != 0 {
					var a int
					if len(expected) > 0 {
						a, expected = expected[0], expected[1:]
					} else if a, err = opponent.Move(context.Background(), s.Clone()); err != nil {
						t.Fatal(err)
					}
					if err := engine.PlayChecked(s, a); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want := sameSearch(t, p, played, s)
				reused = reused || want.Visits > sameBotSims+1
				expected = want.PVActions[1:min(len(want.PVActions), g.Players())]
				s.Play(want.Action)
				move++
			}
			if !reused {
				t.Error("no search kept a subtree: the test did not compare tree reuse")
			}
		})
	}
}

// TestOldSpecKeys checks that an mcts spec with the old keys, as older
// commands and arena logs have them, makes the same player as one with
// the keys it shares with the flags.
func TestOldSpecKeys(t *testing.T) {
	l := NewLoader(trench.Game)
	defer l.Close()
	describe := func(spec string) string {
		t.Helper()
		m, err := l.Load(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		p, err := m.NewPlayer(1)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s %d threads", p.(*botPlayer).bot, m.Threads)
	}
	old := describe("mcts:net=none,sims=8,algo=gumbel,ptemp=1.2,rootfpu=0.1,quiesce=1,qvalue=shift,mat=0.75,cprior=0.25,sym=1,guard=0.2,guarddepth=3,endgame=20,endgamedepth=4")
	now := describe("mcts:net=none,sims=8,search=gumbel,policy-temperature=1.2,root-fpu=0.1,quiescence=1,quiescence-value=shift,material-value=0.75,capture-prior=0.25,symmetries=1,guard=0.2,guard-depth=3,endgame=20,endgame-depth=4")
	if old != now {
		t.Errorf("old keys: %s\nnew keys: %s", old, now)
	}
	for _, want := range []string{"material 0.75", "averaged over 2 symmetries", "guard: ", "endgame: "} {
		if !strings.Contains(now, want) {
			t.Errorf("%q lacks %q", now, want)
		}
	}
}
