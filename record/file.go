package record

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"trench/games"
	"trench/internal/excerpt"
)

// MaxFileSize bounds the game files Parse reads.
const MaxFileSize = 1 << 20

// reserved tags are written and read by the package itself.
var reserved = map[string]bool{"Game": true, "Start": true, "Ending": true, "Result": true}

// Marshal returns the game's file form.
func (g *Game) Marshal() []byte {
	var b bytes.Buffer
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %s]\n", k, strconv.Quote(v)) }
	tag("Game", g.game.Name())
	tag("Start", g.states[0].String())
	for _, t := range g.Tags {
		if !reserved[t.Key] && validKey(t.Key) {
			tag(t.Key, t.Value)
		}
	}
	switch g.ending {
	case Resignation:
		tag("Ending", fmt.Sprintf("resign %d", g.resignr))
	case Armistice:
		tag("Ending", "armistice")
	}
	if o, ok := g.Outcome(); ok {
		tag("Result", o.Summary(g.game))
	}
	b.WriteByte('\n')
	players := g.game.Players()
	line := 0
	for i, m := range g.notes {
		var tok string
		if i%players == 0 {
			tok = fmt.Sprintf("%d. %s", i/players+1, m)
		} else {
			tok = m
		}
		if line > 0 && line+1+len(tok) > 78 {
			b.WriteByte('\n')
			line = 0
		} else if line > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(tok)
		line += len(tok)
	}
	if line > 0 {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func validKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for _, r := range k {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// Parse reads a game file. name labels errors (usually the path); the
// error names the line and what is wrong.
func Parse(data []byte, name string) (*Game, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %d bytes is more than a game file's %d", name, len(data), MaxFileSize)
	}
	var (
		gameName, start, ending string
		tags                    []Tag
		moves                   []string
		moveLines               []int
		seen                    = map[string]bool{}
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxFileSize+1)
	ln := 0
	for sc.Scan() {
		ln++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			if len(moves) > 0 {
				return nil, fmt.Errorf("%s:%d: a tag after the moves", name, ln)
			}
			k, v, err := parseTag(line)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, ln, err)
			}
			if seen[k] {
				return nil, fmt.Errorf("%s:%d: tag %s given twice", name, ln, k)
			}
			seen[k] = true
			switch k {
			case "Game":
				gameName = v
			case "Start":
				start = v
			case "Ending":
				ending = v
			case "Result":
			default:
				tags = append(tags, Tag{k, v})
			}
			continue
		}
		for _, tok := range strings.Fields(line) {
			if isMoveNumber(tok) {
				continue
			}
			moves = append(moves, tok)
			moveLines = append(moveLines, ln)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if gameName == "" {
		return nil, fmt.Errorf("%s: no [Game] tag", name)
	}
	eg, err := games.ByName(gameName)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if start == "" {
		return nil, fmt.Errorf("%s: no [Start] tag", name)
	}
	s, err := eg.ParseState(start)
	if err != nil {
		return nil, fmt.Errorf("%s: start position: %v", name, err)
	}
	g := New(s)
	g.Tags = tags
	for i, m := range moves {
		if _, err := g.Play(m); err != nil {
			return nil, fmt.Errorf("%s:%d: move %d %s: %v", name, moveLines[i], i+1, excerpt.Quote(m), err)
		}
	}
	if err := g.applyEnding(ending); err != nil {
		return nil, fmt.Errorf("%s: ending %s: %v", name, excerpt.Quote(ending), err)
	}
	return g, nil
}

func (g *Game) applyEnding(e string) error {
	switch {
	case e == "":
		return nil
	case e == "armistice":
		return g.AgreeArmistice()
	case strings.HasPrefix(e, "resign "):
		p, err := strconv.Atoi(strings.TrimPrefix(e, "resign "))
		if err != nil {
			return fmt.Errorf("want \"resign N\" with N a player number")
		}
		return g.Resign(p)
	}
	return fmt.Errorf("want \"resign N\" or \"armistice\"")
}

// parseTag reads `[Key "value"]`.
func parseTag(line string) (string, string, error) {
	if !strings.HasSuffix(line, "]") {
		return "", "", fmt.Errorf("a tag must end with ]")
	}
	body := line[1 : len(line)-1]
	k, v, ok := strings.Cut(body, " ")
	if !ok || !validKey(k) {
		return "", "", fmt.Errorf("want [Key \"value\"] with a key of letters, digits and _")
	}
	val, err := strconv.Unquote(strings.TrimSpace(v))
	if err != nil {
		return "", "", fmt.Errorf("tag %s: the value must be a quoted string", k)
	}
	return k, val, nil
}

// isMoveNumber reports whether tok is a move number such as "12.".
func isMoveNumber(tok string) bool {
	if len(tok) < 2 || tok[len(tok)-1] != '.' {
		return false
	}
	_, err := strconv.Atoi(tok[:len(tok)-1])
	return err == nil
}
