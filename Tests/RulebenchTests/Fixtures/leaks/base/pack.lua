-- The leak-free base of the planted-leak packs (SeatTests): two seats take
-- turns drawing from a face-down deck into hands only their owner sees.
-- Each pack beside it extends this one and leaks a secret one way.
return {
  name = "leakbase",
  seats = { "p1", "p2" },
  turn = function(game) return game.current, "it is " .. game.current .. "'s turn" end,
  secrets = function(game, secret)
    secret(game.deck)
    for name, hand in pairs(game.hands) do secret(hand, nil, name) end
  end,
  setup = function(game)
    game.deck = { "a1", "b2", "c3", "d4", "e5", "f6" }
    require("rulebench").shuffle(game, game.deck)
    game.hands = { p1 = {}, p2 = {} }
    game.current = "p1"
  end,
  view = {
    scene = function(game, add)
      add{ id = "deck", x = 20, y = 20, text = #game.deck .. " cards" }
      for row, name in ipairs({ "p1", "p2" }) do
        for i, card in ipairs(game.hands[name]) do
          add{ id = "card:" .. card, x = 20 + 40 * i, y = 60 * row, text = card }
        end
      end
    end,
  },
}
