-- trap: the top piece to a square, written as if assigning copied it.
return {
  params = { sq = "string" },
  apply = function(game, a)
    local pile = game.pile
    game.board[a.sq] = pile[#pile]   -- moves the table: pile[#pile] is nil now
    pile[#pile] = nil                -- so this deletes the piece below it
  end,
}
