-- capture: a subaction of `move` (no legal moves of its own). The piece on
-- `victim` goes to game.taken and the piece on `from` goes to `to`; the two
-- squares differ only for en passant. Its undo puts back the same tables.
local board = require "board"

local function piece(game, square)
  local rank, file = board.coords(square)
  return game.board[rank][file]
end

return {
  params = { from = "integer", to = "integer", victim = "integer" },
  description = "Take the piece on `victim` and move the piece on `from` to `to`.",

  -- `move` checked the move itself; this only keeps a direct call from
  -- breaking the board (it runs after `move` changed the side to move)
  check = function(game, a)
    for _, square in ipairs{ a.from, a.to, a.victim } do
      if square < 1 or square > 64 then return "no square " .. square end
    end
    local mover, taken = piece(game, a.from), piece(game, a.victim)
    if not mover then return "no piece on square " .. a.from end
    if not taken or taken.side == mover.side then return "nothing to take on square " .. a.victim end
    if a.to ~= a.victim and piece(game, a.to) then return "square " .. a.to .. " is occupied" end
  end,

  apply = function(game, a)
    local fr, ff = board.coords(a.from)
    local tr, tf = board.coords(a.to)
    local vr, vf = board.coords(a.victim)
    -- each assignment moves the table in the engine; the nils are for plain Lua
    table.insert(game.taken, game.board[vr][vf])
    game.board[vr][vf] = nil
    game.board[tr][tf] = game.board[fr][ff]
    game.board[fr][ff] = nil
  end,

  undo = function(game, a)
    local fr, ff = board.coords(a.from)
    local tr, tf = board.coords(a.to)
    local vr, vf = board.coords(a.victim)
    game.board[fr][ff] = game.board[tr][tf]
    game.board[tr][tf] = nil
    game.board[vr][vf] = table.remove(game.taken)
  end,
}
