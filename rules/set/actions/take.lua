-- take: three cards on the table that form a set fly to the taken pile
-- together; then the deck refills their places, one card after another.
local cards = require "cards"

---@type rulebench.Action
local action = {
  params = { a = "integer", b = "integer", c = "integer" },   -- three places, a < b < c
  description = "Take three cards that form a set; the deck refills their places.",

  legal = function(game, emit)
    local places = game.table
    for a = 1, #places - 2 do
      for b = a + 1, #places - 1 do
        for c = b + 1, #places do
          local x, y, z = places[a], places[b], places[c]
          if x ~= 0 and y ~= 0 and z ~= 0 and cards.isset(x, y, z) then emit{ a = a, b = b, c = c } end
        end
      end
    end
  end,

  check = function(game, a)
    if not (1 <= a.a and a.a < a.b and a.b < a.c and a.c <= #game.table) then
      return "give three places in increasing order"
    end
    local x, y, z = game.table[a.a], game.table[a.b], game.table[a.c]
    if x == 0 or y == 0 or z == 0 then return "a place is empty" end
    if not cards.isset(x, y, z) then return "not a set" end
  end,

  apply = function(game, a, act)
    a.cards = {}
    for i, place in ipairs{ a.a, a.b, a.c } do
      a.cards[i] = game.table[place]
      table.insert(game.taken, a.cards[i])
      game.table[place] = 0
      -- Refills start 0.1 s after the taken cards have left, 0.05 s apart.
      if #game.deck >= i then act:sub("refill", { place = place }, { delay = 0.1 }) end
    end
    game.sets = game.sets + 1
  end,

  -- On undo nothing is returned: the engine plays this plan backwards,
  -- mirrored in time (refills leave first, then the three cards come back).
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local flights = {}
    for i, place in ipairs{ a.a, a.b, a.c } do
      flights[i] = anim.tween{ target = "card:" .. a.cards[i], property = "place", from = "table " .. place,
                               to = "taken", duration = 0.4, easing = "easeIn" }
    end
    return anim.parallel(flights)
  end,

  subanimations = "stagger",   -- own plan first, then the refills
  stagger = 0.05,              -- seconds between two refills' starts
  sound = "swish",
}
return action
