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

  -- Two seats race for sets (no turns: either may take); the deck's order
  -- is secret to both.
  seats = { "p1", "p2" },
  secrets = function(game, secret) secret(game.deck) end,

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

  -- The table as a scene of nodes, for `rulebench studio`: the deck on the
  -- left, the places four to a row, the taken pile on the right. Card N is
  -- frame N of the atlas art/cards.svg (drawn for this pack from its features).
  view = {
    background = "#f2efe6",
    grid = { columns = 6, rows = 3, cell = 76, gap = 6, x = 8, y = 8 },
    atlases = { cards = { image = "art/cards.svg", width = 40, height = 60, count = 81, columns = 9 } },
    -- The actions' sounds (take: swish, refill: card), synthesized by scripts/make-set-sounds.py.
    sounds = "sounds",
    scene = function(game, add)
      if #game.deck > 0 then
        add{ id = "deck", col = 1, row = 2, w = 46, h = 69, shape = "round", color = "#34495e", stroke = "#1b2631",
             text = tostring(#game.deck), textcolor = "#ffffff", label = #game.deck .. " cards in the deck" }
      end
      for place, card in ipairs(game.table) do
        if card ~= 0 then
          local at = cards.place(place)
          add{ id = "card:" .. card, col = at.col, row = at.row, w = 46, h = 69, shape = "none", layer = 1,
               sprite = { atlas = "cards", frame = card }, aliases = { place }, label = "card " .. card .. " at place " .. place }
        end
      end
      add{ id = "taken", col = 6, row = 2, w = 46, h = 69, shape = "round", color = "#d5d8dc", stroke = "#95a5a6",
           text = game.sets .. " sets", label = #game.taken .. " cards taken" }
    end,
    -- Where a card's `place` values are: "deck", "taken" or "table N".
    places = {
      place = function(game, where)
        if where == "deck" then return { col = 1, row = 2 } end
        if where == "taken" then return { col = 6, row = 2 } end
        local place = math.tointeger(tonumber(tostring(where):match("^table (%d+)$")))
        return place and cards.place(place)
      end,
    },
  },
}
return pack
