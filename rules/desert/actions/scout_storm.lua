-- scout_storm: the meteorologist looks at the top storm cards and may put
-- one of them at the bottom of the deck (one action).
--
-- Rules (choices where the printed rules are open are marked *):
--   * Looks at as many cards as the storm meter shows (fewer if the deck is
--     shorter). The cards seen are shown by a `show_storm_cards` cue.
--   * `bottom` (optional) is the position 1..n among the cards seen of the
--     one to put at the bottom; without it the deck is unchanged.
--   * The deck must not be empty.
local D = require "desert"

local function seen(game)
  return math.min(D.storm_cards(game), #game.storm_deck)
end

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  why = D.role_check(game, a.player, "meteorologist")
  if why then return why end
  if #game.storm_deck == 0 then return "the storm deck is empty" end
  local n = seen(game)
  if a.bottom ~= nil and (a.bottom < 1 or a.bottom > n) then return "bottom must be 1.." .. n end
end

---@type rulebench.Action
local action = {
  description = "Meteorologist: look at the top storm cards; may put one at the bottom.",
  params = { player = "string", bottom = "integer?" },

  legal = function(game, emit)
    if D.over(game) then return end
    local name = game.turn.player
    local candidates = { { player = name } }
    for i = 1, seen(game) do candidates[#candidates + 1] = { player = name, bottom = i } end
    D.emit_checked(game, emit, check, candidates)
  end,

  check = check,

  apply = function(game, a)
    D.spend(game, a)
    a.cards = {}
    for i = 1, seen(game) do a.cards[i] = game.storm_deck[i] end
    if a.bottom then
      a.card = table.remove(game.storm_deck, a.bottom)
      table.insert(game.storm_deck, a.card)
    end
    -- What the scout showed the meteorologist's seat alone (pack.lua's secrets).
    a.scouted = game.scouted
    game.scouted = { player = a.player, top = a.bottom and #a.cards - 1 or #a.cards, bottom = a.bottom ~= nil }
  end,

  undo = function(game, a)
    game.scouted = a.scouted
    if a.bottom then
      table.remove(game.storm_deck)
      table.insert(game.storm_deck, a.bottom, a.card)
    end
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local steps = { anim.cue { name = "show_storm_cards", args = { player = a.player, cards = a.cards } } }
    if a.card then
      steps[#steps + 1] = anim.tween { target = "storm_card:" .. a.bottom, property = "deck_position",
                                       from = a.bottom, to = #game.storm_deck, duration = 0.4, easing = "easeInOut" }
    end
    return anim.parallel { D.spend_plan(anim, a), anim.sequence(steps) }
  end,
  sound = "rustle",
}
return action
