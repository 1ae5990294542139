-- slide: moves the tile on square `from`, next to the gap, into the gap
-- (the journal undoes it: no undo function).
local place = require "place"

return {
  params = { from = "integer" },
  legal = function(game, emit)
    for _, from in ipairs(place.neighbours(game.gap)) do emit { from = from } end
  end,
  check = function(game, a)
    for _, n in ipairs(place.neighbours(game.gap)) do
      if n == a.from then return nil end
    end
    return "square " .. a.from .. " is not next to the gap"
  end,
  apply = function(game, a)
    game.tiles[game.gap] = game.tiles[a.from]
    game.tiles[a.from] = 0
    game.gap = a.from
  end,
}
