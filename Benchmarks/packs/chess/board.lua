-- board: squares and pseudo-legal move generation, shared by the actions.
-- A square is an integer 1..64, (rank - 1) * 8 + file, so params stay
-- single integers. Generation only reads the state.
local board = {}

function board.square(rank, file) return (rank - 1) * 8 + file end
function board.coords(square) return (square - 1) // 8 + 1, (square - 1) % 8 + 1 end

local LETTERS = { pawn = "p", knight = "n", bishop = "b", rook = "r", queen = "q", king = "k" }
function board.letter(piece)
  if not piece then return "." end
  local letter = LETTERS[piece.kind]
  return piece.side == "white" and letter:upper() or letter
end

local ROOK = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
local BISHOP = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }
local ROYAL = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }
local KNIGHT = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 }, { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } }
local SLIDES = { rook = ROOK, bishop = BISHOP, queen = ROYAL }
local STEPS = { knight = KNIGHT, king = ROYAL }

-- Calls visit(to) for every pseudo-legal move of the piece at (rank, file),
-- captures (en passant included) and quiet moves alike.
function board.targets(game, rank, file, visit)
  local rows = game.board
  local piece = rows[rank][file]
  local side = piece.side
  -- a target square: false off the board, else its occupant (nil if empty)
  local function at(r, f)
    if r < 1 or r > 8 or f < 1 or f > 8 then return false end
    return rows[r][f]
  end
  if piece.kind == "pawn" then
    local dir = side == "white" and 1 or -1
    local ahead = rank + dir
    if at(ahead, file) == nil then
      visit(board.square(ahead, file))
      local start = side == "white" and 2 or 7
      if rank == start and at(ahead + dir, file) == nil then visit(board.square(ahead + dir, file)) end
    end
    for df = -1, 1, 2 do
      local target = at(ahead, file + df)
      if target then
        if target.side ~= side then visit(board.square(ahead, file + df)) end
      elseif target == nil and game.ep == board.square(ahead, file + df) then
        visit(game.ep)
      end
    end
  elseif SLIDES[piece.kind] then
    for _, d in ipairs(SLIDES[piece.kind]) do
      local r, f = rank + d[1], file + d[2]
      local target = at(r, f)
      while target == nil do
        visit(board.square(r, f))
        r, f = r + d[1], f + d[2]
        target = at(r, f)
      end
      if target and target.side ~= side then visit(board.square(r, f)) end
    end
  else
    for _, d in ipairs(STEPS[piece.kind]) do
      local target = at(rank + d[1], file + d[2])
      -- an empty square (nil) or an enemy piece; false is off the board
      if target == nil or target and target.side ~= side then
        visit(board.square(rank + d[1], file + d[2]))
      end
    end
  end
end

-- Emits {from, to} for every move of the side to move, scanning the board.
function board.moves(game, emit)
  for rank = 1, 8 do
    local row = game.board[rank]
    for file = 1, 8 do
      local piece = row[file]
      if piece and piece.side == game.side then
        local from = board.square(rank, file)
        board.targets(game, rank, file, function(to) emit{ from = from, to = to } end)
      end
    end
  end
end

-- nil when from -> to is a move of the side to move, else why it is not.
function board.refuse(game, a)
  if a.from < 1 or a.from > 64 or a.to < 1 or a.to > 64 then return "no such square" end
  local rank, file = board.coords(a.from)
  local piece = game.board[rank][file]
  if not piece then return "no piece on square " .. a.from end
  if piece.side ~= game.side then return "it is " .. game.side .. "'s move" end
  local found = false
  board.targets(game, rank, file, function(to) found = found or to == a.to end)
  if not found then return "the " .. piece.kind .. " on " .. a.from .. " cannot move to " .. a.to end
end

return board
