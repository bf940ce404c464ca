package analysis

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/neteval"
	"trench/nn"
	"trench/searchconfig"
)

// tinyNet makes a net of the tiny preset for g with random weights.
func tinyNet(t testing.TB, g engine.Game) *neteval.Net {
	t.Helper()
	c, err := nn.PresetFor("tiny", g)
	if err != nil {
		t.Fatal(err)
	}
	c.Seats = g.Players()
	w, err := nn.NewWeights(c, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	ck, err := w.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	ck.Path = "tiny.tnet"
	net, err := neteval.NetFromCheckpoint(g, ck)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// treeMaker makes bots of the tree search for g with Arena's settings:
// with net, or without one (tactics.Fallback) when net is nil, threads
// searching each tree.
func treeMaker(t testing.TB, g engine.Game, net *neteval.Net, threads int) *bot.Maker {
	t.Helper()
	c := searchconfig.Arena()
	c.Threads = threads
	c.Fit(g, nil)
	if net == nil {
		c.Net = searchconfig.NoNet
	}
	m, err := bot.NewMaker(g, c, func(string) (*neteval.Net, error) { return net, nil })
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// line is any output line: a response, an error or an action's echo.
type line struct {
	Response
	Error   string `json:"error"`
	Field   string `json:"field"`
	Action  string `json:"action"`
	Version string `json:"version"`
}

// session runs an engine of cfg on script and returns its output lines.
func session(t *testing.T, cfg Config, script string) []line {
	t.Helper()
	if cfg.Maker == nil {
		cfg.Maker = treeMaker(t, trench.Game, nil, 1)
	}
	if cfg.Limits == (bot.Limits{}) {
		cfg.Limits = bot.Limits{Sims: 20}
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := e.Run(strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	return parseLines(t, out.String())
}

func parseLines(t *testing.T, out string) []line {
	t.Helper()
	var lines []line
	for _, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if s == "" {
			continue
		}
		var l line
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("output line %q: %v", s, err)
		}
		lines = append(lines, l)
	}
	return lines
}

// finals returns the final responses by id and turn, failing on a turn
// answered twice.
func finals(t *testing.T, lines []line) map[string]line {
	t.Helper()
	m := make(map[string]line)
	for _, l := range lines {
		if l.Error != "" || l.Action != "" || l.IsDuringSearch {
			continue
		}
		k := fmt.Sprintf("%s/%d", l.ID, l.TurnNumber)
		if _, ok := m[k]; ok {
			t.Errorf("turn %s answered twice", k)
		}
		m[k] = l
	}
	return m
}

func TestEngineAnswers(t *testing.T) {
	net := tinyNet(t, trench.Game)
	lines := session(t, Config{Maker: treeMaker(t, trench.Game, net, 1), Workers: 2, Version: "v9"}, strings.Join([]string{
		`{"id":"a","moves":["d2e2","e7d7"],"analyzeTurns":[0,1,2],"maxVisits":30}`,
		`{"id":"b","includePolicy":true}`,
		`{"id":"bad","maxVisits":"many"}`,
		`{"id":"v","action":"query_version"}`,
		`{"oops`,
		``,
	}, "\n"))
	got := finals(t, lines)
	if len(got) != 4 {
		t.Fatalf("%d final responses, want 4: %+v", len(got), lines)
	}
	start := trench.Game.Start()
	otherLines := 0
	for k, l := range got {
		r := l.RootInfo
		if r == nil || len(l.MoveInfos) == 0 || l.NoResults || l.Terminated {
			t.Errorf("%s: no analysis: %+v", k, l)
			continue
		}
		wantSims := 30
		if l.ID == "b" {
			wantSims = 20 // the engine's default
		}
		if r.Sims != wantSims || r.Visits != wantSims+1 {
			t.Errorf("%s: sims %d visits %d, want %d new simulations", k, r.Sims, r.Visits, wantSims)
		}
		if s := r.Winrate + r.Drawrate + r.Lossrate; math.Abs(s-1) > 1e-6 || math.Abs(r.Winrate-r.Lossrate-r.Value) > 1e-6 {
			t.Errorf("%s: W/D/L %v %v %v, value %v", k, r.Winrate, r.Drawrate, r.Lossrate, r.Value)
		}
		if len(r.Players) != 2 || r.Players[r.CurrentPlayer].Value != r.Value {
			t.Errorf("%s: players %+v, to move %d", k, r.Players, r.CurrentPlayer)
		}
		visits := 0
		for i, m := range l.MoveInfos {
			visits += m.Visits
			if m.Order != i || m.Visits == 0 || len(m.PV) == 0 || m.PV[0] != m.Move {
				t.Errorf("%s: move %d: %+v", k, i, m)
			}
			// A move searched twice has a reply below it in its line.
			if m.Visits >= 2 && len(m.PV) < 2 {
				t.Errorf("%s: move %s, %d visits: main line %v, want a reply in it", k, m.Move, m.Visits, m.PV)
			}
			if i > 0 && len(m.PV) > 1 {
				otherLines++
			}
			if (m.Winrate == nil) != (i >= 8) {
				t.Errorf("%s: move %d has winrate %v", k, i, m.Winrate)
			}
			if m.Winrate != nil && math.Abs(*m.Winrate+*m.Drawrate+*m.Lossrate-1) > 1e-6 {
				t.Errorf("%s: move %s: W/D/L %v %v %v", k, m.Move, *m.Winrate, *m.Drawrate, *m.Lossrate)
			}
		}
		if visits != r.Visits-1 {
			t.Errorf("%s: moves' visits sum to %d, root has %d", k, visits, r.Visits)
		}
		if (l.ID == "b") != (len(l.Policy) > 0) {
			t.Errorf("%s: policy %v", k, l.Policy)
		}
	}
	if otherLines == 0 {
		t.Error("no move but the first has a main line longer than itself")
	}
	if p := got["b/0"].Policy; len(p) != len(start.LegalActions(nil)) || p[0].Prior < p[len(p)-1].Prior {
		t.Errorf("policy %v: want every legal move, highest first", p)
	}
	if got["a/0"].RootInfo.Position != start.String() || got["a/2"].RootInfo.Position == start.String() {
		t.Errorf("turn positions: %s, %s", got["a/0"].RootInfo.Position, got["a/2"].RootInfo.Position)
	}
	var errs, versions int
	for _, l := range lines {
		switch {
		case l.Error != "" && l.ID == "bad":
			errs++
			if l.Field != "maxVisits" {
				t.Errorf("error on field %q, want maxVisits", l.Field)
			}
		case l.Error != "" && l.ID == "":
			errs++
		case l.Action == "query_version":
			versions++
			if l.ID != "v" || l.Version != "v9" {
				t.Errorf("version answer %+v", l)
			}
		}
	}
	if errs != 2 || versions != 1 {
		t.Errorf("%d errors, %d version answers, want 2 and 1: %+v", errs, versions, lines)
	}
}

func TestEngineTrichess(t *testing.T) {
	lines := session(t, Config{Maker: treeMaker(t, trichess.Game, tinyNet(t, trichess.Game), 1)}, `{"id":"t","moves":["We2We4"]}`+"\n")
	got := finals(t, lines)["t/1"]
	if got.RootInfo == nil || len(got.RootInfo.Players) != 3 || got.RootInfo.CurrentPlayer != 1 {
		t.Fatalf("trichess answer %+v", lines)
	}
}

func TestEngineDuringSearch(t *testing.T) {
	lines := session(t, Config{Maker: treeMaker(t, trench.Game, tinyNet(t, trench.Game), 1)},
		`{"id":"r","maxTime":0.4,"reportDuringSearchEvery":0.05}`+"\n")
	during := 0
	for i, l := range lines {
		if l.IsDuringSearch {
			during++
			if i == len(lines)-1 || l.RootInfo == nil || len(l.MoveInfos) == 0 {
				t.Errorf("report %d: %+v", i, l)
			}
		}
	}
	last := lines[len(lines)-1]
	if last.IsDuringSearch || last.RootInfo == nil || last.RootInfo.ElapsedMs < 350 {
		t.Errorf("final response %+v", last)
	}
	if during < 2 {
		t.Errorf("%d reports during a 0.4 s search every 0.05 s", during)
	}
}

func TestEngineLineTooLong(t *testing.T) {
	lines := session(t, Config{MaxLine: 64}, `{"id":"`+strings.Repeat("x", 100)+`"}`+"\n"+`{"id":"ok"}`+"\n")
	if len(lines) != 2 || !strings.Contains(lines[0].Error, "too long") || lines[1].ID != "ok" || lines[1].RootInfo == nil {
		t.Errorf("answers %+v", lines)
	}
}

// TestEngineTerminate terminates a running search and a queued one: the
// running one reports what it found, the queued one no results.
func TestEngineTerminate(t *testing.T) {
	e, err := New(Config{Maker: treeMaker(t, trench.Game, tinyNet(t, trench.Game), 1), Limits: bot.Limits{Sims: 10}})
	if err != nil {
		t.Fatal(err)
	}
	in, feed := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- e.Run(in, outW); outW.Close() }()
	// Read the output as it comes, so that the engine never waits on it.
	lines := make(chan string, 1<<16)
	go func() {
		defer close(lines)
		read := bufio.NewScanner(outR)
		for read.Scan() {
			lines <- read.Text()
		}
	}()
	next := func() line {
		t.Helper()
		s, ok := <-lines
		if !ok {
			t.Fatal("output ended")
		}
		return parseLines(t, s)[0]
	}
	// One worker: "long" runs (reporting, so that we know it has started)
	// while "queued" waits.
	fmt.Fprintln(feed, `{"id":"long","maxTime":60,"reportDuringSearchEvery":0.02}`)
	fmt.Fprintln(feed, `{"id":"queued","moves":["d2e2"],"analyzeTurns":[0,1]}`)
	if l := next(); l.ID != "long" || !l.IsDuringSearch {
		t.Fatalf("first line %+v", l)
	}
	fmt.Fprintln(feed, `{"id":"t1","action":"terminate","terminateId":"queued","turnNumbers":[1]}`)
	fmt.Fprintln(feed, `{"id":"t2","action":"terminate_all"}`)
	feed.Close()
	var rest []line
	for s := range lines {
		rest = append(rest, parseLines(t, s)...)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := finals(t, rest)
	if l := got["long/0"]; !l.Terminated || l.NoResults || l.RootInfo == nil || l.RootInfo.ElapsedMs > 30000 {
		t.Errorf("long: %+v", l)
	}
	for _, k := range []string{"queued/0", "queued/1"} {
		if l := got[k]; !l.Terminated || !l.NoResults || l.RootInfo != nil {
			t.Errorf("%s: %+v", k, l)
		}
	}
	acks := 0
	for _, l := range rest {
		if l.Action != "" {
			acks++
		}
	}
	if len(got) != 3 || acks != 2 {
		t.Errorf("%d finals, %d acknowledgements: %+v", len(got), acks, rest)
	}
}

// TestEngineConcurrentWriters sends 200 queries from 4 writers at once
// and checks that every one is answered exactly once with a final
// response.
func TestEngineConcurrentWriters(t *testing.T) {
	const writers, each = 4, 50
	e, err := New(Config{Maker: treeMaker(t, trench.Game, tinyNet(t, trench.Game), 2), Workers: 4, Limits: bot.Limits{Sims: 8}})
	if err != nil {
		t.Fatal(err)
	}
	in, feed := io.Pipe()
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- e.Run(in, &out) }()
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex // one whole line at a time into the pipe
		ids = make(map[string]int)
	)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("w%d-%d", w, i)
				q := fmt.Sprintf(`{"id":%q,"moves":["d2e2"],"analyzeTurns":[%d],"reportDuringSearchEvery":0.01}`, id, i%2)
				if i%10 == 9 {
					q = fmt.Sprintf(`{"id":%q,"maxVisits":-1}`, id) // refused, answered by an error
				}
				mu.Lock()
				_, err := io.WriteString(feed, q+"\n")
				ids[id] = i % 2
				mu.Unlock()
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	feed.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the engine did not finish")
	}
	lines := parseLines(t, out.String())
	got := finals(t, lines)
	refused := make(map[string]int)
	for _, l := range lines {
		if l.Error != "" {
			refused[l.ID]++
		}
	}
	for id, turn := range ids {
		_, answered := got[fmt.Sprintf("%s/%d", id, turn)]
		switch {
		case refused[id] > 1 || (refused[id] == 1) == answered:
			t.Errorf("query %s: %d errors, answered %v", id, refused[id], answered)
		case answered && got[fmt.Sprintf("%s/%d", id, turn)].RootInfo == nil:
			t.Errorf("query %s: final response without analysis", id)
		}
	}
	if len(got)+len(refused) != writers*each || len(got) != writers*each*9/10 {
		t.Errorf("%d answered, %d refused, want %d and %d", len(got), len(refused), writers*each*9/10, writers*each/10)
	}
	// How many calls share a batch depends on the scheduler (a loaded
	// machine may run each search's call alone); the batcher's own tests
	// check that concurrent calls merge.
	calls, batches, _ := e.Batcher().Stats()
	t.Logf("%d net calls in %d batches", calls, batches)
}

// BenchmarkEngine answers 32 queries of 64 simulations each with the
// tiny net, by 1 and by 4 workers sharing the batcher.
func BenchmarkEngine(b *testing.B) {
	m := treeMaker(b, trench.Game, tinyNet(b, trench.Game), 1)
	var script strings.Builder
	for i := range 32 {
		fmt.Fprintf(&script, `{"id":"q%d","moves":["d2e2"],"analyzeTurns":[%d],"maxVisits":64}`+"\n", i, i%2)
	}
	for _, workers := range []int{1, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				e, err := New(Config{Maker: m, Workers: workers, Limits: bot.Limits{Sims: 1}})
				if err != nil {
					b.Fatal(err)
				}
				if err := e.Run(strings.NewReader(script.String()), io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(32*b.N)/b.Elapsed().Seconds(), "turns/s")
		})
	}
}

// alphaBetaMaker makes the bot as shipped for Trench: the alphabeta kind
// with the NNUE built in.
func alphaBetaMaker(t testing.TB) *bot.Maker {
	t.Helper()
	c := searchconfig.Play()
	c.Fit(trench.Game, nil)
	m, err := bot.NewMaker(trench.Game, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config().Kind != searchconfig.AlphaBeta {
		t.Fatalf("the bot as shipped for trench is of the %s kind", m.Config().Kind)
	}
	return m
}

// TestEngineAlphaBeta answers queries with the bot as shipped: the
// moves searched in full, best first, with their win and loss chances,
// scores, depths and main lines, the root's depth and nodes, and the bot
// named on every response; limits the alphabeta kind does not take are
// refused.
func TestEngineAlphaBeta(t *testing.T) {
	m := alphaBetaMaker(t)
	lines := session(t, Config{Maker: m, Workers: 2, Limits: bot.Limits{Nodes: 3000}}, strings.Join([]string{
		`{"id":"a","moves":[],"maxTime":0.2}`,
		`{"id":"m","moves":["d2e2"],"multiPV":3,"maxNodes":20000}`,
		`{"id":"n"}`,
		`{"id":"r","maxTime":0.3,"reportDuringSearchEvery":0.05}`,
		`{"id":"bad","maxVisits":10}`,
	}, "\n")+"\n")
	got := finals(t, lines)
	if len(got) != 4 {
		t.Fatalf("%d final responses, want 4: %+v", len(got), lines)
	}
	for k, l := range got {
		r := l.RootInfo
		want := map[string]int{"m/1": 3}[k]
		if r == nil || len(l.MoveInfos) != max(1, want) || r.Depth == 0 || r.Nodes == 0 || r.Sims != 0 || l.Bot != m.String() {
			t.Errorf("%s: %+v", k, l)
			continue
		}
		if k == "n/0" && (r.Nodes > 4100 || r.Nodes < 1000) {
			t.Errorf("%s: %d nodes, the engine's default 3000", k, r.Nodes)
		}
		s := trench.Game.Start()
		if k == "m/1" {
			s.Play(mustAction(t, s, "d2e2"))
		}
		for i, mi := range l.MoveInfos {
			if mi.Order != i || mi.Depth != r.Depth || mi.Score == nil || mi.Winrate == nil || *mi.Drawrate != 0 ||
				math.Abs(*mi.Winrate+*mi.Lossrate-1) > 1e-9 || math.Abs(*mi.Winrate-*mi.Lossrate-mi.Value) > 1e-9 ||
				len(mi.PV) == 0 || mi.PV[0] != mi.Move || (i > 0 && mi.Value > l.MoveInfos[i-1].Value) {
				t.Errorf("%s: move %d: %+v", k, i, mi)
			}
			c := s.Clone()
			for _, mv := range mi.PV {
				if err := engine.PlayChecked(c, mustAction(t, c, mv)); err != nil {
					t.Errorf("%s: move %d's line %v: %v", k, i, mi.PV, err)
				}
			}
		}
		if l.MoveInfos[0].Value != r.Value || math.Abs(r.Winrate+r.Lossrate-1) > 1e-9 {
			t.Errorf("%s: root %+v, best move %+v", k, r, l.MoveInfos[0])
		}
	}
	during, bad := 0, 0
	for _, l := range lines {
		switch {
		case l.IsDuringSearch:
			during++
			if l.ID != "r" || l.Bot != m.String() || len(l.MoveInfos) == 0 || l.RootInfo.Nodes == 0 {
				t.Errorf("report during the search %+v", l)
			}
		case l.Error != "":
			bad++
			if l.ID != "bad" || l.Field != "maxVisits" {
				t.Errorf("error %+v", l)
			}
		}
	}
	if during == 0 || bad != 1 {
		t.Errorf("%d reports during the search, %d errors; want some and 1", during, bad)
	}
}

func mustAction(t *testing.T, s engine.State, move string) int {
	t.Helper()
	a, err := s.ParseAction(move)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestNewRefuses checks the configurations New refuses.
func TestNewRefuses(t *testing.T) {
	ab, tree := alphaBetaMaker(t), treeMaker(t, trench.Game, nil, 1)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Limits: bot.Limits{Sims: 1}}, "no bot maker"},
		{Config{Maker: ab, Limits: bot.Limits{Sims: 10}}, "not by 10 simulations"},
		{Config{Maker: tree, Limits: bot.Limits{Nodes: 10}}, "not by 10 nodes"},
		{Config{Maker: ab, Limits: bot.Limits{Nodes: 10}, MaxNodes: -1}, "maxNodes"},
		{Config{Maker: ab, Limits: bot.Limits{Nodes: 10}, Workers: MaxWorkers + 1}, "workers"},
		{Config{Maker: ab, Limits: bot.Limits{Nodes: 10, MultiPV: -1}}, "multi-PV"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want an error with %q", tc.cfg, err, tc.want)
		}
	}
}

// TestEngineTreeBotAndMultiPV checks that the tree search's responses
// name the bot, and that a query's multiPV bounds their moves.
func TestEngineTreeBotAndMultiPV(t *testing.T) {
	m := treeMaker(t, trench.Game, nil, 1)
	got := finals(t, session(t, Config{Maker: m}, `{"id":"c","maxVisits":40,"multiPV":2}`+"\n"+`{"id":"d","maxVisits":40}`+"\n"))
	if c := got["c/0"]; c.Bot == "" || c.Bot != m.String() || len(c.MoveInfos) != 2 {
		t.Errorf("multiPV 2: bot %q, %d moves", c.Bot, len(c.MoveInfos))
	}
	if d := got["d/0"]; d.Bot != m.String() || len(d.MoveInfos) <= 2 {
		t.Errorf("no multiPV: bot %q, %d moves", d.Bot, len(d.MoveInfos))
	}
}
