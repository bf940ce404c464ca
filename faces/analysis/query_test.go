package analysis

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"trench/bot"
	"trench/engine/trench"
)

// over is a Trench position at the quiet-plies limit: the game is drawn.
var over = fmt.Sprintf("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 %d 1", trench.QuietLimit)

func testDecoder() *Decoder {
	return &Decoder{Game: trench.Game, Limits: bot.Limits{Sims: 7}, MaxVisits: 1000}
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
		`{"id":1}`, `[]`, `"x"`, ``,
	} {
		f.Add([]byte(s))
	}
	d := testDecoder()
	f.Fuzz(func(t *testing.T, line []byte) {
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
			if verr := q.Limits.Validate(); verr != nil || q.Limits.Sims > d.MaxVisits {
				t.Fatalf("limits %v: %v", q.Limits, verr)
			}
			if q.ReportEvery != 0 && q.ReportEvery < minReportEvery {
				t.Fatalf("reports every %v", q.ReportEvery)
			}
		default:
			t.Fatal("nothing decoded and no error")
		}
	})
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
