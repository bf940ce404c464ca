package data

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trench/engine/trichess"
	"trench/nnue"
)

// materialLeads is each seat's material lead over the mean of the
// others', 100 centipoints a point.
func materialLeads(p *trichess.Position) [3]int {
	var leads [3]int
	for c := range leads {
		me := trichess.Color(c)
		leads[c] = 100*p.Material(me) - 50*(p.Material(me.Next())+p.Material(me.Prev()))
	}
	return leads
}

// randomTrichessGames plays n random games to their end and labels their
// positions with the seats' material leads.
func randomTrichessGames(t testing.TB, n int, seed uint64) []TrichessRecord {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	var records []TrichessRecord
	var moves []trichess.Move
	for g := 0; g < n; g++ {
		p := trichess.StartPosition()
		var positions []trichess.Position
		var leads [][3]int
		for p.Outcome().Ending == trichess.NotOver {
			positions = append(positions, p)
			leads = append(leads, materialLeads(&p))
			moves = p.GenerateMoves(moves[:0])
			p.Play(moves[r.IntN(len(moves))])
		}
		rs, err := LabelTrichess(seed<<32|uint64(g), positions, leads, p.Outcome())
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, rs...)
	}
	return records
}

func TestTrichessRecordRoundTrip(t *testing.T) {
	records := randomTrichessGames(t, 3, 1)
	for i := range records {
		b := AppendTrichessRecord([]byte{7}, &records[i])
		if len(b) != 1+TrichessRecordSize {
			t.Fatalf("record %d encodes in %d bytes, want %d", i, len(b)-1, TrichessRecordSize)
		}
		var got TrichessRecord
		if err := DecodeTrichessRecord(b[1:], &got); err != nil {
			t.Fatalf("record %d (%s): %v", i, records[i].Position.FEN(), err)
		}
		if got != records[i] {
			t.Fatalf("record %d: decoded %+v, want %+v", i, got, records[i])
		}
	}
}

func TestLabelTrichess(t *testing.T) {
	records := randomTrichessGames(t, 1, 2)
	last := records[len(records)-1]
	final := last.Position
	var moves []trichess.Move
	// Replay to the end: the last record's position is one ply from it.
	for _, m := range final.GenerateMoves(moves) {
		q := final
		q.Play(m)
		if q.Outcome().Ending != trichess.NotOver {
			if o := q.Outcome(); o.Titles != last.Titles {
				continue
			}
			final = q
			break
		}
	}
	if final.Outcome().Ending == trichess.NotOver {
		t.Fatal("no move of the last position ends the game with its titles")
	}
	start := trichess.StartPosition()
	tests := []struct {
		name      string
		positions []trichess.Position
		leads     [][3]int
		outcome   trichess.Outcome
		want      string
	}{
		{"lengths", []trichess.Position{start}, nil, final.Outcome(), "1 positions and 0 leads"},
		{"not over", []trichess.Position{start}, [][3]int{{}}, start.Outcome(), "not over"},
		{"over", []trichess.Position{final}, [][3]int{{}}, final.Outcome(), "position 0"},
	}
	for _, tc := range tests {
		if _, err := LabelTrichess(9, tc.positions, tc.leads, tc.outcome); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	rs, err := LabelTrichess(9, []trichess.Position{start}, [][3]int{{40000, -40000, 5}}, final.Outcome())
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Leads != [3]int16{MaxScore, -MaxScore, 5} || rs[0].Titles != final.Outcome().Titles || rs[0].GameID != 9 {
		t.Errorf("LabelTrichess = %+v, want clamped leads, the final titles and game 9", rs[0])
	}
}

func TestDecodeTrichessRecordErrors(t *testing.T) {
	records := randomTrichessGames(t, 1, 4)
	good := AppendTrichessRecord(nil, &records[len(records)/2])
	edit := func(f func(b []byte)) []byte {
		b := bytes.Clone(good)
		f(b)
		return b
	}
	o := trichess.BinarySize
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"short", good[:TrichessRecordSize-1], "79 bytes, want 80"},
		{"position", edit(func(b []byte) { b[o-5] = 9 }), "bad binary position"},
		{"lead", edit(func(b []byte) { b[o+2], b[o+3] = 0x01, 0x80 }), "Red's lead -32767"},
		{"titles", edit(func(b []byte) { b[o+6] = 0xc0 }), "titles byte 0xc0"},
		{"over", AppendTrichessRecord(nil, &TrichessRecord{Position: overPosition(t)}), "the game is over"},
	}
	for _, tc := range tests {
		var r TrichessRecord
		err := DecodeTrichessRecord(tc.b, &r)
		if !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error wrapping ErrRecord containing %q", tc.name, err, tc.want)
		}
	}
}

// overPosition is a position whose game is over: 150 quiet plies.
func overPosition(t testing.TB) trichess.Position {
	p, err := trichess.ParseFEN("wK7/8/8/8|rK7/8/8/8|bK7/8/8/8 w -,-,- 150 90")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTrichessShards(t *testing.T) {
	records := randomTrichessGames(t, 2, 5)
	dir := t.TempDir()
	path, err := Trichess.WriteShard(dir, records)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Trichess.ReadShard(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(records) {
		t.Fatalf("read %d records, wrote %d", len(got), len(records))
	}
	for i := range got {
		if got[i] != records[i] {
			t.Fatalf("record %d: read %+v, wrote %+v", i, got[i], records[i])
		}
	}
	if n, err := Trichess.ShardCount(path); n != len(records) || err != nil {
		t.Errorf("ShardCount = %d, %v; want %d", n, err, len(records))
	}
	trenchPath, err := WriteShard(dir, randomGames(t, 1, 6))
	if err != nil {
		t.Fatal(err)
	}
	// Each game refuses the other's shards, naming the file and the game.
	for _, tc := range []struct {
		read func(string) error
		path string
		want string
	}{
		{func(p string) error { _, err := Trichess.ReadShard(p); return err }, trenchPath, "a trench shard, not trichess data"},
		{func(p string) error { _, err := Trichess.ShardCount(p); return err }, trenchPath, "a trench shard, not trichess data"},
		{func(p string) error { _, err := ReadShard(p); return err }, path, "a trichess shard, not trench data"},
	} {
		err := tc.read(tc.path)
		if !errors.Is(err, ErrMagic) || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("reading %s: %v, want ErrMagic naming the file and %q", tc.path, err, tc.want)
		}
	}
	data, _ := os.ReadFile(path)
	bad := filepath.Join(dir, "truncated")
	os.WriteFile(bad, data[:len(data)-3], 0o644)
	if _, err := Trichess.ReadShard(bad); !errors.Is(err, ErrSize) || !strings.Contains(err.Error(), bad) {
		t.Errorf("a truncated shard: %v, want ErrSize naming it", err)
	}
	corrupt := bytes.Clone(data)
	corrupt[headerSize+TrichessRecordSize+trichess.BinarySize+6] = 0xff
	if _, err := Trichess.DecodeShard(reseal(corrupt)); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "record 1") {
		t.Errorf("a corrupted record: %v, want ErrRecord naming record 1", err)
	}
	overs := []TrichessRecord{records[0], {Position: overPosition(t)}}
	if _, err := Trichess.EncodeShard(overs); err == nil || !strings.Contains(err.Error(), "record 1: position") {
		t.Errorf("EncodeShard of a finished position: %v", err)
	}
}

func TestTrichessWindow(t *testing.T) {
	dir := t.TempDir()
	records := randomTrichessGames(t, 12, 7)
	half := len(records) / 2
	for _, part := range [][]TrichessRecord{records[:half], records[half:]} {
		if _, err := Trichess.WriteShard(dir, part); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := WriteShard(dir, randomGames(t, 1, 8)); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	w, err := Trichess.NewWindow(dir, WindowConfig{Newest: len(records), Holdout: 0.25, Seed: 3}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Refresh(); err != nil || n != len(records) {
		t.Fatalf("Refresh = %d, %v; want %d positions", n, err, len(records))
	}
	if !strings.Contains(warn.String(), "a trench shard, not trichess data") {
		t.Errorf("warnings %q do not name the Trench shard", warn.String())
	}
	val, _ := w.Validation()
	if len(val) == 0 || len(val)+w.Size() != len(records) {
		t.Fatalf("%d validation and %d training positions, want some and %d in all", len(val), w.Size(), len(records))
	}
	byGame := map[uint64]bool{}
	for _, r := range val {
		if !HeldOut(r.GameID, 0.25, 3) {
			t.Fatalf("validation record of game %d, which is not held out", r.GameID)
		}
		byGame[r.GameID] = true
	}
	known := map[TrichessRecord]bool{}
	for _, r := range records {
		known[r] = true
	}
	batch := make(TrichessRecords, 500)
	w.Sample(rand.New(rand.NewPCG(1, 2)), batch, nil)
	for _, r := range batch {
		if byGame[r.GameID] || !known[r] {
			t.Fatalf("sampled record of game %d: held out %v, written %v", r.GameID, byGame[r.GameID], known[r])
		}
	}
}

func TestTrichessRecordsBatch(t *testing.T) {
	p, err := trichess.ParseFEN(strings.Replace(trichess.StartFEN, " w ", " r ", 1))
	if err != nil {
		t.Fatal(err)
	}
	rs := TrichessRecords{{
		Position: p,
		Leads:    [3]int16{100, 200, -300},
		Titles:   [3]trichess.Title{trichess.Serf, trichess.Seigneur, trichess.Chevalier},
	}}
	if rs.Set() != nnue.Trichess || rs.Len() != 1 || rs.Outputs() != 3 {
		t.Fatalf("set %v, %d records, %d outputs", rs.Set(), rs.Len(), rs.Outputs())
	}
	// Red moves: output j is Red, Black, White's.
	for j, want := range []struct{ result, score float64 }{{1, 200}, {2.0 / 3, -300}, {0, 100}} {
		if r, s := rs.Target(0, j); r != want.result || s != want.score {
			t.Errorf("target %d: %v, %v; want %v, %v", j, r, s, want.result, want.score)
		}
	}
	for k, c := range []trichess.Color{trichess.Red, trichess.Black, trichess.White} {
		got := rs.Features(0, k, []int32{99})
		if want := nnue.TrichessFeatures(&p, c, nil); !slices.Equal(got, want) {
			t.Errorf("perspective %d: features %v, want %s's %v", k, got, c, want)
		}
	}
}

func FuzzDecodeTrichessRecord(f *testing.F) {
	for _, r := range randomTrichessGames(f, 1, 9)[:20] {
		f.Add(AppendTrichessRecord(nil, &r))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r TrichessRecord
		if err := DecodeTrichessRecord(b, &r); err != nil {
			return
		}
		if got := AppendTrichessRecord(nil, &r); !bytes.Equal(got, b[:TrichessRecordSize]) {
			t.Fatalf("decoded record re-encodes differently")
		}
	})
}

func FuzzDecodeTrichessShard(f *testing.F) {
	data, err := Trichess.EncodeShard(randomTrichessGames(f, 1, 10)[:4])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:headerSize+checksumSize])
	f.Add([]byte(TrichessMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		rs, err := Trichess.DecodeShard(b)
		if err != nil {
			return
		}
		again, err := Trichess.EncodeShard(rs)
		if err != nil {
			t.Fatalf("decoded records do not encode: %v", err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("decoded shard re-encodes differently")
		}
	})
}
