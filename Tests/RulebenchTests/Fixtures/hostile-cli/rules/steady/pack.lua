-- A sound pack whose games end after three actions: two choices at each of
-- three levels, so every walk is finite (2, 4, 8 sequences, then none).
return {
  name = "steady",
  setup = function(game) game.steps = 0 end,
}
