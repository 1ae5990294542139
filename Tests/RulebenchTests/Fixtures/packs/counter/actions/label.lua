-- label: writes a name and an optional weight (params of several types).
return {
  params = { name = "string", weight = "number?", tags = "table?" },
  apply = function(game, a)
    game.label = a.name
    game.weight = a.weight
  end,
}
