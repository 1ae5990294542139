-- press: toggles light `n` and its neighbours (pressing again undoes it:
-- the journal undoes it here, no undo function).
local press = require "press"

return {
  params = { n = "integer" },
  legal = function(game, emit)
    for n = 1, game.size * game.size do emit { n = n } end
  end,
  check = function(game, a)
    if a.n < 1 or a.n > game.size * game.size then return "no light " .. a.n end
  end,
  apply = function(game, a) press(game, a.n) end,
}
