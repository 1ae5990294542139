-- A module that yields while it loads, required inside a coroutine that is
-- never resumed: the load could never finish (and the globals would stay
-- open), so the yield is an error at its line.
return {
  apply = function(game)
    game.counter = game.counter + 1
    coroutine.wrap(function() require("yielder") end)() --!
  end,
}
