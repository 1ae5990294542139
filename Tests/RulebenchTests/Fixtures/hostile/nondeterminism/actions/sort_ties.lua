-- Sorting 200 cards by suit alone: cards of one suit tie. Lua's quicksort
-- is not stable, and past 128 elements it may take its pivots from the
-- clock; the sandbox breaks ties by the cards' places before the sort.
return {
  apply = function(game)
    local cards = {}
    for i = 1, 200 do cards[i] = { suit = (i * 7) % 4, id = i } end
    table.sort(cards, function(a, b) return a.suit < b.suit end)
    local ids = {}
    for i, card in ipairs(cards) do ids[i] = card.id end
    game.vars.sorted = table.concat(ids, ",")
    game.counter = game.counter + 1
  end,
}
