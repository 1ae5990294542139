-- tostring, %s and .. of values that have addresses: what rules see instead.
return {
  apply = function(game)
    local t = {}
    local named = setmetatable({}, { __name = "Card" })
    local custom = setmetatable({}, { __tostring = function() return "the ace" end })
    local v = game.vars
    v.table, v.again = tostring(t), tostring(t)
    v.print = tostring(print)
    v.coroutine = tostring(coroutine.create(print))
    v.named, v.custom = tostring(named), tostring(custom)
    v.format = string.format("[%-12s|%s|%d]", t, custom, 7)
    v.method = ("%s"):format(named)
    v.number, v.float = tostring(7), tostring(1.5)
    v.concat = select(2, pcall(function() return "card " .. named end))
    v.error = select(2, pcall(error, { reason = "a table" })).reason
    v.state = tostring(game.vars)
    game.counter = game.counter + 1
  end,
}
