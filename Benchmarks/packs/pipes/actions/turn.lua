-- turn: turns the pipe on row `r`, column `c` a side clockwise (the
-- journal undoes it: no undo function). A straight or a cross turned twice
-- (or once) looks the same: the board, not the number of turns, is the state.
local sides = require "sides"

return {
  params = { r = "integer", c = "integer" },
  legal = function(game, emit)
    for r, cells in ipairs(game.rows) do
      for c = 1, #cells do emit { r = r, c = c } end
    end
  end,
  check = function(game, a)
    if not (game.rows[a.r] and game.rows[a.r][a.c]) then return "no cell at row " .. a.r .. ", column " .. a.c end
  end,
  apply = function(game, a)
    game.rows[a.r][a.c] = sides.turn(game.rows[a.r][a.c], game.hex)
  end,
}
