package analysis

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"trench/bot"
	"trench/engine/trench"
	"trench/searchconfig"
)

// over is a Trench position at the quiet-plies limit: the game is drawn.
var over = fmt.Sprintf("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 %d 1", trench.QuietLimit)

func testDecoder() *Decoder {
	return &Decoder{Game: trench.Game, Kind: searchconfig.MCTS, Limits: bot.Limits{Sims: 7}, MaxVisits: 1000}
}

// alphaBetaDecoder is a decoder for bots of the alphabeta kind, whose
// queries search 5000 nodes and two lines unless they say.
func alphaBetaDecoder() *Decoder {
	return &Decoder{Game: trench.Game, Kind: searchconfig.AlphaBeta, Limits: bot.Limits{Nodes: 5000, MultiPV: 2}, MaxNodes: 100000}
}

func TestDecodeQuery(t *testing.T) {
	start := trench.Game.Start().String()
	for _, tc := range []struct {
		name, line string
		turns      []int
		limits     bot.Limits
		policy     bool
		every      time.Duration
		last       string // the last turn's position, "" for the start
	}{
		{"minimal", `{"id":"a"}`, []int{0}, bot.Limits{Sims: 7}, false, 0, ""},
		{"moves", `{"id":"a","moves":["d2e2","e7d7"]}`, []int{2}, bot.Limits{Sims: 7}, false, 0, "?"},
		{"turns", `{"id":"a","moves":["d2e2"],"analyzeTurns":[1,0]}`, []int{1, 0}, bot.Limits{Sims: 7}, false, 0, ""},
		{"limits", `{"id":"a","maxVisits":50,"maxTime":1.5}`, []int{0}, bot.Limits{Sims: 50, Time: 1500 * time.Millisecond}, false, 0, ""},
		{"time only", `{"id":"a","maxTime":0.25}`, []int{0}, bot.Limits{Time: 250 * time.Millisecond}, false, 0, ""},
		{"policy and reports", `{"id":"a","includePolicy":true,"reportDuringSearchEvery":0.5}`, []int{0}, bot.Limits{Sims: 7}, true, 500 * time.Millisecond, ""},
		{"position and game", `{"id":"","game":"trench","position":"` + start + `"}`, []int{0}, bot.Limits{Sims: 7}, false, 0, start},
		{"moves shown", `{"id":"a","multiPV":3}`, []int{0}, bot.Limits{Sims: 7, MultiPV: 3}, false, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, a, err := testDecoder().Decode([]byte(tc.line))
			if err != nil || a != nil {
				t.Fatalf("Decode(%s) = action %v, error %v", tc.line, a, err)
			}
			if fmt.Sprint(q.Turns) != fmt.Sprint(tc.turns) || len(q.Positions) != len(q.Turns) {
				t.Errorf("turns %v (%d positions), want %v", q.Turns, len(q.Positions), tc.turns)
			}
			if q.Limits != tc.limits || q.IncludePolicy != tc.policy || q.ReportEvery != tc.every {
				t.Errorf("limits %v policy %v every %v, want %v %v %v", q.Limits, q.IncludePolicy, q.ReportEvery, tc.limits, tc.policy, tc.every)
			}
			if tc.last == start && q.Positions[0].String() != start {
				t.Errorf("position %s, want %s", q.Positions[0], start)
			}
			if tc.last == "?" && q.Positions[0].String() == start {
				t.Errorf("the moves were not played: %s", q.Positions[0])
			}
		})
	}
}

// TestDecodeAlphaBeta decodes the limits of queries to bots of the
// alphabeta kind: nodes, time and lines, the decoder's where the query
// gives none.
func TestDecodeAlphaBeta(t *testing.T) {
	for _, tc := range []struct {
		line   string
		limits bot.Limits
	}{
		{`{"id":"a"}`, bot.Limits{Nodes: 5000, MultiPV: 2}},
		{`{"id":"a","moves":[],"maxTime":0.2}`, bot.Limits{Time: 200 * time.Millisecond, MultiPV: 2}},
		{`{"id":"a","maxNodes":300}`, bot.Limits{Nodes: 300, MultiPV: 2}},
		{`{"id":"a","maxNodes":100000,"maxTime":2}`, bot.Limits{Nodes: 100000, Time: 2 * time.Second, MultiPV: 2}},
		{`{"id":"a","multiPV":1}`, bot.Limits{Nodes: 5000, MultiPV: 1}},
		{`{"id":"a","multiPV":256,"maxTime":0.5}`, bot.Limits{Time: 500 * time.Millisecond, MultiPV: 256}},
		{`{"id":"a","includePolicy":false}`, bot.Limits{Nodes: 5000, MultiPV: 2}},
	} {
		q, a, err := alphaBetaDecoder().Decode([]byte(tc.line))
		if err != nil || a != nil {
			t.Errorf("Decode(%s) = action %v, error %v", tc.line, a, err)
			continue
		}
		if q.Limits != tc.limits {
			t.Errorf("Decode(%s): limits %+v, want %+v", tc.line, q.Limits, tc.limits)
		}
	}
}

func TestDecodeAction(t *testing.T) {
	for _, tc := range []struct {
		line, name, target string
		turns              []int
	}{
		{`{"id":"t","action":"terminate","terminateId":"a"}`, "terminate", "a", nil},
		{`{"id":"a","action":"terminate"}`, "terminate", "a", nil},
		{`{"id":"t","action":"terminate","terminateId":"a","turnNumbers":[1,2]}`, "terminate", "a", []int{1, 2}},
		{`{"id":"t","action":"terminate_all"}`, "terminate_all", "", nil},
		{`{"id":"t","action":"terminate_all","turnNumbers":[]}`, "terminate_all", "", []int{}},
		{`{"id":"v","action":"query_version"}`, "query_version", "", nil},
	} {
		q, a, err := testDecoder().Decode([]byte(tc.line))
		if err != nil || q != nil {
			t.Errorf("Decode(%s) = query %v, error %v", tc.line, q, err)
			continue
		}
		if a.Name != tc.name || a.TerminateID != tc.target || fmt.Sprint(a.TurnNumbers) != fmt.Sprint(tc.turns) || (a.TurnNumbers == nil) != (tc.turns == nil) {
			t.Errorf("Decode(%s) = %+v", tc.line, a)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		line, id, field, want string
	}{
		{`not json`, "", "", "JSON object"},
		{`[1,2]`, "", "", "JSON object"},
		{`null`, "", "", "JSON object"},
		{`{"id":"a"} {"id":"b"}`, "", "", "JSON object"},
		{`{}`, "", "id", "missing"},
		{`{"id":7}`, "", "id", "want a string"},
		{`{"id":null}`, "", "id", "got null"},
		{`{"id":"a","maxVisit":10}`, "a", "maxVisit", "unknown field"},
		{`{"id":"a","zzz":1,"aaa":2}`, "a", "aaa", "unknown field"},
		{`{"id":"a","game":"trichess"}`, "a", "game", "not \"trichess\""},
		{`{"id":"a","game":3}`, "a", "game", "want a string"},
		{`{"id":"a","position":"8/8 b"}`, "a", "position", "6 space-separated fields"},
		{`{"id":"a","position":["x"]}`, "a", "position", "want a string"},
		{`{"id":"a","moves":"d2e2"}`, "a", "moves", "want a list of strings"},
		{`{"id":"a","moves":["d2e2","zz9"]}`, "a", "moves", `moves[1] "zz9"`},
		{`{"id":"a","moves":["d2e2","d2e2"]}`, "a", "moves", `moves[1] "d2e2"`},
		{`{"id":"a","moves":["d2e2"],"analyzeTurns":[2]}`, "a", "analyzeTurns", "0..1"},
		{`{"id":"a","analyzeTurns":[-1]}`, "a", "analyzeTurns", "0..0"},
		{`{"id":"a","moves":["d2e2"],"analyzeTurns":[1,1]}`, "a", "analyzeTurns", "twice"},
		{`{"id":"a","analyzeTurns":[]}`, "a", "analyzeTurns", "empty"},
		{`{"id":"a","analyzeTurns":[0.5]}`, "a", "analyzeTurns", "whole numbers"},
		{`{"id":"a","position":"` + over + `"}`, "a", "position", "over at turn 0"},
		{`{"id":"a","position":"` + over + `","analyzeTurns":[0]}`, "a", "analyzeTurns", "over at turn 0"},
		{`{"id":"a","maxVisits":0}`, "a", "maxVisits", "not in 1..1000"},
		{`{"id":"a","maxVisits":1001}`, "a", "maxVisits", "not in 1..1000"},
		{`{"id":"a","maxVisits":1e30}`, "a", "maxVisits", "whole number"},
		{`{"id":"a","maxVisits":"10"}`, "a", "maxVisits", "whole number"},
		{`{"id":"a","maxTime":-1}`, "a", "maxTime", "not in"},
		{`{"id":"a","maxTime":1e9}`, "a", "maxTime", "not in"},
		{`{"id":"a","includePolicy":1}`, "a", "includePolicy", "true or false"},
		{`{"id":"a","reportDuringSearchEvery":0}`, "a", "reportDuringSearchEvery", "not in"},
		{`{"id":"a","action":"explode"}`, "a", "action", "unknown action"},
		{`{"id":"a","action":5}`, "a", "action", "want a string"},
		{`{"id":"a","action":"terminate","terminateId":1}`, "a", "terminateId", "want a string"},
		{`{"id":"a","action":"terminate","terminateId":"b","moves":[]}`, "a", "moves", "unknown field for action terminate"},
		{`{"id":"a","action":"terminate_all","turnNumbers":"1"}`, "a", "turnNumbers", "whole numbers"},
		{`{"id":"a","action":"query_version","terminateId":"b"}`, "a", "terminateId", "unknown field"},
		{`{"id":"a","maxNodes":100}`, "a", "maxNodes", "not nodes"},
		{`{"id":"a","multiPV":0}`, "a", "multiPV", "not in 1..256"},
		{`{"id":"a","multiPV":257}`, "a", "multiPV", "not in 1..256"},
		{`{"id":"a","multiPV":"3"}`, "a", "multiPV", "whole number"},
		{`{"id":"a","multiPV":null}`, "a", "multiPV", "got null"},
		{`{"id":"a","multiPv":3}`, "a", "multiPv", "unknown field"},
	} {
		q, a, err := testDecoder().Decode([]byte(tc.line))
		if err == nil {
			t.Errorf("Decode(%s) = %v %v, want an error", tc.line, q, a)
			continue
		}
		if q != nil || a != nil || err.ID != tc.id || err.Field != tc.field || !strings.Contains(err.Message, tc.want) {
			t.Errorf("Decode(%s) = %+v, want id %q field %q message with %q", tc.line, err, tc.id, tc.field, tc.want)
		}
	}
}

// TestDecodeAlphaBetaErrors checks the errors of queries to bots of
// the alphabeta kind: each names its field.
func TestDecodeAlphaBetaErrors(t *testing.T) {
	for _, tc := range []struct {
		line, field, want string
	}{
		{`{"id":"a","maxVisits":100}`, "maxVisits", "not visits"},
		{`{"id":"a","maxNodes":0}`, "maxNodes", "not in 1..100000"},
		{`{"id":"a","maxNodes":100001}`, "maxNodes", "not in 1..100000"},
		{`{"id":"a","maxNodes":-5}`, "maxNodes", "not in 1..100000"},
		{`{"id":"a","maxNodes":2.5}`, "maxNodes", "whole number"},
		{`{"id":"a","maxNodes":[1]}`, "maxNodes", "whole number"},
		{`{"id":"a","multiPV":-1}`, "multiPV", "not in 1..256"},
		{`{"id":"a","multiPV":true}`, "multiPV", "whole number"},
		{`{"id":"a","includePolicy":true}`, "includePolicy", "no policy"},
		{`{"id":"a","maxNode":3}`, "maxNode", "unknown field"},
	} {
		q, a, err := alphaBetaDecoder().Decode([]byte(tc.line))
		if err == nil || q != nil || a != nil || err.ID != "a" || err.Field != tc.field || !strings.Contains(err.Message, tc.want) {
			t.Errorf("Decode(%s) = %v %v %+v, want field %q and a message with %q", tc.line, q, a, err, tc.field, tc.want)
		}
	}
}

// FuzzDecode feeds the decoder arbitrary lines: it never panics, refuses
// with a message, and what it accepts is searchable.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"id":"a"}`,
		`{"id":"a","moves":["d2e2","e7d7"],"analyzeTurns":[0,2],"maxVisits":10,"includePolicy":true}`,
		`{"id":"a","position":"` + trench.Game.Start().String() + `","maxTime":0.5,"reportDuringSearchEvery":0.1}`,
		`{"id":"a","position":"` + over + `"}`,
		`{"id":"t","action":"terminate","terminateId":"a","turnNumbers":[1]}`,
		`{"id":"t","action":"terminate_all"}`,
		`{"id":"v","action":"query_version"}`,
		`{"id":"a","maxVisits":-3,"game":"x"}`,
		`{"id":"a","maxNodes":5000,"multiPV":3,"maxTime":0.2}`,
		`{"id":"a","multiPV":0,"maxNodes":"x"}`,
		`{"id":1}`, `[]`, `"x"`, ``,
	} {
		f.Add([]byte(s))
	}
	decoders := []*Decoder{testDecoder(), alphaBetaDecoder()}
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, d := range decoders {
			decodeOne(t, d, line)
		}
	})
}

// decodeOne decodes line with d and checks what FuzzDecode says.
func decodeOne(t *testing.T, d *Decoder, line []byte) {
	t.Helper()
	q, a, err := d.Decode(line)
	switch {
	case err != nil:
		if q != nil || a != nil || err.Message == "" {
			t.Fatalf("error %+v with query %v action %v", err, q, a)
		}
		if _, jerr := json.Marshal(err); jerr != nil {
			t.Fatalf("the error does not encode: %v", jerr)
		}
	case a != nil:
		if q != nil || actionFields[a.Name] == nil || badTerminate(a) {
			t.Fatalf("action %+v with query %v", a, q)
		}
	case q != nil:
		if len(q.Turns) == 0 || len(q.Turns) != len(q.Positions) {
			t.Fatalf("turns %v for %d positions", q.Turns, len(q.Positions))
		}
		for i, p := range q.Positions {
			if p.Over() || q.Turns[i] < 0 {
				t.Fatalf("turn %d: position %s", q.Turns[i], p)
			}
		}
		if verr := q.Limits.Validate(); verr != nil || (d.MaxVisits > 0 && q.Limits.Sims > d.MaxVisits) ||
			(d.MaxNodes > 0 && q.Limits.Nodes > d.MaxNodes) {
			t.Fatalf("limits %v: %v", q.Limits, verr)
		}
		if (d.Kind == searchconfig.AlphaBeta && (q.Limits.Sims > 0 || q.IncludePolicy)) ||
			(d.Kind == searchconfig.MCTS && q.Limits.Nodes > 0) {
			t.Fatalf("limits %v, policy %v, for a bot of the %s kind", q.Limits, q.IncludePolicy, d.Kind)
		}
		if q.ReportEvery != 0 && q.ReportEvery < minReportEvery {
			t.Fatalf("reports every %v", q.ReportEvery)
		}
	default:
		t.Fatal("nothing decoded and no error")
	}
}

// BenchmarkDecode decodes a query of a 40-move game with every turn asked.
func BenchmarkDecode(b *testing.B) {
	s := trench.Game.Start()
	var moves, turns []string
	for i := 0; i < 40 && !s.Over(); i++ {
		a := s.LegalActions(nil)[i%len(s.LegalActions(nil))]
		moves = append(moves, fmt.Sprintf("%q", s.ActionString(a)))
		turns = append(turns, fmt.Sprint(i))
		s.Play(a)
	}
	line := []byte(fmt.Sprintf(`{"id":"bench","moves":[%s],"analyzeTurns":[%s],"maxVisits":100}`, strings.Join(moves, ","), strings.Join(turns, ",")))
	d := testDecoder()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := d.Decode(line); err != nil {
			b.Fatal(err)
		}
	}
}

// badTerminate reports an action whose TerminateID does not follow from
// its fields: a terminate's is its terminateId or else its own id, and
// other actions have none.
func badTerminate(a *Action) bool {
	if a.Name != "terminate" {
		return a.TerminateID != ""
	}
	return a.fields["terminateId"] == nil && a.TerminateID != a.ID
}
