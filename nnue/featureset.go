package nnue

import "strconv"

// FeatureSet declares a game's features to the net: the identifier a
// net file records, the number of inputs (the rows of the feature
// transformer), the perspectives a position is seen from (one
// accumulator each; the output reads them all, the mover's first) and a
// bound on the features active in one perspective. A game's plug-in is
// its FeatureSet, a function listing a position's active features from a
// perspective (Features, TrichessFeatures) and an evaluator that lists
// the features each move turns on and off (Evaluator.Push,
// TrichessEvaluator.Push) on the shared accumulator stack.
type FeatureSet struct {
	// ID identifies the set in net files.
	ID uint32
	// Game is the game's name, as its engine.Game names it.
	Game string
	// Inputs is the number of features.
	Inputs int
	// Perspectives is the number of accumulators a position has.
	Perspectives int
	// MaxActive bounds the active features of one perspective.
	MaxActive int
	// Mirror, if the game has a symmetry the features follow, maps a
	// feature to the feature of the mirrored position (Trench's
	// MirrorFeature); nil if it has none.
	Mirror func(f int32) int32
}

// Trench is Trench's feature set (Features).
var Trench = &FeatureSet{ID: 1, Game: "trench", Inputs: Inputs, Perspectives: 2, MaxActive: MaxActive, Mirror: MirrorFeature}

// featureSets are the sets this build knows, for naming the game of a
// net file of another set.
var featureSets = []*FeatureSet{Trench, Trichess}

// String names the set: its game and identifier.
func (fs *FeatureSet) String() string {
	return fs.Game + " (feature set " + strconv.FormatUint(uint64(fs.ID), 10) + ")"
}

// SetOf is the feature set of the game named game, or nil for a game
// with none.
func SetOf(game string) *FeatureSet {
	for _, fs := range featureSets {
		if fs.Game == game {
			return fs
		}
	}
	return nil
}

// featureSet is the known set with identifier id, or nil.
func featureSet(id uint32) *FeatureSet {
	for _, fs := range featureSets {
		if fs.ID == id {
			return fs
		}
	}
	return nil
}
