-- Reading the environment (a secret, or a source of nondeterminism).
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.home = os.getenv("HOME") --!
  end,
}
