package terminal

// Commands describes what people type in a game at the terminal, as
// "trench play --help" shows it: a move, or one of the commands, each at
// the start of an indented line.
const Commands = `Type a move in notation (d4d5 in Trench, We2We4 in Trichess), or a command:
  moves SQUARE   the legal moves of the piece on SQUARE, marked on the board
  hint           the bot's suggestion for you, with its evaluation
  go             let the bot play your move
  undo           take back your last move (and the bot's replies)
  armistice      (Trench) offer to stop here, scored by points; the bot
                 accepts when it is not behind and does not expect to gain
  resign         (Trench) give up the game; Trichess has no resignation
  save FILE      write the game to FILE;  load FILE  continue a saved game
  new            start a new game;  level N  change the bot's strength
  view           (Trench) switch between the diamond and the square board
  board, help, quit
`
