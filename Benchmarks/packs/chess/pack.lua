-- chess: a chess-like pack for benchmarking read-heavy move generation
-- (`rulebench explore` as perft, and the plain-Lua perft of
-- Benchmarks/RulebenchBench/Perft.swift over the same files). Finding the
-- legal moves scans the whole board, follows rays and probes jumps, so the
-- engine's cost of reading state dominates; each move writes only a few
-- slots. Moves are pseudo-legal: no check, checkmate or castling. Pawns
-- push once or twice, capture diagonally and en passant, and become queens
-- on the last rank. The goal `mated` (board.mated) is mate for such moves:
-- the side to move is attacked and every move leaves its king attacked;
-- `rulebench solve` finds fool's mate, 4 plies from the start.
local board = require "board"

local BACK = { "rook", "knight", "bishop", "queen", "king", "bishop", "knight", "rook" }

return {
  name = "chess",
  version = "1.0",
  description = "Pseudo-legal chess moves on an 8x8 board, for perft benchmarks.",
  options = {},

  setup = function(game, options)
    -- game.board[rank][file] holds a piece {kind, side}; an empty square is absent
    game.board = {}
    for rank = 1, 8 do game.board[rank] = {} end
    for file = 1, 8 do
      game.board[1][file] = { kind = BACK[file], side = "white" }
      game.board[2][file] = { kind = "pawn", side = "white" }
      game.board[7][file] = { kind = "pawn", side = "black" }
      game.board[8][file] = { kind = BACK[file], side = "black" }
    end
    game.taken = {}      -- captured pieces, in the order they were taken
    game.side = "white"  -- the side to move
    game.ep = false      -- the square a pawn just skipped (en passant target), or false
    game.moves = 0       -- half-moves played
  end,

  invariants = {
    -- a capture moves the piece table to game.taken, so none is ever lost
    thirty_two_pieces = function(game)
      local count = #game.taken
      for rank = 1, 8 do
        for file = 1, 8 do
          if game.board[rank][file] then count = count + 1 end
        end
      end
      if count ~= 32 then return false, count .. " pieces instead of 32" end
      return true
    end,
  },

  goals = {
    -- the side to move is mated (`rulebench solve` finds fool's mate in 4 plies)
    mated = function(game) return board.mated(game) end,
  },

  render = function(game)
    local lines = {}
    for rank = 8, 1, -1 do
      local row = {}
      for file = 1, 8 do row[file] = board.letter(game.board[rank][file]) end
      lines[#lines + 1] = rank .. " " .. table.concat(row, " ")
    end
    lines[#lines + 1] = "  a b c d e f g h   " .. game.side .. " to move, move " .. game.moves
    return table.concat(lines, "\n")
  end,
}
