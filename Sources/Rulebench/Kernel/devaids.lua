-- Development aids: the instruction profile (`Game.countInstructions`) and
-- the runner of the kernel's own tests (Tests/KernelTests/*.lua).
-- Neither runs in a game's ordinary work; neither changes the state.

-- Receives: core (KernelSource.swift).
-- Returns its table `M`; late slots testview.
local core = ...
local M = {}
local API = core.API
-- Defined by kernel.lua: the tests' view of every part (testview).
local late, provide = core.late("devaids", { "testview" })
M.provide = provide
local type, next, pcall, tostring, setmetatable, load, error = type, next, pcall, tostring, setmetatable, load, error
local math_type = math.type

-- A development aid: while on, every VM instruction is counted against the
-- function running it ("file:line" of its definition). Counts are exact and
-- repeatable, unlike times on a shared machine. Needs a game whose
-- instruction budget is 0 (the budget's own hook would be replaced).
local PROFILE
function API.profile(on)
  local debug = core.debug
  if on == "1" then
    PROFILE = {}
    local counts, getinfo = PROFILE, debug.getinfo
    debug.sethook(function()
      local info = getinfo(2, "S")
      local key = core.chunkname(info.source) .. ":" .. info.linedefined
      counts[key] = (counts[key] or 0) + 1
    end, "", 1)
    return ""
  end
  debug.sethook()
  local counts = PROFILE or {}
  PROFILE = nil
  return core.encode(counts)
end

-- Runs a kernel test file (Tests/KernelTests/*.lua, by KernelLuaTests):
-- the chunk gets K (kernel.lua's read-only view of every part), API and
-- the protocol as Swift declares it (`swift`:
-- { entries = { name -> { mode, restart, abort } }, words = { group -> list } },
-- KernelEntry.table), over the kernel's own globals plus two helpers:
-- fails(f, pattern) asserts that f raises an error matching pattern, and
-- same(a, b) compares plain values deeply. An error fails the test.
function API.selftest(chunkname, source, protocol)
  local function message(e)
    if type(e) == "table" then return tostring(e.message) end
    return tostring(e)
  end
  local function same(a, b)
    if type(a) ~= "table" or type(b) ~= "table" then return a == b and math_type(a) == math_type(b) end
    for k, v in next, a do if not same(v, b[k]) then return false end end
    for k in next, b do if a[k] == nil then return false end end
    return true
  end
  local function fails(f, pattern)
    local ok, e = pcall(f)
    if ok then error("expected an error matching '" .. pattern .. "', but it succeeded", 2) end
    if not message(e):find(pattern) then
      error("expected an error matching '" .. pattern .. "', got: " .. message(e), 2)
    end
  end
  local env = setmetatable({ fails = fails, same = same }, { __index = core.G })
  local chunk, err = load(source, "@" .. chunkname, "t", env)
  if not chunk then error(err, 0) end
  chunk(late.testview, API, protocol and core.decode(protocol))
  return ""
end

return M
