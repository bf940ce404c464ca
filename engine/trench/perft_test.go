package trench

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// startPerft is the perft table of docs/rules.md from the start position.
var startPerft = []uint64{1, 14, 192, 3894, 78372, 1840956, 42978674}

func TestPerftStart(t *testing.T) {
	p := StartPosition()
	for d := 1; d < len(startPerft); d++ {
		if d == 6 && testing.Short() {
			t.Log("depth 6 skipped under -short")
			continue
		}
		if got := Perft(&p, d); got != startPerft[d] {
			t.Errorf("perft %d = %d, want %d", d, got, startPerft[d])
		}
	}
}

// TestPerftPositions checks every line of the perft positions file at
// depths 1 to 3.
func TestPerftPositions(t *testing.T) {
	f, err := os.Open("testdata/perft-positions.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, ";")
		p := mustParse(t, fields[0])
		if p.FEN() != fields[0] {
			t.Errorf("%s formats as %s", fields[0], p.FEN())
		}
		for d, field := range fields[1:] {
			want, err := strconv.ParseUint(field, 10, 64)
			if err != nil {
				t.Fatalf("%s: bad count %q", line, field)
			}
			if got := Perft(&p, d+1); got != want {
				t.Errorf("%s: perft %d = %d, want %d", fields[0], d+1, got, want)
			}
		}
		n++
	}
	if n < 60 {
		t.Errorf("read %d positions, want at least 60", n)
	}
}

func BenchmarkPerft5(b *testing.B) {
	p := StartPosition()
	for b.Loop() {
		Perft(&p, 5)
	}
	b.ReportMetric(float64(startPerft[5])*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

func BenchmarkPerft6(b *testing.B) {
	p := StartPosition()
	for b.Loop() {
		Perft(&p, 6)
	}
	b.ReportMetric(float64(startPerft[6])*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// benchPositions are the start and a few middle-game positions.
var benchPositions = []string{
	StartFEN,
	"3s2k1/4p2c/3p1s1k/3P2p1/SP6/K7/1K6/G1KS4 w 19 16 0 18",
	"4pkcg/5skc/2s1ppsk/4Ppps/SPP5/KSPP4/CKSP4/GCKS4 b 1 0 1 3",
	"3ps1c1/5sk1/8/SP3p2/2Ks3g/1S1P1C2/C3K3/G3P3 b 16 10 5 22",
}

func BenchmarkGenerateMoves(b *testing.B) {
	var ps []Position
	for _, f := range benchPositions {
		ps = append(ps, mustParseB(b, f))
	}
	buf := make([]Move, 0, MaxMoves)
	for i := 0; b.Loop(); i++ {
		buf = ps[i%len(ps)].GenerateMoves(buf)
	}
}

func BenchmarkGenerateCaptures(b *testing.B) {
	var ps []Position
	for _, f := range benchPositions {
		ps = append(ps, mustParseB(b, f))
	}
	buf := make([]Move, 0, MaxMoves)
	for i := 0; b.Loop(); i++ {
		buf = ps[i%len(ps)].GenerateCaptures(buf)
	}
}

func BenchmarkPlay(b *testing.B) {
	p := mustParseB(b, benchPositions[3])
	moves := p.GenerateMoves(nil)
	for i := 0; b.Loop(); i++ {
		c := p
		c.Play(moves[i%len(moves)])
	}
}

func mustParseB(b *testing.B, fen string) Position {
	p, err := ParseFEN(fen)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkLegalActions(b *testing.B) {
	var ss []*State
	for _, f := range benchPositions {
		ss = append(ss, NewState(mustParseB(b, f)))
	}
	buf := make([]int, 0, MaxMoves)
	for i := 0; b.Loop(); i++ {
		buf = ss[i%len(ss)].LegalActions(buf)
	}
}
