-- Two chains of tables, each within the limit, then one moved under the
-- other's deepest table: together past the limit.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local function chain(name)
      game.vars[name] = {}
      local t = game.vars[name]
      for _ = 1, 60 do t.next = {}; t = t.next end
      return t
    end
    local deepest = chain("a")
    chain("b")
    deepest.more = game.vars.b --!
  end,
}
