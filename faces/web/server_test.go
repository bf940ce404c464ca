package web

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"trench/checkpoints/shipped"
	"trench/engine"
	"trench/engine/trench"
	"trench/neteval"
	"trench/nn/nntest"
	"trench/nnue"
	"trench/record"
	"trench/searchconfig"
)

func tinyNet(t testing.TB) *neteval.Net {
	return &neteval.Net{Inference: nntest.Inference(t, nntest.Tiny(t, trench.Game), 1, 2), Source: "tiny test net"}
}

// testNets are a tiny net for each game: every game the server plays has
// a built-in net, so the server wants one for each.
func testNets(t testing.TB) map[string]*neteval.Net {
	return map[string]*neteval.Net{"trench": tinyNet(t), "trichess": tinyTrichessNet(t)}
}

func newServer(t testing.TB, maxGames int) *Server {
	t.Helper()
	s, err := New(Options{Nets: testNets(t), MaxGames: maxGames, Bot: testBot(4, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pageRequest is a request as the server's own page sends it: to
// localhost, and with a JSON content type when it has a body.
func pageRequest(method, path, body string) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "localhost"
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// call sends a request and decodes the answer into a State or an error.
func call(t *testing.T, h http.Handler, method, path, body string) (int, *State, string) {
	t.Helper()
	req := pageRequest(method, path, body)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s %s: content type %q, body %q", method, path, ct, rec.Body.String())
	}
	if rec.Code != http.StatusOK {
		var e struct{ Error string }
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" {
			t.Fatalf("%s %s: status %d without an error message: %q", method, path, rec.Code, rec.Body.String())
		}
		return rec.Code, nil, e.Error
	}
	var st State
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	return rec.Code, &st, ""
}

func mustNew(t *testing.T, h http.Handler, body string) *State {
	t.Helper()
	code, st, msg := call(t, h, "POST", "/api/new", body)
	if code != 200 {
		t.Fatalf("new game: %d %s", code, msg)
	}
	return st
}

func TestGameFlow(t *testing.T) {
	s := newServer(t, 10)
	st := mustNew(t, s, `{"side":"black","level":3}`)
	if st.ToMove != "black" || st.Human != "black" || st.Level != 3 || len(st.Moves) != 0 || st.Board["a1"] != "G" || st.Board["h8"] != "g" {
		t.Fatalf("new game state %+v", st)
	}
	if len(st.Legal) != 14 {
		t.Errorf("%d legal moves at the start, want 14", len(st.Legal))
	}
	code, st2, msg := call(t, s, "POST", "/api/move", `{"id":"`+st.ID+`","move":"d4d5"}`)
	if code != 200 {
		t.Fatalf("move: %d %s", code, msg)
	}
	if len(st2.Moves) != 2 || st2.Moves[0] != "d4d5" || st2.ToMove != "black" || st2.Engine == nil || st2.Engine.Move != st2.Moves[1] {
		t.Fatalf("after the move: %+v", st2)
	}
	if e := st2.Engine; len(e.PV) == 0 || e.BlackWin+e.Draw+e.BlackLoss < 0.999 || e.BlackWin+e.Draw+e.BlackLoss > 1.001 {
		t.Errorf("engine info %+v", e)
	}
	if st2.Last == nil || st2.Last.Move != st2.Moves[1] {
		t.Errorf("last move %+v, want the engine's %s", st2.Last, st2.Moves[1])
	}
	_, got, _ := call(t, s, "GET", "/api/state?id="+st.ID, "")
	if got.Position != st2.Position {
		t.Errorf("state %s, want %s", got.Position, st2.Position)
	}
	_, st3, msg := call(t, s, "POST", "/api/undo", `{"id":"`+st.ID+`"}`)
	if st3 == nil || st3.Position != trench.StartFEN || len(st3.Moves) != 0 {
		t.Errorf("after undo: %+v %s", st3, msg)
	}
	if code, _, msg := call(t, s, "POST", "/api/undo", `{"id":"`+st.ID+`"}`); code != 400 || !strings.Contains(msg, "no move") {
		t.Errorf("undo at the start: %d %q", code, msg)
	}
	_, st4, _ := call(t, s, "POST", "/api/level", `{"id":"`+st.ID+`","level":7}`)
	if st4 == nil || st4.Level != 7 {
		t.Errorf("level: %+v", st4)
	}
	_, st5, _ := call(t, s, "POST", "/api/resign", `{"id":"`+st.ID+`"}`)
	if st5 == nil || !st5.Over || st5.Result != "white wins 0-0 (black resigned)" || len(st5.Legal) != 0 {
		t.Errorf("resign: %+v", st5)
	}
	if code, _, msg := call(t, s, "POST", "/api/move", `{"id":"`+st.ID+`","move":"d4d5"}`); code != 400 || !strings.Contains(msg, "over") {
		t.Errorf("move after resigning: %d %q", code, msg)
	}
	_, st6, _ := call(t, s, "POST", "/api/undo", `{"id":"`+st.ID+`"}`)
	if st6 == nil || st6.Over {
		t.Errorf("undo of a resignation: %+v", st6)
	}
	_, st7, _ := call(t, s, "POST", "/api/armistice", `{"id":"`+st.ID+`"}`)
	if st7 == nil || !strings.Contains(st7.Note, "armistice") {
		t.Errorf("armistice: %+v", st7)
	}
}

func TestHumanWhite(t *testing.T) {
	s := newServer(t, 10)
	st := mustNew(t, s, `{"side":"white"}`)
	if len(st.Moves) != 1 || st.ToMove != "white" || st.Engine == nil || st.Level != searchconfig.Play().Level {
		t.Fatalf("the engine should open as Black: %+v", st)
	}
	for _, m := range st.Legal {
		if m.From == "" || m.To == "" || m.Captures == nil {
			t.Fatalf("legal move %+v", m)
		}
	}
	// White has made no move to take back.
	if code, _, _ := call(t, s, "POST", "/api/undo", `{"id":"`+st.ID+`"}`); code != 400 {
		t.Errorf("undo without a move of White's: %d", code)
	}
}

func TestCapturesListed(t *testing.T) {
	s := newServer(t, 10)
	st := mustNew(t, s, `{}`)
	g, err := s.lookup(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	// A Black Colonel in the trench on d5 with White pieces on e6 and f7
	// ahead: moving out forwards takes both (full reach).
	p, err := trench.Game.ParseState("7g/5s2/4s3/3C4/8/8/8/G7 b 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	g.rec = recordFrom(p)
	g.mu.Unlock()
	_, st, _ = call(t, s, "GET", "/api/state?id="+st.ID, "")
	found := false
	for _, m := range st.Legal {
		if m.Move == "d5g8" {
			found = true
			if strings.Join(m.Captures, ",") != "e6,f7" {
				t.Errorf("d5g8 takes %v, want e6 and f7", m.Captures)
			}
		}
	}
	if !found {
		t.Errorf("no d5g8 among %+v", st.Legal)
	}
}

func TestBadRequests(t *testing.T) {
	s := newServer(t, 10)
	st := mustNew(t, s, `{"side":"black"}`)
	id := st.ID
	before := st.Position
	for _, tc := range []struct {
		name, method, path, body string
		code                     int
		want                     string
	}{
		{"illegal move", "POST", "/api/move", `{"id":"` + id + `","move":"d4e5"}`, 400, "d4e5"},
		{"malformed move", "POST", "/api/move", `{"id":"` + id + `","move":"zz"}`, 400, "zz"},
		{"long move", "POST", "/api/move", `{"id":"` + id + `","move":"` + strings.Repeat("d4", 40) + `"}`, 400, "not a move"},
		{"no move", "POST", "/api/move", `{"id":"` + id + `"}`, 400, "no move"},
		{"malformed JSON", "POST", "/api/move", `{"id":`, 400, "malformed"},
		{"not an object", "POST", "/api/move", `["d4d5"]`, 400, "malformed"},
		{"wrong type", "POST", "/api/move", `{"id":"` + id + `","move":42}`, 400, "malformed"},
		{"unknown field", "POST", "/api/move", `{"id":"` + id + `","move":"d4d5","x":1}`, 400, "unknown field"},
		{"trailing data", "POST", "/api/move", `{"id":"` + id + `","move":"d4d5"} {}`, 400, "after the object"},
		{"empty body", "POST", "/api/move", ``, 400, "empty"},
		{"oversized", "POST", "/api/move", `{"id":"` + id + `","move":"` + strings.Repeat(" ", 2*MaxBody) + `"}`, 400, "larger than"},
		{"oversized whitespace", "POST", "/api/move", `{"id":"` + id + `","move":"d4d5"}` + strings.Repeat(" ", 2*MaxBody), 400, "larger than"},
		{"no id", "POST", "/api/move", `{"move":"d4d5"}`, 400, "no game id"},
		{"unknown id", "POST", "/api/move", `{"id":"nope","move":"d4d5"}`, 404, "no such game"},
		{"unknown id state", "GET", "/api/state?id=nope", ``, 404, "no such game"},
		{"bad level", "POST", "/api/level", `{"id":"` + id + `","level":99}`, 400, "level 99"},
		{"bad side", "POST", "/api/new", `{"side":"green"}`, 400, "side"},
		{"bad new level", "POST", "/api/new", `{"level":-1}`, 400, "level"},
		{"new with id", "POST", "/api/new", `{"id":"x"}`, 400, "only game, side, seats and level"},
		{"null body", "POST", "/api/move", `null`, 400, "null; want a JSON object"},
		{"null new game", "POST", "/api/new", ` null `, 400, "null; want a JSON object"},
		{"unknown endpoint", "POST", "/api/fly", `{}`, 404, "no API endpoint"},
		{"unknown GET endpoint", "GET", "/api/fly", ``, 404, "no API endpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := pageRequest(tc.method, tc.path, tc.body)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("status %d body %q, want %d with %q", rec.Code, rec.Body.String(), tc.code, tc.want)
			}
		})
	}
	_, after, _ := call(t, s, "GET", "/api/state?id="+id, "")
	if after.Position != before || len(after.Moves) != 0 || after.Level != searchconfig.Play().Level {
		t.Errorf("bad requests changed the game: %s, moves %v, level %d", after.Position, after.Moves, after.Level)
	}
}

func TestGamesAreSeparateAndBounded(t *testing.T) {
	s := newServer(t, 3)
	a := mustNew(t, s, `{}`)
	b := mustNew(t, s, `{}`)
	if a.ID == b.ID {
		t.Fatal("two tabs got the same game")
	}
	if code, _, msg := call(t, s, "POST", "/api/move", `{"id":"`+a.ID+`","move":"d4d5"}`); code != 200 {
		t.Fatal(msg)
	}
	_, bs, _ := call(t, s, "GET", "/api/state?id="+b.ID, "")
	if len(bs.Moves) != 0 {
		t.Errorf("a move in one game showed in another: %v", bs.Moves)
	}
	call(t, s, "GET", "/api/state?id="+a.ID, "") // a is now the most recently used
	mustNew(t, s, `{}`)
	mustNew(t, s, `{}`)
	if n := s.Games(); n != 3 {
		t.Errorf("%d games kept, want at most 3", n)
	}
	if code, _, _ := call(t, s, "GET", "/api/state?id="+b.ID, ""); code != 404 {
		t.Errorf("the least recently used game was kept: %d", code)
	}
	if code, _, _ := call(t, s, "GET", "/api/state?id="+a.ID, ""); code != 200 {
		t.Errorf("a recently used game was dropped: %d", code)
	}
}

func TestConcurrentGames(t *testing.T) {
	s := newServer(t, 50)
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			st := mustNew(t, s, `{}`)
			for i := 0; i < 3 && !st.Over; i++ {
				m := st.Legal[0].Move
				code, next, msg := call(t, s, "POST", "/api/move", `{"id":"`+st.ID+`","move":"`+m+`"}`)
				if code != 200 {
					t.Errorf("move %s: %d %s", m, code, msg)
					return
				}
				st = next
			}
		})
	}
	wg.Wait()
}

func TestStaticFiles(t *testing.T) {
	s := newServer(t, 1)
	for _, tc := range []struct{ path, want string }{
		{"/", "<svg id=\"board\""},
		{"/app.js", "function geometry"},
		{"/style.css", ".evalbar"},
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, pageRequest("GET", tc.path, ""))
		if rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(tc.want)) {
			t.Errorf("GET %s: %d, body lacks %q", tc.path, rec.Code, tc.want)
		}
		// Nothing is fetched from elsewhere: the only URL is the SVG
		// namespace, which names and loads nothing.
		if body := strings.ReplaceAll(rec.Body.String(), "http://www.w3.org/2000/svg", ""); strings.Contains(body, "http") || strings.Contains(body, "//cdn") {
			t.Errorf("GET %s refers to another site", tc.path)
		}
	}
}

// The page calls the AI the bot (docs/architecture.md, "Words"): the
// word "engine" is left only in the names the code goes by (the reply's
// JSON field, the box that shows it), never in text people read.
func TestPageCallsTheAIBot(t *testing.T) {
	s := newServer(t, 1)
	names := regexp.MustCompile(`state\.engine\b|\$\("engine"\)|(id|class)="engine"`)
	word := regexp.MustCompile(`(?i)\bengines?\b`)
	for _, path := range []string{"/", "/app.js"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, pageRequest("GET", path, ""))
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d", path, rec.Code)
		}
		text := names.ReplaceAllString(rec.Body.String(), "")
		for _, m := range word.FindAllStringIndex(text, -1) {
			t.Errorf("GET %s calls the AI %q: …%s…", path, text[m[0]:m[1]], text[max(0, m[0]-40):min(len(text), m[1]+40)])
		}
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	if _, err := New(Options{Bot: searchconfig.Arena()}); err == nil || !strings.Contains(err.Error(), "no net for trench") {
		t.Errorf("a server of the tree search without a net: %v, want no net for trench", err)
	}
	if _, err := New(Options{Bot: testBot(0, 0), Nets: testNets(t), MaxGames: -1}); err == nil {
		t.Error("negative MaxGames accepted")
	}
	bad := testBot(0, 0)
	bad.Level = 0
	if _, err := New(Options{Bot: bad, Nets: testNets(t)}); err == nil || !strings.Contains(err.Error(), "level must be in 1..8") {
		t.Errorf("level 0: %v, want an error naming the level's range", err)
	}
}

func recordFrom(s interface{ Clone() engine.State }) *record.Game { return record.New(s.Clone()) }

// A server with a guard has alphabeta check the Trench bot's moves, says
// so in the evaluator's description, and plays Trichess without one.
func TestServerGuard(t *testing.T) {
	c := testBot(4, 0)
	c.Guard = 0.6
	if _, err := New(Options{Bot: c, Nets: testNets(t)}); err == nil || !strings.Contains(err.Error(), "guard must be in 0..0.5") {
		t.Errorf("a guard's share of 0.6: %v, want an error naming the range", err)
	}
	c.Guard = 0.2
	s, err := New(Options{Nets: testNets(t), Bot: c})
	if err != nil {
		t.Fatal(err)
	}
	st := mustNew(t, s, `{"side":"white"}`)
	if !strings.Contains(st.Evaluator, "guard: alphabeta") || st.Engine == nil || len(st.Moves) != 1 {
		t.Errorf("a guarded Trench game: evaluator %q, engine %+v, moves %v", st.Evaluator, st.Engine, st.Moves)
	}
	tri := mustNew(t, s, `{"game":"trichess","seats":["white"]}`)
	if strings.Contains(tri.Evaluator, "guard") {
		t.Errorf("a Trichess game has a guard: %q", tri.Evaluator)
	}
}

func TestServerEndgame(t *testing.T) {
	c := testBot(4, 0)
	c.Endgame = -1
	if _, err := New(Options{Bot: c, Nets: testNets(t)}); err == nil || !strings.Contains(err.Error(), "endgame must be in 0..1000") {
		t.Errorf("an endgame from -1 points: %v, want an error naming the range", err)
	}
	c.Endgame = 15
	s, err := New(Options{Nets: testNets(t), Bot: c})
	if err != nil {
		t.Fatal(err)
	}
	st := mustNew(t, s, `{"side":"white"}`)
	if !strings.Contains(st.Evaluator, "endgame: alphabeta from 15 points") || st.Engine == nil || st.Engine.Endgame != "" {
		t.Errorf("a Trench game: evaluator %q, engine %+v; want the endgame named, and the tree's first move", st.Evaluator, st.Engine)
	}
	tri := mustNew(t, s, `{"game":"trichess","seats":["white"]}`)
	if strings.Contains(tri.Evaluator, "endgame") {
		t.Errorf("a Trichess game has an endgame: %q", tri.Evaluator)
	}
}

// testBot returns the settings of the tests' bots: Arena's (one thread,
// no guard, no endgame) at Play's level, with sims simulations or time t
// a move in place of every level's limits when either is set.
func testBot(sims int, t time.Duration) searchconfig.Config {
	c := searchconfig.Arena()
	c.Level, c.Sims, c.Time = searchconfig.Play().Level, sims, t
	return c
}

// TestBotSettingsReachTheBots checks that the server's bots play with
// its settings (Options.Bot): any of them, here symmetry averaging and
// the aids, which the page's evaluator names.
func TestBotSettingsReachTheBots(t *testing.T) {
	c := testBot(4, 0)
	c.Symmetries, c.MaterialValue = true, 0.25
	s, err := New(Options{Nets: testNets(t), Bot: c})
	if err != nil {
		t.Fatal(err)
	}
	st := mustNew(t, s, `{"side":"white"}`)
	for _, want := range []string{"averaged over 2 symmetries", "material 0.25"} {
		if !strings.Contains(st.Evaluator, want) {
			t.Errorf("evaluator %q lacks %q", st.Evaluator, want)
		}
	}
}

// TestNetFlags checks the net flags: one per game of the page, the
// built-in net by default where there is one, a missing file refused
// with its flag named.
func TestNetFlags(t *testing.T) {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	nf := BindNetFlags(fs)
	if fs.Lookup("net") == nil || fs.Lookup("trichess-net") == nil {
		t.Fatalf("flags: %s", fs.FlagUsages())
	}
	if err := fs.Parse([]string{"--trichess-net", "/no/such/net.tnet"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := nf.Load(searchconfig.Play(), fs.Changed, io.Discard); err == nil || !strings.Contains(err.Error(), "--trichess-net") {
		t.Errorf("a missing Trichess net: %v, want an error naming --trichess-net", err)
	}
	fs = pflag.NewFlagSet("serve", pflag.ContinueOnError)
	nf = BindNetFlags(fs)
	nets, settings, err := nf.Load(searchconfig.Play(), fs.Changed, io.Discard)
	if err != nil || settings["trench"].Kind != searchconfig.AlphaBeta || nets["trench"] != nil || len(settings) != 2 {
		t.Errorf("the defaults: nets %v, settings %v, %v; want Trench's bot alphabeta, no conv net read for it", nets, settings, err)
	}
	// A Trench NNUE given as --nnue serves Trench's bot; Trichess's
	// leaves it out rather than refuse it, and reads its own built-in
	// net.
	file := filepath.Join(t.TempDir(), "trench.nnue")
	net, err := nnue.New(16, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := net.Save(file); err != nil {
		t.Fatal(err)
	}
	c := searchconfig.Play()
	c.NNUE = file
	_, settings, err = nf.Load(c, func(flag string) bool { return flag == "nnue" }, io.Discard)
	if err != nil || settings["trench"].Eval != searchconfig.EvalNNUE || settings["trench"].NNUE != file ||
		settings["trichess"].Eval != searchconfig.EvalNNUE || settings["trichess"].NNUERef() != shipped.Ref {
		t.Errorf("--nnue %s: settings %v, %v; want Trench's bot reading it, Trichess's its built-in net", file, settings, err)
	}
}

// TestAlphaBetaBot checks a server whose bot is of the alphabeta kind:
// Trench's bot searches by nodes (its levels' or the settings'), the
// page gets its move, win/loss, main line, nodes and depth, and the
// config names it; so does Trichess's, with its own classical search.
func TestAlphaBetaBot(t *testing.T) {
	c := searchconfig.Arena()
	c.Kind, c.Eval, c.Level = searchconfig.AlphaBeta, "hand", 1
	s, err := New(Options{Nets: testNets(t), Bot: c})
	if err != nil {
		t.Fatal(err)
	}
	st := mustNew(t, s, `{"side":"white"}`)
	e := st.Engine
	if e == nil || e.Move != st.Moves[0] || len(e.PV) == 0 || e.PV[0] != e.Move || e.Nodes == 0 || e.Sims != 0 || e.Draw != 0 || math.Abs(e.BlackWin+e.BlackLoss-1) > 1e-9 {
		t.Fatalf("the bot's reply %+v; want its move with nodes, win and loss", e)
	}
	if !strings.Contains(st.Evaluator, "alphabeta with the hand-written evaluation") {
		t.Errorf("evaluator %q", st.Evaluator)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, pageRequest("GET", "/api/config", ""))
	if body := rec.Body.String(); !strings.Contains(body, `"trench":"alphabeta with the hand-written evaluation`) || !strings.Contains(body, `"trichess":"alphabeta with the hand-written evaluation, brs search`) {
		t.Errorf("config %s: want both games' alphabeta bots", body)
	}
	if _, st2, msg := call(t, s, "POST", "/api/level", `{"id":"`+st.ID+`","level":2}`); st2 == nil {
		t.Fatalf("level: %s", msg)
	}
	s.mu.Lock()
	limits := s.games[st.ID].limits
	s.mu.Unlock()
	if want, _ := searchconfig.LevelNodes(2); limits.Nodes != want || limits.Sims != 0 {
		t.Errorf("level 2: %v, want %d nodes", limits, want)
	}
	tri := mustNew(t, s, `{"game":"trichess","seats":["red"]}`)
	if tri.Engine == nil || tri.Engine.Sims != 0 || tri.Engine.Nodes == 0 {
		t.Errorf("Trichess bot %+v; want alpha-beta's reply", tri.Engine)
	}
	c.NNUE = filepath.Join(t.TempDir(), "missing.nnue")
	c.Eval = "nnue"
	if _, err := New(Options{Nets: testNets(t), Bot: c}); err == nil || !strings.Contains(err.Error(), "missing.nnue") {
		t.Errorf("a missing NNUE: %v", err)
	}
}

// TestServerNNUEValues checks a server whose tree search values its
// leaves with the NNUE: its Trench games say so, its Trichess games
// take their values from the Trichess NNUE built in, and a net that does not
// load stops the server, naming the setting and the file.
func TestServerNNUEValues(t *testing.T) {
	c := testBot(4, 0)
	c.Value = searchconfig.ValueQNNUE
	s, err := New(Options{Nets: testNets(t), Bot: c})
	if err != nil {
		t.Fatal(err)
	}
	st := mustNew(t, s, `{"side":"white"}`)
	if !strings.Contains(st.Evaluator, "values of nnue") || st.Engine == nil || len(st.Moves) != 1 {
		t.Errorf("a Trench game: evaluator %q, engine %+v, moves %v", st.Evaluator, st.Engine, st.Moves)
	}
	tri := mustNew(t, s, `{"game":"trichess","seats":["white"]}`)
	if !strings.Contains(tri.Evaluator, "values of nnue "+shipped.TrichessNNUEName) {
		t.Errorf("a Trichess game: evaluator %q, want its built-in NNUE's values", tri.Evaluator)
	}
	c.NNUE = filepath.Join(t.TempDir(), "missing.nnue")
	if _, err := New(Options{Nets: testNets(t), Bot: c}); err == nil || !strings.Contains(err.Error(), "value qnnue") || !strings.Contains(err.Error(), "missing.nnue") {
		t.Errorf("a missing NNUE: %v, want an error naming the setting and the file", err)
	}
}
