-- check answers a table instead of nil or a reason string.
return {
  check = function(game) return { reason = "no" } end, --!
  apply = function(game) game.counter = game.counter + 1 end,
}
