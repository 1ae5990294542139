-- helper: has no legal and runs only as a subaction, but is not marked internal.
return {
  apply = function(game) game.count = game.count + 1 end,
}
