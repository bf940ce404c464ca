package trichess

import (
	"fmt"
	"strconv"
	"strings"

	"trench/internal/excerpt"
)

// ParseFEN reads a position string (docs/trichess.md, Notation): the three
// sections White|Red|Black, each rank 1 to rank 4 separated by "/", pieces
// as owner letter and kind ("wK"), digits for runs of empty squares; the
// side to move; castling rights "KQ,KQ,-"; plies since the last capture or
// pawn move; the move number. It is strict: the error names the field and
// character at fault, and positions the rules cannot reach (a missing or
// extra king, more pieces of a kind than an army has, a pawn on its own
// rank 1, a castling right without its king and rook at home, the player
// who moved last in check) are refused.
func ParseFEN(text string) (Position, error) {
	var p Position
	fields := strings.Split(text, " ")
	if len(fields) != 5 {
		return p, fmt.Errorf("position %s: want 5 fields separated by single spaces (board, side to move, castling, quiet plies, move number), got %d", excerpt.Quote(text), len(fields))
	}
	for c := range p.king {
		p.king[c] = NoSquare
	}
	if err := p.parseBoard(fields[0]); err != nil {
		return p, fmt.Errorf("position %s: board: %w", excerpt.Quote(text), err)
	}
	switch fields[1] {
	case "w":
		p.side = White
	case "r":
		p.side = Red
	case "b":
		p.side = Black
	default:
		return p, fmt.Errorf("position %s: side to move %s: want w, r or b", excerpt.Quote(text), excerpt.Quote(fields[1]))
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return p, fmt.Errorf("position %s: castling %s: %w", excerpt.Quote(text), excerpt.Quote(fields[2]), err)
	}
	quiet, err := parseCount(fields[3], QuietLimit)
	if err != nil {
		return p, fmt.Errorf("position %s: quiet plies: %w", excerpt.Quote(text), err)
	}
	p.quiet = uint8(quiet)
	moveNo, err := parseCount(fields[4], 65535)
	if err != nil || moveNo < 1 {
		if err == nil {
			err = fmt.Errorf("%s: the move number starts at 1", excerpt.Quote(fields[4]))
		}
		return p, fmt.Errorf("position %s: move number: %w", excerpt.Quote(text), err)
	}
	p.moveNumber = uint16(moveNo)
	if err := p.finish(); err != nil {
		return p, fmt.Errorf("position %s: %w", excerpt.Quote(text), err)
	}
	return p, nil
}

// finish checks what a position read from text or bytes needs past its
// fields (the player who moved last is not in check) and sets its hash.
func (p *Position) finish() error {
	if last := p.side.Prev(); p.InCheck(last) {
		return fmt.Errorf("%s, who moved last, is in check, which no legal move allows", last)
	}
	p.hash = p.computeHash()
	return nil
}

// parseCount reads a decimal count in [0, limit] written without sign or
// leading zeros.
func parseCount(text string, limit int) (int, error) {
	if text == "" || len(text) > 1 && text[0] == '0' || strings.TrimLeft(text, "0123456789") != "" {
		return 0, fmt.Errorf("%s is not a whole number written plainly", excerpt.Quote(text))
	}
	n, err := strconv.Atoi(text)
	if err != nil || n > limit {
		return 0, fmt.Errorf("%s is more than %d", excerpt.Quote(text), limit)
	}
	return n, nil
}

func (p *Position) parseBoard(text string) error {
	sections := strings.Split(text, "|")
	if len(sections) != 3 {
		return fmt.Errorf("want 3 sections (White|Red|Black) separated by '|', got %d", len(sections))
	}
	for sec, st := range sections {
		ranks := strings.Split(st, "/")
		if len(ranks) != 4 {
			return fmt.Errorf("section %s: want 4 ranks separated by '/', got %d", Color(sec), len(ranks))
		}
		for r, rt := range ranks {
			if err := p.parseRank(Color(sec), r, rt); err != nil {
				return fmt.Errorf("section %s rank %d %s: %w", Color(sec), r+1, excerpt.Quote(rt), err)
			}
		}
	}
	return p.checkArmies()
}

// checkArmies checks the pieces placed: one king each, and no more pieces
// of a kind than an army has.
func (p *Position) checkArmies() error {
	for c := White; c < numColors; c++ {
		if p.count[c][King] != 1 {
			return fmt.Errorf("%s has %d kings, want 1", c, p.count[c][King])
		}
		for k := Pawn; k < King; k++ {
			if int(p.count[c][k]) > armyCount[k] {
				return fmt.Errorf("%s has %d %ss, more than an army's %d", c, p.count[c][k], k, armyCount[k])
			}
		}
	}
	return nil
}

func (p *Position) parseRank(sec Color, r int, text string) error {
	f := 0
	prevDigit := false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if f >= 8 {
			n, q := excerpt.Char(text, i)

			return fmt.Errorf("character %d %s: the rank already has 8 squares", n, q)
		}
		if ch >= '1' && ch <= '8' {
			if prevDigit {
				n, q := excerpt.Char(text, i)

				return fmt.Errorf("character %d %s: two digits in a row (write one run)", n, q)
			}
			if f+int(ch-'0') > 8 {
				n, q := excerpt.Char(text, i)

				return fmt.Errorf("character %d %s: the rank has more than 8 squares", n, q)
			}
			f += int(ch - '0')
			prevDigit = true
			continue
		}
		prevDigit = false
		c := strings.IndexByte("wrb", ch)
		if c < 0 {
			n, q := excerpt.Char(text, i)

			return fmt.Errorf("character %d %s: want a digit 1-8 or a piece's owner w, r or b", n, q)
		}
		if i+1 >= len(text) {
			n, q := excerpt.Char(text, i)

			return fmt.Errorf("character %d %s: the owner letter has no piece letter after it", n, q)
		}
		i++
		k := strings.IndexByte(kindLetters, text[i])
		if k < 0 {
			n, q := excerpt.Char(text, i)

			return fmt.Errorf("character %d %s: want a piece letter P, N, B, R, Q or K", n, q)
		}
		if err := p.place(Color(c), Kind(k), SquareAt(sec, f, r)); err != nil {
			return fmt.Errorf("character %d: %w", i, err)
		}
		f++
	}
	if f != 8 {
		return fmt.Errorf("the rank has %d squares, want 8", f)
	}
	return nil
}

// place puts a piece of c's of kind k on the empty square s, refusing a
// pawn on its own rank 1 and a second king.
func (p *Position) place(c Color, k Kind, s Square) error {
	if k == Pawn && s.Section() == c && s.Rank() == 0 {
		return fmt.Errorf("a %s pawn on its own rank 1 (%s), where no pawn can go", c, s)
	}
	if k == King && p.count[c][King] > 0 {
		return fmt.Errorf("a second %s king on %s", c, s)
	}
	p.put(c, k, s)
	return nil
}

func (p *Position) parseCastling(text string) error {
	parts := strings.Split(text, ",")
	if len(parts) != 3 {
		return fmt.Errorf("want 3 comma-separated parts (White,Red,Black), got %d", len(parts))
	}
	for c, part := range parts {
		var sides []bool
		switch part {
		case "-":
		case "K":
			sides = []bool{false}
		case "Q":
			sides = []bool{true}
		case "KQ":
			sides = []bool{false, true}
		default:
			return fmt.Errorf("%s's part %s: want KQ, K, Q or -", Color(c), excerpt.Quote(part))
		}
		for _, queen := range sides {
			if err := p.grantCastling(Color(c), queen); err != nil {
				return fmt.Errorf("%s's part %s: %w", Color(c), excerpt.Quote(part), err)
			}
		}
	}
	return nil
}

// grantCastling gives c the right to castle king-side (queen false) or
// queen-side, refusing it without the king and the rook at home.
func (p *Position) grantCastling(c Color, queen bool) error {
	rookFile := 7
	if queen {
		rookFile = 0
	}
	if p.board[home(c, 4)] != makePiece(c, King) || p.board[home(c, rookFile)] != makePiece(c, Rook) {
		return fmt.Errorf("%s's %s needs its king on %s and a rook on %s", c, castleName(queen), home(c, 4), home(c, rookFile))
	}
	p.castling |= castleBit(c, queen)
	return nil
}

// castleName names a castling right.
func castleName(queen bool) string {
	if queen {
		return "queen-side right"
	}
	return "king-side right"
}

// FEN is the position string, readable by ParseFEN.
func (p *Position) FEN() string {
	var b strings.Builder
	for sec := White; sec < numColors; sec++ {
		if sec > 0 {
			b.WriteByte('|')
		}
		for r := range 4 {
			if r > 0 {
				b.WriteByte('/')
			}
			empty := 0
			for f := range 8 {
				pc := p.board[SquareAt(sec, f, r)]
				if pc == 0 {
					empty++
					continue
				}
				if empty > 0 {
					b.WriteByte(byte('0' + empty))
					empty = 0
				}
				b.WriteByte(pc.color().Letter())
				b.WriteByte(pc.kind().Letter())
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
			}
		}
	}
	b.WriteByte(' ')
	b.WriteByte(p.side.Letter())
	b.WriteByte(' ')
	for c := White; c < numColors; c++ {
		if c > 0 {
			b.WriteByte(',')
		}
		rights := ""
		if p.CanCastle(c, false) {
			rights += "K"
		}
		if p.CanCastle(c, true) {
			rights += "Q"
		}
		if rights == "" {
			rights = "-"
		}
		b.WriteString(rights)
	}
	fmt.Fprintf(&b, " %d %d", p.quiet, p.moveNumber)
	return b.String()
}

// ParseMove reads a move in notation (from-square, to-square and, for a
// liberation, "=" and the piece freed: "We2We4", "Bd2Bd1=Q") and checks
// that it is legal in p; the error says what is wrong.
func (p *Position) ParseMove(text string) (Move, error) {
	m, err := parseMoveText(text)
	if err != nil {
		return 0, err
	}
	if p.IsLegal(m) {
		return m, nil
	}
	return 0, fmt.Errorf("move %s: illegal: %s", excerpt.Quote(text), p.whyIllegal(m))
}

// parseMoveText reads a move's notation without checking it.
func parseMoveText(text string) (Move, error) {
	if len(text) != 6 && len(text) != 8 {
		return 0, fmt.Errorf("move %s: want a from-square and a to-square, e.g. We2We4, with =Q (or N, B, R, P) for a liberation", excerpt.Quote(text))
	}
	from, err := ParseSquare(text[:3])
	if err != nil {
		return 0, fmt.Errorf("move %s: %w", excerpt.Quote(text), err)
	}
	to, err := ParseSquare(text[3:6])
	if err != nil {
		return 0, fmt.Errorf("move %s: %w", excerpt.Quote(text), err)
	}
	if len(text) == 6 {
		return NewMove(from, to), nil
	}
	k := strings.IndexByte(kindLetters[:King], text[7])
	if text[6] != '=' || k < 0 {
		return 0, fmt.Errorf("move %s: a liberation is written =P, =N, =B, =R or =Q", excerpt.Quote(text))
	}
	return NewLiberation(from, to, Kind(k)), nil
}

// whyIllegal explains why a move is not legal in p.
func (p *Position) whyIllegal(m Move) string {
	if p.decided() {
		return "the game is over"
	}
	pc := p.board[m.From()]
	switch {
	case pc == 0:
		return fmt.Sprintf("no piece on %s", m.From())
	case pc.color() != p.side:
		return fmt.Sprintf("the %s on %s is %s's, and %s is to move", pc.kind(), m.From(), pc.color(), p.side)
	}
	var buf [MaxMoves]Move
	geometric, sameSquares := false, false
	for _, g := range p.genPseudo(buf[:0], false) {
		if g == m {
			geometric = true
		}
		if g.From() == m.From() && g.To() == m.To() {
			sameSquares = true
		}
	}
	if !geometric {
		if sameSquares {
			if _, ok := m.Liberation(); ok {
				return fmt.Sprintf("%s has no captured piece of that kind to free", p.side)
			}
			return "a pawn reaching an opponent's rank 1 frees a captured piece: add =P, =N, =B, =R or =Q"
		}
		return fmt.Sprintf("the %s on %s cannot go to %s", pc.kind(), m.From(), m.To())
	}
	child := *p
	child.Play(m)
	switch me := p.side; {
	case child.InCheck(me):
		return "it leaves the mover's king in check"
	case child.checkedBy(me.Prev(), me.Next()):
		return fmt.Sprintf("shield rule: it exposes %s's king to %s", me.Prev(), me.Next())
	default:
		victim := p.board[m.To()].color()
		return fmt.Sprintf("non-aggression: %s has at least 3 points less than %s and the capture in its section does not check its king", victim, me)
	}
}
