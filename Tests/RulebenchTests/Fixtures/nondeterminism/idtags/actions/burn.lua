-- Takes the last card back out; its own undo numbers a table too.
return {
  legal = function(game, emit) if #game.log > 0 then emit({}) end end,
  apply = function(game, a)
    local line = game.log[#game.log]
    a.line = line
    a.id = line:match("^(table: #%d+)")
    game.log[#game.log] = nil
    game.cards[a.id] = nil
  end,
  undo = function(game, a)
    local scratch = tostring({})      -- numbered, then forgotten with the undo
    game.cards[a.id] = #game.log + 1
    game.log[#game.log + 1] = a.line
    assert(scratch ~= a.id)
  end,
}
