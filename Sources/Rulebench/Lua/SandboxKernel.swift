// The sandbox, in Lua: what rule code can see.
//
// Each pack gets its own globals table over its own copies of the safe
// libraries, so one pack (or one hostile script) cannot change what another
// pack or the kernel sees. Missing on purpose: io, os (but os.clock), debug,
// package, dofile, loadfile, string.dump, binary chunks, __gc metamethods.
// Globals can be set while a pack loads; once the game runs they are frozen,
// because nothing would undo them.

extension KernelSource {
    static let sandbox = #"""
local K = ...
local C = K.C
local G = K.G
local type, next, error, pcall, select, tostring = type, next, error, pcall, select, tostring
local rawget, rawset, rawlen, setmetatable, getmetatable = rawget, rawset, rawlen, setmetatable, getmetatable
local rawgetmetatable = K.debug.getmetatable
local concat = table.concat
local NODE = K.NODE

-- Nobody may reach the string metatable: it is shared by every pack and the kernel.
rawgetmetatable("").__metatable = "the string metatable is protected"

local function copy(t, except)
  local out = {}
  for k, v in next, t do if not (except and except[k]) then out[k] = v end end
  return out
end

local function fault(message) error(K.where(2) .. message, 0) end

local function safe_next(t, k)
  local m = NODE[t]
  if m then return next(m.b, k) end
  return next(t, k)
end

-- pairs in a stable order for plain tables (state tables order themselves).
local function safe_pairs(t)
  if type(t) == "table" then
    local mt = rawgetmetatable(t)
    if mt == nil or rawget(mt, "__pairs") == nil then return K.orderedpairs(t) end
  end
  return pairs(t)
end

local function safe_rawget(t, k)
  local m = NODE[t]
  if m then return m.b[k] end
  return rawget(t, k)
end

local function safe_rawset(t, k, v)
  if NODE[t] then fault("rawset cannot write the game state: assign normally, so the write is journaled") end
  return rawset(t, k, v)
end

local function safe_rawlen(t)
  local m = NODE[t]
  if m then return #m.b end
  return rawlen(t)
end

local function safe_setmetatable(t, mt)
  if NODE[t] then fault("cannot change the metatable of a state table") end
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    fault("__gc metamethods are not available to rules")
  end
  return setmetatable(t, mt)
end

local GC_ALLOWED = { count = true, collect = true, step = true, isrunning = true }
local function safe_collectgarbage(option, ...)
  option = option or "collect"
  if not GC_ALLOWED[option] then fault("collectgarbage('" .. tostring(option) .. "') is not available to rules") end
  return K.collectgarbage(option, ...)
end

local function safe_print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  C.host("print", concat(parts, "\t"))
end

local function safe_load_for(env)
  return function(chunk, name, mode, chunkenv)
    if type(chunk) == "string" and chunk:byte(1) == 27 then
      return nil, "binary chunks are not allowed"
    end
    if chunkenv == nil then chunkenv = env end
    return load(chunk, name or "=(load)", "t", chunkenv)
  end
end

local function library(pack)
  local math_ = copy(math)
  math_.random = function(m, n) return K.rulebench.random(K.game, m, n) end
  math_.randomseed = function() fault("the engine seeds the random generator; see require 'rulebench'") end
  return {
    assert = assert, error = error, ipairs = ipairs, next = safe_next, pairs = safe_pairs,
    pcall = pcall, xpcall = xpcall, select = select, tonumber = tonumber, tostring = tostring,
    type = type, rawequal = rawequal, rawget = safe_rawget, rawset = safe_rawset,
    rawlen = safe_rawlen, setmetatable = safe_setmetatable, getmetatable = getmetatable,
    collectgarbage = safe_collectgarbage, print = safe_print, _VERSION = _VERSION,
    string = copy(string, { dump = true }), table = copy(table), math = math_,
    utf8 = copy(utf8), coroutine = copy(coroutine), os = { clock = K.clock },
  }
end

local MODULE_NAME = "^[%a_][%w_]*$"
local function validname(name)
  for part in (name .. "."):gmatch("([^.]*)%.") do
    if not part:match(MODULE_NAME) then return false end
  end
  return true
end

-- require: the pack's own modules, then its base pack's, then 'rulebench'.
local function requirer(pack)
  local LOADING = {}
  local function find(p, name)
    local cached = p.modules[name]
    if cached == LOADING then fault("module '" .. name .. "' requires itself (a require cycle)") end
    if cached ~= nil then return cached end
    local reply = C.host("module", p.dir .. "\n" .. name)
    if reply == "" then
      if p.base then return find(p.base, name) end
      return nil
    end
    local chunkname, source = reply:match("^([^\n]*)\n(.*)$")
    local chunk, message = load(source, "@" .. chunkname, "t", p.env)
    if not chunk then error(message, 0) end
    p.modules[name] = LOADING
    local wasloading = p.loading
    p.loading = true
    local ok, result = pcall(chunk, name)
    p.loading = wasloading
    if not ok then p.modules[name] = nil; error(result, 0) end
    if result == nil then result = true end
    p.modules[name] = result
    return result
  end
  return function(name)
    if name == "rulebench" then return K.rulebench end
    if type(name) ~= "string" or not validname(name) then
      fault("require loads only this pack's modules and 'rulebench'; " .. K.show(name) .. " is not a module name")
    end
    local module = find(pack, name)
    if module == nil then
      fault("module '" .. name .. "' not found: require loads only the modules of this pack"
        .. (pack.base and " and its base packs" or "") .. " and 'rulebench'")
    end
    return module
  end
end

-- A fresh globals table for a pack.
function K.newenv(pack)
  local base = library(pack)
  local env = {}
  base.load = safe_load_for(env)
  base.require = requirer(pack)
  base._G = env
  setmetatable(env, {
    __index = base,
    __newindex = function(t, k, v)
      if pack.loading then rawset(t, k, v); return end
      fault("global '" .. tostring(k) .. "' assigned while the game runs; globals are not undone, keep game data in the game state")
    end,
    __metatable = "the globals of a rule pack",
  })
  return env
end
"""#
}
