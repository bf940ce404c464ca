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

	"trench/web"
)

var serveCommand = command{
	name:    "serve",
	summary: "play against the bot in a web browser",
	usage: `Usage:
  trench serve [--addr HOST:PORT] [--game trench|trichess] [--net REF]
               [--trichess-net REF] [flags]

Serves a page for playing against the bot at http://ADDR/. The page
plays Trench (the board drawn as a diamond or a square) or Trichess (the
hexagon of three sections around the centre, in the players' colours),
chosen on the page; --game says which it opens with. A click on a piece
shows its moves (captures ringed), a click on a destination plays; the
bots reply with their evaluation (Trench: an evaluation bar; Trichess:
every player's expected points) and main line. In Trichess the page says
which seats are human: one against two bots, two against one, or all
three. Each browser tab plays its own game. Everything the page needs is
built into the binary.

--net is the Trench net and --trichess-net the Trichess net, each the
built-in one by default, or a checkpoint or run directory.

By default it listens on 127.0.0.1 only; give --addr 0.0.0.0:8080 to let
other machines in. The strength is chosen on the page (levels 1..8,
--level at first; --sims or --time replace every level's limits); the
other flags of the bot are play's.

Only the page it serves can drive it. It answers a request only when the
Host header names the address the request came in on (as an IP address),
localhost, 127.0.0.1 or [::1] with its port, the host named in --addr, or
a name given with --allow-host (for a server reached by a name, e.g.
through a proxy; --allow-host '*' accepts any); an API call must come
from the page's own origin and a POST must be sent as application/json.
Other requests get 403, which keeps other sites' pages (and DNS rebinding)
out.

--searches bot searches run at once, each with --threads goroutines (at
most 256); up to --queue more requests wait for one, and further ones get
503 with Retry-After. A search whose page has gone (closed or reloaded)
is stopped and the move that asked for it taken back.

Examples:
  trench serve
  trench serve --addr 127.0.0.1:9000 --net runs/first
  trench serve --game trichess --trichess-net runs/trichess
  trench serve --addr 0.0.0.0:8080 --allow-host trench.lan
`,
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
			nets, evaluators, err := netRefs.Load(stderr)
			if err != nil {
				return usage("%w", err)
			}
			srv, err := web.New(web.Options{Nets: nets, DefaultGame: g.Name(),
				MaxGames: *maxGames, Searches: *searches, Queue: *queue, Bot: bf.c, AllowedHosts: hosts})
			if err != nil {
				return usage("%w", err)
			}
			ln, err := net.Listen("tcp", *addr)
			if err != nil {
				return usage("%w", err)
			}
			fmt.Fprintf(stdout, "trench serve: %s, at http://%s/ (Ctrl-C stops)\n", strings.Join(evaluators, ", "), ln.Addr())
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return srv.Serve(ctx, ln)
		}
	},
}
