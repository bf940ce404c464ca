package data

import "trench/nnue"

// Records is a batch of Trench records for the trainer (train.Batch):
// each trains the side to move's value, seen from the side to move
// (perspective 0) and its opponent (1).
type Records []Record

// Set is Trench's feature set.
func (Records) Set() *nnue.FeatureSet { return nnue.Trench }

// Len is the number of records.
func (rs Records) Len() int { return len(rs) }

// Outputs is 1: the side to move's value.
func (Records) Outputs() int { return 1 }

// Features returns record i's features seen from the side to move
// (k = 0) or its opponent (k = 1), stored in dst[:0].
func (rs Records) Features(i, k int, dst []int32) []int32 {
	p := &rs[i].Position
	c := p.SideToMove()
	if k == 1 {
		c = c.Other()
	}
	return nnue.Features(p, c, dst)
}

// Target returns record i's result for the side to move (Result.Value)
// and its search score; j is 0.
func (rs Records) Target(i, _ int) (result, score float64) {
	r := &rs[i]
	return float64(r.Result.Value()), float64(r.Score)
}
