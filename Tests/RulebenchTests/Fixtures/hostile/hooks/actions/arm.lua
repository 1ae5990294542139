-- Sets the mode that makes a pack-level hook misbehave.
return {
  params = { mode = "string" },
  apply = function(game, a) game.mode = a.mode end,
}
