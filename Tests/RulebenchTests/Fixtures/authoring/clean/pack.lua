-- A clean pack: check reports nothing.
return {
  name = "clean",
  options = { start = 0, limit = 20 },
  setup = function(game, options)
    game.count = options.start
    game.limit = options.limit
  end,
  invariants = {
    count_within_limit = function(game)
      return game.count <= game.limit, "count " .. game.count .. " is over the limit"
    end,
  },
  render = function(game) return "count " .. game.count .. " of " .. game.limit end,
}
