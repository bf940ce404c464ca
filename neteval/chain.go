package neteval

import (
	"fmt"

	"trench/engine"
	"trench/mcts"
	"trench/tactics"
)

// Chain returns the evaluator a search of game g runs over base (a net's
// Evaluator, a Batcher of one, or tactics.Fallback): base averaged over
// the board's symmetries when symmetries is set and g has more than one,
// its values replaced by values' when values is not nil (base then gives
// the priors alone), under the tactical aids when g's states report
// captures and aids are not off; and a description of what was added,
// for people ("" for nothing). Every search builds its evaluator here:
// the bot, self-play, reanalysis and the benchmarks.
func Chain(g engine.Game, base mcts.Evaluator, values *Values, aids tactics.Settings, symmetries bool) (mcts.Evaluator, string) {
	ev, doc := base, ""
	if symmetries && g.Symmetries() > 1 {
		ev = mcts.SymmetryAverage{Evaluator: ev}
		doc += fmt.Sprintf("; averaged over %d symmetries", g.Symmetries())
	}
	if values != nil {
		ev = values.Wrap(ev)
		doc += "; " + values.String()
	}
	if _, ok := g.Start().(engine.Captures); ok && !aids.Off() {
		ev = aids.Wrap(ev)
		doc += "; tactical aids: " + aids.String()
	}
	return ev, doc
}
