package terminal

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"trench/games"
	"trench/internal/excerpt"
)

// UseColor decides whether to draw with ANSI colours on out: mode is
// "always", "never" or "auto", which colours a terminal unless NO_COLOR
// is set. An error says what mode must be.
func UseColor(mode string, out io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		f, ok := out.(*os.File)
		return ok && term.IsTerminal(int(f.Fd())), nil
	}
	return false, fmt.Errorf("must be auto, always or never, got %s", excerpt.Quote(mode))
}

// SquareViewTitles names the playable games whose boards have a square
// view, e.g. "Trench".
func SquareViewTitles() string {
	var titles []string
	for _, p := range games.Playable() {
		if p.Terminal != nil && p.Terminal.SquareView() {
			titles = append(titles, p.Title)
		}
	}
	return strings.Join(titles, " and ")
}
