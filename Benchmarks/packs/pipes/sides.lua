-- The sides of a square as bits: N = 1, E = 2, S = 4, W = 8.
local sides = {}

-- The openings after a quarter turn clockwise: N -> E -> S -> W -> N.
function sides.turn(mask)
  return ((mask << 1) | (mask >> 3)) & 15
end

local STEPS = { { 1, -1, 0, 4 }, { 2, 0, 1, 8 }, { 4, 1, 0, 1 }, { 8, 0, -1, 2 } }   -- side, dr, dc, facing side

-- Openings that face the edge or a square with no opening back.
function sides.unmatched(rows)
  local count = 0
  for r = 1, #rows do
    local cells = rows[r]
    for c = 1, #cells do
      local mask = cells[c]
      for i = 1, 4 do
        local s = STEPS[i]
        if mask & s[1] ~= 0 then
          local next = rows[r + s[2]]
          local other = next and next[c + s[3]]
          if not other or other & s[4] == 0 then count = count + 1 end
        end
      end
    end
  end
  return count
end

local GLYPHS = { "╵", "╶", "└", "╷", "│", "┌", "├", "╴", "┘", "─", "┴", "┐", "┤", "┬", "┼" }
function sides.glyph(mask) return GLYPHS[mask] end

return sides
