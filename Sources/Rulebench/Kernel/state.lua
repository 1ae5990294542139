-- The state and its journal: the Lua half. The hot path (the barrier for
-- scalar writes, the journal, the hash, the fast pass of verification) is
-- in Sources/LuaShim/statecore.c, reached through C.state.
--
-- Every table of the game state is an empty proxy whose metatable reads from
-- a backing table (`__index = backing`, so reads cost one metatable lookup
-- and no function call) and routes every write through the barrier (C's
-- write, with `write` below for tables and errors). A write
-- records (node, key, old value) in one journal (an array in C), so rollback,
-- undo-by-journal and undo verification all cost what the action wrote.
--
-- Each table of the state lives at exactly one place. Storing a state table
-- somewhere else moves it (its old slot becomes nil, journaled like any
-- write); `rulebench.copy` makes an explicit copy. Because of that, each node
-- knows its parent, which gives:
--   - paths for diff reports, without searching the tree;
--   - an incremental state hash: a node's hash is the wrapping sum of one
--     term per slot, so a write changes its node's sum by one term and the
--     change is carried up the parent chain. Sums do not depend on key
--     order, so the hash is canonical without sorting anything.
--
-- Undo verification compares, for every slot written by the action or by its
-- undo, the value before the action with the value now. Tables compare by
-- identity: a slot is restored only if it holds the very table it held,
-- which is what later journal-based undos rely on. By induction over the
-- tree, equal dirty slots mean an equal state.

-- Receives: core (KernelSource.swift).
-- Returns its table `M`; fills core's backing.
local core = ...
local M = {}
local C = core.C
local SC = C.state                                 -- statecore.c: barrier, journal, hash, verify
local type, next, error, setmetatable, tostring = type, next, error, setmetatable, tostring
local math_type, huge, tointeger = math.type, math.huge, math.tointeger
local format, concat, sort, insert = string.format, table.concat, table.sort, table.insert

local NODE = setmetatable({}, { __mode = "k" })   -- proxy -> its metatable (the node record)
local NIL = {}                                     -- the journal's stand-in for an absent value
local J = {}                                       -- the journal's anchors (statecore.c keeps the entries)
local entry = SC.entry                             -- entry(i): node record, key, old value (NIL: absent)
local GAME                                         -- the root proxy of the current game (game())
local ROOT                                         -- node record of the game root
M.NODE, M.NIL = NODE, NIL

---------------------------------------------------------------- hashing
-- The hash lives in statecore.c; the random generator's mixing, in splitmix.lua.

---------------------------------------------------------------- raw slot updates
-- statecore.c's put is the only place a backing table changes: it keeps
-- parent links and hashes right. jput journals, then puts.
local journalput = SC.jput

---------------------------------------------------------------- nodes
-- A node record is the proxy's metatable: [1] its C node (hash sums, parent
-- link), [2] the backing table, [3] the sorted keys (false when stale);
-- up/key are the parent's record and the key there (false when detached).
local PROTECTED = "rulebench state table"   -- wire.c (RB_STATE_PROTECTED) knows proxies by it
local cwrite, clen, cpairs, newnode = SC.write, SC.len, SC.pairs, SC.newnode

local function makenode(proxy, b)
  local m = { false, b, false, __index = b, __newindex = cwrite, __pairs = cpairs, __len = clen,
              __metatable = PROTECTED, b = b, serial = 0, proxy = proxy, up = false, key = false }
  m.serial = newnode(m)
  NODE[proxy] = m
  setmetatable(proxy, m)
  return m
end

function M.isnode(v) return NODE[v] ~= nil end
function M.backing(v) local m = NODE[v]; return m and m.b or v end

---------------------------------------------------------------- value checks
local function fault(message) error(core.where(2) .. message, 0) end

local function normkey(k)
  local t = type(k)
  if t == "string" then return k end
  if t == "number" then
    if math_type(k) == "integer" then return k end
    local i = tointeger(k)
    if i then return i end
    fault("a state key must be a string or an integer, not " .. core.show(k))
  end
  fault("a state key must be a string or an integer, not a " .. t)
end

local function normfloat(v)
  if v ~= v then fault("NaN cannot be stored in the state") end
  if v == huge or v == -huge then fault("an infinite number cannot be stored in the state") end
  if v == 0 then return 0.0 end            -- -0.0 and 0.0 must hash alike
  return v
end

-- The nodes from m up to the top of its tree, as a set, and how many.
local function ancestors(m)
  local set, n = {}, 0
  while m do set[m] = true; n = n + 1; m = m.up end
  return set, n
end

-- How deep tables may nest in the state: a value stored at the root may
-- hold tables 100 levels down, one stored deeper that much less.
local STATE_DEPTH = 100
local function toodeep()
  fault("a table nested more than " .. STATE_DEPTH .. " levels cannot be stored in the state")
end

-- The levels of tables in the subtree of a state table (its backing table
-- b), itself included. The state never holds more than STATE_DEPTH + 1.
local function height(b)
  local h = 1
  for _, v in next, b do
    local m = type(v) == "table" and NODE[v]
    if m then
      local below = height(m.b) + 1
      if below > h then h = below end
    end
  end
  return h
end

-- Checks a plain table before it is converted, so that a bad value deep
-- inside changes nothing. Every table may appear once: the state is a tree.
local function validate(t, above, seen, depth)
  if depth > STATE_DEPTH then toodeep() end
  if seen[t] then fault("the same table appears twice in the value (the state is a tree; use rulebench.copy)") end
  seen[t] = true
  local m = NODE[t]
  if m then
    if above[m] or m == ROOT then fault("a state table cannot be stored inside itself") end
    return
  end
  if getmetatable(t) ~= nil then fault("a table with a metatable cannot be stored in the state") end
  for k, v in next, t do
    normkey(k)
    local tv = type(v)
    if tv == "table" then validate(v, above, seen, depth + 1)
    elseif tv == "number" then if math_type(v) == "float" then normfloat(v) end
    elseif tv ~= "string" and tv ~= "boolean" then
      fault("a " .. tv .. " cannot be stored in the state (only booleans, numbers, strings and tables)")
    end
  end
end

-- Turns a validated plain table into a node, in place, so that references the
-- rule still holds keep working (and keep being journaled).
local function convert(t)
  local m = NODE[t]
  if m then
    if m.up then journalput(m.up, m.key, nil) end   -- moved: its old slot empties
    return t
  end
  local keys, n = {}, 0
  for k in next, t do n = n + 1; keys[n] = k end
  local b = {}
  for i = 1, n do
    local k = keys[i]
    local v = t[k]
    if type(v) == "table" then v = convert(v)
    elseif math_type(v) == "float" then v = normfloat(v) end
    b[normkey(k)] = v
  end
  for i = 1, n do t[keys[i]] = nil end
  makenode(t, b)
  return t
end

local function adopt(v, target)
  local vm = NODE[v]
  if vm then
    -- Moving a state table (the common case: a card to the pile, a piece
    -- to a square): it only must not go inside itself.
    local m, above = target, 0
    while m do
      if m == vm then fault("a state table cannot be stored inside itself") end
      m = m.up
      above = above + 1
    end
    -- Its subtree was within the limit where it was: a move no deeper (a
    -- card to a pile, the common case) needs no walk of it.
    local was = 0
    m = vm.up
    while m do was = was + 1; m = m.up end
    if above > was and above - 1 + height(vm.b) - 1 > STATE_DEPTH then toodeep() end
    if vm.up then journalput(vm.up, vm.key, nil) end   -- its old slot empties
    return v
  end
  -- Counted from the top of the target's tree, so that a state grown one
  -- level at a time stops at the same depth as a value written at once.
  local above, n = ancestors(target)
  validate(v, above, {}, n - 1)
  return convert(v)
end

---------------------------------------------------------------- the write barrier
-- statecore.c's barrier (SC.write, every proxy's __newindex) handles
-- scalar writes on its own and hands everything else here: table values
-- to adopt, keys to normalise, and every error, so that each message and
-- its "file:line: " are the ones this function has always raised.
local function write(p, k, v)
  if not SC.writable() then
    fault("the game state is read-only in " .. SC.phase() .. "; it changes only in setup, apply and undo")
  end
  local m = NODE[p]
  if type(k) ~= "string" then k = normkey(k) end
  local tv = type(v)
  if tv == "table" then
    if m.b[k] == v then return end
    v = adopt(v, m)
  elseif tv == "number" then
    if math_type(v) == "float" then v = normfloat(v) end
  elseif tv ~= "string" and tv ~= "boolean" and tv ~= "nil" then
    fault("a " .. tv .. " cannot be stored in the state (only booleans, numbers, strings and tables)")
  end
  local old = m.b[k]
  if old == v and math_type(old) == math_type(v) then return end
  journalput(m, k, v)
end

---------------------------------------------------------------- journal operations
-- All in statecore.c: the journal's length, the writable flag and the phase
-- live there, next to the barrier that reads them.
M.setwritable = SC.setwritable   -- (flag, phase): phase kept when nil
M.phase = SC.phase
M.mark = SC.mark
M.serial = SC.serial
-- rollback(to): undoes every write after `to`, newest first. Exact by construction.
M.rollback = SC.rollback
-- revert(from, to): writes back the old values of the entries in [from, to),
-- newest first, as new journal entries, so that the caller can still roll the
-- whole operation back. Used for undo-by-journal and for repairs.
M.revert = SC.revert
-- truncate(to): forgets entries after `to` without undoing them.
M.truncate = SC.truncate

---------------------------------------------------------------- paths
local function segment(k, first)
  if type(k) == "number" then return (first and "" or ".") .. k end
  if k:match("^[%a_][%w_]*$") then return (first and "" or ".") .. k end
  return "[" .. format("%q", k) .. "]"
end

function M.joinpath(keys)
  local out = {}
  for i = 1, #keys do out[i] = segment(keys[i], i == 1) end
  return concat(out)
end

-- The path of slot k of node m, through parent links.
function M.pathof(m, k)
  local keys = {}
  if k ~= nil then keys[1] = k end
  while m.up do insert(keys, 1, m.key); m = m.up end
  local path = M.joinpath(keys)
  if m ~= ROOT then return "(detached table)." .. path end
  return path
end

---------------------------------------------------------------- snapshots
-- A plain deep copy (nodes read through their backing tables). A cycle in
-- a rule's value (params given to emit or act:sub) is an error at the rule's
-- line rather than a stack overflow inside the kernel.
local function plain(v, depth)
  if type(v) ~= "table" then return v end
  depth = depth or 0
  if depth > 200 then fault("a value nested more than 200 levels deep (or a cycle) cannot be copied") end
  local b = M.backing(v)
  local out = {}
  for k, x in next, b do out[k] = plain(x, depth + 1) end
  return out
end
-- statecore.c gets the journal's anchor table, the sentinel, the slow barrier, the key
-- order for __pairs, and this copy, which it calls to raise the error for a
-- value nested too deeply. M.plain is the same copy in C.
SC.init(J, NIL, write, core.sortedkeys, plain)
M.plain = SC.plain
-- textcopy(v): the same copy for values that leave the kernel as JSON text
-- (emitted params): nil, the string, what is wrong, for one that is not UTF-8.
M.textcopy = SC.textcopy

-- The value a node had before the writes summarised in `first`.
local function before(v, first)
  if type(v) ~= "table" then return v end
  local m = NODE[v]
  local out = {}
  for k, x in next, m.b do out[k] = x end
  local f = first[m]
  if f then for k, x in next, f do if x == NIL then out[k] = nil else out[k] = x end end end
  for k, x in next, out do if type(x) == "table" then out[k] = before(x, first) end end
  return out
end

local function deepsame(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then
    return a == b and math_type(a) == math_type(b)
  end
  for k, x in next, a do if not deepsame(x, b[k]) then return false end end
  for k in next, b do if a[k] == nil then return false end end
  return true
end

---------------------------------------------------------------- verification
local function difference(m, k, want, have, first)
  local d = { path = M.pathof(m, k) }
  local wantv = before(want, first)
  local havev = plain(have)
  d.before, d.after = core.show(wantv), core.show(havev)
  if type(want) == "table" and type(have) == "table" and deepsame(wantv, havev) then
    d.note = "a copy with the same contents: undo must put back the original table (keep it on the action object)"
  end
  return d
end

-- Compares every slot written in [ds, de) or [us, ue) with its value before
-- ds. Slots of tables created after `serial0` are skipped: they did not exist
-- before, and if one is still reachable, the slot that holds it differs.
function M.verify(ds, de, us, ue, serial0)
  if SC.clean(ds, de, us, ue, serial0) then return nil end   -- the usual case, decided in C
  local first, slots, ns = {}, {}, 0
  local function scan(s, e)
    for i = s, e - 3, 3 do
      local m, k, old = entry(i)
      if m.serial <= serial0 then
        local f = first[m]
        if not f then f = {}; first[m] = f end
        if f[k] == nil then
          f[k] = old
          slots[ns + 1], slots[ns + 2] = m, k
          ns = ns + 2
        end
      end
    end
  end
  scan(ds, de)
  scan(us, ue)
  local diffs
  for i = 1, ns, 2 do
    local m, k = slots[i], slots[i + 1]
    local want = first[m][k]
    if want == NIL then want = nil end
    local have = m.b[k]
    if want ~= have or math_type(want) ~= math_type(have) then
      diffs = diffs or {}
      diffs[#diffs + 1] = difference(m, k, want, have, first)
    end
  end
  if diffs then sort(diffs, function(a, b) return a.path < b.path end) end
  return diffs
end

-- The slots written since journal mark `from`, each with its value then
-- (the first entry of each slot; NIL for an absent one): node record ->
-- { key -> old value }. What a step wrote, for seats.lua's views of it.
M.written = SC.written

-- The journal's entries after mark `from`, oldest first, each a list
-- { record, key, old value } (NIL for an absent one): what the kernel tests
-- compare when two ways of making a change must journal it alike.
function M.entries(from)
  local out, n = {}, 0
  for i = from, SC.mark() - 3, 3 do
    n = n + 1
    out[n] = { entry(i) }
  end
  return out
end

---------------------------------------------------------------- the root
function M.newroot()
  M.truncate(0)
  SC.forgetmemo()   -- the old game's long strings must not outlive it (statecore.c)
  local proxy = {}
  ROOT = makenode(proxy, {})
  GAME = proxy
  return proxy
end

function M.game() return GAME end

function M.hash()
  return SC.hash(ROOT)
end

-- Resolves a list of keys from the root; returns the value or nil.
function M.lookup(keys)
  local v = GAME
  for i = 1, #keys do
    if type(v) ~= "table" then return nil end
    local m = NODE[v]
    v = (m and m.b or v)[keys[i]]
  end
  return v
end

core.provide("backing", M.backing)

return M
