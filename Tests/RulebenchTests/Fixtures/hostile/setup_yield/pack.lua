-- Hostile corpus: setup yields.
return {
  name = "setup_yield",
  setup = function(game)
    game.counter = 0
    game.more = coroutine.yield() --!
  end,
}
