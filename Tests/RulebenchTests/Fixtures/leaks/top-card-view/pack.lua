-- Planted leak: the view shows the face-down deck's top card.
return {
  name = "top-card-view",
  extends = "base",
  view = {
    scene = function(game, add)
      add{ id = "deck", x = 20, y = 20, text = "next: " .. (game.deck[#game.deck] or "none") }
    end,
  },
}
