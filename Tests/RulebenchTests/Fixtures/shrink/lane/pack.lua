-- lane: a token on a lane of four squares (0 to 3), made for the shrinker's
-- tests: `poke` is legal only on square 0, so moves away and back are
-- pairs that must go together. Options:
--   bug = "undo"  poke's undo forgets its mark once `need` ticks were made
--   bug = "redo"  poke marks with a module counter: its redo gives another state
--   seeded = true the token starts on a square drawn by the game's generator,
--                 and the undo bug shows only when the drawn salt is odd
local rulebench = require "rulebench"

return {
  name = "lane",
  version = "1",
  options = { bug = "undo", need = 0, seeded = false },
  setup = function(game, options)
    game.bug = options.bug
    game.need = options.need
    game.pos = 0
    game.ticks = 0
    game.turns = 0
    game.salt = 1
    if options.seeded then
      game.pos = rulebench.random(game, 0, 3)
      game.salt = rulebench.random(game, 1, 1000)
    end
  end,
}
