package web

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"trench/checkpoints/shipped"
	"trench/games"
	"trench/games/plugin"
	"trench/neteval"
	"trench/tactics"
)

// NetFlags are the flags naming the net of each game the page offers:
// --net for the first game people can play (Trench), --NAME-net for the
// others (--trichess-net).
type NetFlags []netFlag

// netFlag is the flag naming one game's net.
type netFlag struct {
	game *plugin.Plugin
	flag string
	ref  *string
}

// BindNetFlags adds the net flags to fs. A game with a net built in
// takes "default" by default; a game without one is searched with no net
// unless its flag names one.
func BindNetFlags(fs *pflag.FlagSet) NetFlags {
	var flags NetFlags
	for i, p := range games.Playable() {
		if p.Web == nil {
			continue
		}
		nf := netFlag{game: p, flag: p.Name() + "-net"}
		if i == 0 {
			nf.flag = "net"
		}
		if p.DefaultNet != nil {
			nf.ref = fs.String(nf.flag, shipped.Ref, fmt.Sprintf(`the %s net: a checkpoint file, a run directory (its newest checkpoint) or "default" (the one built in)`, p.Title))
		} else {
			nf.ref = fs.String(nf.flag, "", fmt.Sprintf("the %s net: a checkpoint file or run directory (none: a material search)", p.Title))
		}
		flags = append(flags, nf)
	}
	return flags
}

// Load loads the nets the flags name (neteval.LoadNet), warning on warn
// of the checkpoints passed over, for Options.Nets, and describes what
// each game is searched with, e.g. "Trench with ckpt-000200.tnet (step
// 200, ...)". Errors name the flag.
func (f NetFlags) Load(warn io.Writer) (map[string]*neteval.Net, []string, error) {
	nets := map[string]*neteval.Net{}
	var docs []string
	for _, nf := range f {
		doc := tactics.FallbackDoc
		if *nf.ref != "" {
			net, err := neteval.LoadNet(nf.game.Rules, *nf.ref)
			if err != nil {
				return nil, nil, fmt.Errorf("--%s: %w", nf.flag, err)
			}
			net.WarnPassed(warn)
			nets[nf.game.Name()], doc = net, net.String()
		}
		docs = append(docs, nf.game.Title+" with "+doc)
	}
	return nets, docs, nil
}
