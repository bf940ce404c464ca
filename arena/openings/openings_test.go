package openings

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trench/arena"
	"trench/engine"
	"trench/engine/tictactoe"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/games"
	"trench/games/plugin"
)

// Balanced keeps distinct openings that a fresh search rates within the
// margin for every player, with their scores for seat 0 (and, for three
// players, every seat's), the same for any number of workers, and
// rejects some on the way.
func TestBalanced(t *testing.T) {
	cases := []struct {
		game engine.Game
		opt  Options
	}{
		{trench.Game, Options{Count: 8, Plies: 8, Depth: 3, Margin: 0.5, Seed: 11}},
		{trichess.Game, Options{Count: 4, Plies: 8, Depth: 2, Margin: 0.5, Seed: 11}},
	}
	for _, c := range cases {
		t.Run(c.game.Name(), func(t *testing.T) {
			testBalanced(t, c.game, c.opt)
		})
	}
}

func testBalanced(t *testing.T, g engine.Game, opt Options) {
	var books [][]string
	for _, workers := range []int{1, 3} {
		opt.Workers = workers
		var calls int
		opt.Progress = func(kept, drawn int) { calls++ }
		book, st, err := Balanced(context.Background(), g, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(book) != opt.Count || calls != st.Drawn {
			t.Fatalf("workers %d: %d openings, %d progress calls for %d drawn", workers, len(book), calls, st.Drawn)
		}
		if st.Drawn <= opt.Count {
			t.Errorf("workers %d: %d drawn for %d kept: the margin rejected nothing", workers, st.Drawn, opt.Count)
		}
		seen := map[string]bool{}
		var fens []string
		for i, o := range book {
			fen := o.State.String()
			if seen[fen] {
				t.Fatalf("opening %d, %s, repeated", i, fen)
			}
			seen[fen] = true
			fens = append(fens, fen)
			s, err := games.ClassicalOf(g).NewSearcher(TableBits)
			if err != nil {
				t.Fatal(err)
			}
			v, err := s.Search(context.Background(), o.State, plugin.ClassicalLimits{Depth: opt.Depth})
			if err != nil {
				t.Fatal(err)
			}
			want := v.Score
			if o.State.ToMove() != 0 {
				want = -want
			}
			if g.Players() > 2 {
				want = v.Leads[0]
				if !reflect.DeepEqual(o.Leads, v.Leads) {
					t.Errorf("opening %d, %s: kept with leads %v; a fresh search says %v", i, fen, o.Leads, v.Leads)
				}
				for seat, l := range v.Leads {
					if math.Abs(l) > opt.Margin {
						t.Errorf("opening %d, %s: seat %d's lead %v is beyond the margin %v", i, fen, seat, l, opt.Margin)
					}
				}
			} else if o.Leads != nil {
				t.Errorf("opening %d: leads %v for a game of two", i, o.Leads)
			}
			if v.Forced != 0 || math.Abs(v.Score) > opt.Margin || o.Score != want {
				t.Errorf("opening %d, %s: kept with score %v; a fresh search says %v (forced %d)", i, fen, o.Score, want, v.Forced)
			}
		}
		books = append(books, fens)
	}
	if !reflect.DeepEqual(books[0], books[1]) {
		t.Errorf("one worker and three drew different books:\n%v\n%v", books[0], books[1])
	}
	opt.Seed++
	other, _, err := Balanced(context.Background(), g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if other[0].State.String() == books[0][0] {
		t.Errorf("seeds %d and %d drew the same first opening", opt.Seed-1, opt.Seed)
	}
}

// Bad options, a game with no classical search, a margin nothing meets
// and a cancelled context are errors that say what is wrong.
func TestBalancedErrors(t *testing.T) {
	good := Options{Count: 2, Plies: 8, Depth: 2, Margin: 1}
	with := func(f func(*Options)) Options { o := good; f(&o); return o }
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		opt  Options
		want string
	}{
		{"no count", context.Background(), with(func(o *Options) { o.Count = 0 }), "count must be at least 1"},
		{"no plies", context.Background(), with(func(o *Options) { o.Plies = 0 }), "plies must be at least 1"},
		{"no depth", context.Background(), with(func(o *Options) { o.Depth = 0 }), "depth must be in 1.."},
		{"too deep", context.Background(), with(func(o *Options) { o.Depth = 1000 }), "depth must be in 1.."},
		{"negative margin", context.Background(), with(func(o *Options) { o.Margin = -1 }), "margin must be"},
		{"NaN margin", context.Background(), with(func(o *Options) { o.Margin = math.NaN() }), "margin must be"},
		{"infinite margin", context.Background(), with(func(o *Options) { o.Margin = math.Inf(1) }), "margin must be"},
		{"negative workers", context.Background(), with(func(o *Options) { o.Workers = -1 }), "workers must be in 0..256"},
		{"nothing level", context.Background(), with(func(o *Options) { o.Plies, o.Margin, o.MaxDrawn = 30, 0, 5 }), "among 5 drawn"},
		{"cancelled", cancelled, good, "context canceled"},
	}
	for _, c := range cases {
		if _, _, err := Balanced(c.ctx, trench.Game, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestWriteBook writes a small book of each game and reads it back as
// the arena does; the book says how to draw it again.
func TestWriteBook(t *testing.T) {
	cases := []struct {
		game    engine.Game
		command string
	}{
		{trench.Game, "made by: trench openings --count 2 --plies 2 --depth 1 --margin 10 --seed 3"},
		{trichess.Game, "made by: trench openings --game trichess --count 2 --plies 2 --depth 1 --margin 10 --seed 3"},
	}
	for _, c := range cases {
		opt := Options{Count: 2, Plies: 2, Depth: 1, Margin: 10, Seed: 3}
		book, st, err := Balanced(context.Background(), c.game, opt)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "book.txt")
		if err := WriteBook(path, c.game, book, st, opt); err != nil {
			t.Fatal(err)
		}
		text, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(text), c.command) {
			t.Errorf("%s: the book's header %q (%v) does not say %q", c.game.Name(), strings.SplitN(string(text), "\n", 3)[:2], err, c.command)
		}
		read, err := arena.ReadOpeningsFile(path, c.game)
		if err != nil || len(read) != len(book) {
			t.Fatalf("%s: read back %d openings (%v), want %d", c.game.Name(), len(read), err, len(book))
		}
		for i := range book {
			if read[i].String() != book[i].State.String() {
				t.Errorf("%s: opening %d reads back as %s, want %s", c.game.Name(), i, read[i], book[i].State)
			}
		}
		if err := WriteBook(path, tictactoe.Game{}, book, st, opt); err == nil {
			t.Errorf("%s: a book for a game without a classical search was written", c.game.Name())
		}
	}
}
