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

-- Whether square (rank, file) is attacked by a piece of side `by`, once
-- the move from -> to (squares; none when nil) is made in thought: the
-- board is only read. Reads through `at`, which sees the moved piece on
-- `to`, nothing on `from`, and an en passant victim gone.
function board.attacked(game, rank, file, by, from, to)
  local rows = game.board
  local fr, ff, tr, tf, moving, passed
  if from then
    fr, ff = board.coords(from)
    tr, tf = board.coords(to)
    moving = rows[fr][ff]
    passed = moving.kind == "pawn" and ff ~= tf and rows[tr][tf] == nil
  end
  local function at(r, f)
    if r < 1 or r > 8 or f < 1 or f > 8 then return false end
    if from then
      if r == tr and f == tf then return moving end
      if (r == fr and f == ff) or (passed and r == fr and f == tf) then return nil end
    end
    return rows[r][f]
  end
  local ahead = by == "white" and 1 or -1   -- the way `by`'s pawns move
  for _, d in ipairs(ROYAL) do
    local r, f, steps = rank + d[1], file + d[2], 1
    local p = at(r, f)
    while p == nil do
      r, f, steps = r + d[1], f + d[2], steps + 1
      p = at(r, f)
    end
    if p and p.side == by then
      local kind, straight = p.kind, d[1] == 0 or d[2] == 0
      if kind == "queen" or (straight and kind == "rook") or (not straight and kind == "bishop") then return true end
      if steps == 1 and (kind == "king" or (kind == "pawn" and not straight and d[1] == -ahead)) then return true end
    end
  end
  for _, d in ipairs(KNIGHT) do
    local p = at(rank + d[1], file + d[2])
    if p and p.side == by and p.kind == "knight" then return true end
  end
  return false
end

-- Whether the side to move is mated: its king attacked, and every move it
-- has leaves its king attacked (moves are pseudo-legal: a king may walk
-- into check, so this is what mate means here).
function board.mated(game)
  local side = game.side
  local enemy = side == "white" and "black" or "white"
  local king
  for rank = 1, 8 do
    for file = 1, 8 do
      local p = game.board[rank][file]
      if p and p.kind == "king" and p.side == side then king = board.square(rank, file) end
    end
  end
  if not king then return false end
  local kr, kf = board.coords(king)
  if not board.attacked(game, kr, kf, enemy) then return false end
  local escape = false
  board.moves(game, function(m)
    if escape then return end
    local r, f = kr, kf
    if m.from == king then r, f = board.coords(m.to) end
    escape = not board.attacked(game, r, f, enemy, m.from, m.to)
  end)
  return not escape
end

return board
