-- Hostile corpus: setup fails half way.
return {
  name = "setup_error",
  setup = function(game)
    game.counter = 0
    error("setup broke") --!
  end,
}
