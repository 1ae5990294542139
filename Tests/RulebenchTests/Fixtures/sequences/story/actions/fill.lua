-- fill: rain fills the well again (a choice of sequence `dry`).
return {
  check = function(game, a) if game.water > 0 then return "the well is not dry" end end,
  apply = function(game, a) game.water = 2 end,
  undo = function(game, a) game.water = 0 end,
}
