-- go: always legal; counts up (a long run of it makes a long history).
return {
  legal = function(game, emit)
    emit{}
  end,
  apply = function(game)
    game.count = game.count + 1
  end,
}
