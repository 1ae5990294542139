-- A sound name that is not UTF-8 text.
return {
  apply = function(game) game.counter = game.counter + 1 end,
  sound = function(game, a, direction) --!
    return "boom\xff"
  end,
}
