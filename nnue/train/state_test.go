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
	if got := a.Weights().PSQT != nil; got != linear {
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
	if b.Steps() != a.Steps() || !reflect.DeepEqual(a.Weights(), b.Weights()) {
		t.Fatalf("restored: %d steps, want %d; weights equal: %v", b.Steps(), a.Steps(), reflect.DeepEqual(a.Weights(), b.Weights()))
	}
	la, lb := a.Epoch(records, 32), b.Epoch(records, 32)
	if la != lb || !reflect.DeepEqual(a.Weights(), b.Weights()) {
		t.Errorf("after another epoch: losses %v and %v, weights equal: %v", la, lb, reflect.DeepEqual(a.Weights(), b.Weights()))
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
	f.Add(v1State(good))
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
	if err != nil || back.Set() != nnue.Trichess || !reflect.DeepEqual(back.Weights(), tr.Weights()) {
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

// v1State rewrites a version 2 Trench state as version 1 wrote it.
func v1State(state []byte) []byte {
	old := append(append([]byte(nil), state[:stateHeaderV1]...), state[stateHeader:len(state)-stateChecksum]...)
	binary.LittleEndian.PutUint32(old[8:], 1)
	return binary.LittleEndian.AppendUint32(old, crc32.Checksum(old, castagnoli))
}

// v2State rewrites a version-3 state of a net without the linear path
// as version 2 wrote it: no flags.
func v2State(state []byte) []byte {
	old := append(append([]byte(nil), state[:stateHeaderV2]...), state[stateHeader:len(state)-stateChecksum]...)
	binary.LittleEndian.PutUint32(old[8:], 2)
	return binary.LittleEndian.AppendUint32(old, crc32.Checksum(old, castagnoli))
}

func TestStateVersion2(t *testing.T) {
	records := randomTrichessGames(t, 1, 3)
	a, err := New(DefaultConfig(), nnue.Trichess, 8, 5)
	if err != nil {
		t.Fatal(err)
	}
	a.Epoch(records, 32)
	state, err := a.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	b, err := RestoreState(DefaultConfig(), nnue.Trichess, v2State(state), "v2.state")
	if err != nil {
		t.Fatal(err)
	}
	if la, lb := a.Epoch(records, 32), b.Epoch(records, 32); la != lb || !reflect.DeepEqual(a.Weights(), b.Weights()) {
		t.Errorf("a version 2 state goes on differently: losses %v and %v", la, lb)
	}
	flagged := append([]byte(nil), state...)
	binary.LittleEndian.PutUint32(flagged[36:], 6)
	flagged = binary.LittleEndian.AppendUint32(flagged[:len(flagged)-stateChecksum], crc32.Checksum(flagged[:len(flagged)-stateChecksum], castagnoli))
	if _, err := RestoreState(DefaultConfig(), nnue.Trichess, flagged, "f.state"); !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "flags") {
		t.Errorf("a state with unknown flags: %v", err)
	}
}

func TestStateVersion1(t *testing.T) {
	records := randomGames(t, 2, 3, materialScore)
	a, err := New(DefaultConfig(), nnue.Trench, 8, 5)
	if err != nil {
		t.Fatal(err)
	}
	a.Epoch(records, 32)
	state, err := a.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	old := v1State(state)
	b, err := RestoreState(DefaultConfig(), nnue.Trench, old, "v1.state")
	if err != nil {
		t.Fatal(err)
	}
	if la, lb := a.Epoch(records, 32), b.Epoch(records, 32); la != lb || !reflect.DeepEqual(a.Weights(), b.Weights()) {
		t.Errorf("a version 1 state goes on differently: losses %v and %v", la, lb)
	}
	if _, err := RestoreState(DefaultConfig(), nnue.Trichess, old, "v1.state"); !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "feature set 1") {
		t.Errorf("a version 1 state restored as Trichess's: %v", err)
	}
}
