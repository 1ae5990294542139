-- dead: a pack with an action that is never legal, for the coverage report.
return {
  name = "dead",
  version = "1",
  setup = function(game)
    game.count = 0
  end,
}
