-- Stopping the collector would let garbage pile up past the engine's reach.
return {
  apply = function(game)
    game.counter = game.counter + 1
    collectgarbage("stop") --!
  end,
}
