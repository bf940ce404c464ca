// Package web serves a page for playing Trench or Trichess against the
// bot in a browser: static HTML, JavaScript and CSS embedded in the
// binary (no build step, nothing fetched from elsewhere) drawing the board
// in SVG (Trench's diamond or square, Trichess's hexagon of three sections
// around the centre), and a JSON API that keeps every game on the server
// and checks everything a page sends. Each browser tab plays its own game,
// named by an id; the server keeps a bounded number of games, dropping the
// least recently used.
//
// The API (all bodies JSON; errors are {"error": "..."} with status 400 for
// a bad request, 403 for a request the server does not take from the caller
// (see below), 404 for an unknown game, 405 for a wrong method (with an Allow
// header), 503 when the searches and the queue behind them are full (with a
// Retry-After header); a refused request changes nothing):
//
//	GET  /api/config                                               → {"games": [...], "default_game": ..., "evaluators": {...}}
//	POST /api/new        {"game": "trench"|"trichess", "side": "black"|"white",
//	                      "seats": ["white", "red"], "level": 1..8}  → State
//
// A new game is Trench unless it says otherwise; Trench takes side (the
// human's colour, black by default), Trichess takes seats (the human
// seats, one to three of white, red, black; white by default).
//
//	GET  /api/state?id=ID                                          → State
//	POST /api/move       {"id": ID, "move": "d4d5"}                → State after the bots' replies
//	POST /api/undo       {"id": ID}                                → State before the human's last move
//	POST /api/level      {"id": ID, "level": N}                    → State
//	POST /api/resign     {"id": ID}                                → State (Trench only)
//	POST /api/armistice  {"id": ID}                                → State (Trench only; Note says whether the bot agreed)
//
// Only the server's own page may drive it: every request must name in its
// Host header the address it came in on (or localhost, 127.0.0.1 or [::1]
// with that port, or a name in Options.AllowedHosts), which defeats DNS
// rebinding; an API request with an Origin header must come from that
// host; and a POST must say Content-Type: application/json, which a page of
// another site cannot send without the browser asking first. A search
// whose request is gone (the page closed or reloaded) is cancelled and its
// move undone.
package web

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"trench/bot"
	"trench/engine"
	"trench/games"
	"trench/games/plugin"
	"trench/internal/excerpt"
	"trench/neteval"
	"trench/record"
	"trench/searchconfig"
)

//go:embed static
var static embed.FS

// MaxBody is the largest request body the API reads.
const MaxBody = 1024

// retryAfter is the Retry-After, in seconds, of a request refused because
// the server is busy.
const retryAfter = "5"

// Options configure a Server.
type Options struct {
	// Nets are the tree search's conv nets by game name, each shared by
	// every game of its kind. A game whose bot is the tree search with a
	// net built in needs one (unless its settings say net none); a game
	// without one is searched with tactics.Fallback (a material
	// evaluation), which the page says.
	Nets map[string]*neteval.Net
	// DefaultGame is the game the page starts with: the first game people
	// can play (Trench) when empty.
	DefaultGame string
	// MaxGames bounds the games kept; 0 means 200.
	MaxGames int
	// Searches bounds the bot searches running at once; 0 means 1.
	Searches int
	// Queue bounds the requests that may wait for a search beyond those
	// searching; more are refused with 503. 0 means DefaultQueue.
	Queue int
	// Games are the settings of the games that do not take Bot's, by
	// game name (a net flag that named an NNUE: NetFlags.Load).
	Games map[string]searchconfig.Config
	// Bot is the bots' settings (package searchconfig); the zero value
	// means searchconfig.Play(). Its level is a new game's; its
	// simulations or time, when set, replace every level's limits (the
	// level is still shown). Its guard and endgame play in the games that
	// have a classical search, and so does its kind alphabeta where the
	// game's classical search has its evaluation (the others are searched
	// with mcts: searchconfig.Config.Fit). Its net is not read: Nets are
	// the conv nets; its NNUE is, once.
	Bot searchconfig.Config
	// AllowedHosts are host names (without a port) accepted in the Host
	// header besides the address a request came in on and localhost's
	// names; "*" accepts any host.
	AllowedHosts []string
}

// DefaultQueue is the requests that may wait for a search when
// Options.Queue is 0.
const DefaultQueue = 8

// Server is the web page and its API.
type Server struct {
	opts Options
	// plugins are the games the page offers, in the registry's order.
	plugins []*plugin.Plugin
	mux     *http.ServeMux
	// searches holds a token per running search; admitted one per request
	// that may search, running or waiting.
	searches chan struct{}
	admitted chan struct{}
	mu       sync.Mutex
	games    map[string]*game
	// makers makes each game's bots, with what they share read once.
	makers map[string]*bot.Maker
}

// New returns a server for opts.
func New(opts Options) (*Server, error) {
	plugins := webGames()
	if opts.DefaultGame == "" {
		opts.DefaultGame = plugins[0].Name()
	}
	if findGame(plugins, opts.DefaultGame) == nil {
		return nil, fmt.Errorf("web: unknown game %s (%s)", excerpt.Quote(opts.DefaultGame), strings.Join(gameNames(plugins), " or "))
	}
	for name := range opts.Nets {
		if findGame(plugins, name) == nil {
			return nil, fmt.Errorf("web: a net for unknown game %s", excerpt.Quote(name))
		}
	}
	if opts.MaxGames < 0 || opts.Searches < 0 || opts.Queue < 0 {
		return nil, fmt.Errorf("web: negative option in %+v", opts)
	}
	if opts.Bot == (searchconfig.Config{}) {
		opts.Bot = searchconfig.Play()
	}
	if err := opts.Bot.Validate(); err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	if _, err := bot.LimitsOf(opts.Bot); err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	if opts.MaxGames == 0 {
		opts.MaxGames = 200
	}
	if opts.Queue == 0 {
		opts.Queue = DefaultQueue
	}
	hosts := make([]string, len(opts.AllowedHosts))
	for i, h := range opts.AllowedHosts {
		if h == "" || strings.ContainsAny(h, "/ ") {
			return nil, fmt.Errorf("web: allowed host %s is not a host name", excerpt.Quote(h))
		}
		hosts[i] = strings.ToLower(strings.TrimSuffix(h, "."))
	}
	opts.AllowedHosts = hosts
	searches := max(1, opts.Searches)
	s := &Server{opts: opts, plugins: plugins, mux: http.NewServeMux(), games: map[string]*game{},
		searches: make(chan struct{}, searches), admitted: make(chan struct{}, searches+opts.Queue)}
	if err := s.loadMakers(); err != nil {
		return nil, err
	}
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	files := http.FileServerFS(sub)
	s.mux.Handle("/", only("GET", files))
	for path, h := range map[string]http.Handler{
		"/api/config":    only("GET", http.HandlerFunc(s.handleConfig)),
		"/api/new":       only("POST", http.HandlerFunc(s.handleNew)),
		"/api/state":     only("GET", http.HandlerFunc(s.handleState)),
		"/api/move":      only("POST", s.withGame(s.move)),
		"/api/undo":      only("POST", s.withGame(s.undo)),
		"/api/level":     only("POST", s.withGame(s.setLevel)),
		"/api/resign":    only("POST", s.withGame(s.resign)),
		"/api/armistice": only("POST", s.withGame(s.armistice)),
	} {
		s.mux.Handle(path, h)
	}
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no API endpoint %s %s", r.Method, excerpt.Quote(r.URL.Path)))
	})
	return s, nil
}

// only serves h to requests with method (GET also takes HEAD) and refuses
// others with 405.
func only(method string, h http.Handler) http.Handler {
	allow := method
	if method == "GET" {
		allow = "GET, HEAD"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == "GET" && r.Method == "HEAD") {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s takes %s, not %s", r.URL.Path, allow, excerpt.Quote(r.Method)))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ServeHTTP serves the page and the API to the requests the server takes
// (see the package comment) and refuses others with 403.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if err := s.refuse(r); err != nil {
		writeError(w, http.StatusForbidden, err.Error())
		return
	}
	s.mux.ServeHTTP(w, r)
}

// refuse says why the server does not take r, or returns nil.
func (s *Server) refuse(r *http.Request) error {
	if !s.hostAllowed(r) {
		return fmt.Errorf("this server does not answer to host %s (see trench serve --allow-host)", excerpt.Quote(r.Host))
	}
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		return nil
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		u, err := url.Parse(origin)
		if err != nil || u.Scheme != scheme || !strings.EqualFold(u.Host, r.Host) || u.Path != "" {
			return fmt.Errorf("API calls are taken only from this server's own page, not from origin %s", excerpt.Quote(origin))
		}
	}
	if r.Method == "POST" {
		ct := r.Header.Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return fmt.Errorf("API calls must have Content-Type: application/json, not %s", excerpt.Quote(ct))
		}
	}
	return nil
}

// hostAllowed reports whether r's Host header names this server: the
// address the request came in on, localhost's names with its port, or an
// allowed host name.
func (s *Server) hostAllowed(r *http.Request) bool {
	if slices.Contains(s.opts.AllowedHosts, "*") {
		return true
	}
	name, port := r.Host, ""
	if h, p, err := net.SplitHostPort(r.Host); err == nil {
		name, port = h, p
	} else if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		name = name[1 : len(name)-1]
	}
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	if name == "" {
		return false
	}
	if slices.Contains(s.opts.AllowedHosts, name) {
		return true
	}
	var local *net.TCPAddr
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		local, _ = a.(*net.TCPAddr)
	}
	if local != nil {
		if port == "" {
			port = "80"
		}
		if port != fmt.Sprint(local.Port) {
			return false
		}
	}
	switch name {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && local != nil && ip.Equal(local.IP)
}

// errBusy refuses a request when every search and queue place is taken.
var errBusy = errors.New("the server is busy with other searches; try again shortly")

// admit takes a place for a request that may search, or returns errBusy;
// release gives it back.
func (s *Server) admit() (release func(), err error) {
	select {
	case s.admitted <- struct{}{}:
		return func() { <-s.admitted }, nil
	default:
		return nil, errBusy
	}
}

// Games is the number of games kept.
func (s *Server) Games() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

// request is every field an API body may have.
type request struct {
	ID    string   `json:"id"`
	Game  string   `json:"game"`
	Move  string   `json:"move"`
	Side  string   `json:"side"`
	Seats []string `json:"seats"`
	Level int      `json:"level"`
}

// badRequest is an error shown to the page with status 400.
type badRequest struct{ msg string }

func (e badRequest) Error() string { return e.msg }

func badf(format string, args ...any) error { return badRequest{fmt.Sprintf(format, args...)} }

// decode reads one JSON object of at most MaxBody bytes with known fields.
func decode(w http.ResponseWriter, r *http.Request) (request, error) {
	var req request
	var obj *request
	body := http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return req, badf("the request body is larger than %d bytes", MaxBody)
		}
		if errors.Is(err, io.EOF) {
			return req, badf("the request body is empty; want a JSON object")
		}
		return req, badf("malformed JSON request: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return req, badf("the request body is larger than %d bytes", MaxBody)
		}
		return req, badf("malformed JSON request: data after the object")
	}
	if obj == nil {
		return req, badf("the request body is null; want a JSON object")
	}
	return *obj, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// fail writes err with its status.
func fail(w http.ResponseWriter, err error) {
	var br badRequest
	switch {
	case errors.As(err, &br):
		writeError(w, http.StatusBadRequest, br.msg)
	case errors.Is(err, errNoGame):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, errBusy):
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, err.Error())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// The caller has gone; this answer is for the log, if any.
		writeError(w, http.StatusServiceUnavailable, "the request ended before the search: "+err.Error())
	default:
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}

var errNoGame = errors.New("no such game (it may have been dropped to make room); start a new one")

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// limitsFor returns the search limits of a level in game eg.
func (s *Server) limitsFor(eg engine.Game, level int) (bot.Limits, error) {
	c := s.settings(eg)
	l, err := bot.Level(c.Kind, level)
	if err != nil {
		return l, badRequest{err.Error()}
	}
	if c.Sims > 0 || c.Nodes > 0 || c.Time > 0 {
		return bot.LimitsOf(c)
	}
	return l, nil
}

// loadMakers makes each game's bot maker with the server's settings for
// it: the alphabeta kind's evaluation read once, or the mcts kind with
// the game's net of Options.Nets (a game with a net built in needs one
// unless its settings say net none), so that a net that does not load
// stops the server before its first game.
func (s *Server) loadMakers() error {
	s.makers = map[string]*bot.Maker{}
	for _, p := range s.plugins {
		c := s.settings(p.Rules)
		net := s.opts.Nets[p.Name()]
		if c.Kind == searchconfig.MCTS && c.Net != searchconfig.NoNet && net == nil && p.DefaultNet != nil {
			return fmt.Errorf("web: no net for %s", p.Name())
		}
		m, err := bot.NewMaker(p.Rules, c, func(string) (*neteval.Net, error) {
			return net, nil // nil: a search with tactics.Fallback
		})
		if err != nil {
			return fmt.Errorf("web: %s: %w", p.Title, err)
		}
		s.makers[p.Name()] = m
	}
	return nil
}

// settings returns the server's bot settings for game eg: its own of
// Options.Games, else Options.Bot fitted to eg (searchconfig.Config.Fit),
// a net in Options.Nets counting as given.
func (s *Server) settings(eg engine.Game) searchconfig.Config {
	if c, ok := s.opts.Games[eg.Name()]; ok {
		return c
	}
	c := s.opts.Bot
	c.Fit(eg, func(key string) bool { return key == "net" && s.opts.Nets[eg.Name()] != nil })
	return c
}

// Describe says what the bot of each game the page offers searches with,
// e.g. "Trench with alphabeta with nnue net ... (built in)".
func (s *Server) Describe() []string {
	var out []string
	for _, p := range s.plugins {
		out = append(out, p.Title+" with "+s.makers[p.Name()].String())
	}
	return out
}

// Config is what the page needs to know before its first game.
type Config struct {
	Games       []string `json:"games"`
	DefaultGame string   `json:"default_game"`
	// Evaluators describes what the bot searches each game with.
	Evaluators map[string]string `json:"evaluators"`
}

func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request) {
	c := Config{Games: gameNames(s.plugins), DefaultGame: s.opts.DefaultGame, Evaluators: map[string]string{}}
	for _, p := range s.plugins {
		c.Evaluators[p.Name()] = s.makers[p.Name()].String()
	}
	writeJSON(w, c)
}

// webGames are the games the page offers: those people can play that
// have a web board.
func webGames() []*plugin.Plugin {
	var out []*plugin.Plugin
	for _, p := range games.Playable() {
		if p.Web != nil {
			out = append(out, p)
		}
	}
	return out
}

// findGame returns the plug-in in ps of the game called name, or nil.
func findGame(ps []*plugin.Plugin, name string) *plugin.Plugin {
	p, err := games.Lookup(name)
	if err != nil || !slices.Contains(ps, p) {
		return nil
	}
	return p
}

// gameNames lists the names of the games of ps.
func gameNames(ps []*plugin.Plugin) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name()
	}
	return names
}

// newBot makes a bot for game eg with its maker (loadMakers).
func (s *Server) newBot(eg engine.Game) (bot.Bot, error) {
	return s.makers[eg.Name()].New(0, nil)
}

// humanSeats reads a new game's side (a two-player game, e.g. Trench) or
// seats (Trichess); either defaults to the first seat.
func humanSeats(p *plugin.Plugin, req request) ([]bool, error) {
	eg := p.Rules
	humans := make([]bool, eg.Players())
	if eg.Players() == 2 {
		if len(req.Seats) > 0 {
			return nil, badf("a %s game takes side, not seats", p.Title)
		}
		if req.Side == "" {
			humans[0] = true
			return humans, nil
		}
		seat := seatByName(eg, req.Side)
		if seat < 0 {
			names := []string{record.PlayerName(eg, 0), record.PlayerName(eg, 1)}
			return nil, badf("side must be %s, got %s", strings.Join(names, " or "), excerpt.Quote(req.Side))
		}
		humans[seat] = true
		return humans, nil
	}
	if req.Side != "" {
		return nil, badf("a %s game takes seats, not side", eg.Name())
	}
	if len(req.Seats) == 0 {
		humans[0] = true
		return humans, nil
	}
	if len(req.Seats) > eg.Players() {
		return nil, badf("%d seats given; %s has %d", len(req.Seats), eg.Name(), eg.Players())
	}
	for _, name := range req.Seats {
		p := seatByName(eg, name)
		if p < 0 {
			return nil, badf("no seat %s in %s", excerpt.Quote(name), eg.Name())
		}
		if humans[p] {
			return nil, badf("seat %s given twice", name)
		}
		humans[p] = true
	}
	return humans, nil
}

// seatByName returns the seat of eg called name (in any case), or -1.
func seatByName(eg engine.Game, name string) int {
	for q := range eg.Players() {
		if strings.EqualFold(name, record.PlayerName(eg, q)) {
			return q
		}
	}
	return -1
}

func (s *Server) handleNew(w http.ResponseWriter, r *http.Request) {
	req, err := decode(w, r)
	if err != nil {
		fail(w, err)
		return
	}
	release, err := s.admit()
	if err != nil {
		fail(w, err)
		return
	}
	defer release()
	if req.ID != "" || req.Move != "" {
		fail(w, badf("a new game takes only game, side, seats and level"))
		return
	}
	p := s.plugins[0]
	if req.Game != "" {
		if p = findGame(s.plugins, req.Game); p == nil {
			fail(w, badf("game must be %s, got %s", strings.Join(gameNames(s.plugins), " or "), excerpt.Quote(req.Game)))
			return
		}
	}
	eg := p.Rules
	humans, err := humanSeats(p, req)
	if err != nil {
		fail(w, err)
		return
	}
	level := req.Level
	if level == 0 {
		level = s.opts.Bot.Level
	}
	limits, err := s.limitsFor(eg, level)
	if err != nil {
		fail(w, err)
		return
	}
	b, err := s.newBot(eg)
	if err != nil {
		fail(w, err)
		return
	}
	g := &game{id: newID(), eg: eg, plug: p, rec: record.New(eg.Start()), bot: b, humans: humans,
		level: level, limits: limits, used: time.Now()}
	g.mu.Lock()
	defer g.mu.Unlock()
	// The game is kept only once the bot has made its opening moves.
	if err := g.botReply(r.Context(), s); err != nil {
		fail(w, err)
		return
	}
	s.add(g)
	writeJSON(w, g.state())
}

// add keeps g, dropping the least recently used game when full.
func (s *Server) add(g *game) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.games) >= s.opts.MaxGames {
		var oldest *game
		for _, o := range s.games {
			if oldest == nil || o.used.Before(oldest.used) {
				oldest = o
			}
		}
		delete(s.games, oldest.id)
	}
	s.games[g.id] = g
}

// lookup returns the game with id, marking it used.
func (s *Server) lookup(id string) (*game, error) {
	if id == "" {
		return nil, badf("no game id")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return nil, errNoGame
	}
	g.used = time.Now()
	return g, nil
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	g, err := s.lookup(r.URL.Query().Get("id"))
	if err != nil {
		fail(w, err)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	writeJSON(w, g.state())
}

// withGame decodes a request naming a game and runs action on it under the
// game's lock; action must leave the game unchanged when it fails, and
// stop when the request's context is done.
func (s *Server) withGame(action func(context.Context, *game, request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode(w, r)
		if err != nil {
			fail(w, err)
			return
		}
		// A place is held while waiting for the game too: the wait may be
		// for another request's search.
		release, err := s.admit()
		if err != nil {
			fail(w, err)
			return
		}
		defer release()
		g, err := s.lookup(req.ID)
		if err != nil {
			fail(w, err)
			return
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		g.note = ""
		if err := action(r.Context(), g, req); err != nil {
			fail(w, err)
			return
		}
		writeJSON(w, g.state())
	}
}

func (s *Server) move(ctx context.Context, g *game, req request) error {
	if req.Move == "" {
		return badf("no move")
	}
	if len(req.Move) > 8 {
		return badf("%s is not a move", excerpt.Quote(req.Move))
	}
	if g.rec.Over() {
		return badf("the game is over")
	}
	if !g.humanToMove() {
		return badf("it is not your move")
	}
	n, last := g.rec.Len(), g.last
	if _, err := g.rec.Play(req.Move); err != nil {
		return badf("%s: %v", req.Move, err)
	}
	g.last = nil
	if err := g.botReply(ctx, s); err != nil {
		// Take the move back with any replies, so that the page can play
		// it again.
		g.rec.Undo(g.rec.Len() - n)
		g.last = last
		return err
	}
	return nil
}

func (s *Server) undo(ctx context.Context, g *game, req request) error {
	if e := g.rec.Ending(); e == record.Resignation || e == record.Armistice {
		g.rec.Undo(0)
		return nil
	}
	n := g.rec.Len()
	for n > 0 && !g.humans[g.rec.Position(n-1).ToMove()] {
		n--
	}
	if n == 0 {
		return badf("you have no move to take back")
	}
	g.rec.Undo(g.rec.Len() - n + 1)
	g.last = nil
	return nil
}

func (s *Server) setLevel(ctx context.Context, g *game, req request) error {
	l, err := s.limitsFor(g.eg, req.Level)
	if err != nil {
		return err
	}
	g.level, g.limits = req.Level, l
	return nil
}

func (s *Server) resign(ctx context.Context, g *game, req request) error {
	if g.eg.Players() != 2 {
		return badf("%s has no resignation: its rules end a game only by mate, pat, échec et fat, 150 quiet plies or repetition", g.eg.Name())
	}
	human := 0
	for p, h := range g.humans {
		if h {
			human = p
		}
	}
	if err := g.rec.Resign(human); err != nil {
		return badf("%v", err)
	}
	return nil
}

func (s *Server) armistice(ctx context.Context, g *game, req request) error {
	if g.eg.Players() != 2 {
		return badf("%s has no armistice", g.eg.Name())
	}
	if g.rec.Over() {
		return badf("the game is over")
	}
	engineSide := -1
	for p, h := range g.humans {
		if !h {
			engineSide = p
		}
	}
	a, err := g.search(ctx, s)
	if err != nil {
		return err
	}
	if !bot.AcceptsArmistice(g.rec.Current(), engineSide, a) {
		g.note = "The bot declines the armistice."
		return nil
	}
	g.note = "The bot accepts the armistice."
	return g.rec.AgreeArmistice()
}

// Serve answers the requests arriving on ln with s until ctx ends, then
// shuts down, giving the requests under way up to five seconds. It
// returns the error that ended serving, or the shutdown's.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.Shutdown(sctx)
}
