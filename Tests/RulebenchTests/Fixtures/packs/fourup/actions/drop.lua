-- drop: a disc into a column; it falls to the lowest free row.
---@type rulebench.Action
local action = {
  params = { column = "integer" },

  legal = function(game, emit)
    for c = 1, game.cols do
      if #game.columns[c] < game.rows then emit{ column = c } end
    end
  end,

  check = function(game, a)
    if a.column < 1 or a.column > game.cols then
      return "no column " .. a.column          -- the guard the fuzzer's out-of-range attempts reach
    end
    if #game.columns[a.column] >= game.rows then return "column " .. a.column .. " is full" end
  end,

  apply = function(game, a)
    local column = game.columns[a.column]
    column[#column + 1] = game.next
    game.next = game.next == "red" and "yellow" or "red"
  end,
}
return action
