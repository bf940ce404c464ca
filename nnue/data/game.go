package data

import (
	"fmt"

	"trench/engine/trench"
)

// Label makes the records of one finished game: positions[i] is a
// position of the game and scores[i] the search's score there for the
// side to move (centipoints, clamped by ClampScore); final is the
// position the game ended in, whose winner gives every record its result
// for its side to move.
func Label(gameID uint64, positions []trench.Position, scores []int, final *trench.Position) ([]Record, error) {
	if len(positions) != len(scores) {
		return nil, fmt.Errorf("game %d: %d positions and %d scores", gameID, len(positions), len(scores))
	}
	if !final.Over() {
		return nil, fmt.Errorf("game %d: final position %s: the game is not over", gameID, final.FEN())
	}
	winner, decisive := final.Winner()
	records := make([]Record, len(positions))
	for i := range positions {
		p := &positions[i]
		if p.Over() {
			return nil, fmt.Errorf("game %d: position %d, %s: the game is over", gameID, i, p.FEN())
		}
		res := Draw
		switch {
		case decisive && p.SideToMove() == winner:
			res = Win
		case decisive:
			res = Loss
		}
		records[i] = Record{Position: *p, Score: ClampScore(scores[i]), Result: res, GameID: gameID}
	}
	return records, nil
}
