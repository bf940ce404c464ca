package terminal

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"trench/bot"
	"trench/engine/trench"
)

// TestCommandsListsTheCommands checks that Commands names every command
// the game obeys (aliases aside), and that the game obeys every command it
// names rather than reading it as a move.
func TestCommandsListsTheCommands(t *testing.T) {
	var listed []string
	// A command starts an indented line, or follows ";  " on one;
	// "board, help, quit" lists three.
	for _, m := range regexp.MustCompile(`(?m)(?:^  |;  )([a-z][a-z, ]*?)(?:  |$| [A-Z])`).FindAllStringSubmatch(Commands, -1) {
		listed = append(listed, strings.Split(m[1], ", ")...)
	}
	obeyed := []string{"quit", "help", "board", "view", "moves", "hint", "go", "undo", "armistice", "resign", "new", "level", "save", "load"}
	slices.Sort(listed)
	slices.Sort(obeyed)
	if !slices.Equal(listed, obeyed) {
		t.Errorf("Commands lists %v, want %v", listed, obeyed)
	}
	for _, cmd := range listed {
		out := play(t, cmd+"\nquit\n", options(t, trench.Game.Start(), "", nil, bot.Limits{Sims: 2}))
		if strings.Contains(out, "type help") {
			t.Errorf("the game does not know %q, which Commands lists:\n%s", cmd, out)
		}
	}
	if out := play(t, "frobnicate\nquit\n", options(t, trench.Game.Start(), "", nil, bot.Limits{Sims: 2})); !strings.Contains(out, "type help") {
		t.Errorf("an unknown word is not refused:\n%s", out)
	}
}
