-- pipes: turn the pipes until every end meets another, for the solver's
-- benchmark (`rulebench-bench --solve`). Each square of the grid holds a
-- pipe: an end (one opening), a straight or a corner (two), or a tee
-- (three). A move turns one pipe a quarter clockwise. The goal: every
-- opening faces an opening of the next square, none faces the edge.
-- Turns commute, so the same turns in any order reach one board: a search
-- that expands each board once, not each order, is what it measures.
--
-- Option `grid`: the pipes at the start, rows separated by slashes, each
-- square the openings it has, as a hexadecimal digit of the sides N = 1,
-- E = 2, S = 4, W = 8 (6 is a corner opening east and south). The
-- default is 3 by 3, 23 turns from the nearest solution; "77/77" is a level
-- no turn can solve (a tee always faces an edge on a 2 by 2 grid).
local sides = require "sides"

return {
  name = "pipes",
  version = "1",
  description = "Turn the pipes until every opening meets another.",
  options = { grid = "c59/e5b/612" },

  setup = function(game, options)
    game.rows = {}
    for row in options.grid:gmatch("[^/]+") do
      local cells = {}
      for c in row:gmatch(".") do
        local mask = tonumber(c, 16)
        assert(mask and mask > 0, "grid: each square is a hexadecimal digit 1-f (N = 1, E = 2, S = 4, W = 8)")
        cells[#cells + 1] = mask
      end
      assert(#game.rows == 0 or #cells == #game.rows[1], "grid: every row has as many squares")
      game.rows[#game.rows + 1] = cells
    end
  end,

  goals = {
    connected = function(game) return sides.unmatched(game.rows) == 0 end,
  },

  render = function(game)
    local lines = {}
    for r, cells in ipairs(game.rows) do
      local row = {}
      for c, mask in ipairs(cells) do row[c] = sides.glyph(mask) end
      lines[r] = table.concat(row)
    end
    return table.concat(lines, "\n")
  end,
}
