-- One string larger than the cap, asked for at once.
return {
  apply = function(game)
    game.counter = game.counter + 1
    return ("w"):rep(1 << 30) --!
  end,
}
