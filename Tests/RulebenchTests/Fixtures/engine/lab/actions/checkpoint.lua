return {
  checkpoint = true,
  apply = function(game) game.turns = (game.turns or 0) + 1 end,
}
