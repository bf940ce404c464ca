// Package datasets stores self-play training positions on disk and serves
// them to the trainer: shard files, a sliding window over the most recent
// positions, sampling (uniform, or weighted by policy surprise) and
// symmetry augmentation.
//
// # Shard format
//
// A shard is a numpy .npz file (a zip archive of .npy arrays, each member
// with its own CRC-32 checksum; np.load reads it) holding N positions:
//
//	version        <i4 (1,)       the format version, FormatVersion
//	game           |u1 (L,)       the game's name, as bytes
//	players        <i4 (1,)       the number of players P
//	state          |S<w> (N,)     each position's text form (engine.State.String)
//	to_move        |u1 (N,)       the player to move
//	policy_offset  <i8 (N+1,)     position i's policy entries are [offset[i], offset[i+1])
//	policy_action  <i4 (M,)       action indices (the mover's frame)
//	policy_prob    <f4 (M,)       their target probabilities (summing to 1)
//	full_search    |u1 (N,)       1 if the policy target came from a full search
//	result         <f4 (N, P)     each player's utility at the game's end (-1..1)
//	score          <f4 (N, P)     each player's points at the game's end
//	game_id        <i8 (N,)       the game each position comes from
//	search_value   <f4 (N, P)     each player's value at the root of the move's search (-1..1)
//	surprise       <f4 (N,)       the policy target's KL divergence from the search's prior (≥ 0), NaN where not recorded
//
// Older shards are still read: version 1, written before search_value
// existed, lacks that member and surprise (its samples have neither);
// version 2 lacks surprise.
//
// Shards are written atomically (temporary file, fsync, rename), named so
// that sorting their names sorts them by creation time.
package datasets

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"trench/engine"
	"trench/internal/atomicfile"
	"trench/internal/excerpt"
)

// FormatVersion is the shard format version this package writes; it also
// reads versions 1 and 2.
const FormatVersion = 3

// Sample is one training position: a position with its search policy
// and value targets.
type Sample struct {
	// State is the position's text form, rebuilt with Game.ParseState.
	State string
	// ToMove is the player to move.
	ToMove int
	// Actions and Probs are the search's policy target: actions in the
	// mover's frame and their probabilities.
	Actions []int32
	Probs   []float32
	// FullSearch tells whether the policy target comes from a full search
	// (playout cap randomization: cheap searches are not policy targets).
	FullSearch bool
	// Result is each player's utility at the game's end.
	Result []float32
	// Score is each player's points at the game's end.
	Score []float32
	// GameID identifies the game the position comes from.
	GameID int64
	// SearchValue is each player's value at the root of the search that
	// chose the move played here, or nil where it was not recorded.
	SearchValue []float32
	// Surprise is the policy target's KL divergence from the prior its
	// search started from (mcts.Result.Surprise), in nats: how much the
	// net can learn from the position. It is nil where it was not
	// recorded: cheap searches, and shards older than version 3.
	Surprise *float32
}

// Errors wrapped by ReadShard, telling what is wrong with a file.
var (
	ErrCorrupt = errors.New("corrupt shard")
	ErrVersion = errors.New("unsupported shard version")
	ErrGame    = errors.New("shard of another game")
)

// maxPolicyMass bounds the sum of a position's policy probabilities,
// 1 with room for rounding.
const maxPolicyMass = 1.001

// maxShardBytes bounds what ReadShard decompresses from one member.
const maxShardBytes = 1 << 30

// EncodeShard encodes samples of game g as an .npz archive.
func EncodeShard(g engine.Game, samples []Sample) ([]byte, error) {
	p := g.Players()
	n := len(samples)
	width := 1
	for _, r := range samples {
		width = max(width, len(r.State))
	}
	states := make([]byte, n*width)
	toMove := make([]uint8, n)
	offsets := make([]int64, 0, n+1)
	var actions []int32
	var probs []float32
	full := make([]uint8, n)
	results := make([]float32, 0, n*p)
	scores := make([]float32, 0, n*p)
	ids := make([]int64, n)
	values := make([]float32, 0, n*p)
	surprises := make([]float32, n)
	offsets = append(offsets, 0)
	for i, r := range samples {
		if len(r.Result) != p || len(r.Score) != p || len(r.Actions) != len(r.Probs) || len(r.SearchValue) != p {
			return nil, fmt.Errorf("sample %d: %d results, %d scores, %d search values, %d actions and %d probabilities for a %d-player game",
				i, len(r.Result), len(r.Score), len(r.SearchValue), len(r.Actions), len(r.Probs), p)
		}
		for _, v := range r.SearchValue {
			if !(v >= -1 && v <= 1) {
				return nil, fmt.Errorf("sample %d: search value %v out of [-1, 1]", i, r.SearchValue)
			}
		}
		values = append(values, r.SearchValue...)
		surprises[i] = float32(math.NaN())
		if r.Surprise != nil {
			if s := *r.Surprise; !validSurprise(s) {
				return nil, fmt.Errorf("sample %d: surprise %v is not a finite number ≥ 0", i, s)
			}
			surprises[i] = *r.Surprise
		}
		copy(states[i*width:], r.State)
		toMove[i] = uint8(r.ToMove)
		actions = append(actions, r.Actions...)
		probs = append(probs, r.Probs...)
		offsets = append(offsets, int64(len(actions)))
		if r.FullSearch {
			full[i] = 1
		}
		results = append(results, r.Result...)
		scores = append(scores, r.Score...)
		ids[i] = r.GameID
	}
	members := []struct {
		name string
		a    array
	}{
		{"version", int32Array([]int32{FormatVersion}, 1)},
		{"game", uint8Array([]byte(g.Name()), len(g.Name()))},
		{"players", int32Array([]int32{int32(p)}, 1)},
		{"state", array{fmt.Sprintf("|S%d", width), []int{n}, states}},
		{"to_move", uint8Array(toMove, n)},
		{"policy_offset", int64Array(offsets, n+1)},
		{"policy_action", int32Array(actions, len(actions))},
		{"policy_prob", float32Array(probs, len(probs))},
		{"full_search", uint8Array(full, n)},
		{"result", float32Array(results, n, p)},
		{"score", float32Array(scores, n, p)},
		{"game_id", int64Array(ids, n)},
		{"search_value", float32Array(values, n, p)},
		{"surprise", float32Array(surprises, n)},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Deflate})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(encodeNPY(m.a)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// validSurprise reports whether s can be a policy surprise: a finite
// number ≥ 0 (NaN is not one).
func validSurprise(s float32) bool {
	return s >= 0 && !math.IsInf(float64(s), 0)
}

// DecodeShard decodes an .npz shard of game g, checking every member's
// checksum, every array's shape and every sample: positions parse, the
// policy target is on legal actions, and results, scores, search values
// and surprises are in range. Any failure wraps ErrCorrupt (or ErrVersion,
// ErrGame), so a reader can skip the shard.
func DecodeShard(g engine.Game, data []byte) ([]Sample, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: not a zip archive: %v", ErrCorrupt, err)
	}
	arrays := map[string]array{}
	for _, f := range zr.File {
		if f.UncompressedSize64 > maxShardBytes {
			return nil, fmt.Errorf("%w: member %s is too large", ErrCorrupt, f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%w: member %s: %v", ErrCorrupt, f.Name, err)
		}
		raw, err := io.ReadAll(io.LimitReader(rc, maxShardBytes))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: member %s: %v", ErrCorrupt, f.Name, err)
		}
		a, err := decodeNPY(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: member %s: %v", ErrCorrupt, f.Name, err)
		}
		arrays[f.Name] = a
	}
	get := func(name, dtype string, shape ...int) (array, error) {
		a, ok := arrays[name+".npy"]
		if !ok {
			return array{}, fmt.Errorf("%w: no array %s", ErrCorrupt, name)
		}
		if err := a.check(name, dtype, shape...); err != nil {
			return array{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return a, nil
	}
	version, err := get("version", "<i4", 1)
	if err != nil {
		return nil, err
	}
	v := version.int32s()[0]
	if v < 1 || v > FormatVersion {
		return nil, fmt.Errorf("%w: version %d, this program reads 1 to %d", ErrVersion, v, FormatVersion)
	}
	name, err := get("game", "|u1", -1)
	if err != nil {
		return nil, err
	}
	players, err := get("players", "<i4", 1)
	if err != nil {
		return nil, err
	}
	if string(name.data) != g.Name() || int(players.int32s()[0]) != g.Players() {
		return nil, fmt.Errorf("%w: holds %q with %d players, want %q with %d", ErrGame, name.data, players.int32s()[0], g.Name(), g.Players())
	}
	st, ok := arrays["state.npy"]
	if !ok || len(st.shape) != 1 || st.dtype[:2] != "|S" {
		return nil, fmt.Errorf("%w: no 1-dimensional byte-string array state", ErrCorrupt)
	}
	n, p := st.shape[0], g.Players()
	width, _ := itemSize(st.dtype)
	toMove, err1 := get("to_move", "|u1", n)
	offsetsA, err2 := get("policy_offset", "<i8", n+1)
	actionsA, err3 := get("policy_action", "<i4", -1)
	probsA, err4 := get("policy_prob", "<f4", -1)
	full, err5 := get("full_search", "|u1", n)
	resultA, err6 := get("result", "<f4", n, p)
	scoreA, err7 := get("score", "<f4", n, p)
	idsA, err8 := get("game_id", "<i8", n)
	if err := errors.Join(err1, err2, err3, err4, err5, err6, err7, err8); err != nil {
		return nil, err
	}
	var values []float32 // nil in a version 1 shard
	if v >= 2 {
		valueA, err := get("search_value", "<f4", n, p)
		if err != nil {
			return nil, err
		}
		values = valueA.float32s()
	}
	var surprises []float32 // nil before version 3
	if v >= 3 {
		surpriseA, err := get("surprise", "<f4", n)
		if err != nil {
			return nil, err
		}
		surprises = surpriseA.float32s()
	}
	offsets, actions, probs := offsetsA.int64s(), actionsA.int32s(), probsA.float32s()
	results, scores, ids := resultA.float32s(), scoreA.float32s(), idsA.int64s()
	if len(actions) != len(probs) || offsets[0] != 0 || offsets[n] != int64(len(actions)) {
		return nil, fmt.Errorf("%w: policy arrays disagree (%d actions, %d probabilities, offsets %d..%d)", ErrCorrupt, len(actions), len(probs), offsets[0], offsets[n])
	}
	samples := make([]Sample, n)
	for i := range samples {
		r := &samples[i]
		s := st.data[i*width : (i+1)*width]
		r.State = string(bytes.TrimRight(s, "\x00"))
		r.ToMove = int(toMove.data[i])
		if r.ToMove >= p {
			return nil, fmt.Errorf("%w: position %d: player %d to move in a %d-player game", ErrCorrupt, i, r.ToMove, p)
		}
		lo, hi := offsets[i], offsets[i+1]
		if lo > hi || hi > int64(len(actions)) {
			return nil, fmt.Errorf("%w: position %d: policy offsets %d..%d out of order", ErrCorrupt, i, lo, hi)
		}
		r.Actions, r.Probs = actions[lo:hi:hi], probs[lo:hi:hi]
		var mass float32
		for j, a := range r.Actions {
			pr := r.Probs[j]
			if a < 0 || int(a) >= g.ActionCount() || !(pr >= 0 && pr <= 1) {
				return nil, fmt.Errorf("%w: position %d: policy entry (action %d, probability %v) out of range", ErrCorrupt, i, a, pr)
			}
			mass += pr
		}
		if mass > maxPolicyMass {
			return nil, fmt.Errorf("%w: position %d: policy probabilities sum to %v", ErrCorrupt, i, mass)
		}
		r.FullSearch = full.data[i] != 0
		r.Result, r.Score = results[i*p:(i+1)*p:(i+1)*p], scores[i*p:(i+1)*p:(i+1)*p]
		if values != nil {
			r.SearchValue = values[i*p : (i+1)*p : (i+1)*p]
		}
		if surprises != nil {
			switch s := surprises[i]; {
			case math.IsNaN(float64(s)):
			case validSurprise(s):
				r.Surprise = &surprises[i]
			default:
				return nil, fmt.Errorf("%w: member surprise: position %d: %v is not a finite number ≥ 0", ErrCorrupt, i, s)
			}
		}
		for j := 0; j < p; j++ {
			if !(r.Result[j] >= -1 && r.Result[j] <= 1) || math.IsNaN(float64(r.Score[j])) || math.IsInf(float64(r.Score[j]), 0) ||
				values != nil && !(r.SearchValue[j] >= -1 && r.SearchValue[j] <= 1) {
				return nil, fmt.Errorf("%w: position %d: result %v, score %v or search value %v out of range", ErrCorrupt, i, r.Result, r.Score, r.SearchValue)
			}
		}
		r.GameID = ids[i]
	}
	if err := checkPositions(g, samples); err != nil {
		return nil, err
	}
	return samples, nil
}

// checkPositions checks that every sample's position parses, has the
// recorded player to move, and that its policy target lies on its legal
// actions, each named once, so that every sample a shard yields makes a
// training row.
func checkPositions(g engine.Game, samples []Sample) error {
	legal := make([]bool, g.ActionCount())
	var acts []int
	for i := range samples {
		r := &samples[i]
		s, err := g.ParseState(r.State)
		if err != nil {
			return fmt.Errorf("%w: position %d: %v", ErrCorrupt, i, err)
		}
		if s.ToMove() != r.ToMove {
			return fmt.Errorf("%w: position %d: player %d to move, the position has player %d", ErrCorrupt, i, r.ToMove, s.ToMove())
		}
		acts = s.LegalActions(acts[:0])
		for _, a := range acts {
			legal[a] = true
		}
		bad := -1
		for j, a := range r.Actions {
			if !legal[a] {
				bad = j
				break
			}
			legal[a] = false // a second entry for the action is refused
		}
		for _, a := range acts {
			legal[a] = false
		}
		if bad >= 0 {
			return fmt.Errorf("%w: position %d: policy action %d is not legal there or named twice", ErrCorrupt, i, r.Actions[bad])
		}
	}
	return nil
}

// WriteShard writes samples atomically as a new shard in dir and returns
// its path. It never replaces a file: several processes may write shards
// into one directory.
func WriteShard(dir string, g engine.Game, samples []Sample) (string, error) {
	data, err := EncodeShard(g, samples)
	if err != nil {
		return "", err
	}
	return writeNew(dir, data, newShardName)
}

// WriteShardNamed writes samples atomically as the shard name in dir (a
// shard's file name, "shard-….npz", so that a copy keeps its place in
// the order of shards) and returns its path. It never replaces a file:
// the error wraps fs.ErrExist when dir already has the name.
func WriteShardNamed(dir, name string, g engine.Game, samples []Sample) (string, error) {
	if filepath.Base(name) != name || !strings.HasPrefix(name, "shard-") || !strings.HasSuffix(name, ".npz") {
		return "", fmt.Errorf("shard name %s: want shard-….npz, without a directory", excerpt.Quote(name))
	}
	data, err := EncodeShard(g, samples)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	return path, atomicfile.Create(path, data)
}

// newShardName names a shard by the time and 4 random bytes.
func newShardName() string {
	var suffix [4]byte
	rand.Read(suffix[:])
	return fmt.Sprintf("shard-%020d-%s.npz", time.Now().UnixNano(), hex.EncodeToString(suffix[:]))
}

// maxNameTries bounds the names writeNew tries.
const maxNameTries = 10

// writeNew writes data as a new file in dir named by name, trying another
// name when one is taken, and returns its path.
func writeNew(dir string, data []byte, name func() string) (string, error) {
	for try := 1; ; try++ {
		path := filepath.Join(dir, name())
		err := atomicfile.Create(path, data)
		if errors.Is(err, fs.ErrExist) && try < maxNameTries {
			continue
		}
		return path, err
	}
}

// ReadShard reads and checks a shard file; errors name the file.
func ReadShard(path string, g engine.Game) ([]Sample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	samples, err := DecodeShard(g, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return samples, nil
}
