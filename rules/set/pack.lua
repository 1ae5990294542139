-- set: the card game SET, kept small. Twelve of its 81 cards lie on the
-- table; taking three that form a set (each feature all the same or all
-- different) puts them on the taken pile, and the deck refills their
-- places. It shows the animation plans card games need: the opening deal
-- staggered (`opening`), three taken cards flying together and the refill
-- following them one after another (take.lua), and undo playing all of it
-- backwards, mirrored in time.
local cards = require "cards"

---@type rulebench.Pack
local pack = {
  name = "set",
  version = "1.0",
  description = "Take three cards that form a set; the deck refills the table.",
  options = { table = 12 },

  setup = function(game, options)
    game.deck = cards.deck()
    require("rulebench").shuffle(game, game.deck)
    game.table = {}          -- card numbers by place; 0 is an empty place
    for place = 1, options.table do game.table[place] = table.remove(game.deck) end
    game.taken = {}
    game.sets = 0
  end,

  -- The opening deal: each card leaves the deck 0.05 s after the one before.
  opening = function(anim, game)
    ---@type rulebench.StaggerSpec
    local flights = { interval = 0.05 }
    for place, card in ipairs(game.table) do
      flights[place] = anim.tween{ target = "card:" .. card, property = "place", from = "deck",
                                   to = "table " .. place, duration = 0.3, easing = "easeOut" }
    end
    return anim.stagger(flights)
  end,

  invariants = {
    every_card_is_somewhere_once = function(game)
      local seen, count = {}, 0
      local function note(card)
        if card == 0 then return true end
        if seen[card] then return false end
        seen[card], count = true, count + 1
        return true
      end
      for _, list in ipairs{ game.deck, game.table, game.taken } do
        for _, card in ipairs(list) do
          if not note(card) then return false, "card " .. card .. " is in two places" end
        end
      end
      if count ~= cards.size then return false, count .. " cards instead of " .. cards.size end
      return true
    end,
  },

  render = function(game)
    local places = {}
    for place, card in ipairs(game.table) do places[place] = place .. ":" .. (card == 0 and "-" or card) end
    return "deck " .. #game.deck .. "  taken " .. #game.taken .. "  sets " .. game.sets .. "\n" .. table.concat(places, " ")
  end,
}
return pack
