return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.mode = collectgarbage("generational") --!
  end,
}
