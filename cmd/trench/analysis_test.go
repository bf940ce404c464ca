package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnalysisCommand runs trench analysis in a child process on a few
// queries: every turn is answered once, a bad query gets an error naming
// its field, and the engine exits at the end of its input.
func TestAnalysisCommand(t *testing.T) {
	cmd := trenchProcess("analysis", "--kind", "mcts", "--net", tinyNetFile(t), "--workers", "2", "--sims", "16")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"id":"a","moves":["d2e2","e7d7"],"analyzeTurns":[0,2],"includePolicy":true}`,
		`{"id":"b","position":"4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 w 0 0 0 1","maxVisits":8}`,
		`{"id":"c","moves":["d2e2","h8h9"]}`,
		`{"id":"v","action":"query_version"}`,
	}, "\n") + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("trench analysis: %v\n%s", err, stderr.String())
	}
	type reply struct {
		ID             string `json:"id"`
		TurnNumber     int    `json:"turnNumber"`
		IsDuringSearch bool   `json:"isDuringSearch"`
		Bot            string `json:"bot"`
		MoveInfos      []struct {
			Move   string `json:"move"`
			Visits int    `json:"visits"`
		} `json:"moveInfos"`
		RootInfo *struct {
			Sims int `json:"sims"`
		} `json:"rootInfo"`
		Policy  []json.RawMessage `json:"policy"`
		Error   string            `json:"error"`
		Field   string            `json:"field"`
		Version string            `json:"version"`
	}
	got := make(map[string]reply)
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		k := r.ID
		if r.RootInfo != nil {
			k += "/" + string(rune('0'+r.TurnNumber))
		}
		if _, dup := got[k]; dup {
			t.Errorf("%s answered twice", k)
		}
		got[k] = r
	}
	for k, sims := range map[string]int{"a/0": 16, "a/2": 16, "b/0": 8} {
		r := got[k]
		if r.RootInfo == nil || r.RootInfo.Sims != sims || len(r.MoveInfos) == 0 || r.IsDuringSearch || !strings.Contains(r.Bot, "tiny.tnet") {
			t.Errorf("%s: %+v, want a final analysis of %d simulations", k, r, sims)
		}
	}
	if len(got["a/0"].Policy) == 0 || len(got["b/0"].Policy) != 0 {
		t.Errorf("policy on a: %d moves, on b: %d", len(got["a/0"].Policy), len(got["b/0"].Policy))
	}
	if c := got["c"]; c.Field != "moves" || !strings.Contains(c.Error, `moves[1] "h8h9"`) {
		t.Errorf("illegal move: %+v", c)
	}
	if got["v"].Version == "" {
		t.Errorf("query_version: %+v", got["v"])
	}
	if len(got) != 5 {
		t.Errorf("%d answers, want 5: %s", len(got), out)
	}
	if !strings.Contains(stderr.String(), "tiny.tnet") {
		t.Errorf("stderr does not name the net: %q", stderr.String())
	}
}

func TestAnalysisFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--workers", "257"}, "--workers must be in 1..256"},
		{[]string{"--threads", "0"}, "--threads must be in"},
		{[]string{"--kind", "mcts", "--sims", "-2"}, "--sims"},
		{[]string{"--kind", "mcts", "--sims", "500", "--max-visits", "100"}, "exceeds --max-visits 100"},
		{[]string{"--nodes", "5000", "--max-nodes", "100"}, "exceeds --max-nodes 100"},
		{[]string{"--sims", "10"}, "the alphabeta kind searches by --nodes"},
		{[]string{"--max-visits", "0"}, "--max-visits must be in"},
		{[]string{"--max-nodes", "0"}, "--max-nodes must be in"},
		{[]string{"--multi-pv", "-1"}, "--multi-pv must be in 0..256"},
		{[]string{"--workers", "-1"}, "--workers must be in"},
		{[]string{"--kind", "minimax"}, "--kind"},
		{[]string{"--time", "2h"}, "--time must be in 0..1h"},
		{[]string{"--net", "/no/such/net.tnet"}, "no/such/net.tnet"},
		{[]string{"--game", "chess"}, "--game"},
		{[]string{"--workers", "many"}, "--workers"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		code, _, errOut := runCLIInput("", append([]string{"analysis"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("trench analysis %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestAnalysisShippedBot runs trench analysis in a child process on the
// query of a fifth of a second from the start: by default the bot as
// shipped (alphabeta with the NNUE built in) answers with its move
// searched in full, its depth and nodes, and names itself; with --kind
// mcts the tree search answers with the net built in, naming it, and
// --multi-pv bounds the moves.
func TestAnalysisShippedBot(t *testing.T) {
	const query = `{"id":"a","moves":[],"maxTime":0.2}` + "\n"
	for _, tc := range []struct {
		args  []string
		bot   string
		moves int // the moves a final answer gives; 0: at least one
		tree  bool
	}{
		{nil, "alphabeta with nnue", 1, false},
		{[]string{"--multi-pv", "3"}, "alphabeta with nnue", 3, false},
		{[]string{"--kind", "mcts", "--multi-pv", "2"}, "net", 2, true},
	} {
		cmd := trenchProcess(append([]string{"analysis"}, tc.args...)...)
		cmd.Stdin = strings.NewReader(query)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("trench analysis %v: %v\n%s", tc.args, err, stderr.String())
		}
		var r struct {
			ID        string `json:"id"`
			Bot       string `json:"bot"`
			MoveInfos []struct {
				Move  string   `json:"move"`
				Order int      `json:"order"`
				Score *float64 `json:"score"`
				PV    []string `json:"pv"`
			} `json:"moveInfos"`
			RootInfo *struct {
				Sims  int `json:"sims"`
				Nodes int `json:"nodes"`
				Depth int `json:"depth"`
			} `json:"rootInfo"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("trench analysis %v: %q: %v", tc.args, out, err)
		}
		if !tc.tree && !strings.Contains(stderr.String(), "each searching with 1 thread;") {
			t.Errorf("trench analysis %v: the banner does not say one thread a worker:\n%s", tc.args, stderr.String())
		}
		if r.ID != "a" || !strings.Contains(r.Bot, tc.bot) || !strings.Contains(stderr.String(), r.Bot) || r.RootInfo == nil ||
			len(r.MoveInfos) != tc.moves || len(r.MoveInfos[0].PV) == 0 || r.MoveInfos[0].PV[0] != r.MoveInfos[0].Move {
			t.Errorf("trench analysis %v: %s\nstderr %s", tc.args, out, stderr.String())
			continue
		}
		if tc.tree != (r.RootInfo.Sims > 0) || tc.tree != (r.RootInfo.Depth == 0) || tc.tree != (r.MoveInfos[0].Score == nil) {
			t.Errorf("trench analysis %v: sims %d, depth %d, nodes %d, score %v", tc.args, r.RootInfo.Sims, r.RootInfo.Depth, r.RootInfo.Nodes, r.MoveInfos[0].Score)
		}
	}
}
