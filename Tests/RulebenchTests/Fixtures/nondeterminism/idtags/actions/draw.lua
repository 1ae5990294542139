local Card = { kind = "card" }        -- a module-level prototype, numbered once it is asked
return {
  legal = function(game, emit)
    local probe = tostring({})        -- a scratch number: forgotten after legal
    if #game.log < 6 and probe ~= "" then emit({}) end
  end,
  apply = function(game)
    local card = setmetatable({}, { __index = Card })
    local id = tostring(card)
    game.cards[id] = #game.log + 1
    game.log[#game.log + 1] = id .. " of " .. tostring(Card) .. " via " .. ("%s"):format(print)
  end,
}
