-- Planted leak: the view shows a hash of the whole state, secrets included.
local function seal(game)
  local h = 0
  for i, card in ipairs(game.deck) do h = (h * 31 + card:byte(1) * i + card:byte(2)) % 1000003 end
  return h
end
return {
  name = "full-hash-view",
  extends = "base",
  view = {
    scene = function(game, add)
      add{ id = "seal", x = 20, y = 20, text = "state " .. seal(game) }
    end,
  },
}
