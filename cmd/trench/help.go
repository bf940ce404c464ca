package main

import (
	"embed"
	"strings"
)

// helpFiles holds each command's --help text after its summary line:
// help/NAME.txt, its synopsis, what it does and its examples.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is the help text of help/NAME.txt.
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("trench: no help text for " + name + ": " + err.Error())
	}
	return string(b)
}

// helpWith is helpText with a reference another package keeps (a list
// of player specs, protocol commands or play's commands) in place of its
// {{insert}} line.
func helpWith(name, insert string) string {
	return strings.Replace(helpText(name), "{{insert}}", insert, 1)
}
