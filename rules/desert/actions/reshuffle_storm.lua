-- reshuffle_storm (internal): the storm deck ran out; the discards are
-- shuffled (with the engine's generator) into a new deck (part of end_turn).
-- It has no undo of its own: the engine's journal restores both piles and
-- the generator exactly.
local D = require "desert"
local rulebench = require "rulebench"

---@type rulebench.Action
local action = {
  description = "Internal: shuffle the storm discards into a new deck.",
  internal = true,
  params = {},

  apply = function(game, a)
    if game.result then return end
    a.count = #game.storm_discard
    while #game.storm_discard > 0 do
      table.insert(game.storm_deck, table.remove(game.storm_discard))
    end
    rulebench.shuffle(game, game.storm_deck)
    game.scouted = nil   -- a scout's knowledge of the order is gone
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.count then return nil end
    return anim.sequence {
      anim.cue { name = "shuffle", args = { deck = "storm", cards = a.count } },
      anim.wait(0.5),
    }
  end,
  sound = function(game, a, direction)
    if a.count then return "shuffle" end
  end,
}
return action
