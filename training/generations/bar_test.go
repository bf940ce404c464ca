package generations

import (
	"bytes"
	"strings"
	"testing"
)

// TestGameBarClearsWhenStoppedEarly checks that a match's bar stopped
// short of its games (an SPRT decided early) leaves the line to the
// next one printed.
func TestGameBarClearsWhenStoppedEarly(t *testing.T) {
	for _, played := range []int{128, 400} {
		var out bytes.Buffer
		r := &runner{opt: Options{Progress: &out, Bars: true}}
		progress, done := gameBar(r.opt, "gate", 400)
		progress(played, 400)
		if drawn := strings.Contains(out.String(), "gate"); drawn != (played < 400) {
			t.Fatalf("%d games: bar drawn %v: %q", played, drawn, out.String())
		}
		done()
		r.note("anchor: the next line")
		text := out.String()
		before := text[:strings.Index(text, "anchor:")]
		if line := before[strings.LastIndexAny(before, "\r\n")+1:]; line != "" {
			t.Errorf("%d games: the next line starts after %q; output %q", played, line, text)
		}
	}
}
