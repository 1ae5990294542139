-- cards: a small card game that exercises what board games do most —
-- moving tables between lists, shuffling, dealing, scoring, taking turns.
-- Players take turns playing a card from their hand onto the pile; a card
-- that matches the pile's suit scores its value. The game ends when the
-- deck and every hand are empty.
local deck = require "deck"

---@type rulebench.Pack
local pack = {
  name = "cards",
  version = "1.0",
  description = "Deal, draw and play cards: the second small pack beside the template.",
  options = { players = 2, hand = 3 },

  -- Seats: one per player. The current player acts (deal and play name no
  -- player: the seat whose turn it is makes them). The deck is face down
  -- to every seat; a hand is seen by its owner only.
  seats = function(options)
    local seats = {}
    for i = 1, options.players do seats[i] = "p" .. i end
    return seats
  end,
  turn = function(game) return game.current, "it is " .. game.current .. "'s turn" end,
  secrets = function(game, secret)
    secret(game.deck)
    for name, hand in pairs(game.hands) do secret(hand, nil, name) end
  end,

  setup = function(game, options)
    game.deck = deck.new()
    require("rulebench").shuffle(game, game.deck)
    game.pile = {}
    game.hands = {}
    game.scores = {}
    game.order = {}
    for i = 1, options.players do
      local name = "p" .. i
      game.hands[name] = {}
      game.scores[name] = 0
      game.order[i] = name
    end
    game.handsize = options.hand
    game.turn = 1
    game.current = "p1"
    game.dealt = 0
  end,

  invariants = {
    every_card_is_somewhere_once = function(game)
      local seen, count = {}, 0
      local function note(list)
        for _, card in ipairs(list) do
          if seen[card.id] then return false end
          seen[card.id] = true
          count = count + 1
        end
        return true
      end
      if not note(game.deck) or not note(game.pile) then return false, "a card is in two places" end
      for _, hand in pairs(game.hands) do
        if not note(hand) then return false, "a card is in two places" end
      end
      if count ~= deck.size then return false, count .. " cards instead of " .. deck.size end
      return true
    end,
    scores_add_up = function(game)
      local total = 0
      for _, s in pairs(game.scores) do total = total + s end
      local scored = 0
      for _, card in ipairs(game.pile) do if card.scored then scored = scored + card.value end end
      if total ~= scored then return false, "scores total " .. total .. " but scored cards total " .. scored end
      return true
    end,
  },

  render = function(game)
    local lines = { "deck " .. #game.deck .. "  pile " .. #game.pile .. "  turn " .. game.turn .. " (" .. game.current .. ")" }
    for _, name in ipairs(game.order) do
      local cards = {}
      for _, card in ipairs(game.hands[name]) do cards[#cards + 1] = card.id end
      lines[#lines + 1] = name .. " [" .. table.concat(cards, " ") .. "] score " .. game.scores[name]
    end
    return table.concat(lines, "\n")
  end,

  -- The table as a scene of nodes, for `rulebench studio`: the deck face
  -- down, each hand face up on its row, the pile fanned. Cards are frames
  -- of one atlas (art/cards.svg, drawn for this pack), named by card id.
  view = {
    background = "#2e6b4f",
    atlases = {
      cards = { image = "art/cards.svg", width = 48, height = 68, count = 13,
                names = { "back", "sun1", "sun2", "sun3", "sun4", "moon1", "moon2", "moon3", "moon4",
                          "star1", "star2", "star3", "star4" } },
    },
    scene = function(game, add)
      for i, card in ipairs(game.deck) do
        add{ id = "card:" .. card.id, x = 40 + i, y = 50 - i, w = 48, h = 68, sprite = { atlas = "cards", frame = "back" },
             shape = "none", label = "a card of the deck" }
      end
      for i, card in ipairs(game.pile) do
        add{ id = "card:" .. card.id, x = 140 + 10 * i, y = 50, w = 48, h = 68, sprite = { atlas = "cards", frame = card.id },
             shape = "none", label = card.id .. " on the pile" }
      end
      for row, name in ipairs(game.order) do
        local y = 150 + (row - 1) * 90
        add{ id = "player:" .. name, x = 420, y = y, w = 150, h = 40, shape = "round",
             color = name == game.current and "#f7dc6f" or "#d5e8dc", text = name .. " · score " .. game.scores[name] }
        for i, card in ipairs(game.hands[name]) do
          -- `play card=i` names the current player's i-th card.
          add{ id = "card:" .. card.id, x = 40 + (i - 1) * 54, y = y, w = 48, h = 68, layer = 1,
               aliases = name == game.current and { i } or nil,
               sprite = { atlas = "cards", frame = card.id }, shape = "none", label = card.id }   -- its owner's alone: redacted for the other seats
        end
      end
      add{ id = "turn", x = 420, y = 50, w = 150, h = 30, shape = "none", textcolor = "#ffffff",
           text = "turn " .. game.turn .. " · " .. game.current .. " to play" }
    end,
    -- A card's `position` tweens move it from where it was to where it lands.
    places = { position = true },
  },
}
return pack
