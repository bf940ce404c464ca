package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/arena"
	"trench/engine/trench"
)

// trench openings writes a book the arena plays from, the same for one
// worker or two.
func TestOpeningsCommand(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one.txt"), filepath.Join(dir, "two.txt")
	code, out, errOut := runCLI("openings", "--out", one, "--count", "6", "--depth", "3", "--seed", "5")
	if code != 0 || !strings.HasPrefix(out, "6 openings written to "+one+": kept 6 of ") {
		t.Fatalf("openings: code %d, %q, %s", code, out, errOut)
	}
	if code, out, errOut := runCLI("openings", "--out", two, "--count", "6", "--depth", "3", "--seed", "5", "--workers", "2"); code != 0 {
		t.Fatalf("openings --workers 2: code %d, %q, %s", code, out, errOut)
	}
	a, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(two)
	if string(a) != string(b) {
		t.Errorf("one worker and two wrote different books:\n%s\n%s", a, b)
	}
	if !strings.HasPrefix(string(a), "# trench: 6 openings of 8 random plies (seed 5), each within 0.5 points of level at alphabeta depth 3\n") {
		t.Errorf("book's header:\n%s", a)
	}
	f, err := os.Open(one)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	book, err := arena.ReadOpenings(f, one, trench.Game)
	if err != nil || len(book) != 6 {
		t.Fatalf("the arena reads %d openings, %v", len(book), err)
	}
	code, out, errOut = runCLI("arena", "--quiet", "--openings", one, "--games", "4", "--seed", "1", "--record", filepath.Join(dir, "games.jsonl"), "greedy", "random")
	if code != 0 || !strings.Contains(out, "4 games") {
		t.Errorf("arena --openings: code %d, %q, %s", code, out, errOut)
	}
}

// A Trichess book keeps openings level for all three players, and the
// arena's challenge plays each in every seat.
func TestOpeningsTrichess(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "tri.txt")
	code, out, errOut := runCLI("openings", "--game", "trichess", "--out", book, "--count", "2", "--depth", "2", "--seed", "5")
	if code != 0 || !strings.HasPrefix(out, "2 openings written to "+book) {
		t.Fatalf("openings --game trichess: code %d, %q, %s", code, out, errOut)
	}
	text, err := os.ReadFile(book)
	if err != nil || !strings.HasPrefix(string(text), "# trichess: 2 openings of 8 random plies (seed 5), each within 0.5 points of level at alphabeta depth 2\n") {
		t.Fatalf("book (%v):\n%s", err, text)
	}
	code, out, errOut = runCLI("arena", "--quiet", "--game", "trichess", "--challenge", "--openings", book, "--games", "6", "--seed", "1",
		"--record", filepath.Join(dir, "games.jsonl"), "greedy", "random")
	if code != 0 || !strings.Contains(out, "6 games") || !strings.Contains(out, "2 positions from "+book) {
		t.Errorf("arena --game trichess --openings: code %d, %q, %s", code, out, errOut)
	}
}

// Bad flags are refused with exit code 2, and a book that cannot be drawn
// leaves the file that was there.
func TestOpeningsErrors(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.txt")
	if err := os.WriteFile(kept, []byte("# an earlier book\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, 2, "--out is required"},
		{[]string{"--out", kept, "--count", "0"}, 2, "--count must be at least 1"},
		{[]string{"--out", kept, "--plies", "0"}, 2, "--plies must be at least 1"},
		{[]string{"--out", kept, "--depth", "0"}, 2, "--depth must be in 1.."},
		{[]string{"--out", kept, "--margin", "-1"}, 2, "--margin must be a number of points"},
		{[]string{"--out", kept, "--margin", "NaN"}, 2, "--margin must be a number of points"},
		{[]string{"--out", kept, "--workers", "0"}, 2, "--workers must be in 1..256"},
		{[]string{"--out", kept, "--game", "tictactoe"}, 2, "--game: tictactoe has no classical search to judge openings"},
		{[]string{"--out", kept, "--game", "chess"}, 2, "chess"},
		{[]string{"--out", kept, "extra"}, 2, "unexpected argument"},
		{[]string{"--out", kept, "--count", "20", "--depth", "1", "--plies", "1"}, 1, "nothing written to " + kept},
		{[]string{"--out", filepath.Join(dir, "no", "such", "dir", "book.txt"), "--count", "1", "--depth", "1"}, 1, "book.txt"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(append([]string{"openings"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d, %q; want code %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	if got, _ := os.ReadFile(kept); string(got) != "# an earlier book\n" {
		t.Errorf("the earlier book became %q", got)
	}
}
