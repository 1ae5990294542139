-- Another pack, whose undo is wrong: its corpus findings must not be
-- reported when another pack is fuzzed.
return {
  name = "broken",
  setup = function(game) game.n = 0 end,
}
