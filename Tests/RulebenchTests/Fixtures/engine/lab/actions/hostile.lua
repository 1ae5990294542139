-- Each `kind` is one way a script can misbehave.
local kinds = {}
kinds.loop = function() while true do end end
kinds.pcall_loop = function() while true do pcall(function() while true do end end) end end
kinds.coroutine_loop = function()
  local co = coroutine.wrap(function() while true do end end)
  co()
end
kinds.rep_bomb = function() return string.rep("x", 1e9) end
kinds.table_bomb = function() local t = {} for i = 1, 1e9 do t[i] = { i } end end
kinds.io_open = function() return io.open("/etc/passwd") end
kinds.os_execute = function() return os.execute("true") end
kinds.dump = function() return load(string.dump(function() end)) end
kinds.binary = function() local f, err = load("\27Lua"); if not f then error(err) end end
kinds.sethook = function() debug.sethook(function() end, "", 1) end
kinds.require_os = function() local os_ = require "os"; return os_ end
kinds.require_path = function() local secret = require "../../secret"; return secret end
kinds.rawset_state = function(game) rawset(game, "counter", 7) end
kinds.setmetatable_state = function(game) setmetatable(game.vars, {}) end
kinds.string_metatable = function() getmetatable("").__index.upper = nil end
kinds.gc_metamethod = function() setmetatable({}, { __gc = function() while true do end end }) end
kinds.error_table = function() error({ code = 1 }) end
kinds.error_nil = function() error(nil) end
kinds.nan = function(game) game.counter = 0/0 end
kinds.cycle = function(game) local t = {} t.self = t game.vars.t = t end
kinds.function_value = function(game) game.vars.f = print end
kinds.global_write = function() leaked = 1 end
kinds.stack = function() local function f() return 1 + f() end return f() end

return {
  params = { kind = "string" },
  apply = function(game, a)
    game.counter = game.counter + 1   -- a write that must be rolled back
    kinds[a.kind](game)
  end,
}
