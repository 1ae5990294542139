-- What rules see of things that differ from process to process: memory
-- addresses and the string hash seed. This file owns the two answers the
-- sandbox gives instead (sandbox.lua hands them to rules):
--
--   identities  tostring, print and string.format("%s") of a table, a
--               function, a coroutine or a userdata without __tostring give
--               "table: #12": numbered in the order rules first ask, per
--               game, instead of "table: 0x55d0c8a2e6f0".
--   order       next walks a plain table in the order pairs does (numbers,
--               then strings, then booleans), not in the order of Lua's
--               hash part, which follows the per-process string hash seed.
--
-- The invariant: a game replayed from its saved history (in another process,
-- with another seed and other addresses) hands out the same numbers.
-- A replay repeats only the committed actions' `check` and `apply` (and
-- setup), not legal, render, invariants, animations, sounds or undo
-- functions, and not the actions undone or failed along the way. So the
-- numbers are tied to the history, not the state: each action record keeps
-- the count after its apply (`kept`), and the engine forgets every number
-- above the last record's count (settleids in engine.lua, at the start of
-- every operation and at every abort). Numbers a read-only call hands out
-- are scratch: the next operation forgets them. An undo pops its record,
-- so the numbers its apply handed out are forgotten too, and a redo hands
-- them out again in the same order.
--
-- The count is not in the game state, on purpose: the state is what undo
-- verification compares, and a pack's own undo function cannot restore a
-- counter it never wrote. Nor is it in the state hash: a number is a
-- consequence of the history, which the hash already follows step by step.

-- Receives: core (KernelSource.swift).
-- Returns its table `M`; fills core's tostring and unordered.
local core = ...
local M = {}
local type, next, rawget, ipairs = type, next, rawget, ipairs
local tostring, setmetatable, getmetatable = tostring, setmetatable, core.debug.getmetatable

---------------------------------------------------------------- identities
local NUMBER = setmetatable({}, { __mode = "k" })   -- object -> its number
local HOLDER = setmetatable({}, { __mode = "v" })   -- number -> object (to forget it)
-- ids.n: the numbers handed out so far; ids.base: of them, those pack
-- loading handed out (kept by every game). Fields, not locals: the engine
-- reads them on every operation (ids.n == ids.base: nothing to forget).
local ids = { n = 0, base = 0 }
M.ids = ids

-- Forgets every number above n: the objects are numbered afresh when asked again.
function ids.forget(n)
  for i = ids.n, n + 1, -1 do
    local object = HOLDER[i]
    if object ~= nil then NUMBER[object], HOLDER[i] = nil, nil end
  end
  if n < ids.n then ids.n = n end
end

-- Pack loading is not undone: what it numbered keeps its number in every game.
function ids.loaded() ids.base = ids.n end
function ids.newgame() ids.forget(ids.base) end

-- The kinds of value whose plain tostring is an address.
local ADDRESSED = { table = true, ["function"] = true, thread = true, userdata = true }
M.addressed = ADDRESSED

-- tostring as rules see it: Lua's, except for an address.
local function identity(v)
  if not ADDRESSED[type(v)] then return tostring(v) end
  local mt = getmetatable(v)
  local name = type(v)
  if mt ~= nil then
    if rawget(mt, "__tostring") ~= nil then return tostring(v) end
    local n = rawget(mt, "__name")
    if type(n) == "string" then name = n end
  end
  local number = NUMBER[v]
  if not number then
    number = ids.n + 1
    ids.n = number
    NUMBER[v], HOLDER[number] = number, v
  end
  return name .. ": #" .. number
end
M.tostring = identity

---------------------------------------------------------------- order
-- Keys that have no order of their own (their order would follow addresses).
local UNORDERED = { table = "tables", ["function"] = "functions", thread = "coroutines", userdata = "userdata" }
local KINDS = { "table", "function", "thread", "userdata" }

-- Nil when `keys` (sorted by core.sortedkeys) has an order that is the same in
-- every process; else what makes it unordered ("tables", "tables and
-- functions"): two keys of kinds that order only by address. One such key
-- alone sorts after all others.
function M.unordered(keys, n, native)
  if native then return nil end
  local count, seen = 0, {}
  for j = 1, n do
    local kind = type(keys[j])
    if UNORDERED[kind] then count = count + 1; seen[kind] = true end
  end
  if count < 2 then return nil end
  local names = {}
  for _, kind in ipairs(KINDS) do if seen[kind] then names[#names + 1] = UNORDERED[kind] end end
  if #names == 1 then return names[1] end
  return table.concat(names, ", ", 1, #names - 1) .. " and " .. names[#names]
end

local SNAPSHOT = setmetatable({}, { __mode = "k" })  -- table -> { keys = sorted, at = key -> index }

-- The table's keys in order (and `extra`, a key no longer in it, so that a
-- walk can go on from a key deleted while it ran); raises `refuse(kinds)`
-- when they have no order.
local function snapshot(t, extra, refuse)
  local from = t
  if extra ~= nil and rawget(t, extra) == nil then
    from = {}
    for key in next, t do from[key] = true end
    from[extra] = true
  end
  local keys, n, native = core.sortedkeys(from)
  local kinds = M.unordered(keys, n, native)
  if kinds then refuse(kinds) end
  local at = {}
  for i = 1, n do at[keys[i]] = i end
  local snap = { keys = keys, at = at }
  SNAPSHOT[t] = snap
  return snap
end

-- next(t, k) over a plain table, in the order of core.sortedkeys. A walk
-- sorts the keys once, when it starts (next(t) or next(t, nil)); the
-- steps after look their key up. A table with no key or one key is
-- answered without sorting (`next(t) == nil` stays cheap).
function M.orderednext(t, k, refuse)
  local snap, i
  if k == nil then
    local first = next(t)
    if first == nil then return nil end
    if next(t, first) == nil then return first, rawget(t, first) end
    snap, i = snapshot(t, nil, refuse), 0
  else
    snap = SNAPSHOT[t]
    i = snap and snap.at[k]
    if not i then
      snap = snapshot(t, k, refuse)
      i = snap.at[k]
    end
  end
  local keys = snap.keys
  while true do
    i = i + 1
    local key = keys[i]
    if key == nil then return nil end
    local v = rawget(t, key)
    if v ~= nil then return key, v end
  end
end

---------------------------------------------------------------- the seed
-- The order raw next walks twelve fixed string keys in: it differs between
-- two Lua states exactly when their string hash seeds place the keys
-- differently (the fuzzer's second state must differ from the first; see
-- SeedVariedReplay.swift). Kernel data only: rules never see raw next.
function core.API.hashorder()
  local t, out = {}, {}
  for i = 1, 12 do t["key" .. i] = i end
  for k in next, t do out[#out + 1] = k:sub(4) end
  return table.concat(out, ",")
end

core.provide("tostring", M.tostring)
core.provide("unordered", M.unordered)

return M
