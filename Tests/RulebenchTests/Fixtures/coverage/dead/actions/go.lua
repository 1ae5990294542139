-- go: always legal; counts up.
return {
  legal = function(game, emit)
    if game.count < 50 then emit{} end
  end,
  apply = function(game)
    game.count = game.count + 1
  end,
}
