-- Deals the whole deck, one card every 1/8 s; each card flies for 1/8 s.
return {
  apply = function(game, a)
    for i = 1, #game.deck do game.hand[i] = game.deck[i] end
    for i = #game.deck, 1, -1 do game.deck[i] = nil end
  end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end   -- undo gathers them back, last card first
    local flights = { interval = 0.125 }
    for i = 1, #game.hand do
      flights[i] = anim.tween{ target = "card:" .. i, property = "position",
                               from = { 0, 0 }, to = { i, 4 }, duration = 0.125, easing = "easeInOut" }
    end
    local plan = anim.stagger(flights)
    return plan
  end,
  sound = "shuffle",
}
