-- __gc is refused by setmetatable; adding it to the metatable afterwards
-- does not mark the object (Lua 5.4), so the finalizer never runs.
local ran = false
return {
  apply = function(game)
    game.counter = game.counter + 1
    local mt = {}
    setmetatable({}, mt)
    mt.__gc = function() ran = true; while true do end end
    collectgarbage("collect")
    collectgarbage("collect")
    error(ran and "the finalizer ran" or "the finalizer never ran") --!
  end,
}
