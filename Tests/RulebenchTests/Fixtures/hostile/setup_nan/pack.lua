-- Hostile corpus: setup stores a NaN read from the options.
return {
  name = "setup_nan",
  options = { ratio = 0 },
  setup = function(game, options)
    game.ratio = options.ratio / 0 --!
  end,
}
