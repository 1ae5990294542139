-- The initial state breaks an invariant.
return {
  name = "badinvariant",
  options = { start = 0, limit = 20 },
  setup = function(game, options)
    game.count = options.start
    game.limit = options.limit
  end,
  invariants = { count_is_positive = function(game)
    return game.count > 0, "count must be positive"
  end },
}
