package main

import (
	"embed"
	"strings"
	"text/template"

	"trench/searchconfig"
)

// helpFiles holds each command's --help text after its summary line:
// help/NAME.txt, its synopsis, what it does and its examples.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpData is what a help text formats in (text/template): the bot's
// defaults, from searchconfig, so that a text never states one of its
// own; and Insert, a reference another package keeps (helpWith).
type helpData struct {
	// Play is the bot people play (trench play, serve, engine), Arena
	// the arena's bot: player.
	Play, Arena searchconfig.Config
	// Levels is the number of strength levels, MaxThreads the most
	// threads a search may have.
	Levels, MaxThreads int
	Insert             string
}

// helpFuncs are the functions a help text may call: nodes and sims,
// the alphabeta and mcts kinds' limits at a level.
var helpFuncs = template.FuncMap{
	"nodes": searchconfig.LevelNodes,
	"sims":  searchconfig.LevelSims,
}

// helpText is the help text of help/NAME.txt, with the defaults it
// names formatted in.
func helpText(name string) string {
	return helpWith(name, "")
}

// helpWith is helpText with insert (a list of player specs, protocol
// commands or play's commands, kept by another package) in place of its
// {{.Insert}}.
func helpWith(name, insert string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("trench: no help text for " + name + ": " + err.Error())
	}
	t, err := template.New(name).Funcs(helpFuncs).Parse(string(b))
	if err != nil {
		panic("trench: help text " + name + ": " + err.Error())
	}
	var out strings.Builder
	data := helpData{Play: searchconfig.Play(), Arena: searchconfig.Arena(),
		Levels: searchconfig.Levels, MaxThreads: searchconfig.MaxThreads, Insert: insert}
	if err := t.Execute(&out, data); err != nil {
		panic("trench: help text " + name + ": " + err.Error())
	}
	return out.String()
}
