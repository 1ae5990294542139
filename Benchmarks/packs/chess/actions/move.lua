-- move: the side to move moves a piece from one square to another (squares
-- are 1..64, see board.lua). A quiet move relocates the piece here; a move
-- that takes a piece (en passant included) queues a `capture` subaction to
-- do the relocating, so perft walks subaction trees too. A pawn reaching
-- the last rank becomes a queen.
local board = require "board"

return {
  params = { from = "integer", to = "integer" },
  description = "Move the piece on `from` to `to`, taking what is there.",

  legal = function(game, emit) board.moves(game, emit) end,

  check = function(game, a) return board.refuse(game, a) end,

  apply = function(game, a, act)
    local fr, ff = board.coords(a.from)
    local tr, tf = board.coords(a.to)
    local piece = game.board[fr][ff]
    local pawn = piece.kind == "pawn"
    -- the piece taken: on the target square, or beside the pawn for en passant
    local victim
    if game.board[tr][tf] then
      victim = a.to
    elseif pawn and ff ~= tf then
      victim = board.square(fr, tf)
    end
    a.ep, a.side = game.ep, game.side
    game.ep = pawn and math.abs(tr - fr) == 2 and board.square((fr + tr) // 2, ff) or false
    game.side = game.side == "white" and "black" or "white"
    game.moves = game.moves + 1
    if pawn and (tr == 1 or tr == 8) then
      piece.kind = "queen"
      a.promoted = true
    end
    if victim then
      a.captures = true
      act:sub("capture", { from = a.from, to = a.to, victim = victim })
    else
      -- assigning moves the table in the engine; the nil is for plain Lua
      game.board[tr][tf] = piece
      game.board[fr][ff] = nil
    end
  end,

  -- runs after the capture's undo, which already put the piece back on `from`
  undo = function(game, a)
    local fr, ff = board.coords(a.from)
    local piece
    if a.captures then
      piece = game.board[fr][ff]
    else
      local tr, tf = board.coords(a.to)
      piece = game.board[tr][tf]
      game.board[fr][ff] = piece
      game.board[tr][tf] = nil
    end
    if a.promoted then piece.kind = "pawn" end
    game.ep, game.side = a.ep, a.side
    game.moves = game.moves - 1
  end,
}
