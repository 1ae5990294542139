-- The board's lines (every run of k cells in a row, a column or a
-- diagonal of a cols by rows board), and what the rules ask of them: who
-- made one, whether the board is full, how many lines a seat can still
-- make. Reads the state only; the lines of a board size are worked out
-- once (they depend on the options alone).
local M = {}

local LINES = {}   -- "cols,rows,k" -> { { cell, ... }, ... }

local function lines(game)
  local key = game.cols .. "," .. game.rows .. "," .. game.k
  local found = LINES[key]
  if found then return found end
  found = {}
  local cols, rows, k = game.cols, game.rows, game.k
  for r = 1, rows do
    for c = 1, cols do
      for _, d in ipairs({ { 1, 0 }, { 0, 1 }, { 1, 1 }, { -1, 1 } }) do
        local ec, er = c + d[1] * (k - 1), r + d[2] * (k - 1)
        if ec >= 1 and ec <= cols and er <= rows then
          local line = {}
          for i = 0, k - 1 do line[#line + 1] = (r - 1 + d[2] * i) * cols + c + d[1] * i end
          found[#found + 1] = line
        end
      end
    end
  end
  LINES[key] = found
  return found
end
M.lines = lines

-- The seat with k marks in a line, or nil.
function M.winner(game)
  local c = game.cells
  for _, l in ipairs(lines(game)) do
    local a = c[l[1]]
    if a ~= "." then
      local all = true
      for i = 2, #l do if c[l[i]] ~= a then all = false; break end end
      if all then return a end
    end
  end
  return nil
end

function M.full(game)
  local c = game.cells
  for i = 1, #c do if c[i] == "." then return false end end
  return true
end

function M.finished(game) return M.winner(game) ~= nil or M.full(game) end

-- The marks of `seat` on the board.
function M.count(game, seat)
  local n = 0
  for i = 1, #game.cells do if game.cells[i] == seat then n = n + 1 end end
  return n
end

-- The lines holding no mark of the other seat.
function M.open(game, seat)
  local c, n = game.cells, 0
  for _, l in ipairs(lines(game)) do
    local free = true
    for i = 1, #l do
      local v = c[l[i]]
      if v ~= "." and v ~= seat then free = false; break end
    end
    if free then n = n + 1 end
  end
  return n
end

return M
