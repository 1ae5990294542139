-- A module that runs out of the budget while it loads: the load is closed
-- when the action is rolled back (not loaded, globals frozen again).
return {
  apply = function(game)
    game.counter = game.counter + 1
    require("spinner")
  end,
}
