package analysis

import (
	"math"
	"sort"

	"trench/bot"
	"trench/searchconfig"
)

// Response is the engine's answer about one turn of a query. Every turn
// gets exactly one final response (IsDuringSearch false), after any
// number of reports during its search.
type Response struct {
	ID             string `json:"id"`
	TurnNumber     int    `json:"turnNumber"`
	IsDuringSearch bool   `json:"isDuringSearch"`
	// Bot names the search and the net it read, as trench play says it
	// (bot.Maker.String), e.g. "alphabeta with nnue net … (built in)".
	Bot string `json:"bot"`
	// MoveInfos are the moves the search found something about, the move
	// it would play first (order 0): for the alphabeta kind the moves it
	// searched in full, best first; for the tree search the moves it
	// visited, then by visits. A query's multiPV bounds how many.
	MoveInfos []MoveInfo `json:"moveInfos,omitempty"`
	RootInfo  *RootInfo  `json:"rootInfo,omitempty"`
	// Policy is the search's prior over every legal move, highest first,
	// when the query asked for it (on final responses).
	Policy []PolicyEntry `json:"policy,omitempty"`
	// Terminated says that a terminate action ended the turn's search
	// early, or before it started.
	Terminated bool `json:"terminated,omitempty"`
	// NoResults says that the turn was terminated before anything was
	// searched: the response has no analysis.
	NoResults bool `json:"noResults,omitempty"`
}

// MoveInfo is what the search found about one move, from the side of
// the player to move at the turn.
type MoveInfo struct {
	Move  string `json:"move"`
	Order int    `json:"order"`
	// Visits is the number of simulations through the move (0 for the
	// alphabeta kind).
	Visits int `json:"visits"`
	// Value is the move's mean value for the mover, in [-1, 1]; for the
	// alphabeta kind its search's score as an expected result
	// (2σ(cp/400) − 1, ±1 for a forced result).
	Value float64 `json:"value"`
	// Winrate, Drawrate and Lossrate split Value into chances (Winrate
	// minus Lossrate is Value) and ScoreLead is the expected final score
	// difference after the move; the tree search has them for the most
	// visited moves (up to eight) and leaves them out for the rest; the
	// alphabeta kind has win and loss for every move, no draw chance and
	// no score lead.
	Winrate   *float64 `json:"winrate,omitempty"`
	Drawrate  *float64 `json:"drawrate,omitempty"`
	Lossrate  *float64 `json:"lossrate,omitempty"`
	ScoreLead *float64 `json:"scoreLead,omitempty"`
	// Score is the alphabeta kind's score of the move, in points of the
	// game's score (0 for a forced result, whose Value is ±1), and Depth
	// the depth it searched the move to, in plies; the tree search has
	// neither.
	Score *float64 `json:"score,omitempty"`
	Depth int      `json:"depth,omitempty"`
	// Prior is the probability the search's policy gave the move (0 for
	// the alphabeta kind, which has no policy).
	Prior float64 `json:"prior"`
	// PV is the main line from the move, the move first: the search's
	// principal variation for the move of order 0, the tree's most
	// visited replies after each other move, the alphabeta kind's
	// principal variation from each move.
	PV []string `json:"pv"`
}

// RootInfo is the search's view of the turn's position, from the side of
// the player to move.
type RootInfo struct {
	// Position is the position string; CurrentPlayer the player to move.
	Position      string `json:"position"`
	CurrentPlayer int    `json:"currentPlayer"`
	// Visits is the root's visits; Sims the simulations searched (the
	// tree search).
	Visits int `json:"visits"`
	Sims   int `json:"sims"`
	// Nodes is the positions searched, quiescence included, and Depth the
	// depth of the last iteration finished, in plies (the alphabeta kind).
	Nodes     int     `json:"nodes,omitempty"`
	Depth     int     `json:"depth,omitempty"`
	Value     float64 `json:"value"`
	Winrate   float64 `json:"winrate"`
	Drawrate  float64 `json:"drawrate"`
	Lossrate  float64 `json:"lossrate"`
	ScoreLead float64 `json:"scoreLead"`
	// Players is the same view for every player, by player number.
	Players []PlayerInfo `json:"players"`
	// ElapsedMs is how long the search took so far, in milliseconds.
	ElapsedMs int64 `json:"elapsedMs"`
}

// PlayerInfo is the search's view of one player's prospects.
type PlayerInfo struct {
	Value     float64 `json:"value"`
	Winrate   float64 `json:"winrate"`
	Drawrate  float64 `json:"drawrate"`
	Lossrate  float64 `json:"lossrate"`
	ScoreLead float64 `json:"scoreLead"`
}

// PolicyEntry is one legal move's prior.
type PolicyEntry struct {
	Move  string  `json:"move"`
	Prior float64 `json:"prior"`
}

// respond makes the response about turn of query q from analysis a.
func (e *Engine) respond(q *Query, turn int, a *bot.Analysis, during bool) *Response {
	r := &Response{ID: q.ID, TurnNumber: turn, IsDuringSearch: during, Bot: e.bot}
	r.RootInfo = &RootInfo{
		Position: a.Position, CurrentPlayer: a.ToMove, Visits: a.Visits, Sims: a.Sims,
		Nodes: a.Nodes, Depth: a.Depth,
		Value: a.Value, Winrate: a.Win, Drawrate: a.Draw, Lossrate: a.Loss, ScoreLead: a.ScoreDiff,
		ElapsedMs: a.Elapsed.Milliseconds(),
	}
	for _, p := range a.Players {
		r.RootInfo.Players = append(r.RootInfo.Players, PlayerInfo{
			Value: p.Value, Winrate: p.Win, Drawrate: p.Draw, Lossrate: p.Loss, ScoreLead: p.ScoreDiff,
		})
	}
	if e.dec.Kind == searchconfig.AlphaBeta {
		r.MoveInfos = lines(a)
	} else {
		r.MoveInfos = visited(a)
	}
	if n := q.Limits.MultiPV; n > 0 && len(r.MoveInfos) > n {
		r.MoveInfos = r.MoveInfos[:n]
	}
	for i := range r.MoveInfos {
		r.MoveInfos[i].Order = i
	}
	if q.IncludePolicy && !during {
		for _, m := range a.Moves {
			r.Policy = append(r.Policy, PolicyEntry{Move: m.Move, Prior: m.Prior})
		}
		sort.SliceStable(r.Policy, func(i, j int) bool { return r.Policy[i].Prior > r.Policy[j].Prior })
	}
	return r
}

// lines are the moves the alphabeta kind searched in full, best first,
// each with its win and loss chances (no draw) and its score.
func lines(a *bot.Analysis) []MoveInfo {
	var infos []MoveInfo
	for _, m := range a.Moves {
		q := max(-1, min(1, m.Q))
		w, d, l, score := (1+q)/2, 0.0, (1-q)/2, m.Score
		info := MoveInfo{
			Move: m.Move, Value: m.Q, Winrate: &w, Drawrate: &d, Lossrate: &l,
			Score: &score, Depth: m.Depth, PV: m.PV,
		}
		if len(info.PV) == 0 {
			info.PV = []string{m.Move}
		}
		infos = append(infos, info)
	}
	return infos
}

// visited are the moves the tree search visited, the move it would play
// first, then by visits.
func visited(a *bot.Analysis) []MoveInfo {
	var chosen, infos []MoveInfo
	for _, m := range a.Moves {
		if m.Visits == 0 {
			continue
		}
		info := MoveInfo{Move: m.Move, Visits: m.Visits, Value: m.Q, Prior: m.Prior, PV: m.PV}
		if len(info.PV) == 0 {
			info.PV = []string{m.Move}
		}
		if m.Estimated {
			q := max(-1, min(1, m.Q))
			d := min(m.Draw, 1-math.Abs(q))
			w, l, s := (1+q-d)/2, (1-q-d)/2, m.ScoreDiff
			info.Winrate, info.Drawrate, info.Lossrate, info.ScoreLead = &w, &d, &l, &s
		}
		if m.Action == a.Action {
			chosen = append(chosen, info)
			continue
		}
		infos = append(infos, info)
	}
	return append(chosen, infos...)
}
