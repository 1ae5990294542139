-- end_turn: the current player ends their turn and the storm strikes. A
-- checkpoint: "undo turn" stops before it.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Allowed at any time of the player's turn, with actions left or not.
--   * The number of storm cards is read from the meter when the turn ends,
--     minus the meteorologist's calm_storm actions this turn (never below 0).
--     A "storm picks up" drawn meanwhile raises the meter for later turns only.
--   * When the deck runs out in the middle of the draw, the discards are
--     shuffled into a new deck (`reshuffle_storm`) before the next card.
--   * Once the game is lost, the remaining draws do nothing.
-- Made of subactions, played in sequence: `draw_storm` per card (each with
-- its own effect subactions), `reshuffle_storm` when needed, then `next_turn`.
local D = require "desert"

local function check(game, a)
  return D.turn_check(game, a.player, 0)
end

---@type rulebench.Action
local action = {
  description = "End the turn: draw storm cards, then the next player plays.",
  params = { player = "string" },
  checkpoint = true,

  legal = function(game, emit)
    if D.over(game) then return end
    emit { player = game.turn.player }
  end,

  check = check,

  apply = function(game, a, act)
    a.count = math.max(0, D.storm_cards(game) - game.turn.calm)
    local left = #game.storm_deck
    local total = left + #game.storm_discard
    for _ = 1, a.count do
      if left == 0 then
        act:sub("reshuffle_storm", {})
        left = total
      end
      act:sub("draw_storm", {})
      left = left - 1
    end
    act:sub("next_turn", {})
  end,

  undo = function(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.cue { name = "storm_phase", args = { player = a.player, cards = a.count } }
  end,
  sound = "storm_rises",
  subanimations = "sequence",
}
return action
