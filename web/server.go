// Package web serves a page for playing Trench or Trichess against the
// engine in a browser: static HTML, JavaScript and CSS embedded in the
// binary (no build step, nothing fetched from elsewhere) drawing the board
// in SVG (Trench's diamond or square, Trichess's hexagon of three sections
// around the centre), and a JSON API that keeps every game on the server
// and checks everything a page sends. Each browser tab plays its own game,
// named by an id; the server keeps a bounded number of games, dropping the
// least recently used.
//
// The API (all bodies JSON; errors are {"error": "..."} with status 400 for
// a bad request, 404 for an unknown game, 405 for a wrong method; a refused
// request changes nothing):
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
//	POST /api/move       {"id": ID, "move": "d4d5"}                → State after the engines' replies
//	POST /api/undo       {"id": ID}                                → State before the human's last move
//	POST /api/level      {"id": ID, "level": N}                    → State
//	POST /api/resign     {"id": ID}                                → State (Trench only)
//	POST /api/armistice  {"id": ID}                                → State (Trench only; Note says whether the engine agreed)
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
	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/record"
)

//go:embed static
var static embed.FS

// MaxBody is the largest request body the API reads.
const MaxBody = 1024

// Options configure a Server.
type Options struct {
	// Net is the engine's Trench net, shared by every Trench game.
	Net *bot.Net
	// TrichessNet is the engine's Trichess net; nil searches Trichess with
	// bot.Fallback (a material evaluation), which the page says.
	TrichessNet *bot.Net
	// DefaultGame is the game the page starts with: "trench" (the
	// default) or "trichess".
	DefaultGame string
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
	switch opts.DefaultGame {
	case "":
		opts.DefaultGame = trench.Game.Name()
	case trench.Game.Name(), trichess.Game.Name():
	default:
		return nil, fmt.Errorf("web: unknown game %q (trench or trichess)", opts.DefaultGame)
	}
	if opts.TrichessNet != nil {
		if _, err := bot.New(trichess.Game, opts.TrichessNet, bot.Options{}); err != nil {
			return nil, fmt.Errorf("web: the Trichess net: %w", err)
		}
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
	s.mux.HandleFunc("GET /api/config", s.handleConfig)
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

// Config is what the page needs to know before its first game.
type Config struct {
	Games       []string `json:"games"`
	DefaultGame string   `json:"default_game"`
	// Evaluators describes what the engine searches each game with.
	Evaluators map[string]string `json:"evaluators"`
}

func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request) {
	c := Config{Games: []string{trench.Game.Name(), trichess.Game.Name()}, DefaultGame: s.opts.DefaultGame,
		Evaluators: map[string]string{trench.Game.Name(): s.opts.Net.String(), trichess.Game.Name(): bot.FallbackDoc}}
	if s.opts.TrichessNet != nil {
		c.Evaluators[trichess.Game.Name()] = s.opts.TrichessNet.String()
	}
	writeJSON(w, c)
}

// newBot makes a bot for game eg.
func (s *Server) newBot(eg engine.Game) (*bot.Bot, error) {
	o := bot.Options{Threads: s.opts.Threads}
	switch {
	case eg.Name() == trench.Game.Name():
		return bot.New(eg, s.opts.Net, o)
	case s.opts.TrichessNet != nil:
		return bot.New(eg, s.opts.TrichessNet, o)
	}
	return bot.NewWithEvaluator(eg, bot.Fallback{}, bot.FallbackDoc, o)
}

// humanSeats reads a new game's side (Trench) or seats (Trichess).
func humanSeats(eg engine.Game, req request) ([]bool, error) {
	humans := make([]bool, eg.Players())
	if eg.Players() == 2 {
		if len(req.Seats) > 0 {
			return nil, badf("a Trench game takes side, not seats")
		}
		switch strings.ToLower(req.Side) {
		case "", "black":
			humans[trench.Black] = true
		case "white":
			humans[trench.White] = true
		default:
			return nil, badf("side must be black or white, got %q", req.Side)
		}
		return humans, nil
	}
	if req.Side != "" {
		return nil, badf("a %s game takes seats, not side", eg.Name())
	}
	if len(req.Seats) == 0 {
		humans[trichess.White] = true
		return humans, nil
	}
	if len(req.Seats) > eg.Players() {
		return nil, badf("%d seats given; %s has %d", len(req.Seats), eg.Name(), eg.Players())
	}
	for _, name := range req.Seats {
		p := -1
		for q := range eg.Players() {
			if strings.EqualFold(name, record.PlayerName(eg, q)) {
				p = q
			}
		}
		if p < 0 {
			return nil, badf("no seat %q in %s", name, eg.Name())
		}
		if humans[p] {
			return nil, badf("seat %s given twice", name)
		}
		humans[p] = true
	}
	return humans, nil
}

func (s *Server) handleNew(w http.ResponseWriter, r *http.Request) {
	req, err := decode(w, r)
	if err != nil {
		fail(w, err)
		return
	}
	if req.ID != "" || req.Move != "" {
		fail(w, badf("a new game takes only game, side, seats and level"))
		return
	}
	var eg engine.Game
	switch req.Game {
	case "", trench.Game.Name():
		eg = trench.Game
	case trichess.Game.Name():
		eg = trichess.Game
	default:
		fail(w, badf("game must be trench or trichess, got %q", req.Game))
		return
	}
	humans, err := humanSeats(eg, req)
	if err != nil {
		fail(w, err)
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
	b, err := s.newBot(eg)
	if err != nil {
		fail(w, err)
		return
	}
	g := &game{id: newID(), eg: eg, rec: record.New(eg.Start()), bot: b, humans: humans,
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
	if !g.humanToMove() {
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
	l, err := s.limitsFor(req.Level)
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
		g.note = "The engine declines the armistice."
		return nil
	}
	g.note = "The engine accepts the armistice."
	return g.rec.AgreeArmistice()
}
