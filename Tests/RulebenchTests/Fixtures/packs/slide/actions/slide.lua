-- slide: the digit at `from` moves into the blank next to it; a whole turn.
local function blank(game)
  for i = 1, #game.row do if game.row[i] == "0" then return i end end
end

return {
  checkpoint = true,
  params = { from = "integer" },
  legal = function(game, emit)
    local b = blank(game)
    if b > 1 then emit{ from = b - 1 } end
    if b < #game.row then emit{ from = b + 1 } end
  end,
  check = function(game, a)
    if math.abs(a.from - blank(game)) ~= 1 then return "only a digit next to the blank slides" end
  end,
  apply = function(game, a)
    local b = blank(game)
    game.row[b], game.row[a.from] = game.row[a.from], "0"
    game.moves = game.moves + 1
  end,
}
