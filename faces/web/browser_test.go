package web

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/record"
)

// chromium finds a Chromium to drive: $TRENCH_CHROMIUM, or chromium on
// the PATH (Debian's package installs /usr/bin/chromium).
func chromium() string {
	if p := os.Getenv("TRENCH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser drives a headless Chromium for one test, failing it when a
// step fails.
type browser struct {
	t   *testing.T
	ctx context.Context
}

// newBrowser starts Chromium with a width×height window on a fresh
// profile, closed when the test ends, or skips the test without one.
func newBrowser(t *testing.T, width, height int) *browser {
	path := chromium()
	if path == "" {
		t.Skip("skipping the browser test: chromium is not installed (apt-get install -y chromium, or set TRENCH_CHROMIUM)")
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	return &browser{t: t, ctx: ctx}
}

// do runs steps, failing the test with what if one fails.
func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval returns the value of the JavaScript expression expr, a string.
func (b *browser) eval(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// wait waits up to 30 seconds for the JavaScript predicate to hold.
func (b *browser) wait(what, predicate string) {
	b.t.Helper()
	b.do(what, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(30*time.Second)))
}

// shot saves a PNG screenshot as name in $TRENCH_SCREENSHOTS, if set.
func (b *browser) shot(name string) {
	b.t.Helper()
	dir := os.Getenv("TRENCH_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// TestBrowserPlay loads the page in headless Chromium, clicks a piece,
// sees its moves marked, plays one and sees the engine's reply on the
// board. With TRENCH_SCREENSHOTS=DIR it saves PNG screenshots there.
func TestBrowserPlay(t *testing.T) {
	b := newBrowser(t, 1200, 820)
	server := newServer(t, 10)
	srv := httptest.NewServer(server)
	defer srv.Close()

	b.do("load the page", chromedp.Navigate(srv.URL), chromedp.WaitVisible(chromedp.CSS(`g.piece[data-square="d4"]`)))
	b.wait("the player's turn", `document.getElementById("status").textContent.startsWith("Your move")`)
	b.shot("start.png")

	b.do("click the Soldier on d4", chromedp.Click(chromedp.CSS(`g.piece[data-square="d4"]`)))
	b.do("its moves marked", chromedp.WaitVisible(chromedp.CSS(`[data-move="d4d5"]`)))
	// d4's Soldier can go to d5 and e4; nothing to take at the start.
	if got := b.eval(`[...document.querySelectorAll('.target')].map(e => e.dataset.move).sort().join(" ") + "|" + document.querySelectorAll('.capture').length`); got != "d4d5 d4e4|0" {
		t.Errorf("the Soldier on d4 shows targets|captures %q, want \"d4d5 d4e4|0\"", got)
	}
	b.shot("selected.png")

	b.do("play d4d5", chromedp.Click(chromedp.CSS(`[data-move="d4d5"]`)))
	b.wait("the engine's reply", `document.querySelectorAll("#moves li").length === 1 &&
		document.querySelector("#moves li").textContent.trim().split(/\s+/).length === 2 &&
		document.getElementById("status").textContent.startsWith("Your move")`)
	b.shot("reply.png")
	fields := strings.Fields(b.eval(`document.querySelector("#moves li").textContent`))
	if len(fields) != 2 || fields[0] != "d4d5" {
		t.Fatalf("move list %q, want d4d5 and the engine's reply", fields)
	}
	reply := fields[1]
	to := reply[2:]
	if p := b.eval(`(document.querySelector('g.piece[data-square="` + to + `"]') || {dataset: {}}).dataset.piece || ""`); p == "" || p != strings.ToLower(p) {
		t.Errorf("after the engine's %s the board shows %q on %s, want a White piece", reply, p, to)
	}
	if p := b.eval(`(document.querySelector('g.piece[data-square="d5"]') || {dataset: {}}).dataset.piece || ""`); p != "P" {
		t.Errorf("the board shows %q on d5 after d4d5, want Black's Soldier", p)
	}
	if e := b.eval(`document.getElementById("engine").textContent`); !strings.Contains(e, "Bot played "+reply) || !strings.Contains(e, "Main line: "+reply) {
		t.Errorf("engine panel %q does not show %s", e, reply)
	}

	// The square view draws the same position.
	b.do("flip to the square view", chromedp.Click(chromedp.CSS(`#flip`)))
	if got := b.eval(`document.getElementById("board").getAttribute("viewBox") + "|" + document.querySelector('g.piece[data-square="d5"]').dataset.piece`); got != "0 0 560 560|P" {
		t.Errorf("square view: %q", got)
	}
	b.shot("square.png")

	// A full-reach move: Black's Colonel in the trench on d5 leaves it
	// forwards through White's pieces on e6 and f7; both are ringed, and
	// the moves that take them are offered.
	id := b.eval(`sessionStorage.getItem("trench-game")`)
	g, err := server.lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := trench.Game.ParseState("7g/5s2/4s3/3C4/8/8/8/G7 b 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	g.rec, g.last = record.New(p), nil
	g.mu.Unlock()
	b.do("reload", chromedp.Click(chromedp.CSS(`#flip`)), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`g.piece[data-square="d5"]`)))
	b.wait("the player's turn", `document.getElementById("status").textContent.startsWith("Your move")`)
	b.do("click the Colonel", chromedp.Click(chromedp.CSS(`g.piece[data-square="d5"]`)))
	b.do("its moves marked", chromedp.WaitVisible(chromedp.CSS(`[data-move="d5g8"]`)))
	if got := b.eval(`[...document.querySelectorAll('.capture')].map(e => e.dataset.captured).sort().join(" ")`); got != "e6 f7" {
		t.Errorf("ringed pieces %q, want e6 f7", got)
	}
	if got := b.eval(`[...document.querySelectorAll('[data-move^="d5"]')].map(e => e.dataset.move).filter(m => ["d5e6", "d5f7", "d5g8"].includes(m)).sort().join(" ")`); got != "d5e6 d5f7 d5g8" {
		t.Errorf("full-reach stops offered %q, want d5e6 d5f7 d5g8", got)
	}
	b.shot("fullreach.png")
	b.do("play d5g8", chromedp.Click(chromedp.CSS(`[data-move="d5g8"]`)))
	b.wait("the captures scored", `document.getElementById("score-black").textContent === "4"`)
	b.shot("captured.png")
}

// TestBrowserTrichess chooses Trichess on the page, clicks a pawn, sees
// its moves marked, plays one and sees both engines reply with their
// per-seat evaluation. With TRENCH_SCREENSHOTS=DIR it saves PNG
// screenshots there.
func TestBrowserTrichess(t *testing.T) {
	b := newBrowser(t, 1200, 860)
	server := newServer(t, 10)
	srv := httptest.NewServer(server)
	defer srv.Close()

	b.do("load the page", chromedp.Navigate(srv.URL), chromedp.WaitVisible(chromedp.CSS(`g.piece[data-square="d4"]`)))
	b.eval(`(() => { const s = document.getElementById("game"); s.value = "trichess"; s.dispatchEvent(new Event("change")); return ""; })()`)
	b.do("the Trichess board", chromedp.WaitVisible(chromedp.CSS(`g.piece[data-square="We2"]`)))
	b.wait("White's turn", `document.getElementById("status").textContent.startsWith("Your move (white)")`)
	if got := b.eval(`document.querySelectorAll("polygon.tcell").length + "|" + document.querySelectorAll("g.piece").length + "|" + document.getElementById("title").textContent`); got != "96|48|Trichess" {
		t.Errorf("squares|pieces|title %q, want 96|48|Trichess", got)
	}
	if got := b.eval(`[...document.querySelectorAll(".trench-only")].every(e => e.hidden) + "|" + document.getElementById("trichess-scores").hidden`); got != "true|false" {
		t.Errorf("Trench controls hidden|Trichess scores hidden: %q", got)
	}
	b.shot("trichess-start.png")

	b.do("click the pawn on We2", chromedp.Click(chromedp.CSS(`g.piece[data-square="We2"]`)))
	b.do("its moves marked", chromedp.WaitVisible(chromedp.CSS(`[data-move="We2We4"]`)))
	if got := b.eval(`[...document.querySelectorAll('.target')].map(e => e.dataset.move).sort().join(" ") + "|" + document.querySelectorAll('.capture').length`); got != "We2We3 We2We4|0" {
		t.Errorf("the pawn on We2 shows targets|captures %q, want \"We2We3 We2We4|0\"", got)
	}
	b.shot("trichess-selected.png")

	b.do("play We2We4", chromedp.Click(chromedp.CSS(`[data-move="We2We4"]`)))
	b.wait("both engines' replies", `document.querySelectorAll("#moves li").length === 1 &&
		document.querySelector("#moves li").textContent.trim().split(/\s+/).length === 3 &&
		document.getElementById("status").textContent.startsWith("Your move (white)")`)
	b.shot("trichess-reply.png")
	fields := strings.Fields(b.eval(`document.querySelector("#moves li").textContent`))
	if len(fields) != 3 || fields[0] != "We2We4" || fields[1][0] != 'R' || fields[2][0] != 'B' {
		t.Fatalf("move list %q, want We2We4 and Red's and Black's replies", fields)
	}
	if p := b.eval(`(document.querySelector('g.piece[data-square="` + fields[2][3:] + `"]') || {dataset: {}}).dataset.piece || ""`); p == "" || p[0] != 'b' {
		t.Errorf("after Black's %s the board shows %q on its square, want a Black piece", fields[2], p)
	}
	e := b.eval(`document.getElementById("engine").textContent`)
	if !strings.Contains(e, "Black (bot) played "+fields[2]) || !strings.Contains(e, "Expected points") || strings.Count(e, "value ") != 3 {
		t.Errorf("engine panel %q", e)
	}
	if ev := b.eval(`document.getElementById("evaluator").textContent`); !strings.Contains(ev, "tiny trichess test net") {
		t.Errorf("the page does not name the engine's net: %q", ev)
	}

	// A capture: after 1. We2We4 Rb2Rb3 Bd2Bd4 2. Wd2Wd4 Rd2Rd3 Black's
	// pawn on Bd4 can take White's on Wd4 across the centre; the page
	// rings the pawn it takes instead of dotting the square.
	id := b.eval(`sessionStorage.getItem("trench-game")`)
	g, err := server.lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	rec := record.New(trichess.Game.Start())
	for _, m := range []string{"We2We4", "Rb2Rb3", "Bd2Bd4", "Wd2Wd4", "Rd2Rd3"} {
		if _, err := rec.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	g.mu.Lock()
	g.rec, g.last, g.humans = rec, nil, []bool{false, false, true}
	g.mu.Unlock()
	b.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`g.piece[data-square="Bd4"]`)))
	b.wait("Black's turn", `document.getElementById("status").textContent.startsWith("Your move (black)")`)
	b.do("click the pawn on Bd4", chromedp.Click(chromedp.CSS(`g.piece[data-square="Bd4"]`)))
	b.do("its capture ringed", chromedp.WaitVisible(chromedp.CSS(`.capture[data-move="Bd4Wd4"]`)))
	if got := b.eval(`[...document.querySelectorAll('.capture')].map(e => e.dataset.square).join(" ") + "|" + document.querySelectorAll('.target').length`); got != "Wd4|1" {
		t.Errorf("ringed|dotted %q, want Wd4|1: the capture ringed, the one empty square dotted", got)
	}
	b.shot("trichess-capture.png")
	b.do("take on Wd4", chromedp.Click(chromedp.CSS(`.capture[data-move="Bd4Wd4"]`)))
	b.wait("the engines' replies", `document.getElementById("status").textContent.startsWith("Your move (black)") &&
		document.querySelectorAll("#moves li").length === 3`)
	if m := b.eval(`document.getElementById("mat-white").textContent`); m != "38" && m != "39" {
		t.Errorf("White's material %s after losing a pawn (and maybe retaking)", m)
	}
	b.shot("trichess-captured.png")
}
