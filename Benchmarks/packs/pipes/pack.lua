-- pipes: turn the pipes until every end meets another, for the solver's
-- benchmark (`rulebench-bench --solve`) and the level generator's
-- (`rulebench generate`). Each cell of the grid holds a pipe: an end (one
-- opening), a straight or a corner (two), a tee (three), and on hexagonal
-- cells more. A move turns one pipe a side clockwise. The goal: every
-- opening faces an opening of the next cell, none faces the edge.
-- Turns commute, so the same turns in any order reach one board: a search
-- that expands each board once, not each order, is what it measures.
--
-- Option `grid`: the pipes at the start, rows separated by slashes, each
-- cell the openings it has as a hexadecimal number of its sides: one
-- digit on square cells (N = 1, E = 2, S = 4, W = 8; 6 is a corner opening
-- east and south), two on hexagonal ones (option `shape = "hex"`: E = 1,
-- NE = 2, NW = 4, W = 8, SW = 16, SE = 32; odd rows shifted half a cell
-- right). The default is 3 by 3, 23 turns from the nearest solution;
-- "77/77" is a level no turn can solve (a tee always faces an edge on a
-- 2 by 2 grid).
--
-- Goals: `connected`, searched breadth-first (the benchmark's), and
-- `solved`, the same with an estimate of the turns still needed that never
-- overestimates (A*: the generator's). `generate` makes levels: a random
-- spanning tree over the cells, turned at random (tree.lua).
local sides = require "sides"
local tree = require "tree"

local function connected(game) return sides.unmatched(game.rows, game.hex) == 0 end

return {
  name = "pipes",
  version = "2",
  description = "Turn the pipes until every opening meets another.",
  options = { grid = "c59/e5b/612", shape = "square" },

  setup = function(game, options)
    assert(options.shape == "square" or options.shape == "hex", "shape: square or hex")
    local hex = options.shape == "hex"
    game.hex = hex
    game.rows = {}
    for row in options.grid:gmatch("[^/]+") do
      local cells = {}
      for digits in row:gmatch(hex and ".." or ".") do
        local mask = tonumber(digits, 16)
        assert(mask and mask > 0 and mask < (1 << sides.count(hex)),
          hex and "grid: each hexagonal cell is two hexadecimal digits 01-3f (E = 1, NE = 2, NW = 4, W = 8, SW = 16, SE = 32)"
              or "grid: each square is a hexadecimal digit 1-f (N = 1, E = 2, S = 4, W = 8)")
        cells[#cells + 1] = mask
      end
      assert(#game.rows == 0 or #cells == #game.rows[1], "grid: every row has as many cells")
      game.rows[#game.rows + 1] = cells
    end
  end,

  generate = tree.generate,

  goals = {
    connected = connected,
    solved = { holds = connected, estimate = function(game) return sides.turnsneeded(game.rows, game.hex) end },
  },

  render = function(game)
    local lines = {}
    for r, cells in ipairs(game.rows) do
      local row = {}
      for c, mask in ipairs(cells) do row[c] = sides.glyph(mask, game.hex) end
      lines[r] = (game.hex and r % 2 == 1 and " " or "") .. table.concat(row, game.hex and " " or "")
    end
    return table.concat(lines, "\n")
  end,
}
