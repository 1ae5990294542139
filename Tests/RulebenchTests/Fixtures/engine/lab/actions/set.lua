-- No declared undo: the engine undoes it from its journal.
return {
  params = { key = "string", value = "any" },
  apply = function(game, a) game.vars[a.key] = a.value end,
}
