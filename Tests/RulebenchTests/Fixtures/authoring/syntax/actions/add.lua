-- add, with a typo on line 4.
return {
  params = { n = "integer" },
  apply = function(game, a) game.count = game.count + end,
}
