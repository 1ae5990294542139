-- The deck: 12 cards, three suits of values 1 to 4.
local deck = { size = 12 }
local SUITS = { "sun", "moon", "star" }

function deck.new()
  local cards = {}
  for _, suit in ipairs(SUITS) do
    for value = 1, 4 do
      cards[#cards + 1] = { id = suit .. value, suit = suit, value = value }
    end
  end
  return cards
end

-- The player after `name` in turn order.
function deck.next_player(game, name)
  for i, n in ipairs(game.order) do
    if n == name then return game.order[i % #game.order + 1] end
  end
end

return deck
