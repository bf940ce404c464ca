package plugin

import (
	"strings"
	"testing"
)

func TestEvalName(t *testing.T) {
	for _, tc := range []struct {
		name, net, want, err string
	}{
		{"", "", EvalHand, ""},
		{"", "x.nnue", EvalNNUE, ""},
		{"rules", "", "rules", ""},
		{EvalNNUE, "x.nnue", EvalNNUE, ""},
		{EvalNNUE, "", EvalNNUE, ""},
		{EvalHand, "x.nnue", "", `the "hand" evaluation reads no net, got "x.nnue"`},
		{"bogus", "x.nnue", "", `the "bogus" evaluation reads no net`},
	} {
		got, err := EvalName(tc.name, tc.net)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("EvalName(%q, %q) = %q, %v; want an error with %q", tc.name, tc.net, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("EvalName(%q, %q) = %q, %v; want %q", tc.name, tc.net, got, err, tc.want)
		}
	}
}
