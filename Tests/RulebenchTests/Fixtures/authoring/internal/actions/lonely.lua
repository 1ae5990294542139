-- lonely (internal): nothing queues it, and its legal is never called.
return {
  internal = true,
  legal = function(game, emit) emit{} end,
  apply = function(game) game.count = game.count + 1 end,
}
