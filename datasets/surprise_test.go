package datasets

import (
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trench/engine/trench"
)

// withoutSurprise returns a copy of samples with no surprises.
func withoutSurprise(samples []Sample) []Sample {
	out := append([]Sample(nil), samples...)
	for i := range out {
		out[i].Surprise = nil
	}
	return out
}

func TestShardSurpriseRoundTrip(t *testing.T) {
	base := playSamples(rand.New(rand.NewPCG(20, 20)), 4)
	zero := append([]Sample(nil), base...)
	for i := range zero {
		var s float32
		zero[i].Surprise = &s
	}
	for _, tc := range []struct {
		name    string
		samples []Sample
		want    int // samples with a surprise
	}{
		{"full searches with surprises", base, (len(base) + 2) / 3},
		{"no surprises", withoutSurprise(base), 0},
		{"every surprise 0", zero, len(base)},
	} {
		data, err := EncodeShard(trench.Game, tc.samples)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := DecodeShard(trench.Game, data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(got, tc.samples) {
			t.Errorf("%s: decoded samples differ from the encoded ones", tc.name)
		}
		n := 0
		for _, r := range got {
			if r.Surprise != nil {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("%s: %d samples with a surprise, want %d", tc.name, n, tc.want)
		}
	}
}

// TestShardVersionTwo reads shards of the format before surprises: a
// file the version-2 writer wrote, and a current shard rewritten to that
// layout. Their samples have no surprise.
func TestShardVersionTwo(t *testing.T) {
	got, err := ReadShard(filepath.Join("testdata", "version2.npz"), trench.Game)
	if err != nil {
		t.Fatal(err)
	}
	// The file holds these samples, written by the version-2 code.
	want := withoutSurprise(playSamples(rand.New(rand.NewPCG(21, 21)), 3)[:6])
	if !reflect.DeepEqual(got, want) {
		t.Errorf("version 2 file: %+v, want %+v", got, want)
	}

	samples := playSamples(rand.New(rand.NewPCG(22, 22)), 1)
	data, _ := EncodeShard(trench.Game, samples)
	v2 := rewriteMember(t, rewriteMember(t, data, "surprise.npy", nil), "version.npy", encodeNPY(int32Array([]int32{2}, 1)))
	got, err = DecodeShard(trench.Game, v2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, withoutSurprise(samples)) {
		t.Error("rewritten version 2 shard: samples differ, or have surprises")
	}
}

// TestShardSurpriseChecks refuses version-3 shards whose surprise member
// is missing, misshapen or out of range, naming the member.
func TestShardSurpriseChecks(t *testing.T) {
	samples := playSamples(rand.New(rand.NewPCG(23, 23)), 1)
	n := len(samples)
	data, _ := EncodeShard(trench.Game, samples)
	with := func(bad float32) []byte {
		v := make([]float32, n)
		v[4] = bad
		return encodeNPY(float32Array(v, n))
	}
	for _, tc := range []struct {
		name   string
		member []byte
	}{
		{"missing", nil},
		{"negative", with(-0.5)},
		{"infinite", with(float32(math.Inf(1)))},
		{"minus infinity", with(float32(math.Inf(-1)))},
		{"one too many", encodeNPY(float32Array(make([]float32, n+1), n+1))},
		{"two-dimensional", encodeNPY(float32Array(make([]float32, 2*n), n, 2))},
		{"float64", encodeNPY(array{"<f8", []int{n}, make([]byte, 8*n)})},
	} {
		_, err := DecodeShard(trench.Game, rewriteMember(t, data, "surprise.npy", tc.member))
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "surprise") {
			t.Errorf("%s surprise: %v, want ErrCorrupt naming the member", tc.name, err)
		}
	}
	// NaN is how the format marks a position without one.
	got, err := DecodeShard(trench.Game, rewriteMember(t, data, "surprise.npy", with(float32(math.NaN()))))
	if err != nil || got[4].Surprise != nil {
		t.Errorf("NaN surprise: %v, %v; want a position without one", err, got[4].Surprise)
	}
}

func TestEncodeShardChecksSurprise(t *testing.T) {
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		samples := playSamples(rand.New(rand.NewPCG(7, 7)), 1)
		s := float32(bad)
		samples[3].Surprise = &s
		if _, err := EncodeShard(trench.Game, samples); err == nil || !strings.Contains(err.Error(), "surprise") {
			t.Errorf("surprise %v: %v, want an error naming it", bad, err)
		}
	}
}
