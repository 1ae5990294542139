-- The levels of pipes: a random spanning tree over the board's cells (the
-- solved board: every opening meets another, every cell reached), then
-- random turns. Growing the tree: start at a random cell; again and again,
-- take a random side of the tree that leads to a cell not yet in it, and
-- connect that cell. The steps to a cell's neighbours (sides.steps) are the
-- only part that differs by board shape.
-- Invariant: every draw comes from `rng`, so the same seed gives the same tree.
local sides = require "sides"

local tree = {}

-- The solved board of `rows` by `columns` cells: rows of masks.
function tree.grow(rng, rows, columns, hex)
  local board, inside = {}, {}
  for r = 1, rows do
    board[r], inside[r] = {}, {}
    for c = 1, columns do board[r][c], inside[r][c] = 0, false end
  end
  local edges = {}          -- sides of the tree: { r, c, step }, some leading inside by now
  local function add(r, c)
    inside[r][c] = true
    for _, s in ipairs(sides.steps(hex, r)) do
      local r2, c2 = r + s[2], c + s[3]
      if inside[r2] and inside[r2][c2] == false then edges[#edges + 1] = { r, c, s } end
    end
  end
  add(rng:random(rows), rng:random(columns))
  local left = rows * columns - 1
  while left > 0 do
    local i = rng:random(#edges)
    local e = edges[i]
    edges[i] = edges[#edges]
    edges[#edges] = nil
    local r, c, s = e[1], e[2], e[3]
    local r2, c2 = r + s[2], c + s[3]
    if not inside[r2][c2] then
      board[r][c] = board[r][c] | s[1]
      board[r2][c2] = board[r2][c2] | s[4]
      add(r2, c2)
      left = left - 1
    end
  end
  return board
end

-- The board as the `grid` option writes it: rows joined by slashes, a cell
-- a hexadecimal digit (square) or two (hexagonal).
function tree.grid(board, hex)
  local lines = {}
  for r, cells in ipairs(board) do
    local row = {}
    for c, mask in ipairs(cells) do row[c] = string.format(hex and "%02x" or "%x", mask) end
    lines[r] = table.concat(row)
  end
  return table.concat(lines, "/")
end

-- generate(rng, params): a solved board turned back `turns` times at
-- random cells (params: rows, columns, shape = "square" or "hex", turns),
-- so that as many turns or fewer solve it. (A turn is clockwise: turning
-- back is all the turns of a full circle but one.)
function tree.generate(rng, params)
  local rows, columns = params.rows or 5, params.columns or 5
  local hex = (params.shape or "square") == "hex"
  assert(math.type(rows) == "integer" and math.type(columns) == "integer" and rows >= 1 and columns >= 1
         and rows * columns >= 2 and rows * columns <= 400, "generate: rows and columns are whole numbers, 2 to 400 cells")
  assert(params.shape == nil or params.shape == "square" or params.shape == "hex", "generate: shape is square or hex")
  local board = tree.grow(rng, rows, columns, hex)
  for _ = 1, params.turns or 6 do
    local r, c = rng:random(rows), rng:random(columns)
    for _ = 1, sides.count(hex) - 1 do board[r][c] = sides.turn(board[r][c], hex) end
  end
  return { grid = tree.grid(board, hex), shape = hex and "hex" or "square" }
end

return tree
