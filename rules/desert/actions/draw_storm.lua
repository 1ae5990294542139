-- draw_storm (internal): the top storm card is drawn, goes to the discard
-- pile, and its effect follows as subactions (part of end_turn):
--   wind_<direction>_<strength>  the storm moves that many steps in that
--        direction; each step is a `slide` (the tile on that side slides into
--        the storm) followed by `add_sand` on the tile that moved. Steps that
--        would leave the board are lost (the storm stops at the edge);
--   sun_beats_down   `sun_beats_down`;
--   storm_picks_up   `storm_picks_up`.
-- Once the game is lost, it does nothing.
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: draw a storm card and resolve it.",
  internal = true,
  params = {},

  check = function(game, a)
    if not game.result and #game.storm_deck == 0 then return "the storm deck is empty" end
  end,

  apply = function(game, a, act)
    if game.result then return end
    a.card = table.remove(game.storm_deck, 1)
    table.insert(game.storm_discard, a.card)
    local scouted = game.scouted
    if scouted and scouted.top > 0 then scouted.top = scouted.top - 1; a.scouted = true end
    local dir, strength = D.wind(a.card)
    if dir then
      local storm = game.storm
      a.steps = 0
      for _ = 1, strength do
        local from = D.toward(storm, dir)
        if not from then break end
        act:sub("slide", { direction = dir })
        act:sub("add_sand", { cell = storm })
        a.steps = a.steps + 1
        storm = from
      end
    elseif a.card == "sun_beats_down" then
      act:sub("sun_beats_down", {})
    elseif a.card == "storm_picks_up" then
      act:sub("storm_picks_up", {})
    end
  end,

  undo = function(game, a)
    if a.scouted then game.scouted.top = game.scouted.top + 1 end
    if a.card then
      table.remove(game.storm_discard)
      table.insert(game.storm_deck, 1, a.card)
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.card then return nil end
    return anim.sequence {
      anim.cue { name = "storm_card", args = { card = a.card } },
      anim.wait(0.3),
    }
  end,
  sound = function(game, a, direction)
    if not a.card then return nil end
    if D.wind(a.card) then return "wind" end
    if a.card == "sun_beats_down" then return "heat" end
    return "thunder"
  end,
  subanimations = "sequence",
}
return action
