package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trench/engine/trench"
)

// randomGames plays n random games and labels their positions with a
// score of 100 centipoints per point of score difference.
func randomGames(t testing.TB, n int, seed uint64) []Record {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var records []Record
	var moves []trench.Move
	for g := 0; g < n; g++ {
		p := trench.StartPosition()
		var positions []trench.Position
		var scores []int
		for !p.Over() {
			positions = append(positions, p)
			me := p.SideToMove()
			scores = append(scores, 100*(p.Score(me)-p.Score(me.Other())))
			moves = p.GenerateMoves(moves)
			p.Play(moves[r.IntN(len(moves))])
		}
		rs, err := Label(seed<<32|uint64(g), positions, scores, &p)
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, rs...)
	}
	return records
}

func TestRecordRoundTrip(t *testing.T) {
	records := randomGames(t, 20, 1)
	for i := range records {
		records[i].Score = int16(i%(2*MaxScore+1) - MaxScore)
		b := AppendRecord(nil, &records[i])
		if len(b) != RecordSize {
			t.Fatalf("record %d encodes to %d bytes", i, len(b))
		}
		var got Record
		if err := DecodeRecord(b, &got); err != nil {
			t.Fatalf("record %d (%s): %v", i, records[i].Position.FEN(), err)
		}
		if got != records[i] {
			t.Fatalf("record %d: decoded %+v, want %+v", i, got, records[i])
		}
	}
}

func TestLabel(t *testing.T) {
	records := randomGames(t, 50, 2)
	counts := map[Result]int{}
	for _, r := range records {
		counts[r.Result]++
	}
	if counts[Win] == 0 || counts[Loss] == 0 {
		t.Errorf("results over 50 random games: %v, want wins and losses", counts)
	}
	// Consecutive positions of a decisive game alternate win and loss.
	for i := 1; i < len(records); i++ {
		a, b := records[i-1], records[i]
		if a.GameID == b.GameID && a.Result != Draw && a.Result == b.Result {
			t.Fatalf("records %d and %d of game %d: both %s for opposite sides", i-1, i, a.GameID, a.Result)
		}
	}
	p := trench.StartPosition()
	if _, err := Label(7, []trench.Position{p}, []int{0}, &p); err == nil || !strings.Contains(err.Error(), "game 7: final position") {
		t.Errorf("Label with an unfinished final position: %v", err)
	}
	if _, err := Label(7, []trench.Position{p}, nil, &p); err == nil || !strings.Contains(err.Error(), "1 positions and 0 scores") {
		t.Errorf("Label with a missing score: %v", err)
	}
}

func TestClampScore(t *testing.T) {
	for _, tc := range []struct {
		in   int
		want int16
	}{{0, 0}, {-250, -250}, {MaxScore, MaxScore}, {1_000_000, MaxScore}, {-999_990, -MaxScore}} {
		if got := ClampScore(tc.in); got != tc.want {
			t.Errorf("ClampScore(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestDecodeRecordErrors(t *testing.T) {
	start := Record{Position: trench.StartPosition(), Score: 12, Result: Win, GameID: 3}
	good := AppendRecord(nil, &start)
	edit := func(f func(b []byte)) []byte {
		b := bytes.Clone(good)
		f(b)
		return b
	}
	over, _ := trench.ParseFEN("4skcg/4pskc/4ppsk/4ppps/SPPP4/KSPP4/CKSP4/GCKS4 b 0 0 50 1")
	tests := []struct {
		b    []byte
		want string
	}{
		{good[:39], "39 bytes, want 40"},
		{edit(func(b []byte) { binary.LittleEndian.PutUint64(b, ^uint64(0)) }), "64 occupied squares"},
		{edit(func(b []byte) { b[8] = 0x0f }), "piece code 15 on a1"},
		{edit(func(b []byte) { b[8] = 0x44 }), "black has 2 generals"},
		{edit(func(b []byte) { b[24] = 1 << 3 }), "flags byte 0x08"},
		{edit(func(b []byte) { b[24] = 3 << 1 }), "flags byte 0x06"},
		{edit(func(b []byte) { b[25] = 40 }), "Black's score 40 is outside"},
		{edit(func(b []byte) { b[29] = 0; b[28] = 0 }), "move number 0"},
		{edit(func(b []byte) { binary.LittleEndian.PutUint16(b[30:], uint16(0x8000)) }), "score -32768 outside ±32000"},
		{AppendRecord(nil, &Record{Position: over}), "the game is over"},
	}
	for i, tc := range tests {
		var r Record
		err := DecodeRecord(tc.b, &r)
		if !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("case %d: DecodeRecord = %v, want ErrRecord containing %q", i, err, tc.want)
		}
	}
	// Spare nibbles must be zero: clear the last piece, keep its code.
	b := edit(func(b []byte) {
		occ := binary.LittleEndian.Uint64(b)
		binary.LittleEndian.PutUint64(b, occ&^(1<<63))
	})
	var r Record
	if err := DecodeRecord(b, &r); err == nil || !strings.Contains(err.Error(), "piece code after the last of 31 pieces") {
		t.Errorf("a spare nibble set: %v", err)
	}
}

// reseal rewrites a shard's checksum after an edit.
func reseal(b []byte) []byte {
	end := len(b) - checksumSize
	binary.LittleEndian.PutUint32(b[end:], crc32.Checksum(b[:end], castagnoli))
	return b
}

func TestShardRoundTripAndErrors(t *testing.T) {
	records := randomGames(t, 3, 3)
	dir := t.TempDir()
	path, err := WriteShard(dir, records)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadShard(path)
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
	data, _ := os.ReadFile(path)
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(data)) }
	tests := []struct {
		name string
		b    []byte
		want error
		text string
	}{
		{"magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), ErrMagic, ""},
		{"empty", nil, ErrMagic, ""},
		{"header only", edit(func(b []byte) []byte { return b[:12] }), ErrSize, "12 bytes"},
		{"version", edit(func(b []byte) []byte { b[8] = 9; return reseal(b) }), ErrVersion, "version 9"},
		{"truncated", edit(func(b []byte) []byte { return b[:len(b)-50] }), ErrSize, "the shard has"},
		{"count", edit(func(b []byte) []byte { b[12]++; return reseal(b) }), ErrSize, ""},
		{"checksum", edit(func(b []byte) []byte { b[headerSize+RecordSize+30]++; return b }), ErrChecksum, ""},
		{"record", edit(func(b []byte) []byte { b[headerSize+2*RecordSize+24] = 0xff; return reseal(b) }), ErrRecord, "record 2: bad record: flags byte 0xff"},
	}
	for _, tc := range tests {
		bad := filepath.Join(dir, "bad-"+tc.name)
		if err := os.WriteFile(bad, tc.b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadShard(bad)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: ReadShard = %v, want %v naming %s and containing %q", tc.name, err, tc.want, bad, tc.text)
		}
		if !Undecodable(err) {
			t.Errorf("%s: Undecodable(%v) = false", tc.name, err)
		}
	}
	if _, err := ReadShard(filepath.Join(dir, "missing")); Undecodable(err) {
		t.Errorf("a missing shard is undecodable: %v", err)
	}
	if _, err := EncodeShard([]Record{{}}); err == nil || !strings.Contains(err.Error(), "record 0: position") {
		t.Errorf("EncodeShard of a zero record: %v", err)
	}
	bad := records[0]
	bad.Result = 3
	if _, err := EncodeShard([]Record{records[0], bad}); err == nil || !strings.Contains(err.Error(), "record 1: result 3") {
		t.Errorf("EncodeShard of a bad result: %v", err)
	}
}

func TestShardCount(t *testing.T) {
	records := randomGames(t, 2, 5)
	dir := t.TempDir()
	path, err := WriteShard(dir, records)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := ShardCount(path); n != len(records) || err != nil {
		t.Errorf("ShardCount = %d, %v; want %d", n, err, len(records))
	}
	data, _ := os.ReadFile(path)
	for _, tc := range []struct {
		name string
		b    []byte
		want error
	}{
		{"magic", append([]byte("XRNNUEPS"), data[8:]...), ErrMagic},
		{"short", data[:10], ErrSize},
		{"version", append(append(bytes.Clone(data[:8]), 7, 0, 0, 0), data[12:]...), ErrVersion},
	} {
		bad := filepath.Join(dir, "bad-"+tc.name)
		if err := os.WriteFile(bad, tc.b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ShardCount(bad); !errors.Is(err, tc.want) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: ShardCount = %v, want %v naming the file", tc.name, err, tc.want)
		}
		if _, _, err := ShardGameCount(bad); !errors.Is(err, tc.want) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: ShardGameCount = %v, want %v naming the file", tc.name, err, tc.want)
		}
	}
	if _, err := ShardCount(filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// ShardGameCount reads the header of either game's shard, naming the
// game its magic names.
func TestShardGameCount(t *testing.T) {
	dir := t.TempDir()
	trenchPath, err := WriteShard(dir, randomGames(t, 2, 5))
	if err != nil {
		t.Fatal(err)
	}
	trichessPath, err := Trichess.WriteShard(dir, randomTrichessGames(t, 3, 5))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, game string
		count      func(string) (int, error)
	}{
		{trenchPath, "trench", Trench.ShardCount},
		{trichessPath, "trichess", Trichess.ShardCount},
	} {
		want, err := tc.count(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if game, n, err := ShardGameCount(tc.path); game != tc.game || n != want || err != nil {
			t.Errorf("ShardGameCount(%s) = %s, %d, %v; want %s, %d", tc.path, game, n, err, tc.game, want)
		}
	}
}

func FuzzDecodeShard(f *testing.F) {
	records := randomGames(f, 1, 4)
	data, err := EncodeShard(records[:5])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:headerSize+checksumSize])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		rs, err := DecodeShard(b)
		if err != nil {
			return
		}
		again, err := EncodeShard(rs)
		if err != nil {
			t.Fatalf("decoded records do not encode: %v", err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("decoded shard re-encodes differently")
		}
	})
}

func FuzzDecodeRecord(f *testing.F) {
	for _, r := range randomGames(f, 1, 5)[:20] {
		f.Add(AppendRecord(nil, &r))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Record
		if DecodeRecord(b, &r) != nil {
			return
		}
		if again := AppendRecord(nil, &r); !bytes.Equal(again, b[:RecordSize]) {
			t.Fatalf("record %x re-encodes as %x", b[:RecordSize], again)
		}
	})
}

func BenchmarkDecodeRecord(b *testing.B) {
	records := randomGames(b, 10, 6)
	var enc []byte
	for i := range records {
		enc = AppendRecord(enc, &records[i])
	}
	n := len(records)
	b.ReportAllocs()
	b.ResetTimer()
	var r Record
	for i := 0; i < b.N; i++ {
		j := i % n
		if err := DecodeRecord(enc[j*RecordSize:], &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeShard(b *testing.B) {
	records := randomGames(b, 50, 7)
	data, err := EncodeShard(records)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := DecodeShard(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*float64(len(records))/b.Elapsed().Seconds(), "records/s")
}
