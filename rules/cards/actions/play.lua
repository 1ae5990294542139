-- play: the current player plays a card from hand onto the pile. It scores
-- its value when it matches the suit of the pile's top card.
---@type rulebench.Action
local action = {
  params = { card = "integer" },
  description = "Play the card at position `card` of the current player's hand.",
  checkpoint = true,   -- it ends the turn (its last subaction is pass): "undo turn" stops here
  legal = function(game, emit)
    if game.dealt == 0 then return end
    for i = 1, #game.hands[game.current] do emit{ card = i } end
  end,
  check = function(game, a)
    if game.dealt == 0 then return "deal first" end
    local hand = game.hands[game.current]
    if a.card < 1 or a.card > #hand then return "no card " .. a.card .. " in hand" end
  end,
  apply = function(game, a, act)
    a.player = game.current
    a.card_table = table.remove(game.hands[a.player], a.card)
    local top = game.pile[#game.pile]
    a.scores = top ~= nil and top.suit == a.card_table.suit
    if a.scores then
      game.scores[a.player] = game.scores[a.player] + a.card_table.value
      a.card_table.scored = true
    end
    table.insert(game.pile, a.card_table)
    a.pileplace = #game.pile   -- where it lands, for the animation
    if #game.deck > 0 then act:sub("draw", { player = a.player }) end
    act:sub("pass", {})
  end,
  undo = function(game, a)
    table.remove(game.pile)
    if a.scores then
      a.card_table.scored = nil
      game.scores[a.player] = game.scores[a.player] - a.card_table.value
    end
    table.insert(game.hands[a.player], a.card, a.card_table)
  end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end   -- the engine plays the do plan backwards
    local flight = anim.tween{ target = "card:" .. a.card_table.id, property = "position",
                               from = { 2, a.card }, to = { 3, a.pileplace }, duration = 0.3, easing = "easeInOut" }
    return flight
  end,
  subanimations = "sequence",
  sound = function(game, a) return a.scores and "score" or "card" end,
}
return action
