package analysis

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/internal/excerpt"
	"trench/record"
	"trench/searchconfig"
)

// Query is one decoded analysis query: positions of one game to search.
type Query struct {
	// ID is the query's id, repeated on every response.
	ID string
	// Turns are the turn numbers to analyse (0 is the position before the
	// first move), and Positions the positions at those turns.
	Turns     []int
	Positions []engine.State
	// Limits bound each turn's search; Limits.MultiPV is the lines the
	// alphabeta kind searches in full, and the most moves a response
	// gives (0: the tree search's every visited move).
	Limits bot.Limits
	// IncludePolicy asks for the root's policy on the final responses.
	IncludePolicy bool
	// ReportEvery is the time between reports during a search; zero for
	// none.
	ReportEvery time.Duration
}

// Action is a special action query.
type Action struct {
	// ID is the action query's own id.
	ID string
	// Name is the action: "terminate", "terminate_all" or "query_version".
	Name string
	// TerminateID is the id of the query a "terminate" ends: its
	// terminateId, or without one its own id (so that a query can be
	// ended by repeating its id with "action":"terminate").
	TerminateID string
	// TurnNumbers, if not nil, restricts a terminate to those turns.
	TurnNumbers []int
	// fields are the query's fields, echoed back in its answer.
	fields map[string]json.RawMessage
}

// Error is a query refused, answered as {"id":…,"error":…,"field":…}.
type Error struct {
	// ID is the refused query's id; empty when it had none that could be read.
	ID string `json:"id,omitempty"`
	// Message says what is wrong.
	Message string `json:"error"`
	// Field is the query field at fault; empty when the line as a whole is.
	Field string `json:"field,omitempty"`
}

func (e *Error) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// Decoder turns query lines into queries for one game and one kind of
// search.
type Decoder struct {
	// Game is the game searched; a query's "game" must name it.
	Game engine.Game
	// Kind is the bots' kind of search, searchconfig.AlphaBeta (which a
	// query limits by maxNodes) or MCTS (by maxVisits).
	Kind string
	// Limits bound a query that gives none of maxVisits, maxNodes and
	// maxTime; its MultiPV is the lines of one that gives no multiPV.
	Limits bot.Limits
	// MaxVisits is the largest maxVisits accepted; 0 means bot.MaxSims.
	MaxVisits int
	// MaxNodes is the largest maxNodes accepted; 0 means bot.MaxNodes.
	MaxNodes int
}

// Query fields.
var queryFields = []string{
	"id", "game", "position", "moves", "analyzeTurns", "maxVisits", "maxNodes", "maxTime",
	"multiPV", "includePolicy", "reportDuringSearchEvery",
}

// Fields of each action.
var actionFields = map[string][]string{
	"terminate":     {"id", "action", "terminateId", "turnNumbers"},
	"terminate_all": {"id", "action", "turnNumbers"},
	"query_version": {"id", "action"},
}

// minReportEvery bounds reportDuringSearchEvery below.
const minReportEvery = 10 * time.Millisecond

// Decode reads one query line: an analysis query (Query) or a special
// action (Action). A line it refuses gets an *Error naming the field at
// fault, with the query's id when it has one.
func (d *Decoder) Decode(line []byte) (*Query, *Action, *Error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil || fields == nil {
		why := "want a JSON object on one line"
		if err != nil {
			why += " (" + err.Error() + ")"
		}
		return nil, nil, &Error{Message: why}
	}
	raw, ok := fields["id"]
	if !ok {
		return nil, nil, &Error{Message: "missing", Field: "id"}
	}
	var id string
	if err := decodeField(raw, &id); err != nil {
		return nil, nil, &Error{Message: err.Error(), Field: "id"}
	}
	fail := func(field, format string, args ...any) (*Query, *Action, *Error) {
		return nil, nil, &Error{ID: id, Field: field, Message: fmt.Sprintf(format, args...)}
	}
	if raw, ok := fields["action"]; ok {
		a := &Action{ID: id, fields: fields}
		if err := decodeField(raw, &a.Name); err != nil {
			return fail("action", "%v", err)
		}
		known, ok := actionFields[a.Name]
		if !ok {
			return fail("action", "unknown action %s (terminate, terminate_all or query_version)", excerpt.Quote(a.Name))
		}
		if f := unknownField(fields, known); f != "" {
			return fail(f, "unknown field for action %s (known: %s)", a.Name, strings.Join(known, ", "))
		}
		if a.Name == "terminate" {
			a.TerminateID = id
			if raw, ok := fields["terminateId"]; ok {
				if err := decodeField(raw, &a.TerminateID); err != nil {
					return fail("terminateId", "%v", err)
				}
			}
		}
		if raw, ok := fields["turnNumbers"]; ok {
			if err := decodeField(raw, &a.TurnNumbers); err != nil {
				return fail("turnNumbers", "%v", err)
			}
			if a.TurnNumbers == nil {
				a.TurnNumbers = []int{}
			}
		}
		return nil, a, nil
	}
	if f := unknownField(fields, queryFields); f != "" {
		return fail(f, "unknown field (known: %s, or action)", strings.Join(queryFields, ", "))
	}
	q := &Query{ID: id}
	if raw, ok := fields["game"]; ok {
		var name string
		if err := decodeField(raw, &name); err != nil {
			return fail("game", "%v", err)
		}
		if name != d.Game.Name() {
			return fail("game", "this engine analyses %s, not %s", d.Game.Name(), excerpt.Quote(name))
		}
	}
	start := d.Game.Start()
	if raw, ok := fields["position"]; ok {
		var text string
		if err := decodeField(raw, &text); err != nil {
			return fail("position", "%v", err)
		}
		s, err := d.Game.ParseState(text)
		if err != nil {
			return fail("position", "%v", err)
		}
		start = s
	}
	var moves []string
	if raw, ok := fields["moves"]; ok {
		if err := decodeField(raw, &moves); err != nil {
			return fail("moves", "%v", err)
		}
	}
	rec := record.New(start)
	for i, m := range moves {
		if _, err := rec.Play(m); err != nil {
			return fail("moves", "moves[%d] %s: %v", i, excerpt.Quote(m), err)
		}
	}
	turnsField := "analyzeTurns"
	if raw, ok := fields["analyzeTurns"]; ok {
		if err := decodeField(raw, &q.Turns); err != nil {
			return fail("analyzeTurns", "%v", err)
		}
		if len(q.Turns) == 0 {
			return fail("analyzeTurns", "empty: give at least one turn, or leave the field out for the last")
		}
	} else {
		q.Turns = []int{len(moves)}
		turnsField = "moves"
		if len(moves) == 0 {
			turnsField = "position"
		}
	}
	seen := make(map[int]bool, len(q.Turns))
	for i, t := range q.Turns {
		switch {
		case t < 0 || t > len(moves):
			return fail("analyzeTurns", "analyzeTurns[%d] = %d is not a turn of the game (0..%d)", i, t, len(moves))
		case seen[t]:
			return fail("analyzeTurns", "analyzeTurns[%d]: turn %d is asked twice", i, t)
		}
		seen[t] = true
		s := rec.Position(t)
		if s.Over() {
			return fail(turnsField, "the game is over at turn %d: nothing to analyse", t)
		}
		q.Positions = append(q.Positions, s)
	}
	alphaBeta := d.Kind == searchconfig.AlphaBeta
	if raw, ok := fields["maxVisits"]; ok {
		if alphaBeta {
			return fail("maxVisits", "the alphabeta kind searches by maxNodes or maxTime, not visits (trench analysis --kind mcts searches the tree)")
		}
		if err := decodeField(raw, &q.Limits.Sims); err != nil {
			return fail("maxVisits", "%v", err)
		}
		limit := cmp.Or(d.MaxVisits, bot.MaxSims)
		if q.Limits.Sims < 1 || q.Limits.Sims > limit {
			return fail("maxVisits", "%d is not in 1..%d", q.Limits.Sims, limit)
		}
	}
	if raw, ok := fields["maxNodes"]; ok {
		if !alphaBeta {
			return fail("maxNodes", "the tree search searches by maxVisits or maxTime, not nodes (trench analysis --kind alphabeta searches by nodes)")
		}
		if err := decodeField(raw, &q.Limits.Nodes); err != nil {
			return fail("maxNodes", "%v", err)
		}
		limit := cmp.Or(d.MaxNodes, bot.MaxNodes)
		if q.Limits.Nodes < 1 || q.Limits.Nodes > limit {
			return fail("maxNodes", "%d is not in 1..%d", q.Limits.Nodes, limit)
		}
	}
	if raw, ok := fields["maxTime"]; ok {
		t, err := decodeSeconds(raw, time.Millisecond, bot.MaxTime)
		if err != nil {
			return fail("maxTime", "%v", err)
		}
		q.Limits.Time = t
	}
	if q.Limits == (bot.Limits{}) {
		q.Limits = d.Limits
	}
	q.Limits.MultiPV = d.Limits.MultiPV
	if raw, ok := fields["multiPV"]; ok {
		if err := decodeField(raw, &q.Limits.MultiPV); err != nil {
			return fail("multiPV", "%v", err)
		}
		if q.Limits.MultiPV < 1 || q.Limits.MultiPV > bot.MaxMultiPV {
			return fail("multiPV", "%d is not in 1..%d", q.Limits.MultiPV, bot.MaxMultiPV)
		}
	}
	if raw, ok := fields["includePolicy"]; ok {
		if err := decodeField(raw, &q.IncludePolicy); err != nil {
			return fail("includePolicy", "%v", err)
		}
		if q.IncludePolicy && alphaBeta {
			return fail("includePolicy", "the alphabeta kind has no policy (trench analysis --kind mcts has the net's)")
		}
	}
	if raw, ok := fields["reportDuringSearchEvery"]; ok {
		t, err := decodeSeconds(raw, minReportEvery, bot.MaxTime)
		if err != nil {
			return fail("reportDuringSearchEvery", "%v", err)
		}
		q.ReportEvery = t
	}
	return q, nil, nil
}

// unknownField returns the first field, in sorted order, that is not in
// known, or "".
func unknownField(fields map[string]json.RawMessage, known []string) string {
	var names []string
	for f := range fields {
		if !slices.Contains(known, f) {
			names = append(names, f)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return names[0]
}

// decodeField decodes one field's value into v, refusing null and saying
// what type was wanted when the value has another.
func decodeField(raw json.RawMessage, v any) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return fmt.Errorf("want %s, got null", typeName(v))
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("want %s, got %s", typeName(v), excerpt.Quote(string(raw)))
	}
	return nil
}

// typeName says in words what a field decoded into v holds.
func typeName(v any) string {
	switch v.(type) {
	case *string:
		return "a string"
	case *[]string:
		return "a list of strings"
	case *int:
		return "a whole number"
	case *[]int:
		return "a list of whole numbers"
	case *bool:
		return "true or false"
	case *float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

// decodeSeconds decodes a number of seconds within lo..hi.
func decodeSeconds(raw json.RawMessage, lo, hi time.Duration) (time.Duration, error) {
	var sec float64
	if err := decodeField(raw, &sec); err != nil {
		return 0, err
	}
	if !(sec >= lo.Seconds() && sec <= hi.Seconds()) || math.IsNaN(sec) {
		return 0, fmt.Errorf("%g seconds is not in %g..%g", sec, lo.Seconds(), hi.Seconds())
	}
	return time.Duration(sec * float64(time.Second)), nil
}
