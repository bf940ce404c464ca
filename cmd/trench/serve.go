package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"trench/web"
)

var serveCommand = command{
	name:    "serve",
	summary: "play against the engine in a web browser",
	usage: `Usage:
  trench serve [--addr HOST:PORT] [--net REF] [flags]

Serves a page for playing against the engine at http://ADDR/: the board
drawn as a diamond (or a square), a click on a piece shows its moves, a
click on a destination plays; the engine replies with its evaluation bar
and main line. Each browser tab plays its own game. Everything the page
needs is built into the binary.

By default it listens on 127.0.0.1 only; give --addr 0.0.0.0:8080 to let
other machines in. The strength is chosen on the page (levels 1..8).

Examples:
  trench serve
  trench serve --addr 127.0.0.1:9000 --net runs/first
`,
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
		netRef := fs.String("net", "default", `the net: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in)`)
		maxGames := fs.Int("max-games", 200, "games kept at once; the least recently used is dropped")
		searches := fs.Int("searches", 1, "engine searches running at once")
		threads := fs.Int("threads", 1, "goroutines per search")
		return func(args []string, stdout, stderr io.Writer) error {
			if len(args) > 0 {
				return &exitError{2, fmt.Errorf("unexpected argument %q", args[0])}
			}
			if *maxGames < 1 || *searches < 1 || *threads < 1 {
				return &exitError{2, errors.New("--max-games, --searches and --threads must be at least 1")}
			}
			bf := &botFlags{net: netRef, threads: threads}
			engineNet, _, err := bf.load()
			if err != nil {
				return &exitError{2, err}
			}
			srv, err := web.New(web.Options{Net: engineNet, MaxGames: *maxGames, Searches: *searches, Threads: *threads})
			if err != nil {
				return &exitError{2, err}
			}
			ln, err := net.Listen("tcp", *addr)
			if err != nil {
				return &exitError{2, err}
			}
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
			fmt.Fprintf(stdout, "trench serve: playing %s at http://%s/ (Ctrl-C stops)\n", engineNet, ln.Addr())
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
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
	},
}
