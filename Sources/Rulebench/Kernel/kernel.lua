-- The kernel's assembly, loaded last: it receives every part, checks that
-- every late slot (core.lua's `late`) is filled, hands the kernel's own
-- tests their view of the parts, and returns `API`, the table of entry
-- points Swift calls (KernelEntry.swift). It defines no behaviour.
--
-- Receives: every part, in load order (KernelSource.swift).
-- Invariant: once this chunk has returned, no part calls an empty slot.

local core, splitmix, protocol, state, identity, rulebench, sandbox, anim, packload, engine, history, view,
      seats, explore, devaids, solve, unique, value, choose, fuzz, coverage = ...

local PARTS = { core, splitmix, protocol, state, identity, rulebench, sandbox, anim, packload, engine, history,
                view, seats, explore, devaids, solve, unique, value, choose, fuzz, coverage }
local NAMES = { "core", "splitmix", "protocol", "state", "identity", "rulebench", "sandbox", "anim", "packload",
                "engine", "history", "view", "seats", "explore", "devaids", "solve", "unique", "value", "choose",
                "fuzz", "coverage" }

-- The kernel tests' `K` (Tests/KernelTests/*.lua, devaids.lua's selftest):
-- read only; a name is the first part's field of that name, else the part
-- of that name (K.history, K.choose); `K.game` is the current game.
local BYNAME = {}
for i = 1, #NAMES do BYNAME[NAMES[i]] = PARTS[i] end
local testview = setmetatable({}, {
  __index = function(_, name)
    if name == "game" then return state.game() end
    for i = 1, #PARTS do
      local v = rawget(PARTS[i], name)
      if v ~= nil then return v end
    end
    return BYNAME[name]
  end,
  __newindex = function(_, name) error("the kernel's parts are read only to tests (K." .. tostring(name) .. ")", 2) end,
})
devaids.provide("testview", testview)

local missing = core.latemissing()
if #missing > 0 then error("kernel: late slots never provided: " .. table.concat(missing, ", "), 0) end

return core.API
