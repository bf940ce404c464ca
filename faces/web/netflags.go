package web

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"trench/bot"
	"trench/checkpoints/shipped"
	"trench/games"
	"trench/games/plugin"
	"trench/neteval"
	"trench/searchconfig"
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
// takes "default" by default, unless its bot plays without it
// (plugin.Plugin.PlaysWithoutNet: "none"); a game without one is searched
// with no net unless its flag names one.
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
		switch {
		case p.DefaultNet != nil && p.PlaysWithoutNet:
			nf.ref = fs.String(nf.flag, searchconfig.NoNet, fmt.Sprintf(`the %s net: a checkpoint file, a run directory (its newest checkpoint), "default" (the one built in) or "none" (a search without a net, which measured stronger than the built-in net at equal time)`, p.Title))
		case p.DefaultNet != nil:
			nf.ref = fs.String(nf.flag, shipped.Ref, fmt.Sprintf(`the %s net: a net file or run directory, of the NNUE (alpha-beta) or the conv net (tree search), or "default" (the one built in)`, p.Title))
		default:
			nf.ref = fs.String(nf.flag, "", fmt.Sprintf("the %s net: a checkpoint file or run directory (none: a material search)", p.Title))
		}
		flags = append(flags, nf)
	}
	return flags
}

// Load reads each game's settings from c (the bot flags; changed says
// which flags were given) and its net flag, resolved by what the net
// holds (bot.Resolve: an NNUE makes the game's bot alpha-beta with it, a
// conv net the tree search), for Options.Games, and loads the conv nets
// the tree search needs (neteval.LoadNet), warning on warn of the
// checkpoints passed over, for Options.Nets. Errors name the flag.
func (f NetFlags) Load(c searchconfig.Config, changed func(flag string) bool, warn io.Writer) (map[string]*neteval.Net, map[string]searchconfig.Config, error) {
	nets, settings := map[string]*neteval.Net{}, map[string]searchconfig.Config{}
	for _, nf := range f {
		given := func(key string) bool {
			if key == "net" {
				return changed(nf.flag)
			}
			return changed(key)
		}
		gc := c
		gc.Fit(nf.game.Rules, given)
		if c.ReadsNNUE() && !gc.ReadsNNUE() && c.NNUE != "" {
			// Fit dropped the NNUE named for this game: a --nnue of the
			// other game's serves only its own, and this game's bot
			// reads the net built in for it.
			fitted := given
			given = func(key string) bool { return key != "nnue" && fitted(key) }
			gc = c
			gc.NNUE = ""
			gc.Fit(nf.game.Rules, given)
		}
		if given("net") || nf.game.DefaultNet == nil {
			gc.Net = *nf.ref // else Play's default, fitted to the game
		}
		if gc.Net == "" {
			gc.Net = searchconfig.NoNet
		}
		gc, err := bot.Resolve(gc, given)
		if err != nil {
			return nil, nil, fmt.Errorf("--%s: %w", nf.flag, err)
		}
		settings[nf.game.Name()] = gc
		if gc.Kind != searchconfig.MCTS || gc.Net == searchconfig.NoNet {
			continue
		}
		net, err := neteval.LoadNet(nf.game.Rules, gc.Net)
		if err != nil {
			return nil, nil, fmt.Errorf("--%s: %w", nf.flag, err)
		}
		net.WarnPassed(warn)
		nets[nf.game.Name()] = net
	}
	return nets, settings, nil
}
