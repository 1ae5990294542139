-- Hostile corpus: setup never ends.
return {
  name = "setup_loop",
  setup = function(game)
    game.counter = 0
    while true do game.counter = game.counter + 1 end --!
  end,
}
