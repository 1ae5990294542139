-- scale: a synthetic pack for the scaling benchmark. Its state holds `size`
-- filler tables that no action touches, beside a small board that every
-- action writes the same amount of. Growing `size` grows the state without
-- growing what an action writes, so any growth in per-step cost is the
-- engine's (or a checker's) doing.
return {
  name = "scale",
  version = "1.0",
  options = { size = 100 },
  setup = function(game, options)
    game.filler = {}
    for i = 1, options.size do
      game.filler[i] = { id = i, name = "item" .. i, weight = i % 7, tags = { "a", "b" } }
    end
    game.board = { 0, 0, 0, 0, 0, 0, 0, 0 }
    game.turn = 0
  end,
}
