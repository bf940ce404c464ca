package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"trench/checkpoints"
	"trench/datasets"
	"trench/internal/syncbuf"
	nnuedata "trench/nnue/data"
	"trench/training"
	"trench/training/generations"
	"trench/training/natsrun"
)

// startNATS starts a JetStream server on loopback storing in dir; port -1
// picks a free port.
func startNATS(t *testing.T, dir string, port int) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{JetStream: true, StoreDir: dir, Host: "127.0.0.1", Port: port, NoLog: true, NoSigs: true})
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

// child is a trench process started by a test.
type child struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan error
}

func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	c := &child{cmd: trenchProcess(args...), out: &syncbuf.Buffer{}, done: make(chan error, 1)}
	c.cmd.Stdout, c.cmd.Stderr = c.out, c.out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.done <- c.cmd.Wait() }()
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		<-c.done
		if t.Failed() {
			t.Logf("output of trench %s:\n%s", strings.Join(args, " "), c.out.String())
		}
	})
	return c
}

// stop interrupts the process and waits for a clean exit.
func (c *child) stop(t *testing.T) {
	t.Helper()
	c.cmd.Process.Signal(os.Interrupt)
	c.wait(t)
}

// wait waits up to two minutes for the process to exit with status 0.
func (c *child) wait(t *testing.T) {
	t.Helper()
	select {
	case err := <-c.done:
		c.done <- err
		if err != nil {
			t.Fatalf("trench %s: %v\n%s", strings.Join(c.cmd.Args[1:], " "), err, c.out.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("trench %s did not end:\n%s", strings.Join(c.cmd.Args[1:], " "), c.out.String())
	}
}

// waitFor polls cond every 100ms for up to three minutes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// openRun opens a run from the test process.
func openRun(t *testing.T, url, name string) *natsrun.Run {
	t.Helper()
	nc, err := natsrun.Connect(natsrun.ConnOptions{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := natsrun.WaitOpen(ctx, nc, name, func() {})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// shardCount is the number of shard files in the run's datasets folder.
func shardCount(dir string) int {
	names, _ := datasets.ShardNames(filepath.Join(dir, "datasets"))
	return len(names)
}

// latestStep is the step of the run's newest checkpoint file.
func latestStep(dir string) uint64 {
	p, err := checkpoints.Latest(dir)
	if err != nil {
		return 0
	}
	step, _ := checkpoints.StepOf(filepath.Base(p))
	return step
}

// usesAfter reports whether a worker's output says it took up a
// checkpoint of a step above step.
func usesAfter(out string, step uint64) bool {
	for _, line := range strings.Split(out, "\n") {
		if name, ok := strings.CutPrefix(line, "self-play now uses "); ok {
			if s, ok := checkpoints.StepOf(name); ok && s > step {
				return true
			}
		}
	}
	return false
}

// shardMessages returns the messages of the shard stream of the run name
// on the server at url, oldest first.
func shardMessages(t *testing.T, url, name string) []*jetstream.RawStreamMsg {
	t.Helper()
	r := openRun(t, url, name)
	nc, _ := natsrun.Connect(natsrun.ConnOptions{URL: url})
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	st, err := js.Stream(ctx, r.Stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []*jetstream.RawStreamMsg
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// checkExactlyOnce checks that the trainer took every shard message of the
// run's stream but those of skip: each is in datasets exactly once, and
// datasets holds nothing else.
func checkExactlyOnce(t *testing.T, url, name, dir string, skip string) {
	t.Helper()
	published := map[[32]byte]string{}
	for _, m := range shardMessages(t, url, name) {
		if m.Header.Get("Trench-Worker") == skip {
			continue
		}
		published[sha256.Sum256(m.Data)] = m.Header.Get("Trench-Worker") + "/" + m.Header.Get("Trench-Shard")
	}
	names, err := datasets.ShardNames(filepath.Join(dir, "datasets"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[32]byte]string{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, "datasets", n))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if _, ok := published[sum]; !ok {
			t.Errorf("%s is no published shard", n)
		}
		if other, ok := seen[sum]; ok {
			t.Errorf("%s and %s hold the same shard", other, n)
		}
		seen[sum] = n
	}
	for sum, id := range published {
		if _, ok := seen[sum]; !ok {
			t.Errorf("shard %s is not in datasets", id)
		}
	}
	if len(published) == 0 {
		t.Error("no shard was published")
	}
	t.Logf("%d shards published, %d in datasets", len(published), len(names))
}

// waitTaken waits until the trainer has taken every shard on the server.
func waitTaken(t *testing.T, r *natsrun.Run) {
	t.Helper()
	waitFor(t, "the trainer to take every shard", func() bool {
		st, err := r.Status(context.Background())
		return err == nil && st.Shards > 0 && st.Waiting == 0
	})
}

// TestNATSTrainingWithTwoWorkers trains a tiny run with two worker
// processes started before the trainer, all meeting on a NATS server; the
// trainer draws by policy surprise, which the workers' shards carry.
func TestNATSTrainingWithTwoWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a run with worker processes")
	}
	srv := startNATS(t, t.TempDir(), -1)
	url := srv.ClientURL()
	dir := filepath.Join(t.TempDir(), "tworkers")
	w1 := startChild(t, "selfplay", "--nats", url, "--run", "tworkers", "--workers", "1", "--name", "w1")
	w2 := startChild(t, "selfplay", "--nats", url, "--run", "tworkers", "--workers", "1", "--name", "w2")
	waitFor(t, "the workers to wait for the run", func() bool {
		return strings.Contains(w1.out.String(), "waiting for run tworkers") && strings.Contains(w2.out.String(), "waiting for run tworkers")
	})
	trainer := startChild(t, "train", "--run", dir, "--preset", "tiny", "--steps", "1000000", "--nats", url, "--no-selfplay", "--policy-surprise", "0.5")
	waitFor(t, "both workers to take up a newer checkpoint", func() bool {
		return usesAfter(w1.out.String(), 0) && usesAfter(w2.out.String(), 0)
	})
	code, out, errOut := runCLI("status", "--nats", url, "--run", "tworkers")
	if code != 0 || !strings.Contains(out, "workers: 2 live") || !strings.Contains(out, "w1") || !strings.Contains(out, "checkpoint: ckpt-") {
		t.Errorf("status: code %d, %s%s", code, out, errOut)
	}
	w1.stop(t)
	w2.stop(t)
	// Not on a terminal, a worker ends its progress with a status line.
	for _, w := range []*child{w1, w2} {
		if !strings.Contains(w.out.String(), "self-play: games ") {
			t.Errorf("a worker's output lacks its progress:\n%s", w.out.String())
		}
	}
	r := openRun(t, url, "tworkers")
	if hbs, err := r.Workers(context.Background()); err != nil || len(hbs) != 0 {
		t.Errorf("workers stopped cleanly still listed: %v, %v", hbs, err)
	}
	waitTaken(t, r)
	trainer.stop(t)
	checkExactlyOnce(t, url, "tworkers", dir, "")
	checkRun(t, dir)
	if !slices.ContainsFunc(shardSurprises(t, dir), func(s float64) bool { return s > 0 }) {
		t.Error("no position in the workers' shards has a surprise")
	}
}

// TestNATSRunSurvivesFaults kills a worker and the trainer with SIGKILL,
// restarts the server and sends a corrupt shard during one run, which
// must lose no shard and store none twice.
func TestNATSRunSurvivesFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a run with worker processes")
	}
	store := t.TempDir()
	srv := startNATS(t, store, -1)
	port := srv.Addr().(*net.TCPAddr).Port
	url := srv.ClientURL()
	dir := filepath.Join(t.TempDir(), "faults")
	trainArgs := []string{"train", "--run", dir, "--preset", "tiny", "--steps", "1000000", "--nats", url, "--no-selfplay"}
	trainer := startChild(t, trainArgs...)
	r := openRun(t, url, "faults")
	a := startChild(t, "selfplay", "--nats", url, "--run", "faults", "--workers", "1", "--name", "a")
	b := startChild(t, "selfplay", "--nats", url, "--run", "faults", "--workers", "1", "--name", "b")

	// A worker killed while it plays and publishes.
	waitFor(t, "worker a to publish", func() bool {
		hbs, _ := r.Workers(context.Background())
		for _, h := range hbs {
			if h.Worker == "a" && h.Published > 0 {
				return true
			}
		}
		return false
	})
	a.cmd.Process.Signal(syscall.SIGKILL)
	a2 := startChild(t, "selfplay", "--nats", url, "--run", "faults", "--workers", "1", "--name", "a2")

	// The trainer killed while it takes shards, and restarted.
	taken := shardCount(dir)
	waitFor(t, "the trainer to take more shards", func() bool { return shardCount(dir) >= taken+2 })
	trainer.cmd.Process.Signal(syscall.SIGKILL)
	<-trainer.done
	trainer.done <- nil
	trainer = startChild(t, trainArgs...)
	waitFor(t, "the restarted trainer to take shards", func() bool { return strings.Contains(trainer.out.String(), "is on the NATS server") })

	// The server stopped and started again on the same port and store.
	step := latestStep(dir)
	srv.Shutdown()
	srv.WaitForShutdown()
	time.Sleep(time.Second)
	startNATS(t, store, port)
	waitFor(t, "worker b to reconnect", func() bool { return strings.Contains(b.out.String(), "reconnected") })

	// A corrupt shard.
	evil := openRun(t, url, "faults")
	if err := evil.PublishShard(context.Background(), natsrun.Shard{Worker: "evil", ID: "x1", Data: []byte("PK\x03\x04 not a shard")}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the trainer to skip the corrupt shard", func() bool {
		return strings.Contains(trainer.out.String(), `shard "x1" of worker "evil"`)
	})
	waitFor(t, "training to go on after the restarts", func() bool { return latestStep(dir) >= step+20 })
	waitFor(t, "worker b to take up a checkpoint made after the restarts", func() bool { return usesAfter(b.out.String(), step+20) })
	// Stopped workers publish their last shards before they exit.
	b.stop(t)
	a2.stop(t)
	waitTaken(t, evil)
	trainer.stop(t)
	checkExactlyOnce(t, url, "faults", dir, "evil")
	checkRun(t, dir)
}

// TestNATSWorkerRefusesAnotherGame starts a worker of Trichess on a
// Trench run.
func TestNATSWorkerRefusesAnotherGame(t *testing.T) {
	srv := startNATS(t, t.TempDir(), -1)
	nc, err := natsrun.Connect(natsrun.ConnOptions{URL: srv.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	cfg, _ := training.Preset("tiny")
	raw, _ := json.Marshal(cfg)
	if _, err := natsrun.Create(context.Background(), nc, "other", natsrun.Meta{Game: cfg.Game, Net: cfg.Net, FormatVersion: datasets.FormatVersion, Config: raw}); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("selfplay", "--nats", srv.ClientURL(), "--run", "other", "--game", "trichess")
	if code != 2 || !strings.Contains(errOut, "the run plays trench, this worker trichess") {
		t.Errorf("a Trichess worker: code %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCLI("selfplay", "--nats", srv.ClientURL(), "--run", "bad.name")
	if code != 2 || !strings.Contains(errOut, "bad.name") {
		t.Errorf("a bad run name: code %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCLI("status", "--nats", srv.ClientURL(), "--run", "nosuch")
	if code != 1 || !strings.Contains(errOut, "no such run") {
		t.Errorf("status of a missing run: code %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCLI("train", "--run", t.TempDir(), "--max-data-lag", "5")
	if code != 2 || !strings.Contains(errOut, "need --nats") {
		t.Errorf("--max-data-lag without --nats: code %d, stderr %q", code, errOut)
	}
}

// TestNATSTrichessNNUERun runs a generation of a Trichess NNUE run
// whose games a worker process plays alone, then plays a game beside
// the run with trench selfplay --run.
func TestNATSTrichessNNUERun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an NNUE run with a worker process")
	}
	srv := startNATS(t, t.TempDir(), -1)
	url := srv.ClientURL()
	dir := filepath.Join(t.TempDir(), "trirun")
	const positions = 150
	trainer := startChild(t, "train", "--run", dir, "--game", "trichess", "--preset", "nnue", "--nats", url, "--no-selfplay", "--generations", "1",
		"--positions", fmt.Sprint(positions), "--workers", "1", "--soft-nodes", "100", "--hard-nodes", "400", "--opening-depth", "1",
		"--shard-games", "1", "--hidden", "16", "--steps", "20", "--batch-size", "64", "--save-every", "5",
		"--train-threads", "1", "--gate-nodes", "200", "--gate-pairs", "2", "--anchor-pairs", "1", "--holdout", "0.1", "--seed", "3")
	w := startChild(t, "selfplay", "--nats", url, "--run", "trirun", "--name", "w")
	waitFor(t, "the worker's shards", func() bool {
		n, _ := generations.RemotePositions(filepath.Join(dir, "data"), 0)
		return n > 0
	})
	code, out, errOut := runCLI("status", "--nats", url, "--run", "trirun")
	if code != 0 || !strings.Contains(out, "NNUE of trichess, net nnue-16") {
		t.Errorf("status: code %d, %s%s", code, out, errOut)
	}
	trainer.wait(t)
	w.stop(t)
	if !strings.Contains(w.out.String(), "joins NNUE run trirun of trichess") {
		t.Errorf("the worker's output:\n%s", w.out.String())
	}
	lines, _, err := generations.ReadMetrics(dir)
	if err != nil || len(lines) != 1 || lines[0].NewPositions < positions || lines[0].RemotePositions != lines[0].NewPositions {
		t.Fatalf("metrics %+v, %v; want a generation of at least %d positions, all remote", lines, err, positions)
	}
	code, out, errOut = runCLI("selfplay", "--run", dir, "--games", "1")
	if code != 0 || !strings.Contains(out, "1 games played") || !strings.Contains(out, "for generation 1") {
		t.Errorf("selfplay beside the run: code %d, %s%s", code, out, errOut)
	}
	if n, err := generations.RemotePositions(filepath.Join(dir, "data"), 1); err != nil || n == 0 {
		t.Errorf("generation 1's remote positions %d, %v", n, err)
	}
}

// TestNATSNNUERun runs a generation of the NNUE loop whose games are all
// played by worker processes: the first is killed (SIGKILL) in the middle
// of the generation, a second one finishes it. Every shard on the
// trainer's disk was published once, and every shard the killed worker
// published is there.
func TestNATSNNUERun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an NNUE run with worker processes")
	}
	srv := startNATS(t, t.TempDir(), -1)
	url := srv.ClientURL()
	dir := filepath.Join(t.TempDir(), "nnuerun")
	const positions = 3000
	// Rules-scored shards: the workers' bytes land on disk unchanged (a
	// teacher relabels generation 0 at intake: TestNNUERunThroughServer).
	trainer := startChild(t, "train", "--run", dir, "--preset", "nnue", "--nats", url, "--no-selfplay", "--generations", "1",
		"--positions", fmt.Sprint(positions), "--workers", "1", "--soft-nodes", "100", "--hard-nodes", "400", "--opening-depth", "1",
		"--shard-games", "2", "--hidden", "16", "--window", "10000", "--steps", "20", "--batch-size", "64", "--save-every", "5",
		"--train-threads", "1", "--gate-nodes", "300", "--gate-pairs", "3", "--anchor-pairs", "2", "--holdout", "0.5", "--teacher", "")
	if code, _, errOut := runCLI("selfplay", "--nats", url, "--run", "nnuerun", "--lr", "0.1"); code != 2 || !strings.Contains(errOut, "drop --lr") {
		t.Errorf("a worker of an NNUE run took --lr: code %d, %s", code, errOut)
	}
	w1 := startChild(t, "selfplay", "--nats", url, "--run", "nnuerun", "--workers", "1", "--name", "w1")
	data := filepath.Join(dir, "data")
	waitFor(t, "the first worker's shards", func() bool {
		n, _ := generations.RemotePositions(data, 0)
		return n > 0
	})
	w1.cmd.Process.Kill()
	w1.done <- <-w1.done // kept for the cleanup's wait
	if n, _ := generations.RemotePositions(data, 0); n >= positions {
		t.Fatalf("generation 0 was done (%d positions) when the first worker was killed", n)
	}
	code, out, errOut := runCLI("status", "--nats", url, "--run", "nnuerun")
	if code != 0 || !strings.Contains(out, "NNUE of trench, net nnue-16") || !strings.Contains(out, "generation: 0 of 1, played by rules") {
		t.Errorf("status: code %d, %s%s", code, out, errOut)
	}
	w2 := startChild(t, "selfplay", "--nats", url, "--run", "nnuerun", "--name", "w2")
	trainer.wait(t)
	w2.stop(t)
	lines, _, err := generations.ReadMetrics(dir)
	if err != nil || len(lines) != 1 || lines[0].NewPositions < positions {
		t.Fatalf("metrics %+v, %v", lines, err)
	}

	published := map[[32]byte]string{}
	var fromW1 []string
	for _, m := range shardMessages(t, url, "nnuerun") {
		id := m.Header.Get("Trench-Worker") + "/" + m.Header.Get("Trench-Shard")
		published[sha256.Sum256(m.Data)] = id
		if m.Header.Get("Trench-Worker") == "w1" {
			fromW1 = append(fromW1, id)
		}
	}
	names, err := nnuedata.ShardNames(data)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(data, n))
		if err != nil {
			t.Fatal(err)
		}
		id, ok := published[sha256.Sum256(b)]
		if !ok {
			t.Errorf("%s is no published shard", n)
		}
		if seen[id] {
			t.Errorf("shard %s is on disk twice", id)
		}
		seen[id] = true
	}
	for _, id := range fromW1 {
		if !seen[id] {
			t.Errorf("shard %s of the killed worker is not on disk", id)
		}
	}
	if len(fromW1) == 0 {
		t.Error("the killed worker published nothing")
	}
	t.Logf("%d shards published (%d by the killed worker), %d on disk", len(published), len(fromW1), len(names))
}
