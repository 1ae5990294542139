-- Hostile corpus: work without end. Each action is one case; the line a
-- case is expected to fail on is marked with "--!".
return {
  name = "runaway",
  version = "1.0",
  setup = function(game) game.counter = 0 end,
}
