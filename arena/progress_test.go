package arena

import (
	"strings"
	"testing"
)

func TestProgressBar(t *testing.T) {
	var b strings.Builder
	progress, finish := ProgressBar(&b, 4)
	for done := 1; done <= 4; done++ {
		progress(done, 4)
	}
	finish()
	out := b.String()
	if !strings.Contains(out, "games") || !strings.Contains(out, "(1/4)") {
		t.Errorf("the bar wrote %q, want the games done of 4", out)
	}
	if last := out[strings.LastIndex(strings.TrimSuffix(out, "\r"), "\r"):]; strings.Trim(last, " \r") != "" {
		t.Errorf("the finished bar left %q, want it cleared", last)
	}
}
