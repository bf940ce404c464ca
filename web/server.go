// Package web serves a page for playing Trench against the engine in a
// browser: static HTML, JavaScript and CSS embedded in the binary (no build
// step, nothing fetched from elsewhere) drawing the board in SVG, and a
// JSON API that keeps every game on the server and checks everything a
// page sends. Each browser tab plays its own game, named by an id; the
// server keeps a bounded number of games, dropping the least recently used.
//
// The API (all bodies JSON; errors are {"error": "..."} with status 400 for
// a bad request, 404 for an unknown game, 405 for a wrong method):
//
//	POST /api/new        {"side": "black"|"white", "level": 1..8}  → State
//	GET  /api/state?id=ID                                          → State
//	POST /api/move       {"id": ID, "move": "d4d5"}                → State after the engine's reply
//	POST /api/undo       {"id": ID}                                → State before the human's last move
//	POST /api/level      {"id": ID, "level": N}                    → State
//	POST /api/resign     {"id": ID}                                → State
//	POST /api/armistice  {"id": ID}                                → State (Note says whether the engine agreed)
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
	"net/http"
	"strings"
	"sync"
	"time"

	"trench/bot"
	"trench/engine/trench"
	"trench/record"
)

//go:embed static
var static embed.FS

// MaxBody is the largest request body the API reads.
const MaxBody = 1024

// Options configure a Server.
type Options struct {
	// Net is the engine's net, shared by every game.
	Net *bot.Net
	// MaxGames bounds the games kept; 0 means 200.
	MaxGames int
	// Searches bounds the engine searches running at once; 0 means 1.
	Searches int
	// Threads is each search's goroutines; 0 means 1.
	Threads int
	// Limits, when set, replace the named levels' limits for every game
	// (the level is still shown); tests use it to keep searches small.
	Limits *bot.Limits
}

// Server is the web page and its API.
type Server struct {
	opts     Options
	mux      *http.ServeMux
	searches chan struct{}
	mu       sync.Mutex
	games    map[string]*game
}

// New returns a server for opts.
func New(opts Options) (*Server, error) {
	if opts.Net == nil {
		return nil, errors.New("web: no net")
	}
	if opts.MaxGames < 0 || opts.Searches < 0 || opts.Threads < 0 {
		return nil, fmt.Errorf("web: negative option in %+v", opts)
	}
	if opts.MaxGames == 0 {
		opts.MaxGames = 200
	}
	if opts.Limits != nil {
		if err := opts.Limits.Validate(); err != nil {
			return nil, err
		}
	}
	s := &Server{opts: opts, mux: http.NewServeMux(), games: map[string]*game{},
		searches: make(chan struct{}, max(1, opts.Searches))}
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	files := http.FileServerFS(sub)
	s.mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			noEndpoint(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
	s.mux.HandleFunc("POST /api/new", s.handleNew)
	s.mux.HandleFunc("GET /api/state", s.handleState)
	s.mux.HandleFunc("POST /api/move", s.withGame(s.move))
	s.mux.HandleFunc("POST /api/undo", s.withGame(s.undo))
	s.mux.HandleFunc("POST /api/level", s.withGame(s.setLevel))
	s.mux.HandleFunc("POST /api/resign", s.withGame(s.resign))
	s.mux.HandleFunc("POST /api/armistice", s.withGame(s.armistice))
	s.mux.HandleFunc("POST /api/", noEndpoint)
	return s, nil
}

func noEndpoint(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("no API endpoint %s %s", r.Method, r.URL.Path))
}

// ServeHTTP serves the page and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

// Games is the number of games kept.
func (s *Server) Games() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

// request is every field an API body may have.
type request struct {
	ID    string `json:"id"`
	Move  string `json:"move"`
	Side  string `json:"side"`
	Level int    `json:"level"`
}

// badRequest is an error shown to the page with status 400.
type badRequest struct{ msg string }

func (e badRequest) Error() string { return e.msg }

func badf(format string, args ...any) error { return badRequest{fmt.Sprintf(format, args...)} }

// decode reads one JSON object of at most MaxBody bytes with known fields.
func decode(w http.ResponseWriter, r *http.Request) (request, error) {
	var req request
	body := http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
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
	return req, nil
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

// limitsFor returns the search limits of a level.
func (s *Server) limitsFor(level int) (bot.Limits, error) {
	l, err := bot.Level(level)
	if err != nil {
		return l, badRequest{err.Error()}
	}
	if s.opts.Limits != nil {
		l = *s.opts.Limits
	}
	return l, nil
}

func (s *Server) handleNew(w http.ResponseWriter, r *http.Request) {
	req, err := decode(w, r)
	if err != nil {
		fail(w, err)
		return
	}
	if req.ID != "" || req.Move != "" {
		fail(w, badf("a new game takes only side and level"))
		return
	}
	human := trench.Black
	switch strings.ToLower(req.Side) {
	case "", "black":
	case "white":
		human = trench.White
	default:
		fail(w, badf("side must be black or white, got %q", req.Side))
		return
	}
	level := req.Level
	if level == 0 {
		level = bot.DefaultLevel
	}
	limits, err := s.limitsFor(level)
	if err != nil {
		fail(w, err)
		return
	}
	b, err := bot.New(trench.Game, s.opts.Net, bot.Options{Threads: s.opts.Threads})
	if err != nil {
		fail(w, err)
		return
	}
	g := &game{id: newID(), rec: record.New(trench.Game.Start()), bot: b, human: int(human),
		level: level, limits: limits, used: time.Now()}
	s.add(g)
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.engineReply(context.WithoutCancel(r.Context()), s); err != nil {
		fail(w, err)
		return
	}
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
// game's lock; action must leave the game unchanged when it fails.
func (s *Server) withGame(action func(context.Context, *game, request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode(w, r)
		if err != nil {
			fail(w, err)
			return
		}
		g, err := s.lookup(req.ID)
		if err != nil {
			fail(w, err)
			return
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		g.note = ""
		// The engine's reply is part of the game's state: it is searched
		// to the end even if the page goes away.
		if err := action(context.WithoutCancel(r.Context()), g, req); err != nil {
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
		return badf("%q is not a move", req.Move)
	}
	if g.rec.Over() {
		return badf("the game is over")
	}
	if g.rec.Current().ToMove() != g.human {
		return badf("it is not your move")
	}
	if _, err := g.rec.Play(req.Move); err != nil {
		return badf("%s: %v", req.Move, err)
	}
	g.last = nil
	return g.engineReply(ctx, s)
}

func (s *Server) undo(ctx context.Context, g *game, req request) error {
	if e := g.rec.Ending(); e == record.Resignation || e == record.Armistice {
		g.rec.Undo(0)
		return nil
	}
	n := g.rec.Len()
	for n > 0 && g.rec.Position(n-1).ToMove() != g.human {
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
	l, err := s.limitsFor(req.Level)
	if err != nil {
		return err
	}
	g.level, g.limits = req.Level, l
	return nil
}

func (s *Server) resign(ctx context.Context, g *game, req request) error {
	if err := g.rec.Resign(g.human); err != nil {
		return badf("%v", err)
	}
	return nil
}

func (s *Server) armistice(ctx context.Context, g *game, req request) error {
	if g.rec.Over() {
		return badf("the game is over")
	}
	a, err := g.search(ctx, s)
	if err != nil {
		return err
	}
	if !bot.AcceptsArmistice(g.rec.Current(), 1-g.human, a) {
		g.note = "The engine declines the armistice."
		return nil
	}
	g.note = "The engine accepts the armistice."
	return g.rec.AgreeArmistice()
}
