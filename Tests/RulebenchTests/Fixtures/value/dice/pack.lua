-- dice: two seats take turns rolling a die (rulebench.random); after two
-- rolls the higher wins. A game of chance: `solve --value` refuses it.
return {
  name = "dice",
  version = "1",
  seats = { "a", "b" },
  turn = function(game) if #game.rolls < 2 then return game.rolls[1] and "b" or "a" end end,
  setup = function(game) game.rolls = {} end,
  result = function(game)
    if #game.rolls < 2 then return nil end
    if game.rolls[1] == game.rolls[2] then return "draw" end
    return game.rolls[1] > game.rolls[2] and "a" or "b"
  end,
}
