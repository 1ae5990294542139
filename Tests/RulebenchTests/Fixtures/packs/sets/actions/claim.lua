-- claim: three cards on the table that form a set go to the won pile.
local S = require "sets"

return {
  params = { a = "string", b = "string", c = "string" },
  legal = function(game, emit)
    for _, set in ipairs(S.sets(game)) do emit(set) end
  end,
  check = function(game, a)
    for _, id in ipairs({ a.a, a.b, a.c }) do
      if not S.find(game, id) then return id .. " is not on the table" end
    end
    local t = game.table
    if not S.isset(t[S.find(game, a.a)], t[S.find(game, a.b)], t[S.find(game, a.c)]) then return "not a set" end
  end,
  apply = function(game, a)
    a.places = {}
    for _, id in ipairs({ a.a, a.b, a.c }) do
      local at = S.find(game, id)
      a.places[#a.places + 1] = at
      game.won[#game.won + 1] = table.remove(game.table, at)
    end
    game.score = game.score + 1
    if #game.deck == 0 and #S.sets(game) == 0 then game.over = true end
  end,
  undo = function(game, a)
    game.over = nil
    game.score = game.score - 1
    for i = #a.places, 1, -1 do
      table.insert(game.table, a.places[i], game.won[#game.won])   -- moved back from won
    end
  end,
  sound = "claim",
}
