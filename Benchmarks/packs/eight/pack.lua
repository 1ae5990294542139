-- eight: the 8-puzzle, for the solver's benchmark (`rulebench-bench --solve`).
-- Eight numbered tiles and a gap on a 3 by 3 board; a move slides a tile
-- next to the gap into it. The goal: 1 2 3 / 4 5 6 / 7 8 _ (the gap last).
-- Half of the 9! boards can reach it (181,440); from the other half no line
-- does, which `rulebench solve` proves by searching all 181,440.
--
-- Option `tiles`: the board at the start, its rows separated by slashes,
-- _ for the gap. The default, 867/254/3_1, is one of the two hardest boards:
-- 31 moves.
--
-- The goal declares an estimate, the Manhattan distance: for each tile, the
-- rows plus the columns between it and its place. A move shifts one tile by
-- one square, so the estimate never exceeds the moves still needed, and
-- the best-first search it guides finds a shortest line.
--
-- `generate` makes levels (`rulebench generate`): the goal board scrambled
-- by `moves` random slides (params.moves, default 20), never straight back,
-- so every level can be solved (a slide is undone by sliding back).
local place = require "place"

local function scramble(rng, params)
  local moves = params.moves or 20
  assert(math.type(moves) == "integer" and moves >= 0 and moves <= 10000, "generate: moves is a whole number, 0 to 10000")
  local tiles, gap, last = { 1, 2, 3, 4, 5, 6, 7, 8, 0 }, 9, nil
  for _ = 1, moves do
    local choices = {}
    for _, n in ipairs(place.neighbours(gap)) do
      if n ~= last then choices[#choices + 1] = n end
    end
    local from = choices[rng:random(#choices)]
    tiles[gap], tiles[from], last, gap = tiles[from], 0, gap, from
  end
  local rows = {}
  for r = 0, 2 do
    local row = {}
    for c = 1, 3 do
      local t = tiles[r * 3 + c]
      row[c] = t == 0 and "_" or tostring(t)
    end
    rows[#rows + 1] = table.concat(row)
  end
  return { tiles = table.concat(rows, "/") }
end

local function solved(game)
  for i = 1, 8 do if game.tiles[i] ~= i then return false end end
  return true
end

local function manhattan(game)
  local sum, tiles = 0, game.tiles
  for i = 1, 9 do
    local t = tiles[i]
    if t ~= 0 then sum = sum + place.distance(i, t) end
  end
  return sum
end

return {
  name = "eight",
  version = "1",
  description = "The 8-puzzle: slide the tiles into order.",
  options = { tiles = "867/254/3_1" },

  setup = function(game, options)
    local text = options.tiles:gsub("/", ""):gsub("_", "0")
    assert(#text == 9 and text:match("^[0-8]+$"), "tiles: three rows of 1-8 and _ (the gap), like 123/456/78_")
    game.tiles = {}
    for i = 1, 9 do
      local t = tonumber(text:sub(i, i))
      assert(not text:find(tostring(t), i + 1, true), "tiles: digit " .. t .. " appears twice")
      game.tiles[i] = t
      if t == 0 then game.gap = i end
    end
  end,

  generate = scramble,

  goals = {
    solved = { holds = solved, estimate = manhattan },
  },

  render = function(game)
    local rows = {}
    for r = 0, 2 do
      local row = {}
      for c = 1, 3 do
        local t = game.tiles[r * 3 + c]
        row[c] = t == 0 and "_" or tostring(t)
      end
      rows[#rows + 1] = table.concat(row, " ")
    end
    return table.concat(rows, "\n")
  end,
}
