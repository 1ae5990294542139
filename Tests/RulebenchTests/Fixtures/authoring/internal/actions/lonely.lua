-- lonely (internal): nothing queues it, its legal is never called, and as a
-- checkpoint it would never stop `undo turn`.
return {
  internal = true,
  legal = function(game, emit) emit{} end,
  checkpoint = true,
  apply = function(game) game.count = game.count + 1 end,
}
