package protocol

// Reference describes the protocol's commands and answers, as "trench
// engine --help" shows them: each command at the start of an indented
// line, the lines after it saying what it does.
const Reference = `  trench                 identify: "id name ...", "id net ...", then "trenchok"
  isready                answers "readyok"
  newgame                forget the search tree (alphabeta: its table)
  position startpos [moves M1 M2 ...]
  position fen POSITION [moves M1 M2 ...]
                         set the position (the game's position string: 6
                         fields for Trench, 5 for Trichess), then play the
                         moves
  go [sims N | nodes N] [time MS] [level N]
                         search the position (default: level 6); prints
                         "info ..." lines as it goes, then "bestmove MOVE"
                         ("bestmove none" when the game is over); sims
                         limit the mcts kind, nodes the alphabeta kind
                         (--kind), and a level is either's
  stop                   end the search now; it answers bestmove
  show                   print the position string and the board
  moves                  list the legal moves: "moves d4d5 d4e4 ..."
  quit                   leave

While a search runs, isready, stop and quit are obeyed at once (quit ends
the search as stop does, then leaves); every other command waits for the
search to end and is obeyed after its bestmove. The end of the input
ends a running search at once, as quit does: to let a piped search run to
its limit, follow go with a command that waits, such as show. A line
longer than 1 MiB is answered "error line too long" and skipped.

An info line reads
  info sims 400 visits 412 time 1830 wdl 512 93 395 value 0.117 points 1.4 pv d4d5 e5e4 c4c5
with the simulations of this search, the root's visits (kept ones
included), milliseconds, win/draw/loss per mille and the value (win minus
loss) for the side to move, its expected final score difference, and the
principal variation. Trichess's info lines add, before pv, "values" and
every player's value in seat order (White, Red, Black). When the guard
(--guard) replaces the search's move, an info line "info string alphabeta
found a forced loss after MOVE; played MOVE" follows. A command that
cannot be obeyed is answered "error MESSAGE" and changes nothing.

A bot of the alphabeta kind searches with the whole limit at once and
prints one info line,
  info depth 9 nodes 301056 time 212 wdl 587 0 413 value 0.174 pv d4d5 e5e4
with the depth of its last finished iteration, the positions searched,
milliseconds, win/draw/loss per mille from its score (no draw chance),
the value and the principal variation.
`
