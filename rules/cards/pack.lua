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
}
return pack
