-- Squares of the 3 by 3 board, numbered 1-9 row by row.
local place = {}

-- The squares next to square i (up, down, left, right).
function place.neighbours(i)
  local r, c = (i - 1) // 3, (i - 1) % 3
  local out = {}
  if r > 0 then out[#out + 1] = i - 3 end
  if r < 2 then out[#out + 1] = i + 3 end
  if c > 0 then out[#out + 1] = i - 1 end
  if c < 2 then out[#out + 1] = i + 1 end
  return out
end

-- Rows plus columns between square i and tile t's home square (square t).
function place.distance(i, t)
  local r, c, hr, hc = (i - 1) // 3, (i - 1) % 3, (t - 1) // 3, (t - 1) % 3
  return math.abs(r - hr) + math.abs(c - hc)
end

return place
