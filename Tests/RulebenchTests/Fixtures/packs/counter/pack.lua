-- A fixture pack for scenario tests: a counter, with actions that misbehave on purpose.
return {
  name = "counter",
  version = "1.0",
  options = { start = 0, explode = false },
  setup = function(game, options)
    if options.explode then error("setup exploded on purpose") end
    game.count = options.start
    game.log = {}
    game.turn = 0
  end,
  invariants = {
    count_is_not_negative = function(game)
      return game.count >= 0, "the count went negative: " .. tostring(game.count)
    end,
  },
}
