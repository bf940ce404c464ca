package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"trench/searchconfig"
)

// send makes a request to a running server with the given headers ("Host"
// sets the Host header) and returns the status, the headers and the body.
func send(t *testing.T, ctx context.Context, method, url, body string, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

// jsonError returns the message of an error body, failing when the body
// is not one.
func jsonError(t *testing.T, body string) string {
	t.Helper()
	var e struct{ Error string }
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error == "" {
		t.Fatalf("not a JSON error: %q", body)
	}
	return e.Error
}

// TestOnlyTheOwnPageDrivesTheServer sends requests another site's page (or
// a DNS rebinding attack) could send to a real server, and requests the
// server's own page sends.
func TestOnlyTheOwnPageDrivesTheServer(t *testing.T) {
	s, err := New(Options{Nets: testNets(t), Bot: testBot(4, 0), AllowedHosts: []string{"Trench.LAN."}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	port := u.Port()
	own := "http://" + u.Host
	json := "application/json"
	for _, tc := range []struct {
		name, method, path, body string
		headers                  map[string]string
		code                     int
		want                     string
	}{
		{"the page's new game", "POST", "/api/new", `{}`, map[string]string{"Content-Type": json, "Origin": own}, 200, `"id"`},
		{"charset parameter", "POST", "/api/new", `{}`, map[string]string{"Content-Type": json + "; charset=utf-8"}, 200, `"id"`},
		{"localhost name", "POST", "/api/new", `{}`, map[string]string{"Content-Type": json, "Host": "localhost:" + port, "Origin": "http://localhost:" + port}, 200, `"id"`},
		{"IPv6 loopback name", "GET", "/api/config", ``, map[string]string{"Host": "[::1]:" + port}, 200, `"games"`},
		{"allowed host", "GET", "/api/config", ``, map[string]string{"Host": "trench.lan:8080"}, 200, `"games"`},
		{"the page itself", "GET", "/", ``, nil, 200, "<svg"},
		{"text/plain", "POST", "/api/new", `{}`, map[string]string{"Content-Type": "text/plain"}, 403, "Content-Type: application/json"},
		{"form", "POST", "/api/new", `{}`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 403, "Content-Type"},
		{"no content type", "POST", "/api/new", `{}`, nil, 403, "Content-Type"},
		{"another origin", "POST", "/api/new", `{}`, map[string]string{"Content-Type": json, "Origin": "http://evil.example"}, 403, "evil.example"},
		{"another port", "POST", "/api/new", `{}`, map[string]string{"Content-Type": json, "Origin": "http://127.0.0.1:1"}, 403, "origin"},
		{"null origin", "GET", "/api/config", ``, map[string]string{"Origin": "null"}, 403, "origin"},
		{"rebound host", "GET", "/api/config", ``, map[string]string{"Host": "evil.example:" + port}, 403, "evil.example"},
		{"rebound host, the page", "GET", "/", ``, map[string]string{"Host": "evil.example:" + port}, 403, "host"},
		{"localhost on another port", "GET", "/api/config", ``, map[string]string{"Host": "localhost:1"}, 403, "host"},
		{"another IP", "GET", "/api/config", ``, map[string]string{"Host": "10.1.2.3:" + port}, 403, "host"},
		{"long host quoted short", "GET", "/api/config", ``, map[string]string{"Host": strings.Repeat("a", 300) + ".example"}, 403, "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games := s.Games()
			code, _, body := send(t, context.Background(), tc.method, srv.URL+tc.path, tc.body, tc.headers)
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Fatalf("status %d body %q, want %d with %q", code, body, tc.code, tc.want)
			}
			if code == 403 {
				jsonError(t, body)
				if s.Games() != games {
					t.Errorf("a refused request made a game")
				}
			}
		})
	}
}

func TestHostsWithAnyName(t *testing.T) {
	s, err := New(Options{Bot: testBot(0, 0), Nets: testNets(t), AllowedHosts: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	if code, _, body := send(t, context.Background(), "GET", srv.URL+"/api/config", "", map[string]string{"Host": "anything.example"}); code != 200 {
		t.Errorf("--allow-host '*' refused a host: %d %s", code, body)
	}
	if _, err := New(Options{Bot: testBot(0, 0), Nets: testNets(t), AllowedHosts: []string{"a/b"}}); err == nil {
		t.Error("a host name with a slash was accepted")
	}
}

func TestWrongMethods(t *testing.T) {
	s := newServer(t, 10)
	for _, tc := range []struct{ method, path, allow string }{
		{"PUT", "/api/move", "POST"},
		{"GET", "/api/move", "POST"},
		{"GET", "/api/new", "POST"},
		{"DELETE", "/api/state", "GET, HEAD"},
		{"POST", "/api/config", "GET, HEAD"},
		{"POST", "/", "GET, HEAD"},
		{"POST", "/app.js", "GET, HEAD"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, pageRequest(tc.method, tc.path, `{}`))
			if rec.Code != 405 || rec.Header().Get("Allow") != tc.allow {
				t.Fatalf("status %d, Allow %q; want 405 with Allow %q", rec.Code, rec.Header().Get("Allow"), tc.allow)
			}
			if msg := jsonError(t, rec.Body.String()); !strings.Contains(msg, tc.allow) {
				t.Errorf("error %q does not say what the endpoint takes", msg)
			}
		})
	}
}

// waitFor polls cond for up to ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestSearchOfAGoneRequestIsCancelled starts a long search on a real
// server, hangs up, and sees the one search slot free again at once, the
// game as it was before the move.
func TestSearchOfAGoneRequestIsCancelled(t *testing.T) {
	s, err := New(Options{Nets: testNets(t), Searches: 1, Bot: testBot(0, time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	page := map[string]string{"Content-Type": "application/json"}

	// A game where the human moves first: made without a search.
	code, _, body := send(t, context.Background(), "POST", srv.URL+"/api/new", `{}`, page)
	if code != 200 {
		t.Fatalf("new game: %d %s", code, body)
	}
	var st State
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}

	ctx, hangUp := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/api/move", strings.NewReader(`{"id":"`+st.ID+`","move":"d4d5"}`))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	waitFor(t, "the engine's search", func() bool { return len(s.searches) == 1 })
	start := time.Now()
	hangUp()
	<-done
	waitFor(t, "the search to be cancelled", func() bool { return len(s.searches) == 0 })
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the search ran %v after its request was gone", d)
	}
	// The move the engine did not answer is taken back.
	waitFor(t, "the game to be free", func() bool {
		g, _ := s.lookup(st.ID)
		if !g.mu.TryLock() {
			return false
		}
		g.mu.Unlock()
		return true
	})
	code, _, body = send(t, context.Background(), "GET", srv.URL+"/api/state?id="+st.ID, "", nil)
	if code != 200 || !strings.Contains(body, `"moves":[]`) || !strings.Contains(body, `"to_move":"black"`) {
		t.Errorf("after the cancelled move: %d %s", code, body)
	}
}

// TestFullQueueIsRefused fills the one search and the one queue place and
// sees the next request refused with 503 and Retry-After, and a new game
// cancelled before its opening move not kept.
func TestFullQueueIsRefused(t *testing.T) {
	s, err := New(Options{Nets: testNets(t), Searches: 1, Queue: 1, Bot: testBot(0, time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, hangUp := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	searching := func() {
		// Playing White, the human waits for the engine's first move.
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/api/new", strings.NewReader(`{"side":"white"}`))
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
		done <- struct{}{}
	}
	go searching()
	waitFor(t, "the first search", func() bool { return len(s.searches) == 1 })
	go searching()
	waitFor(t, "the queued request", func() bool { return len(s.admitted) == 2 })

	code, header, body := send(t, context.Background(), "POST", srv.URL+"/api/new", `{}`, map[string]string{"Content-Type": "application/json"})
	if code != 503 || header.Get("Retry-After") == "" {
		t.Fatalf("with the queue full: status %d, Retry-After %q, want 503 with Retry-After", code, header.Get("Retry-After"))
	}
	if msg := jsonError(t, body); !strings.Contains(msg, "busy") {
		t.Errorf("error %q", msg)
	}
	hangUp()
	<-done
	<-done
	waitFor(t, "the places to be free", func() bool { return len(s.admitted) == 0 })
	if n := s.Games(); n != 0 {
		t.Errorf("%d games kept from requests that hung up before the engine moved", n)
	}
	// With the places free, the same request is served.
	if code, _, body := send(t, context.Background(), "POST", srv.URL+"/api/new", `{}`, map[string]string{"Content-Type": "application/json"}); code != 200 {
		t.Errorf("after the queue emptied: %d %s", code, body)
	}
}

func TestThreadsAreBounded(t *testing.T) {
	c := testBot(0, 0)
	c.Threads = searchconfig.MaxThreads + 1
	if _, err := New(Options{Bot: c, Nets: testNets(t)}); err == nil || !strings.Contains(err.Error(), "256") {
		t.Errorf("%d threads: %v, want an error naming the limit", c.Threads, err)
	}
	c.Threads = searchconfig.MaxThreads
	if _, err := New(Options{Bot: c, Nets: testNets(t)}); err != nil {
		t.Errorf("%d threads refused: %v", c.Threads, err)
	}
}
