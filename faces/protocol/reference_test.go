package protocol

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"trench/engine/trench"
)

// TestReferenceListsTheCommands checks that the reference names every
// command a session obeys, and that a session obeys every command the
// reference names.
func TestReferenceListsTheCommands(t *testing.T) {
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)\b`).FindAllStringSubmatch(Reference, -1) {
		if m[1] != "info" && !slices.Contains(listed, m[1]) { // "info" is an answer, shown by example
			listed = append(listed, m[1])
		}
	}
	obeyed := []string{"trench", "isready", "newgame", "position", "go", "stop", "show", "moves", "quit"}
	slices.Sort(listed)
	slices.Sort(obeyed)
	if !slices.Equal(listed, obeyed) {
		t.Errorf("the reference lists %v, want %v", listed, obeyed)
	}
	for _, cmd := range listed {
		out := talk(t, Config{Game: trench.Game, NewBot: withoutNet(trench.Game)}, cmd+"\nisready\n")
		if strings.Contains(out, "unknown command") {
			t.Errorf("the session does not know %q, which the reference lists: %q", cmd, out)
		}
	}
	out := talk(t, Config{Game: trench.Game, NewBot: withoutNet(trench.Game)}, "frobnicate\n")
	if !strings.Contains(out, "error unknown command") {
		t.Errorf("an unknown command is answered %q", out)
	}
}
