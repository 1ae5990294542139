-- place: the seat to move marks an empty cell (1 to cols * rows, row by
-- row), and the turn passes. Nothing is legal once the game is over.
local lines = require "lines"

---@type rulebench.Action
local action = {
  params = { cell = "integer" },
  checkpoint = true,
  seat = function(game) return game.next end,

  legal = function(game, emit)
    if lines.finished(game) then return end
    for i = 1, #game.cells do
      if game.cells[i] == "." then emit{ cell = i } end
    end
  end,

  check = function(game, a)
    if a.cell < 1 or a.cell > #game.cells then return "cell " .. a.cell .. " is off the board (1 to " .. #game.cells .. ")" end
    if game.cells[a.cell] ~= "." then return "cell " .. a.cell .. " is taken" end
    if lines.finished(game) then return "the game is over" end
  end,

  apply = function(game, a)
    game.cells[a.cell] = game.next
    game.next = game.next == "x" and "o" or "x"
  end,
}
return action
