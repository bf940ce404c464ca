package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"trench/faces/web"
)

var serveCommand = command{
	name:    "serve",
	summary: "play against the bot in a web browser",
	usage:   helpText("serve"),
	setup: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) error {
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
		netRefs := web.BindNetFlags(fs)
		gameName := bindGameFlag(fs)
		maxGames := fs.Int("max-games", 200, "games kept at once; the least recently used is dropped")
		searches := fs.Int("searches", 1, "bot searches running at once")
		queue := fs.Int("queue", web.DefaultQueue, "requests that may wait for a search; more get 503")
		bf := bindBotFlags(fs, "net")
		allowHosts := fs.StringSlice("allow-host", nil, `also answer requests to this host name (repeat or comma-separate; "*": any)`)
		return func(_ []string, stdout, stderr io.Writer) error {
			if *maxGames < 1 || *searches < 1 || *queue < 1 {
				return usage("--max-games, --searches and --queue must be at least 1")
			}
			if err := bf.c.Flags(fs); err != nil {
				return usage("%w", err)
			}
			hosts := *allowHosts
			if h, _, err := net.SplitHostPort(*addr); err == nil && h != "" && net.ParseIP(h) == nil {
				hosts = append(hosts, h)
			}
			g, err := playableGame(*gameName)
			if err != nil {
				return usage("%w", err)
			}
			nets, settings, err := netRefs.Load(bf.c, fs.Changed, stderr)
			if err != nil {
				return usage("%w", err)
			}
			srv, err := web.New(web.Options{Nets: nets, Games: settings, DefaultGame: g.Name(),
				MaxGames: *maxGames, Searches: *searches, Queue: *queue, Bot: bf.c, AllowedHosts: hosts})
			if err != nil {
				return usage("%w", err)
			}
			ln, err := net.Listen("tcp", *addr)
			if err != nil {
				return usage("%w", err)
			}
			fmt.Fprintf(stdout, "trench serve: %s, at http://%s/ (Ctrl-C stops)\n", strings.Join(srv.Describe(), ", "), ln.Addr())
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return srv.Serve(ctx, ln)
		}
	},
}
