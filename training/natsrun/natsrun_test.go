package natsrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"trench/checkpoints"
	"trench/datasets"
	"trench/engine/trench"
	"trench/internal/syncbuf"
)

// startServer starts a JetStream server on loopback storing in dir; port
// -1 picks a free port. maxPayload 0 keeps the server's default.
func startServer(t testing.TB, dir string, port int, maxPayload int32) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{
		JetStream: true, StoreDir: dir, Host: "127.0.0.1", Port: port, MaxPayload: maxPayload, NoLog: true, NoSigs: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s
}

func connect(t testing.TB, s *server.Server) *nats.Conn {
	t.Helper()
	nc, err := Connect(ConnOptions{URL: s.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// shardBytes encodes a shard of games random Trench games.
func shardBytes(t testing.TB, rng *rand.Rand, games int) []byte {
	t.Helper()
	var samples []datasets.Sample
	for id := 0; id < games; id++ {
		s := trench.Game.Start()
		first := len(samples)
		for ply := 0; ply < 80 && !s.Over(); ply++ {
			acts := s.LegalActions(nil)
			r := datasets.Sample{State: s.String(), ToMove: s.ToMove(), GameID: int64(id), SearchValue: []float32{0, 0}}
			for _, a := range acts[:min(8, len(acts))] {
				r.Actions = append(r.Actions, int32(a))
				r.Probs = append(r.Probs, 1/float32(min(8, len(acts))))
			}
			samples = append(samples, r)
			s.Play(acts[rng.IntN(len(acts))])
		}
		for i := first; i < len(samples); i++ {
			samples[i].Result, samples[i].Score = s.Result(nil), s.Scores(nil)
		}
	}
	data, err := datasets.EncodeShard(trench.Game, samples)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func testMeta() Meta {
	return Meta{Game: "trench", Net: "tiny", FormatVersion: datasets.FormatVersion, Steps: 30, Config: []byte(`{"game":"trench"}`)}
}

func TestNamesFor(t *testing.T) {
	for _, tc := range []struct {
		run string
		ok  bool
	}{
		{"first", true}, {"run_2-b", true}, {"", false}, {"a.b", false}, {"a b", false}, {"a*", false}, {"a>", false},
		{strings.Repeat("x", 64), true}, {strings.Repeat("x", 65), false},
	} {
		n, err := NamesFor(tc.run)
		if (err == nil) != tc.ok {
			t.Errorf("NamesFor(%q): %v, want ok %v", tc.run, err, tc.ok)
		}
		if err == nil && (n.Subject != "trench."+tc.run+".shards" || n.Stream != "TRENCH_"+tc.run) {
			t.Errorf("NamesFor(%q) = %+v", tc.run, n)
		}
	}
}

func TestMetaMismatch(t *testing.T) {
	m := testMeta()
	for _, tc := range []struct {
		want Meta
		says string
	}{
		{Meta{}, ""},
		{Meta{Game: "trench", Net: "tiny", FormatVersion: datasets.FormatVersion}, ""},
		{Meta{Game: "trichess"}, "the run plays trench, this worker trichess"},
		{Meta{Net: "large"}, "the run's net is tiny, this worker's large"},
		{Meta{FormatVersion: 99}, "shard format"},
	} {
		err := m.Mismatch(tc.want)
		if tc.says == "" && err != nil || tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("Mismatch(%+v) = %v, want %q", tc.want, err, tc.says)
		}
	}
}

func TestCreateOpenAndCheckpoints(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	nc := connect(t, s)
	ctx := context.Background()
	if _, err := Open(ctx, nc, "first"); !errors.Is(err, ErrNoRun) {
		t.Fatalf("Open before Create: %v, want ErrNoRun", err)
	}
	r, err := Create(ctx, nc, "first", testMeta())
	if err != nil {
		t.Fatal(err)
	}
	other := testMeta()
	other.Game = "trichess"
	if _, err := Create(ctx, nc, "first", other); err == nil || !strings.Contains(err.Error(), "trichess") {
		t.Errorf("Create with another game: %v", err)
	}
	w, err := Open(ctx, nc, "first")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := w.Meta(ctx); err != nil || m.Game != "trench" || m.Steps != 30 {
		t.Errorf("Meta = %+v, %v", m, err)
	}
	if _, err := w.Latest(ctx); !errors.Is(err, ErrNoCheckpoint) {
		t.Errorf("Latest before any: %v", err)
	}
	for step := uint64(0); step <= 50; step += 10 {
		if err := r.PublishCheckpoint(ctx, step, fmt.Sprintf("ckpt-%06d.tnet", step), []byte(fmt.Sprint("net ", step))); err != nil {
			t.Fatal(err)
		}
	}
	c, err := w.Latest(ctx)
	if err != nil || c.Step != 50 || c.Name != "ckpt-000050.tnet" {
		t.Fatalf("Latest = %+v, %v", c, err)
	}
	if data, err := w.FetchCheckpoint(ctx, c); err != nil || string(data) != "net 50" {
		t.Errorf("FetchCheckpoint = %q, %v", data, err)
	}
	bad := c
	bad.SHA256 = strings.Repeat("0", 64)
	if _, err := w.FetchCheckpoint(ctx, bad); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("FetchCheckpoint with a wrong checksum: %v", err)
	}
	if objs, err := r.nets.List(ctx); err != nil || len(objs) != keepNets {
		t.Errorf("the net bucket holds %d objects (%v), want %d", len(objs), err, keepNets)
	}
}

func TestDecodeRecords(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"step":10,"name":"ckpt-000010.tnet","sha256":"` + sum + `","size":5}`, true},
		{`{"step":11,"name":"ckpt-000010.tnet","sha256":"` + sum + `"}`, false},
		{`{"step":10,"name":"../../etc/passwd","sha256":"` + sum + `"}`, false},
		{`{"step":10,"name":"ckpt-000010.tnet","sha256":"xyz"}`, false},
		{`{"step":10,"name":"ckpt-000010.tnet","sha256":"` + sum + `","size":-1}`, false},
		{`{"step":`, false},
	} {
		if _, err := decodeCheckpoint([]byte(tc.in)); (err == nil) != tc.ok {
			t.Errorf("decodeCheckpoint(%s): %v, want ok %v", tc.in, err, tc.ok)
		}
	}
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"game":"trench","net":"tiny","format_version":2,"steps":30}`, true},
		{`{"game":"","net":"tiny","format_version":2}`, false},
		{`{"game":"trench","net":"tiny","format_version":0}`, false},
		{`{"game":"trench","net":"tiny","format_version":2,"steps":-1}`, false},
		{`[]`, false},
	} {
		if _, err := decodeMeta([]byte(tc.in)); (err == nil) != tc.ok {
			t.Errorf("decodeMeta(%s): %v, want ok %v", tc.in, err, tc.ok)
		}
	}
}

func FuzzDecodeCheckpoint(f *testing.F) {
	f.Add([]byte(`{"step":10,"name":"ckpt-000010.tnet","sha256":"` + strings.Repeat("0", 64) + `","size":5}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeCheckpoint(b)
		if err == nil {
			if step, ok := checkpoints.StepOf(c.Name); !ok || step != c.Step || strings.ContainsAny(c.Name, "/\\") {
				t.Errorf("accepted %+v", c)
			}
		}
	})
}

func FuzzDecodeMeta(f *testing.F) {
	f.Add([]byte(`{"game":"trench","net":"tiny","format_version":2,"steps":30,"config":{"a":1}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeMeta(b)
		if err == nil && (m.Game == "" || m.Net == "" || m.FormatVersion < 1) {
			t.Errorf("accepted %+v", m)
		}
	})
}

// collect runs the trainer's consumer until want shards are written or the
// deadline passes, and returns the warnings.
func collect(t *testing.T, r *Run, opt ConsumeOptions, want int64) (*ConsumeStats, string) {
	t.Helper()
	var warn syncbuf.Buffer
	opt.Warnings = &warn
	ctx, cancel := context.WithCancel(context.Background())
	var stats ConsumeStats
	done := make(chan error)
	go func() { done <- r.Consume(ctx, opt, &stats) }()
	deadline := time.Now().Add(20 * time.Second)
	for stats.Written.Load()+stats.Duplicates.Load()+stats.Refused.Load() < want && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return &stats, warn.String()
}

func TestShardsArriveOnceAndBadOnesAreSkipped(t *testing.T) {
	// A small maximum payload sends the large shard through the object store.
	s := startServer(t, t.TempDir(), -1, 8<<10)
	nc := connect(t, s)
	ctx := context.Background()
	r, err := Create(ctx, nc, "once", testMeta())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	small, big := shardBytes(t, rng, 1), shardBytes(t, rng, 12)
	if len(small) > 7<<10 || len(big) < 8<<10 {
		t.Fatalf("shards of %d and %d bytes do not straddle the 8 KiB limit", len(small), len(big))
	}
	corrupt := append([]byte(nil), small...)
	corrupt[len(corrupt)/2] ^= 0xff
	shards := []Shard{
		{Worker: "w1", ID: "a", Step: 10, Data: small},
		{Worker: "w1", ID: "a", Step: 10, Data: small}, // a retried publish
		{Worker: "w2", ID: "a", Step: 10, Data: big},
		{Worker: "w2", ID: "bad", Step: 10, Data: corrupt},
		{Worker: "w3", ID: "old", Step: 1, Data: small},
		{Worker: "w3", ID: "b", Step: 9, Data: small},
	}
	for _, sh := range shards {
		if err := r.PublishShard(ctx, sh); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "datasets")
	opt := ConsumeOptions{Dir: dir, Game: trench.Game, MaxLag: 5, Step: func() uint64 { return 10 }}
	stats, warn := collect(t, r, opt, 5)
	if stats.Written.Load() != 3 || stats.Refused.Load() != 2 {
		t.Errorf("written %d, refused %d; want 3 and 2; warnings:\n%s", stats.Written.Load(), stats.Refused.Load(), warn)
	}
	for _, want := range []string{`shard "bad" of worker "w2"`, `shard "old" of worker "w3": played by step 1`} {
		if !strings.Contains(warn, want) {
			t.Errorf("warnings lack %q:\n%s", want, warn)
		}
	}
	names, _ := datasets.ShardNames(dir)
	if len(names) != 3 {
		t.Fatalf("datasets holds %v, want 3 shards", names)
	}
	var sizes []int
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(data))
		if !bytes.Equal(data, small) && !bytes.Equal(data, big) {
			t.Errorf("%s is not a published shard", n)
		}
	}
	if objs, _ := r.big.List(ctx); len(objs) != 0 {
		t.Errorf("the big shard's object was not deleted after it was taken: %d left", len(objs))
	}

	// The same shard published again after a restart of the consumer, and
	// a redelivery, leave one copy.
	if err := r.PublishShard(ctx, shards[0]); err != nil {
		t.Fatal(err)
	}
	if err := r.PublishShard(ctx, Shard{Worker: "w1", ID: "c", Step: 10, Data: small}); err != nil {
		t.Fatal(err)
	}
	stats, warn = collect(t, r, opt, 1)
	if stats.Written.Load() != 1 {
		t.Errorf("after a restart: written %d, want 1; warnings:\n%s", stats.Written.Load(), warn)
	}
	if names, _ := datasets.ShardNames(dir); len(names) != 4 {
		t.Errorf("datasets holds %d shards, want 4 (sizes so far %v)", len(names), sizes)
	}
}

func TestRedeliveredShardIsNotWrittenTwice(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	nc := connect(t, s)
	ctx := context.Background()
	r, err := Create(ctx, nc, "redeliver", testMeta())
	if err != nil {
		t.Fatal(err)
	}
	data := shardBytes(t, rand.New(rand.NewPCG(3, 3)), 1)
	if err := r.PublishShard(ctx, Shard{Worker: "w", ID: "1", Data: data}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "datasets")
	// A trainer that wrote the file and died before acknowledging: the
	// file is there under the message's key, the message still pending.
	os.MkdirAll(dir, 0o755)
	key := objectName("w/1")
	if err := os.WriteFile(filepath.Join(dir, "shard-00000000000000000001-"+key+".npz"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	stats, warn := collect(t, r, ConsumeOptions{Dir: dir, Game: trench.Game}, 1)
	if stats.Duplicates.Load() != 1 || stats.Written.Load() != 0 {
		t.Errorf("duplicates %d, written %d, want 1 and 0; %s", stats.Duplicates.Load(), stats.Written.Load(), warn)
	}
	if names, _ := datasets.ShardNames(dir); len(names) != 1 {
		t.Errorf("datasets holds %v", names)
	}
}

func TestPublisherKeepsShardsWhileTheServerIsAway(t *testing.T) {
	store := t.TempDir()
	s := startServer(t, store, -1, 0)
	url := s.ClientURL()
	nc, err := Connect(ConnOptions{URL: url, Log: &syncbuf.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := context.Background()
	r, err := Create(ctx, nc, "away", testMeta())
	if err != nil {
		t.Fatal(err)
	}
	var warn syncbuf.Buffer
	p := NewPublisher(r, "w", 2, &warn)
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(pctx)
	}()
	data := shardBytes(t, rand.New(rand.NewPCG(4, 4)), 1)
	if err := p.Add(ctx, data, 0); err != nil {
		t.Fatal(err)
	}
	for p.Published() < 1 {
		time.Sleep(10 * time.Millisecond)
	}
	port := s.Addr().(*net.TCPAddr).Port
	s.Shutdown()
	s.WaitForShutdown()
	// Two shards fill the buffer; a third pauses until the server is back.
	added := make(chan error, 1)
	go func() {
		for i := 0; i < 3; i++ {
			if err := p.Add(ctx, data, 0); err != nil {
				added <- err
				return
			}
		}
		added <- nil
	}()
	for !p.Paused() {
		time.Sleep(10 * time.Millisecond)
	}
	startServer(t, store, port, 0)
	if err := <-added; err != nil {
		t.Fatal(err)
	}
	p.Close()
	<-done
	if p.Published() != 4 || p.Buffered() != 0 {
		t.Errorf("published %d, buffered %d, want 4 and 0", p.Published(), p.Buffered())
	}
	if !strings.Contains(warn.String(), "self-play paused") {
		t.Errorf("the publisher did not say it paused:\n%s", warn.String())
	}
	stats, _ := collect(t, r, ConsumeOptions{Dir: t.TempDir(), Game: trench.Game}, 4)
	if stats.Written.Load() != 4 {
		t.Errorf("the trainer took %d shards, want 4", stats.Written.Load())
	}
}

// TestConsumeWaitsForTheServer starts the trainer's consumer while the
// server is down: it must say so, keep trying, and take the waiting shard
// once the server is back, instead of failing.
func TestConsumeWaitsForTheServer(t *testing.T) {
	store := t.TempDir()
	s := startServer(t, store, -1, 0)
	nc, err := Connect(ConnOptions{URL: s.ClientURL(), Log: &syncbuf.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := context.Background()
	r, err := Create(ctx, nc, "late", testMeta())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.PublishShard(ctx, Shard{Worker: "w", ID: "s1", Data: shardBytes(t, rand.New(rand.NewPCG(5, 5)), 1)}); err != nil {
		t.Fatal(err)
	}
	port := s.Addr().(*net.TCPAddr).Port
	s.Shutdown()
	s.WaitForShutdown()

	var warn syncbuf.Buffer
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stats ConsumeStats
	done := make(chan error, 1)
	go func() {
		done <- r.Consume(cctx, ConsumeOptions{Dir: t.TempDir(), Game: trench.Game, Warnings: &warn}, &stats)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(warn.String(), "trying again") {
		if time.Now().After(deadline) {
			t.Fatalf("the consumer did not report the missing server:\n%s", warn.String())
		}
		select {
		case err := <-done:
			t.Fatalf("the consumer gave up while the server was away: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	startServer(t, store, port, 0)
	for stats.Written.Load() < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the shard did not arrive once the server was back:\n%s", warn.String())
		}
		select {
		case err := <-done:
			t.Fatalf("the consumer stopped: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
