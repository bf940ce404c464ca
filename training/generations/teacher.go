package generations

import (
	"fmt"
	"math"

	"trench/engine"
	"trench/engine/trench"
	"trench/mcts"
	"trench/neteval"
	"trench/nnue/data"
)

// teacherBatch bounds the positions of one forward pass of the teacher.
const teacherBatch = 256

// Teacher labels positions with a conv net's values: generation 0's
// scores with Config.Teacher set.
type Teacher struct {
	// Name describes the net: its file (or the built-in net's name) and
	// training step.
	Name string
	eval *neteval.Evaluator
	// scale is the trainer's centipoints per logit (train.Config's
	// ScoreScale): the score s of expected result p has σ(s/scale) = p.
	scale float64
}

// LoadTeacher loads the conv net ref names (neteval.LoadNet: a checkpoint
// file, a run directory, or "default" for the built-in net) as a
// teacher for the trainer's score scale (train.Config's ScoreScale).
func LoadTeacher(ref string, scale float64) (*Teacher, error) {
	net, err := neteval.LoadNet(trench.Game, ref)
	if err != nil {
		return nil, fmt.Errorf("--teacher: %w", err)
	}
	return newTeacher(fmt.Sprintf("%s (step %d)", net.Source, net.Step), net, scale)
}

// newTeacher makes a teacher of a loaded net.
func newTeacher(name string, net *neteval.Net, scale float64) (*Teacher, error) {
	// No score utility: the value is the expected result from the
	// win/draw/loss head alone (with the material offsets of a net with a
	// material value base), which is what the target's σ(score/s) means.
	eval, err := neteval.NewWithScoreUtility(trench.Game, net.Inference, 0)
	if err != nil {
		return nil, fmt.Errorf("--teacher %s: %w", name, err)
	}
	return &Teacher{Name: name, eval: eval, scale: scale}, nil
}

// valueScore converts a value v in [−1, 1] for the side to move (win −
// loss probability) to centipoints on the scale s: the expected result
// is p = (1 + v)/2 and the score s·logit(p) = 2s·atanh(v), clamped into
// ±data.MaxScore (a certain result, v = ±1, is the clamp).
func valueScore(v, scale float64) int {
	if math.IsNaN(v) {
		return 0
	}
	s := 2 * scale * math.Atanh(max(-1, min(1, v)))
	return int(math.Round(max(-data.MaxScore, min(data.MaxScore, s))))
}

// relabel replaces scores[i] by the net's score of positions[i],
// evaluating the positions in batches. It is safe for concurrent use.
func (t *Teacher) relabel(positions []trench.Position, scores []int) error {
	if len(positions) != len(scores) {
		return fmt.Errorf("%d positions and %d scores", len(positions), len(scores))
	}
	states := make([]engine.State, 0, min(len(positions), teacherBatch))
	out := make([]mcts.Evaluation, min(len(positions), teacherBatch))
	for lo := 0; lo < len(positions); lo += teacherBatch {
		hi := min(lo+teacherBatch, len(positions))
		states = states[:0]
		for i := lo; i < hi; i++ {
			states = append(states, trench.NewState(positions[i]))
		}
		o := out[:hi-lo]
		for i := range o {
			o[i].Actions = nil
		}
		if err := t.eval.Evaluate(states, o); err != nil {
			return fmt.Errorf("teacher %s: %w", t.Name, err)
		}
		for i := range o {
			stm := int(positions[lo+i].SideToMove())
			scores[lo+i] = valueScore(float64(o[i].Values[stm]), t.scale)
		}
	}
	return nil
}

// Relabel replaces the scores of records by the net's, as generation 0's
// positions get them. It is safe for concurrent use.
func (t *Teacher) Relabel(records []data.Record) error {
	positions := make([]trench.Position, len(records))
	for i := range records {
		positions[i] = records[i].Position
	}
	scores := make([]int, len(records))
	if err := t.relabel(positions, scores); err != nil {
		return err
	}
	for i, s := range scores {
		records[i].Score = data.ClampScore(s)
	}
	return nil
}
