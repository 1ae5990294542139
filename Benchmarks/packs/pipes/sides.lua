-- The sides of a cell as bits, for both board shapes, and what follows
-- from them: a turn, the openings left unmatched, the turns still needed
-- at least. Square cells: N = 1, E = 2, S = 4, W = 8. Hexagonal cells (rows
-- offset, odd rows shifted half a cell right): E = 1, NE = 2, NW = 4,
-- W = 8, SW = 16, SE = 32. The neighbour steps (`sides.steps`) are the only
-- part that differs by shape; everything else reads them.
local sides = {}

local SQUARE = { { 1, -1, 0, 4 }, { 2, 0, 1, 8 }, { 4, 1, 0, 1 }, { 8, 0, -1, 2 } }   -- side, dr, dc, facing side
-- Hexagonal rows: an odd row's upper and lower neighbours are at columns c and
-- c + 1, an even row's at c - 1 and c.
local HEX_ODD = { { 1, 0, 1, 8 }, { 2, -1, 1, 16 }, { 4, -1, 0, 32 }, { 8, 0, -1, 1 }, { 16, 1, 0, 2 }, { 32, 1, 1, 4 } }
local HEX_EVEN = { { 1, 0, 1, 8 }, { 2, -1, 0, 16 }, { 4, -1, -1, 32 }, { 8, 0, -1, 1 }, { 16, 1, -1, 2 }, { 32, 1, 0, 4 } }

-- The steps to a cell's neighbours on row `r`: { side, dr, dc, the neighbour's side facing back }.
function sides.steps(hex, r)
  if not hex then return SQUARE end
  return r % 2 == 1 and HEX_ODD or HEX_EVEN
end

-- The sides a cell has: 4 or 6.
function sides.count(hex) return hex and 6 or 4 end

-- The openings after one turn clockwise (square: N -> E -> S -> W -> N;
-- hexagonal: each side to the next, E -> NE -> ... -> SE -> E).
function sides.turn(mask, hex)
  if hex then return ((mask << 1) | (mask >> 5)) & 63 end
  return ((mask << 1) | (mask >> 3)) & 15
end

-- Calls `f(r, c, mask, step, other)` for each opening of each cell, `other`
-- the neighbour's mask across it (nil at the edge).
local function openings(rows, hex, f)
  for r = 1, #rows do
    local cells, steps = rows[r], sides.steps(hex, r)
    for c = 1, #cells do
      local mask = cells[c]
      for i = 1, #steps do
        local s = steps[i]
        if mask & s[1] ~= 0 then
          local next = rows[r + s[2]]
          f(r, c, mask, s, next and next[c + s[3]])
        end
      end
    end
  end
end

-- Openings that face the edge or a cell with no opening back.
function sides.unmatched(rows, hex)
  local count = 0
  openings(rows, hex, function(_, _, _, s, other)
    if not other or other & s[4] == 0 then count = count + 1 end
  end)
  return count
end

-- The turns still needed, at least (it never overestimates, so A* on it
-- finds a shortest line): a cell with an opening at the edge must turn
-- until none is (the fewest turns that do it), and of two cells whose
-- openings do not meet, one must turn once; the cells counted are distinct
-- (the pairs are taken greedily, none sharing a cell with one counted), and
-- a turn turns one cell.
local function edgefree(rows, hex, r, c, mask)
  for _, s in ipairs(sides.steps(hex, r)) do
    if mask & s[1] ~= 0 then
      local next = rows[r + s[2]]
      if not (next and next[c + s[3]]) then return false end
    end
  end
  return true
end

function sides.turnsneeded(rows, hex)
  local counted, n = {}, 0
  local function key(r, c) return r * 1024 + c end
  openings(rows, hex, function(r, c, mask, _, other)
    if not other and not counted[key(r, c)] then
      counted[key(r, c)] = true
      local turns = 1
      mask = sides.turn(mask, hex)
      while turns < sides.count(hex) and not edgefree(rows, hex, r, c, mask) do
        turns, mask = turns + 1, sides.turn(mask, hex)
      end
      n = n + turns
    end
  end)
  openings(rows, hex, function(r, c, _, s, other)
    if other and other & s[4] == 0 then
      local a, b = key(r, c), key(r + s[2], c + s[3])
      if not counted[a] and not counted[b] then counted[a], counted[b] = true, true; n = n + 1 end
    end
  end)
  return n
end

local GLYPHS = { "╵", "╶", "└", "╷", "│", "┌", "├", "╴", "┘", "─", "┴", "┐", "┤", "┬", "┼" }
function sides.glyph(mask, hex)
  if hex then return string.format("%02x", mask) end
  return GLYPHS[mask]
end

return sides
