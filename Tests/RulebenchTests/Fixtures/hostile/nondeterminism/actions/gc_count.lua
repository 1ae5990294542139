-- The heap's size differs from run to run.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.kb = collectgarbage("count") --!
  end,
}
