package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trench/nnue"
)

// TestStateResumesExactly checks that a trainer saved and restored goes
// on exactly as the one that was not: weights, moments, steps and the
// shuffling of Epoch.
func TestStateResumesExactly(t *testing.T) {
	for _, linear := range []bool{false, true} {
		t.Run(fmt.Sprintf("linear=%v", linear), func(t *testing.T) { testStateResumes(t, linear) })
	}
}

func testStateResumes(t *testing.T, linear bool) {
	records := randomGames(t, 4, 3, materialScore)
	cfg := DefaultConfig()
	cfg.Linear = linear
	a, err := New(cfg, nnue.Trench, 16, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Net().PSQT != nil; got != linear {
		t.Fatalf("a fresh net with Linear %v has the linear path: %v", linear, got)
	}
	a.Epoch(records, 32)
	path := filepath.Join(t.TempDir(), "trainer.state")
	if err := a.SaveState(path); err != nil {
		t.Fatal(err)
	}
	b, err := LoadState(cfg, nnue.Trench, path)
	if err != nil {
		t.Fatal(err)
	}
	if b.Steps() != a.Steps() || !reflect.DeepEqual(a.Net(), b.Net()) {
		t.Fatalf("restored: %d steps, want %d; weights equal: %v", b.Steps(), a.Steps(), reflect.DeepEqual(a.Net(), b.Net()))
	}
	la, lb := a.Epoch(records, 32), b.Epoch(records, 32)
	if la != lb || !reflect.DeepEqual(a.Net(), b.Net()) {
		t.Errorf("after another epoch: losses %v and %v, weights equal: %v", la, lb, reflect.DeepEqual(a.Net(), b.Net()))
	}
}

func TestStateErrors(t *testing.T) {
	tr, err := New(DefaultConfig(), nnue.Trench, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	good, err := tr.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 1
		return b
	}
	for name, b := range map[string][]byte{
		"empty":     nil,
		"magic":     flip(0),
		"version":   flip(8),
		"hidden":    flip(12),
		"truncated": good[:len(good)-1],
		"checksum":  flip(len(good) - 1),
		"weights":   flip(60),
	} {
		if _, err := RestoreState(DefaultConfig(), nnue.Trench, b, "x.state"); !errors.Is(err, ErrState) {
			t.Errorf("%s: err %v, want ErrState", name, err)
		}
	}
	bad := DefaultConfig()
	bad.Threads = 0
	if _, err := RestoreState(bad, nnue.Trench, good, "x.state"); err == nil {
		t.Error("a bad config accepted")
	}
	if _, err := LoadState(DefaultConfig(), nnue.Trench, filepath.Join(t.TempDir(), "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

func FuzzRestoreState(f *testing.F) {
	tr, err := New(DefaultConfig(), nnue.Trench, 1, 1)
	if err != nil {
		f.Fatal(err)
	}
	good, err := tr.MarshalState()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(oldState(good, 1))
	f.Add([]byte(StateMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := RestoreState(DefaultConfig(), nnue.Trench, b, "fuzz")
		if err != nil {
			return
		}
		again, err := r.MarshalState()
		if v1 := binary.LittleEndian.Uint32(b[8:]) == 1; err != nil || !v1 && string(again) != string(b) {
			t.Fatalf("restored state does not marshal back: %v", err)
		}
	})
}

func TestStateOfAnotherSet(t *testing.T) {
	tr, err := New(DefaultConfig(), nnue.Trichess, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr.Step(randomTrichessGames(t, 1, 2)[:50])
	state, err := tr.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	back, err := RestoreState(DefaultConfig(), nnue.Trichess, state, "tc.state")
	if err != nil || back.Set() != nnue.Trichess || !reflect.DeepEqual(back.Net(), tr.Net()) {
		t.Fatalf("a Trichess state restored: %v", err)
	}
	_, err = RestoreState(DefaultConfig(), nnue.Trench, state, "tc.state")
	if !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "tc.state") || !strings.Contains(err.Error(), "feature set 2, not of trench") {
		t.Errorf("a Trichess state restored as Trench's: %v", err)
	}
}

func TestStepPanicsOnABatchOfAnotherSet(t *testing.T) {
	tr, err := New(DefaultConfig(), nnue.Trench, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "a batch of trichess") {
			t.Errorf("Step of a Trichess batch on a Trench net: recovered %v", r)
		}
	}()
	tr.Step(randomTrichessGames(t, 1, 2)[:5])
}

// oldState rewrites a current state of a net without the linear path as
// format version 1 or 2 wrote it: version 2 without the flags, version
// 1 without the feature set's ID either.
func oldState(state []byte, version uint32) []byte {
	header := stateHeaderV2
	if version == 1 {
		header = stateHeaderV1
	}
	old := append(append([]byte(nil), state[:header]...), state[stateHeader:len(state)-stateChecksum]...)
	binary.LittleEndian.PutUint32(old[8:], version)
	return binary.LittleEndian.AppendUint32(old, crc32.Checksum(old, castagnoli))
}

// checkOldState trains a fresh net of set an epoch of records, rewrites
// its state as format version wrote it, and checks that the trainer
// restored from that goes on exactly as the original; it returns both
// states.
func checkOldState(t *testing.T, set *nnue.FeatureSet, records Batch, version uint32) (state, old []byte) {
	t.Helper()
	a, err := New(DefaultConfig(), set, 8, 5)
	if err != nil {
		t.Fatal(err)
	}
	a.Epoch(records, 32)
	state, err = a.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	old = oldState(state, version)
	b, err := RestoreState(DefaultConfig(), set, old, "old.state")
	if err != nil {
		t.Fatal(err)
	}
	if la, lb := a.Epoch(records, 32), b.Epoch(records, 32); la != lb || !reflect.DeepEqual(a.Net(), b.Net()) {
		t.Errorf("a version %d state goes on differently: losses %v and %v", version, la, lb)
	}
	return state, old
}

func TestStateVersion2(t *testing.T) {
	state, _ := checkOldState(t, nnue.Trichess, randomTrichessGames(t, 1, 3), 2)
	flagged := append([]byte(nil), state...)
	binary.LittleEndian.PutUint32(flagged[36:], 6)
	flagged = binary.LittleEndian.AppendUint32(flagged[:len(flagged)-stateChecksum], crc32.Checksum(flagged[:len(flagged)-stateChecksum], castagnoli))
	if _, err := RestoreState(DefaultConfig(), nnue.Trichess, flagged, "f.state"); !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "flags") {
		t.Errorf("a state with unknown flags: %v", err)
	}
}

func TestStateVersion1(t *testing.T) {
	_, old := checkOldState(t, nnue.Trench, randomGames(t, 2, 3, materialScore), 1)
	if _, err := RestoreState(DefaultConfig(), nnue.Trichess, old, "v1.state"); !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "feature set 1") {
		t.Errorf("a version 1 state restored as Trichess's: %v", err)
	}
}
