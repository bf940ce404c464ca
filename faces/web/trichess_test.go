package web

import (
	"math"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"trench/engine/trichess"
	"trench/neteval"
	"trench/nn/nntest"
	"trench/searchconfig"
)

// tinyTrichessNet is a freshly initialised tiny Trichess net.
func tinyTrichessNet(t testing.TB) *neteval.Net {
	return &neteval.Net{Inference: nntest.Inference(t, nntest.TinyFor(t, trichess.Game), 5, 6), Source: "tiny trichess test net"}
}

func TestTrichessGameFlow(t *testing.T) {
	s, err := New(Options{Nets: testNets(t), Bot: testBot(4, 0)})
	if err != nil {
		t.Fatal(err)
	}
	// A human in Red's seat: White's engine moves first.
	st := mustNew(t, s, `{"game":"trichess","seats":["red"],"level":1}`)
	if st.Game != "trichess" || len(st.Moves) != 1 || st.ToMove != "red" || st.Human != "red" {
		t.Fatalf("new game: game %q, moves %v, to move %q, human %q", st.Game, st.Moves, st.ToMove, st.Human)
	}
	if !slices.Equal(st.Players, []string{"white", "red", "black"}) || !slices.Equal(st.Humans, []string{"red"}) {
		t.Errorf("players %v, humans %v", st.Players, st.Humans)
	}
	if len(st.Board) != 48 || st.Board["Wa1"] != "wR" || st.Board["Re1"] != "rK" {
		t.Errorf("board has %d pieces: Wa1 %q, Re1 %q", len(st.Board), st.Board["Wa1"], st.Board["Re1"])
	}
	if len(st.Legal) != 20 || st.Legal[0].From[0] != 'R' {
		t.Errorf("%d legal moves for Red, first %+v", len(st.Legal), st.Legal)
	}
	checkEngine(t, st, "white")
	if !strings.Contains(st.Evaluator, "tiny trichess test net") {
		t.Errorf("evaluator %q, want the Trichess net's", st.Evaluator)
	}
	// Red's move; Black's and White's engines reply.
	code, st, msg := call(t, s, "POST", "/api/move", `{"id":"`+st.ID+`","move":"Re2Re4"}`)
	if code != 200 {
		t.Fatalf("move: %d %s", code, msg)
	}
	if len(st.Moves) != 4 || st.Moves[1] != "Re2Re4" || st.ToMove != "red" || st.MoveNumber != 2 {
		t.Errorf("after Red's move: moves %v, to move %q, move number %d", st.Moves, st.ToMove, st.MoveNumber)
	}
	if st.Last == nil || st.Last.Move != st.Moves[3] {
		t.Errorf("last move %+v, moves %v", st.Last, st.Moves)
	}
	checkEngine(t, st, "white")
	// Undo takes back Red's move and the replies.
	code, st, msg = call(t, s, "POST", "/api/undo", `{"id":"`+st.ID+`"}`)
	if code != 200 || len(st.Moves) != 1 || st.ToMove != "red" {
		t.Errorf("undo: %d %s, moves %v", code, msg, st.Moves)
	}
}

// checkEngine checks the engine's per-seat evaluation.
func checkEngine(t *testing.T, st *State, mover string) {
	t.Helper()
	e := st.Engine
	if e == nil {
		t.Fatal("no engine evaluation")
	}
	if e.Player != mover || len(e.PV) == 0 || e.PV[0] != e.Move || len(e.Seats) != 3 {
		t.Fatalf("engine info %+v", e)
	}
	for i, se := range e.Seats {
		if se.Player != st.Players[i] || math.Abs(se.Points-1.5*(1+se.Value)) > 1e-9 || se.Points < 0 || se.Points > 3 {
			t.Errorf("seat %d: %+v", i, se)
		}
	}
}

func TestTrichessTwoHumans(t *testing.T) {
	s := newServer(t, 10)
	st := mustNew(t, s, `{"game":"trichess","seats":["white","black"],"level":1}`)
	if len(st.Moves) != 0 || st.ToMove != "white" || st.Engine != nil {
		t.Fatalf("new game: moves %v, to move %q", st.Moves, st.ToMove)
	}
	_, st, msg := call(t, s, "POST", "/api/move", `{"id":"`+st.ID+`","move":"We2We4"}`)
	if st == nil {
		t.Fatal(msg)
	}
	// Red's engine replied; Black, a human, is to move.
	if len(st.Moves) != 2 || st.ToMove != "black" || st.Engine == nil || st.Engine.Player != "red" || len(st.Legal) == 0 {
		t.Fatalf("after White's move: moves %v, to move %q, %d legal moves", st.Moves, st.ToMove, len(st.Legal))
	}
	_, st, msg = call(t, s, "POST", "/api/move", `{"id":"`+st.ID+`","move":"Bd2Bd4"}`)
	if st == nil {
		t.Fatal(msg)
	}
	if len(st.Moves) != 3 || st.ToMove != "white" {
		t.Fatalf("after Black's move: moves %v, to move %q", st.Moves, st.ToMove)
	}
	// Undo takes back the last human move only: Black's.
	_, st, _ = call(t, s, "POST", "/api/undo", `{"id":"`+st.ID+`"}`)
	if len(st.Moves) != 2 || st.ToMove != "black" {
		t.Errorf("undo: moves %v, to move %q", st.Moves, st.ToMove)
	}
}

func TestTrichessBadRequests(t *testing.T) {
	s := newServer(t, 10)
	st := mustNew(t, s, `{"game":"trichess","level":1}`)
	id := st.ID
	before := st.Position
	for _, tc := range []struct {
		name, path, body string
		code             int
		want             string
	}{
		{"trench move", "/api/move", `{"id":"` + id + `","move":"d4d5"}`, 400, "d4d5"},
		{"illegal move", "/api/move", `{"id":"` + id + `","move":"We2We5"}`, 400, "We2We5"},
		{"another's piece", "/api/move", `{"id":"` + id + `","move":"Re2Re4"}`, 400, "Re2Re4"},
		{"bad square", "/api/move", `{"id":"` + id + `","move":"Wz2Wz4"}`, 400, "Wz2Wz4"},
		{"long move", "/api/move", `{"id":"` + id + `","move":"We2We4=Q=Q"}`, 400, "not a move"},
		{"resign", "/api/resign", `{"id":"` + id + `"}`, 400, "no resignation"},
		{"armistice", "/api/armistice", `{"id":"` + id + `"}`, 400, "no armistice"},
		{"unknown game", "/api/new", `{"game":"chess"}`, 400, "trench or trichess"},
		{"side for trichess", "/api/new", `{"game":"trichess","side":"white"}`, 400, "seats, not side"},
		{"seats for trench", "/api/new", `{"seats":["black"]}`, 400, "side, not seats"},
		{"unknown seat", "/api/new", `{"game":"trichess","seats":["green"]}`, 400, "green"},
		{"seat twice", "/api/new", `{"game":"trichess","seats":["red","red"]}`, 400, "twice"},
		{"too many seats", "/api/new", `{"game":"trichess","seats":["red","white","black","red"]}`, 400, "4 seats"},
		{"seats not a list", "/api/new", `{"game":"trichess","seats":"red"}`, 400, "malformed"},
		{"game not a string", "/api/new", `{"game":3}`, 400, "malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, pageRequest("POST", tc.path, tc.body))
			if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("status %d body %q, want %d with %q", rec.Code, rec.Body.String(), tc.code, tc.want)
			}
		})
	}
	_, after, _ := call(t, s, "GET", "/api/state?id="+id, "")
	if after.Position != before || len(after.Moves) != 0 || after.Over {
		t.Errorf("bad requests changed the game: %s, moves %v", after.Position, after.Moves)
	}
	if s.Games() != 1 {
		t.Errorf("%d games after refused new games, want 1", s.Games())
	}
}

func TestConfigAndOptions(t *testing.T) {
	s, err := New(Options{Bot: testBot(0, 0), Nets: testNets(t), DefaultGame: "trichess"})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, pageRequest("GET", "/api/config", ""))
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `"default_game":"trichess"`) || !strings.Contains(body, "tiny trichess test net") {
		t.Errorf("config: %d %s", rec.Code, body)
	}
	if _, err := New(Options{Bot: testBot(0, 0), Nets: testNets(t), DefaultGame: "chess"}); err == nil {
		t.Error("an unknown default game was accepted")
	}
	if _, err := New(Options{Bot: testBot(0, 0), Nets: map[string]*neteval.Net{"trench": tinyNet(t), "trichess": tinyNet(t)}}); err == nil {
		t.Error("a Trench net was accepted for Trichess")
	}
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Nets: map[string]*neteval.Net{"trench": tinyNet(t), "chess": tinyNet(t)}}, `a net for unknown game "chess"`},
		{Options{Nets: testNets(t), DefaultGame: "tictactoe"}, `unknown game "tictactoe" (trench or trichess)`},
		{Options{Nets: map[string]*neteval.Net{"trichess": tinyTrichessNet(t)}, Bot: searchconfig.Arena()}, "no net for trench"},
	} {
		if _, err := New(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v) = %v, want an error with %q", tc.opts.Nets, err, tc.want)
		}
	}
}
