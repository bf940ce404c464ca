package terminal

import (
	"fmt"
	"strings"

	"trench/bot"
	"trench/games"
	"trench/record"
)

// result describes the finished game: in the game's own words when its
// rules ended it and its plug-in has them, else by the outcome's summary.
func (p *session) result() string {
	if plug := games.Of(p.eg()); plug != nil && plug.RulesResult != nil && p.game.Ending() == record.ByRules {
		return plug.RulesResult(p.game.Current())
	}
	o, _ := p.game.Outcome()
	return o.Summary(p.eg())
}

// botName is how the bot playing seat s is called: "trench" in a
// two-player game, else the seat's name, e.g. "Red (bot)".
func (p *session) botName(s int) string {
	if p.eg().Players() == 2 {
		return "trench"
	}
	return capitalize(record.PlayerName(p.eg(), s)) + " (bot)"
}

// evalText describes an analysis for people from seat s's side: in a game
// scored by expected points (Trichess) every player's points and value,
// seat s first: "expected Red 1.6 pts (+0.07), Black 1.5 (-0.01), White
// 1.4 (-0.06)"; else its chances and expected score difference: "W 48% D
// 9% L 43%, expected +1.2 points".
func (p *session) evalText(a *bot.Analysis, s int) string {
	plug := games.Of(p.eg())
	if plug == nil || plug.ExpectedPoints == nil {
		w, d, l, diff := a.For(s)
		if a.Nodes > 0 {
			// alpha-beta: no draw chance and no expected score
			return fmt.Sprintf("W %.0f%% L %.0f%%", 100*w, 100*l)
		}
		return fmt.Sprintf("W %.0f%% D %.0f%% L %.0f%%, expected %+.1f points", 100*w, 100*d, 100*l, diff)
	}
	var parts []string
	for i := range a.Players {
		c := (s + i) % len(a.Players)
		e := a.Players[c]
		unit := ""
		if i == 0 {
			unit = " pts"
		}
		parts = append(parts, fmt.Sprintf("%s %.1f%s (%+.2f)", capitalize(record.PlayerName(p.eg(), c)), plug.ExpectedPoints(e.Value), unit, e.Value))
	}
	return "expected " + strings.Join(parts, ", ")
}

// capitalize puts a name's first letter in upper case: "red" → "Red".
func capitalize(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}
