-- hum: a note, one of eight; harmless.
return {
  params = { n = "integer" },
  legal = function(game, emit) for n = 1, 8 do emit{ n = n } end end,
  apply = function(game, a)
    a.was = game.hum
    game.hum = a.n
  end,
  undo = function(game, a) game.hum = a.was end,
}
