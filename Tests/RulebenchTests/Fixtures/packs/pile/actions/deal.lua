-- deal: the top piece to a square; one assignment moves it.
return {
  params = { sq = "string" },
  apply = function(game, a)
    local pile = game.pile
    game.board[a.sq] = pile[#pile]   -- the pile is one shorter after this line
  end,
}
