-- The 81 cards of SET as numbers 1..81: the four features (count, colour,
-- shading, shape) are the base-3 digits of the number minus one.
local M = { size = 81 }

-- The four features of a card, each 0, 1 or 2.
function M.features(card)
  local n, out = card - 1, {}
  for i = 1, 4 do
    out[i] = n % 3
    n = n // 3
  end
  return out
end

-- Every card's features, computed once: `legal` tries 220 triples.
local FEATURES = {}
for card = 1, M.size do FEATURES[card] = M.features(card) end

-- Three cards form a set when every feature is all the same or all different:
-- then the three values of each feature add up to a multiple of 3.
function M.isset(x, y, z)
  local a, b, c = FEATURES[x], FEATURES[y], FEATURES[z]
  for i = 1, 4 do
    if (a[i] + b[i] + c[i]) % 3 ~= 0 then return false end
  end
  return true
end

-- Where place N of the table is on the view's grid: four to a row, from column 2.
function M.place(n)
  return { col = 2 + (n - 1) % 4, row = 1 + (n - 1) // 4 }
end

function M.deck()
  local deck = {}
  for card = 1, M.size do deck[card] = card end
  return deck
end

return M
