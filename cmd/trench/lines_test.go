package main

import (
	"strings"
	"testing"
)

func TestPlayLongLine(t *testing.T) {
	script := strings.Repeat("x", 2*maxLine) + "\nmoves d4\nquit\n"
	code, out, errOut := runCLIInput(script, "play", "--net", tinyNetFile(t), "--sims", "2")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "line too long (limit 1 MiB)") || !strings.Contains(out, "d4d5") {
		t.Errorf("want the long line refused and the next command obeyed:\n%.2000s", out)
	}
}
