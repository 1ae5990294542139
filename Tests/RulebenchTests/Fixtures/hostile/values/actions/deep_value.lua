-- A chain 200 tables deep.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local v = {}
    for _ = 1, 200 do v = { v } end
    game.vars.chain = v --!
  end,
}
