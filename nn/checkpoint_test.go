package nn

import (
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"trench/checkpoints"
	"trench/engine"
)

func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func TestSaveLoadBitIdentical(t *testing.T) {
	c := mustPreset(t, "tiny")
	tr, err := NewTrainer(randomWeights(t, c, 5), DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	b := fixedBatch(c, 8, 1)
	for i := 0; i < 3; i++ {
		if _, err := tr.Step(b); err != nil {
			t.Fatal(err)
		}
	}
	ck, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	ck.Games, ck.Positions, ck.Parent = 10, 800, "ckpt-000000.tnet"
	path, err := checkpoints.SaveToRun(t.TempDir(), ck)
	if err != nil {
		t.Fatal(err)
	}

	w, loaded, err := LoadWeights(path, trenchShape, trenchActions)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Step != 3 || loaded.Games != 10 || loaded.Parent != "ckpt-000000.tnet" {
		t.Errorf("metadata: step %d games %d parent %q", loaded.Step, loaded.Games, loaded.Parent)
	}
	before, err := tr.Inference()
	if err != nil {
		t.Fatal(err)
	}
	after, err := NewInference(w)
	if err != nil {
		t.Fatal(err)
	}
	x := randomInput(c, 5, 3)
	o1, o2 := newOutputs(c, 5), newOutputs(c, 5)
	before.Forward(x, 5, o1.policy, o1.value, o1.score)
	after.Forward(x, 5, o2.policy, o2.value, o2.score)
	if !sameBits(o1.policy, o2.policy) || !sameBits(o1.value, o2.value) || !sameBits(o1.score, o2.score) {
		t.Error("outputs after a save/load round trip differ")
	}

	// A resumed trainer continues exactly like the original.
	resumed, err := NewTrainerFromCheckpoint(loaded, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	l1, err1 := tr.Step(b)
	l2, err2 := resumed.Step(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if l1 != l2 || resumed.Steps() != tr.Steps() {
		t.Errorf("resumed step: losses %+v vs %+v, steps %d vs %d", l2, l1, resumed.Steps(), tr.Steps())
	}
	wa, wb := tr.Weights(), resumed.Weights()
	for i := range wa.Tensors {
		if !sameBits(wa.Tensors[i].Data, wb.Tensors[i].Data) {
			t.Errorf("after one more step, %s differs between the original and the resumed trainer", wa.Tensors[i].Name)
			break
		}
	}
}

func TestCheckpointShapeErrors(t *testing.T) {
	c := mustPreset(t, "tiny")
	w := randomWeights(t, c, 1)
	good, err := w.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	good.Path = "run/x.tnet"
	otherCfg := c
	otherCfg.Channels = 16
	otherJSON, _ := json.Marshal(otherCfg)
	cases := []struct {
		name    string
		edit    func(ck *checkpoints.Checkpoint)
		shape   engine.Shape
		actions int
		want    error
	}{
		{"config says 16 channels, tensors hold 8", func(ck *checkpoints.Checkpoint) { ck.Config = otherJSON }, trenchShape, trenchActions, checkpoints.ErrShape},
		{"tensor reshaped", func(ck *checkpoints.Checkpoint) { ck.Tensors[0].Shape = []int{8, 19, 9, 1} }, trenchShape, trenchActions, checkpoints.ErrShape},
		{"tensor missing", func(ck *checkpoints.Checkpoint) { ck.Tensors = ck.Tensors[1:] }, trenchShape, trenchActions, checkpoints.ErrShape},
		{"game has other planes", func(*checkpoints.Checkpoint) {}, engine.Shape{Planes: 20, Height: 8, Width: 8}, trenchActions, checkpoints.ErrShape},
		{"game has other actions", func(*checkpoints.Checkpoint) {}, trenchShape, 100, checkpoints.ErrShape},
		{"config not JSON", func(ck *checkpoints.Checkpoint) { ck.Config = []byte("{") }, trenchShape, trenchActions, checkpoints.ErrCorrupt},
		{"fine", func(*checkpoints.Checkpoint) {}, trenchShape, trenchActions, nil},
	}
	for _, tc := range cases {
		ck := *good
		ck.Tensors = w.Clone().Tensors
		tc.edit(&ck)
		_, err := WeightsFromCheckpoint(&ck, tc.shape, tc.actions)
		if !errors.Is(err, tc.want) || (err != nil) != (tc.want != nil) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
		if err != nil && !errors.Is(err, checkpoints.ErrCorrupt) && !containsAll(err.Error(), "run/x.tnet") {
			t.Errorf("%s: error %q does not name the file", tc.name, err)
		}
	}
	if _, _, err := LoadWeights(filepath.Join(t.TempDir(), "missing.tnet"), trenchShape, trenchActions); err == nil {
		t.Error("loading a missing file succeeded")
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// TestCheckpointNonFinite saves nets with one bad value in a weight, a
// batch-norm statistic or a momentum buffer, and checks that loading
// refuses each file, naming the tensor.
func TestCheckpointNonFinite(t *testing.T) {
	c := mustPreset(t, "tiny")
	tr, err := NewTrainer(randomWeights(t, c, 2), DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	good, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	cases := []struct {
		tensor string
		value  float32
	}{
		{"stem/conv", nan},
		{"stem/bn/scale", inf},
		{"block0/1/bn/mean", -inf},
		{"block0/2/bn/var", nan},
		{"block0/2/bn/var", -0.5},
		{"value/fc2/b", nan},
		{optimizerPrefix + "policy/fc/w", inf},
	}
	dir := t.TempDir()
	for i, tc := range cases {
		ck := *good
		ck.Tensors = (&Weights{Tensors: good.Tensors}).Clone().Tensors
		ck.Optimizer = (&Weights{Tensors: good.Optimizer}).Clone().Tensors
		bad := checkpoints.Find(ck.Tensors, tc.tensor)
		if bad == nil {
			bad = checkpoints.Find(ck.Optimizer, tc.tensor)
		}
		if bad == nil {
			t.Fatalf("no tensor %q", tc.tensor)
		}
		bad.Data[len(bad.Data)/2] = tc.value
		path := filepath.Join(dir, checkpoints.FileName(uint64(i)))
		if err := ck.Save(path); err != nil {
			t.Fatal(err)
		}
		loaded, err := checkpoints.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		_, werr := WeightsFromCheckpoint(loaded, trenchShape, trenchActions)
		_, terr := NewTrainerFromCheckpoint(loaded, DefaultTrainConfig())
		if !strings.HasPrefix(tc.tensor, optimizerPrefix) {
			if !errors.Is(werr, checkpoints.ErrCorrupt) || !containsAll(werr.Error(), path, `"`+tc.tensor+`"`) {
				t.Errorf("%s = %v: weights error %v, want one naming %s and the tensor", tc.tensor, tc.value, werr, path)
			}
		} else if werr != nil {
			t.Errorf("%s = %v: weights refused (%v), though only the optimizer is bad", tc.tensor, tc.value, werr)
		}
		if !errors.Is(terr, checkpoints.ErrCorrupt) || !containsAll(terr.Error(), path, `"`+tc.tensor) {
			t.Errorf("%s = %v: trainer error %v, want one naming %s and the tensor", tc.tensor, tc.value, terr, path)
		}
	}
	// A variance of 0 is allowed.
	ck := *good
	ck.Tensors = (&Weights{Tensors: good.Tensors}).Clone().Tensors
	checkpoints.Find(ck.Tensors, "stem/bn/var").Data[0] = 0
	if _, err := WeightsFromCheckpoint(&ck, trenchShape, trenchActions); err != nil {
		t.Errorf("a zero variance: %v", err)
	}
}
