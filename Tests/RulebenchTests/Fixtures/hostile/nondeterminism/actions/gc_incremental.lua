-- Switching the collector's mode would change when it runs.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.mode = collectgarbage("incremental") --!
  end,
}
