-- Hostile corpus: values the state cannot hold, and writes where none are
-- allowed. Each action is one case; "--!" marks the line it fails on.
return {
  name = "values",
  version = "1.0",
  setup = function(game) game.counter = 0; game.vars = { x = 1 } end,
}
