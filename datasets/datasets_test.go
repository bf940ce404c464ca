package datasets

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"trench/engine"
	"trench/engine/trench"
	"trench/engine/trichess"
	"trench/tactics"
)

// playSamples plays a random Trench game and returns a sample per position,
// with a policy target spread over up to three legal actions; the
// full-search positions have a surprise.
func playSamples(rng *rand.Rand, id int64) []Sample {
	var samples []Sample
	s := trench.Game.Start()
	for ply := 0; ply < 60 && !s.Over(); ply++ {
		acts := s.LegalActions(nil)
		r := Sample{State: s.String(), ToMove: s.ToMove(), FullSearch: ply%3 == 0, GameID: id}
		v := 2*rng.Float32() - 1
		r.SearchValue = []float32{v, -v}
		if r.FullSearch {
			surprise := float32(ply%5) * 0.25
			r.Surprise = &surprise
		}
		k := min(3, len(acts))
		for j := 0; j < k; j++ {
			r.Actions = append(r.Actions, int32(acts[j]))
			r.Probs = append(r.Probs, 1/float32(k))
		}
		samples = append(samples, r)
		s.Play(acts[rng.IntN(len(acts))])
	}
	result, score := s.Result(nil), s.Scores(nil)
	for i := range samples {
		samples[i].Result, samples[i].Score = result, score
	}
	return samples
}

func TestShardRoundTrip(t *testing.T) {
	samples := playSamples(rand.New(rand.NewPCG(1, 1)), 42)
	data, err := EncodeShard(trench.Game, samples)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeShard(trench.Game, data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, samples) {
		t.Errorf("decoded samples differ from the encoded ones")
	}
	empty, err := EncodeShard(trench.Game, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := DecodeShard(trench.Game, empty); err != nil || len(got) != 0 {
		t.Errorf("empty shard: %d samples, %v", len(got), err)
	}
}

// otherGame is Trench under another name, to test the game check.
type otherGame struct{ engine.Game }

func (otherGame) Name() string { return "other" }

func TestShardErrors(t *testing.T) {
	samples := playSamples(rand.New(rand.NewPCG(2, 2)), 1)
	data, _ := EncodeShard(trench.Game, samples)
	if _, err := DecodeShard(otherGame{trench.Game}, data); !errors.Is(err, ErrGame) {
		t.Errorf("another game's shard: %v, want ErrGame", err)
	}
	for _, cut := range []int{0, 10, len(data) / 2, len(data) - 1} {
		if _, err := DecodeShard(trench.Game, data[:cut]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("truncated to %d bytes: %v, want ErrCorrupt", cut, err)
		}
	}
	// A flipped byte anywhere is caught by the zip structure or a
	// member's CRC-32.
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 200; i++ {
		bad := bytes.Clone(data)
		bad[rng.IntN(len(bad))] ^= 1 << rng.IntN(8)
		if got, err := DecodeShard(trench.Game, bad); err == nil && !reflect.DeepEqual(got, samples) {
			t.Fatalf("a flipped byte decoded silently to different samples")
		}
	}
	// A version this program does not read.
	v2, _ := EncodeShard(trench.Game, samples)
	v2 = bytes.Replace(v2, []byte("version.npy"), []byte("versioX.npy"), -1)
	if _, err := DecodeShard(trench.Game, v2); !errors.Is(err, ErrCorrupt) {
		t.Errorf("shard without a version: %v, want ErrCorrupt", err)
	}
}

func TestShardVersion(t *testing.T) {
	a := encodeNPY(int32Array([]int32{FormatVersion + 1}, 1))
	if _, err := decodeNPY(a); err != nil {
		t.Fatal(err)
	}
	samples := playSamples(rand.New(rand.NewPCG(4, 4)), 1)
	data, _ := EncodeShard(trench.Game, samples)
	old := encodeNPY(int32Array([]int32{FormatVersion}, 1))
	// The version member is stored deflated; rebuild the archive with a
	// patched version instead of patching bytes.
	data = rewriteMember(t, data, "version.npy", bytes.Replace(old, old[len(old)-4:], a[len(a)-4:], 1))
	if _, err := DecodeShard(trench.Game, data); !errors.Is(err, ErrVersion) {
		t.Errorf("future version: %v, want ErrVersion", err)
	}
}

// TestShardVersionOne reads a shard of the first format, which has no
// search values, and refuses a current one that lost them or holds one
// out of range.
func TestShardVersionOne(t *testing.T) {
	samples := playSamples(rand.New(rand.NewPCG(6, 6)), 1)
	data, _ := EncodeShard(trench.Game, samples)
	dropped := rewriteMember(t, data, "search_value.npy", nil)
	if _, err := DecodeShard(trench.Game, dropped); !errors.Is(err, ErrCorrupt) {
		t.Errorf("version %d shard without search values: %v, want ErrCorrupt", FormatVersion, err)
	}
	bad := make([]float32, 2*len(samples))
	bad[5] = 2
	if _, err := DecodeShard(trench.Game, rewriteMember(t, data, "search_value.npy", encodeNPY(float32Array(bad, len(samples), 2)))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("search value 2: %v, want ErrCorrupt", err)
	}
	v1 := rewriteMember(t, dropped, "version.npy", encodeNPY(int32Array([]int32{1}, 1)))
	got, err := DecodeShard(trench.Game, v1)
	if err != nil || len(got) != len(samples) {
		t.Fatalf("version 1 shard: %d samples, %v", len(got), err)
	}
	for i, r := range got {
		if r.SearchValue != nil || r.State != samples[i].State || !reflect.DeepEqual(r.Result, samples[i].Result) {
			t.Fatalf("version 1 sample %d: %+v", i, r)
		}
	}
}

func TestEncodeShardChecksSearchValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value []float32
	}{
		{"missing", nil},
		{"one player's", []float32{0.5}},
		{"above 1", []float32{1.5, -1}},
		{"NaN", []float32{float32(math.NaN()), 0}},
	} {
		samples := playSamples(rand.New(rand.NewPCG(7, 7)), 1)
		samples[3].SearchValue = tc.value
		if _, err := EncodeShard(trench.Game, samples); err == nil {
			t.Errorf("%s search value: encoded without an error", tc.name)
		}
	}
}

func TestWriteAndReadShard(t *testing.T) {
	dir := t.TempDir()
	samples := playSamples(rand.New(rand.NewPCG(5, 5)), 7)
	path, err := WriteShard(dir, trench.Game, samples)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadShard(path, trench.Game)
	if err != nil || len(got) != len(samples) {
		t.Fatalf("read %d samples, %v", len(got), err)
	}
	os.WriteFile(path, []byte("garbage"), 0o644)
	if _, err := ReadShard(path, trench.Game); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("garbage shard: %v, want an error naming %s", err, path)
	}
}

func TestWindowSize(t *testing.T) {
	w := WindowParams{Min: 1000, Exponent: 0.65}
	tests := []struct{ n, want int }{
		{0, 0}, {500, 500}, {1000, 1000}, {10000, 4466}, {1000000, 89125},
	}
	for _, tc := range tests {
		if got := w.Size(tc.n); got != tc.want {
			t.Errorf("Size(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

func TestWindowSamplesRecentAndSkipsBadShards(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(6, 6))
	for id := int64(0); id < 6; id++ {
		samples := playSamples(rng, id)
		if _, err := WriteShard(dir, trench.Game, samples); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(dir, "shard-99999999999999999999-bad.npz")
	os.WriteFile(bad, []byte("PK\x03\x04 truncated"), 0o644)
	var warn bytes.Buffer
	w := NewWindow(dir, trench.Game, WindowParams{Min: 60, Exponent: 0}, &warn)
	added, err := w.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), "shard-99999999999999999999-bad.npz") {
		t.Errorf("no warning naming the bad shard: %q", warn.String())
	}
	if w.Games() != 6 {
		t.Errorf("counted %d games, want 6", w.Games())
	}
	if added != w.Total() || w.Size() != 60 {
		t.Errorf("added %d, total %d, window %d; want window 60", added, w.Total(), w.Size())
	}
	// The window is the last 60 positions: all from the newest game.
	for i := 0; i < 500; i++ {
		if r := w.Sample(rng); r.GameID != 5 {
			t.Fatalf("sampled game %d, outside the window", r.GameID)
		}
	}
	warn.Reset()
	if added, _ := w.Refresh(); added != 0 || warn.Len() != 0 {
		t.Errorf("second refresh added %d and warned %q", added, warn.String())
	}
}

func TestBatchAugmentation(t *testing.T) {
	dir := t.TempDir()
	samples := playSamples(rand.New(rand.NewPCG(7, 7)), 1)
	WriteShard(dir, trench.Game, samples)
	w := NewWindow(dir, trench.Game, DefaultWindow, os.Stderr)
	w.Refresh()
	var b Batch
	rng := rand.New(rand.NewPCG(8, 8))
	if err := w.Fill(&b, 64, rng, true); err != nil {
		t.Fatal(err)
	}
	a := trench.Game.ActionCount()
	fs := trench.Game.FeatureShape().Size()
	for i := 0; i < b.N; i++ {
		// Find which state this row encodes, and under which symmetry, by
		// its features; its policy mass must lie on that state's legal
		// actions.
		row := b.Inputs[i*fs : (i+1)*fs]
		var legal []int
		found := false
		for _, r := range samples {
			s, _ := trench.Game.ParseState(r.State)
			for sym := 0; sym < 2 && !found; sym++ {
				t := s.Transform(sym)
				f := make([]float32, fs)
				t.EncodeFeatures(f)
				if reflect.DeepEqual(f, row) {
					found, legal = true, t.LegalActions(nil)
				}
			}
		}
		if !found {
			t.Fatalf("row %d matches no position under any symmetry", i)
		}
		var mass float32
		for _, act := range legal {
			mass += b.Policy[i*a+act]
		}
		if b.PolicyWeight[i] == 1 && (mass < 0.999 || mass > 1.001) {
			t.Errorf("row %d: policy mass on legal actions %v, want 1", i, mass)
		}
		if r := b.Result[i*2]; r != -b.Result[i*2+1] {
			t.Errorf("row %d: seat results %v %v are not opposite", i, b.Result[i*2], b.Result[i*2+1])
		}
	}
}

func FuzzDecodeShard(f *testing.F) {
	samples := playSamples(rand.New(rand.NewPCG(9, 9)), 1)
	data, _ := EncodeShard(trench.Game, samples[:5])
	f.Add(data)
	f.Add([]byte("PK"))
	f.Add(badPositionShard(f))
	v2, err := os.ReadFile(filepath.Join("testdata", "version2.npz"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v2)
	f.Fuzz(func(t *testing.T, data []byte) {
		samples, err := DecodeShard(trench.Game, data)
		if err != nil {
			return
		}
		for i, r := range samples {
			if r.Surprise != nil && !(*r.Surprise >= 0 && *r.Surprise <= math.MaxFloat32) {
				t.Fatalf("sample %d decoded with surprise %v", i, *r.Surprise)
			}
		}
		var b Batch
		if err := b.FillFrom(trench.Game, samples); err != nil {
			t.Fatalf("a shard that decoded makes no batch: %v", err)
		}
	})
}

// badPositionShard is a shard whose checksums are right but whose third
// position does not parse.
func badPositionShard(tb testing.TB) []byte {
	samples := playSamples(rand.New(rand.NewPCG(9, 9)), 1)[:5]
	samples[2].State = "x" + samples[2].State[1:]
	data, err := EncodeShard(trench.Game, samples)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// TestShardSampleChecks decodes shards whose checksums are right but whose
// samples cannot train: each is refused as corrupt.
func TestShardSampleChecks(t *testing.T) {
	other := playSamples(rand.New(rand.NewPCG(11, 11)), 2)
	cases := []struct {
		name string
		edit func(r []Sample)
	}{
		{"position does not parse", func(r []Sample) { r[2].State = "x" + r[2].State[1:] }},
		{"empty position", func(r []Sample) { r[2].State = "" }},
		{"wrong player to move", func(r []Sample) { r[2].ToMove = 1 - r[2].ToMove }},
		{"illegal policy action", func(r []Sample) { r[0].Actions[0] = int32(trench.Game.ActionCount() - 1) }},
		{"action named twice", func(r []Sample) { r[0].Actions[1] = r[0].Actions[0] }},
		{"another position's actions", func(r []Sample) { r[0].State, r[0].ToMove = other[9].State, other[9].ToMove }},
		{"policy sums past 1", func(r []Sample) { r[0].Probs[0], r[0].Probs[1] = 0.9, 0.9 }},
		{"result out of range", func(r []Sample) { r[1].Result = []float32{1.5, -1} }},
		{"infinite score", func(r []Sample) { r[1].Score = []float32{float32(math.Inf(1)), 0} }},
	}
	for _, tc := range cases {
		samples := playSamples(rand.New(rand.NewPCG(9, 9)), 1)[:5]
		tc.edit(samples)
		data, err := EncodeShard(trench.Game, samples)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := DecodeShard(trench.Game, data); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", tc.name, err)
		}
	}
}

// TestWindowSkipsUntrainableShard puts a shard whose position does not
// parse among good ones: the window skips it with a warning naming the
// file, and batches fill from the others.
func TestWindowSkipsUntrainableShard(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteShard(dir, trench.Game, playSamples(rand.New(rand.NewPCG(12, 12)), 1)); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "shard-00000000000000000001-bad.npz")
	if err := os.WriteFile(bad, badPositionShard(t), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	w := NewWindow(dir, trench.Game, DefaultWindow, &warn)
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), bad) {
		t.Errorf("warnings %q do not name %s", warn.String(), bad)
	}
	var b Batch
	rng := rand.New(rand.NewPCG(13, 13))
	for i := 0; i < 20; i++ {
		if err := w.Fill(&b, 64, rng, true); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
}

func FuzzDecodeNPY(f *testing.F) {
	f.Add(encodeNPY(float32Array([]float32{1, 2, 3, 4}, 2, 2)))
	f.Add(encodeNPY(array{"|S3", []int{2}, []byte("abcdef")}))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := decodeNPY(data)
		if err != nil {
			return
		}
		if again, err := decodeNPY(encodeNPY(a)); err != nil || !reflect.DeepEqual(again, a) {
			t.Fatalf("re-encoding %v: %v", a, err)
		}
	})
}

// TestBatchSeats checks that results and search values are laid out per
// seat from the mover (seat k is player mover+k), and that a sample
// without search values gets its result in their place.
func TestBatchSeats(t *testing.T) {
	s := trichess.Game.Start()
	s.Play(s.LegalActions(nil)[0]) // Red to move
	result, score := []float32{1, -1. / 3, 1. / 3}, []float32{3, 1, 2}
	for _, tc := range []struct {
		name        string
		searchValue []float32
		wantValue   []float32
	}{
		{"with search values", []float32{0.1, 0.2, 0.3}, []float32{0.2, 0.3, 0.1}},
		{"without", nil, []float32{-1. / 3, 1. / 3, 1}},
	} {
		r := Sample{State: s.String(), ToMove: s.ToMove(), Result: result, Score: score, SearchValue: tc.searchValue}
		var b Batch
		if err := b.FillFrom(trichess.Game, []Sample{r}); err != nil {
			t.Fatal(err)
		}
		if want := []float32{-1. / 3, 1. / 3, 1}; !reflect.DeepEqual(b.Result, want) {
			t.Errorf("%s: results %v, want %v", tc.name, b.Result, want)
		}
		if !reflect.DeepEqual(b.SearchValue, tc.wantValue) {
			t.Errorf("%s: search values %v, want %v", tc.name, b.SearchValue, tc.wantValue)
		}
		if want := []float32{-2, -1, 1}; !reflect.DeepEqual(b.ScoreDiff, want) {
			t.Errorf("%s: score differences %v, want %v", tc.name, b.ScoreDiff, want)
		}
	}
}

// TestBatchOffsets checks that each row carries its position's material
// offsets per seat from the mover.
func TestBatchOffsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var samples []Sample
	for id := int64(0); id < 4; id++ {
		samples = append(samples, playSamples(rng, id)...)
	}
	var b Batch
	if err := b.FillFrom(trench.Game, samples); err != nil {
		t.Fatal(err)
	}
	leads := 0
	for i, r := range samples {
		s, _ := trench.Game.ParseState(r.State)
		logit, score := make([]float32, 2), make([]float32, 2)
		tactics.ValueOffsets(s, logit, score, nil)
		if !slices.Equal(b.LogitOffset[2*i:2*i+2], logit) || !slices.Equal(b.ScoreOffset[2*i:2*i+2], score) {
			t.Fatalf("row %d: offsets %v %v, want %v %v", i, b.LogitOffset[2*i:2*i+2], b.ScoreOffset[2*i:2*i+2], logit, score)
		}
		if score[0] != 0 {
			leads++
		}
	}
	if leads == 0 {
		t.Error("no position with a material lead")
	}
}

// TestBatchPolicyOffsets checks that a batch asked for the capture policy
// base's offsets gives each row's legal actions the logarithm of their
// capture priors and its illegal ones tactics.IllegalOffset, under every
// symmetry the same mapping as the policy target's, and that a batch not
// asked for them has none.
func TestBatchPolicyOffsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var samples []Sample
	for id := int64(0); id < 3; id++ {
		samples = append(samples, playSamples(rng, id)...)
	}
	g := trench.Game
	a := g.ActionCount()
	var plain Batch
	if err := plain.FillFrom(g, samples); err != nil {
		t.Fatal(err)
	}
	if len(plain.PolicyOffset) != 0 {
		t.Fatalf("a batch not asked for policy offsets has %d", len(plain.PolicyOffset))
	}
	b := Batch{PolicyOffsets: true}
	captures := 0
	for sym := range g.Symmetries() {
		b.reset(g, len(samples))
		for i := range samples {
			if err := b.set(g, i, &samples[i], sym); err != nil {
				t.Fatal(err)
			}
		}
		for i, r := range samples {
			s, _ := g.ParseState(r.State)
			acts := s.LegalActions(nil)
			priors := tactics.CapturePriors(s, acts, nil)
			want := make([]float32, a)
			for j := range want {
				want[j] = tactics.IllegalOffset
			}
			for j, act := range acts {
				want[s.TransformAction(sym, act)] = float32(math.Log(float64(priors[j])))
				if tactics.Taken(s, act) > 0 {
					captures++
				}
			}
			got := b.PolicyOffset[i*a : (i+1)*a]
			if !slices.Equal(got, want) {
				t.Fatalf("symmetry %d, row %d: policy offsets differ from the capture priors' logarithms", sym, i)
			}
			for j, act := range r.Actions {
				if r.Probs[j] > 0 && got[s.TransformAction(sym, int(act))] == tactics.IllegalOffset {
					t.Fatalf("symmetry %d, row %d: target action %d has the illegal offset", sym, i, act)
				}
			}
		}
	}
	if captures == 0 {
		t.Error("no position with a capture")
	}
}

// BenchmarkFillFrom builds a training batch of 256 positions of random
// Trench games, as the trainer does before every step.
func BenchmarkFillFrom(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 11))
	var samples []Sample
	for id := int64(0); len(samples) < 256; id++ {
		samples = append(samples, playSamples(rng, id)...)
	}
	samples = samples[:256]
	var batch Batch
	b.ReportAllocs()
	for b.Loop() {
		if err := batch.FillFrom(trench.Game, samples); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFillFromPolicyOffsets is BenchmarkFillFrom with the capture
// policy base's offsets, as the trainer fills batches for a net with that
// base.
func BenchmarkFillFromPolicyOffsets(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 11))
	var samples []Sample
	for id := int64(0); len(samples) < 256; id++ {
		samples = append(samples, playSamples(rng, id)...)
	}
	samples = samples[:256]
	batch := Batch{PolicyOffsets: true}
	b.ReportAllocs()
	for b.Loop() {
		if err := batch.FillFrom(trench.Game, samples); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeShard decodes and checks a shard of 16 random Trench
// games, as the trainer does with every shard it loads.
func BenchmarkDecodeShard(b *testing.B) {
	rng := rand.New(rand.NewPCG(10, 10))
	var samples []Sample
	for id := int64(0); id < 16; id++ {
		samples = append(samples, playSamples(rng, id)...)
	}
	data, err := EncodeShard(trench.Game, samples)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := DecodeShard(trench.Game, data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(samples)), "ns/position")
}

// FuzzShardFileToBatch drives bytes through the trainer's whole path: a
// shard file in a directory, the window that loads it, and training
// batches sampled from it. member 0 takes data as the whole file; member
// k > 0 puts data in place of a valid shard's k-th array (checksums
// recomputed), so that what the bytes say reaches the sample checks.
// Whatever the bytes, a shard is either skipped with a warning naming it
// or yields batches of finite values whose policy lies on legal actions,
// drawn uniformly or by surprise.
func FuzzShardFileToBatch(f *testing.F) {
	samples := playSamples(rand.New(rand.NewPCG(14, 14)), 1)[:6]
	base, err := EncodeShard(trench.Game, samples)
	if err != nil {
		f.Fatal(err)
	}
	names, contents := memberNames(f, base)
	f.Add(uint8(0), base)
	f.Add(uint8(0), badPositionShard(f))
	for i, c := range contents {
		f.Add(uint8(i+1), c)
	}
	f.Fuzz(func(t *testing.T, member uint8, data []byte) {
		file := data
		if member > 0 {
			file = rewriteMember(t, base, names[int(member-1)%len(names)], data)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "shard-00000000000000000001-fuzz.npz")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		var warn bytes.Buffer
		w := NewWindow(dir, trench.Game, DefaultWindow, &warn)
		added, err := w.Refresh()
		if err != nil {
			t.Fatal(err)
		}
		if warn.Len() > 0 {
			if added != 0 || !strings.Contains(warn.String(), path) {
				t.Fatalf("added %d positions and warned %q, want none and a warning naming %s", added, warn.String(), path)
			}
			return
		}
		if w.Size() == 0 {
			return
		}
		var b Batch
		rng := rand.New(rand.NewPCG(uint64(len(data)), uint64(member)))
		if err := w.Fill(&b, 8, rng, true); err != nil {
			t.Fatalf("an accepted shard makes no batch: %v", err)
		}
		checkBatch(t, &b)
		// The same window drawn by the shard's surprises.
		weighted := NewWindow(dir, trench.Game, WindowParams{Min: DefaultWindow.Min, Exponent: DefaultWindow.Exponent, SurpriseWeight: 0.5}, &warn)
		if _, err := weighted.Refresh(); err != nil {
			t.Fatal(err)
		}
		if err := weighted.Fill(&b, 8, rng, true); err != nil {
			t.Fatalf("an accepted shard makes no batch weighted by surprise: %v", err)
		}
		checkBatch(t, &b)
	})
}

// checkBatch checks that a batch holds finite values, results in [-1, 1]
// and policy rows of non-negative mass at most 1.
func checkBatch(t *testing.T, b *Batch) {
	t.Helper()
	for name, vs := range map[string][]float32{"inputs": b.Inputs, "policy": b.Policy, "result": b.Result, "search value": b.SearchValue, "score difference": b.ScoreDiff} {
		for i, v := range vs {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("%s[%d] = %v", name, i, v)
			}
		}
	}
	for i, v := range append(slices.Clone(b.Result), b.SearchValue...) {
		if v < -1 || v > 1 {
			t.Fatalf("value target %d = %v, out of [-1, 1]", i, v)
		}
	}
	a := len(b.Policy) / b.N
	for i := 0; i < b.N; i++ {
		var mass float32
		for _, p := range b.Policy[i*a : (i+1)*a] {
			if p < 0 {
				t.Fatalf("row %d: negative policy target %v", i, p)
			}
			mass += p
		}
		if mass > 1.001 {
			t.Fatalf("row %d: policy mass %v", i, mass)
		}
	}
}

// TestWriteShardNeverReplaces gives two shards the same name, as two
// self-play processes could: the second takes another name and both
// shards stay whole.
func TestWriteShardNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	names := []string{"shard-1-same.npz", "shard-1-same.npz", "shard-2-other.npz"}
	next := func() string { n := names[0]; names = names[1:]; return n }
	first, err := writeNew(dir, []byte("first"), next)
	if err != nil {
		t.Fatal(err)
	}
	second, err := writeNew(dir, []byte("second"), next)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{first: "first", second: "second"} {
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("%s holds %q, %v; want %q", path, got, err, want)
		}
	}
	if filepath.Base(second) != "shard-2-other.npz" {
		t.Errorf("second shard written as %s, want the next name", second)
	}
	taken := func() string { return "shard-1-same.npz" }
	if _, err := writeNew(dir, []byte("third"), taken); !errors.Is(err, fs.ErrExist) {
		t.Errorf("only taken names: %v, want fs.ErrExist", err)
	}
}

// WriteShardNamed keeps the name it is given, refuses names that are not
// a shard's, and never replaces a file.
func TestWriteShardNamed(t *testing.T) {
	dir := t.TempDir()
	samples := playSamples(rand.New(rand.NewPCG(6, 6)), 8)
	path, err := WriteShardNamed(dir, "shard-0001-copy.npz", trench.Game, samples)
	if err != nil || path != filepath.Join(dir, "shard-0001-copy.npz") {
		t.Fatalf("wrote %s, %v", path, err)
	}
	if got, err := ReadShard(path, trench.Game); err != nil || !reflect.DeepEqual(got, samples) {
		t.Fatalf("read back %d samples, %v", len(got), err)
	}
	if _, err := WriteShardNamed(dir, "shard-0001-copy.npz", trench.Game, samples[:1]); !errors.Is(err, fs.ErrExist) {
		t.Errorf("taken name: %v, want fs.ErrExist", err)
	}
	for _, bad := range []string{"copy.npz", "shard-1.txt", "../shard-1.npz", "sub/shard-1.npz"} {
		if _, err := WriteShardNamed(dir, bad, trench.Game, samples); err == nil || !strings.Contains(err.Error(), "shard name") {
			t.Errorf("name %q: %v, want a shard name error", bad, err)
		}
	}
}
