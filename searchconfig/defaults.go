package searchconfig

import (
	"runtime"

	"trench/checkpoints/shipped"
	"trench/mcts"
	"trench/tactics"
)

// The named sets of defaults: every use of a search player starts from
// one of them, and each says why it differs from Play.

// Play is the bot people play against: trench play, serve and engine.
// For Trench it is the alphabeta kind with the built-in NNUE, at level 6
// (300,000 nodes a move): against alphabeta with the hand-written
// evaluation it scored 77.6% over 400 games at 200 ms a move and 81.0%
// over 200 games at 1 s, and 87.5% over 100 games at 200 ms against the
// tree search with the conv net as it was shipped before (README). It
// plays every move with the net: handing the race's end to the
// hand-written evaluation (endgame) lost 56 Elo at 200 ms. Trichess
// gets the same: its classical search (BRS+) with its built-in NNUE,
// which at 200 ms a move led two copies of that search with the
// hand-written evaluation by +0.33 [+0.13, +0.53] points a game over
// 300 games (README). A game without a classical search gets
// the mcts kind (Fit): every core sharing one tree, level 6 (400
// simulations), tactics.Play's aids and the parameters of
// mcts.DefaultParams (whose policy temperature 1.5 was measured there).
// For the mcts kind the guard takes 0.1 of a time limit: at 200 ms a
// move against alphabeta at 200 ms, 400 games, that bot scored 43.1%
// with it and 38.1% without on the same openings; --endgame 15, the
// classical search choosing the moves from 15 points, brought it to
// 52.5% (docs/evaluation.md).
func Play() Config {
	p := mcts.DefaultParams()
	return Config{
		Kind: AlphaBeta, Eval: EvalNNUE, NNUE: shipped.Ref, Net: shipped.Ref, Value: ValueNet, Level: 6, Threads: min(runtime.NumCPU(), MaxThreads),
		Search: "puct", PolicyTemperature: p.PolicyTemperature, CPUCT: p.CPUCT,
		FPU: p.FPUReduction, RootFPU: p.RootFPUReduction, MinimaxWeight: p.MinimaxWeight, Solver: p.Solver,
		Quiescence: tactics.Play.Quiescence, QuiescenceValue: "net",
		MaterialValue: tactics.Play.Material, CapturePrior: tactics.Play.CapturePrior,
		Guard: 0.1, GuardDepth: 4, Endgame: 0, EndgameDepth: 5,
	}
}

// Arena is a bot of the arena (trench arena, and training's evaluation
// matches, which are arena matches): Play's settings but of the mcts
// kind, which arena logs and training's matches have always meant by
// their mcts: players; with one thread, since the arena plays games side
// by side on the cores; at level 5 (200 simulations), since a match is
// many games; and with neither guard nor endgame unless asked, since a
// match measures the search itself. Arena logs and measurements were
// made with these defaults.
func Arena() Config {
	c := Play()
	c.Kind, c.Level, c.Threads, c.Guard, c.Endgame = MCTS, 5, 1, 0, 0
	return c
}

// SelfPlay is the search of training's self-play, whose searches are
// also its policy targets: the priors enter untempered (policy
// temperature 1), and the root search is Gumbel's, whose improved policy
// is the target. Self-play runs its own games side by side (one thread
// each) with no classical search, and its aids come from the run's
// config (training.Config's quiescence, material-value and
// capture-prior).
func SelfPlay() Config {
	c := Arena()
	c.Search, c.PolicyTemperature = "gumbel", 1
	return c
}
