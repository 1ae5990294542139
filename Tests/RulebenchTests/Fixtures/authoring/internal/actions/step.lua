-- step (internal): runs only as a subaction.
return {
  internal = true,
  apply = function(game) game.count = game.count + 1 end,
}
