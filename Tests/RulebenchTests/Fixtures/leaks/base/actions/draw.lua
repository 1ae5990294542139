-- draw: the current player takes the top card of the deck into its hand.
return {
  params = { player = "string" },
  legal = function(game, emit) if #game.deck > 0 then emit{ player = game.current } end end,
  check = function(game, a) if #game.deck == 0 then return "the deck is empty" end end,
  apply = function(game, a) table.insert(game.hands[a.player], table.remove(game.deck)) end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local hand = game.hands[a.player]
    return anim.tween{ target = "card:" .. hand[#hand], property = "place", from = "deck", to = a.player, duration = 0.2 }
  end,
}
