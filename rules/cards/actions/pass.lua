-- pass (internal): the turn goes to the next player. `play` queues it, so
-- `play` is the checkpoint where "undo turn" stops.
local deck = require "deck"
---@type rulebench.Action
local action = {
  internal = true,   -- runs only as a subaction of play
  description = "End the current player's turn.",
  apply = function(game, a)
    a.from = game.current
    game.current = deck.next_player(game, game.current)
    game.turn = game.turn + 1
  end,
  undo = function(game, a)
    game.current = a.from
    game.turn = game.turn - 1
  end,
}
return action
