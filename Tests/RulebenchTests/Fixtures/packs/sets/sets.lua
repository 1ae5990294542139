-- Helpers of the sets pack: the deck and the set rule.
local M = {}

local COLOURS = { "r", "g", "b" }

-- The deck in a fixed order: by colour, then by number.
function M.deck(colours)
  local deck = {}
  for c = 1, colours do
    for n = 1, 3 do deck[#deck + 1] = { id = n .. COLOURS[c], n = n, c = COLOURS[c] } end
  end
  return deck
end

local function agree(x, y, z) return (x == y and y == z) or (x ~= y and y ~= z and x ~= z) end

function M.isset(a, b, c)
  return agree(a.n, b.n, c.n) and agree(a.c, b.c, c.c)
end

-- Every set on the table, as { a, b, c } card ids in table order.
function M.sets(game)
  local out, t = {}, game.table
  for i = 1, #t do
    for j = i + 1, #t do
      for k = j + 1, #t do
        if M.isset(t[i], t[j], t[k]) then out[#out + 1] = { a = t[i].id, b = t[j].id, c = t[k].id } end
      end
    end
  end
  return out
end

-- The table position of a card id, or nil.
function M.find(game, id)
  for i, card in ipairs(game.table) do
    if card.id == id then return i end
  end
end

return M
