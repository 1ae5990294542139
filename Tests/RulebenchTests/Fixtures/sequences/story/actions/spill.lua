-- spill: kicks the bucket over (the `bucket` slot goes), once the well is dry.
return {
  legal = function(game, emit) if game.water == 0 and game.bucket then emit{} end end,
  check = function(game, a) if not game.bucket then return "no bucket" end end,
  apply = function(game, a) a.was = game.bucket; game.bucket = nil end,
  undo = function(game, a) game.bucket = a.was end,
}
