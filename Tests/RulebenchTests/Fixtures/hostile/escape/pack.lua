-- Hostile corpus: ways out of the sandbox. Each action is one case; the
-- line a case is expected to fail on is marked with "--!".
return {
  name = "escape",
  version = "1.0",
  setup = function(game) game.counter = 0; game.vars = { x = 1 } end,
}
