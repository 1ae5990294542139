-- The sandbox, in Lua: what rule code can see.
--
-- Each pack gets its own globals table over its own copies of the safe
-- libraries, so one pack (or one hostile script) cannot change what another
-- pack or the kernel sees. Missing on purpose: io, os, debug, package,
-- dofile, loadfile, string.dump, binary chunks, __gc metamethods. Nothing
-- that differs between processes reaches rules: tostring and
-- string.format("%s") number objects instead of showing addresses, next
-- and pairs walk in a fixed order (identity.lua), there is no clock, and
-- the collector's answers are fixed or refused (RELIABILITY.md, determinism).
-- Globals can be set while a pack loads; once the game runs they are frozen,
-- because nothing would undo them.

-- Receives: core, state, identity, rulebench (KernelSource.swift).
-- Returns its table `M`; late slots rulecover.
local core, state, identity, rulebench = ...
local M = {}
local C = core.C
local orderednext = identity.orderednext   -- (bound here: a local below takes the name `identity`)
-- Defined by engine.lua: coverage of rule lines, when it is on.
local late, provide = core.late("sandbox", { "rulecover" })
M.provide = provide
-- A test's planted hole (Game.Configuration.plantsSeededNext): the rules' `next` unseeded.
local SEEDEDNEXT = false
function M.setseedednext(on) SEEDEDNEXT = on end
local G = core.G
local type, next, error, pcall, select, tostring = type, next, error, pcall, select, tostring
local rawget, rawset, rawlen, setmetatable, getmetatable = rawget, rawset, rawlen, setmetatable, getmetatable
local rawgetmetatable = core.debug.getmetatable
local concat = table.concat
local NODE = state.NODE

-- Nobody may reach the string metatable: it is shared by every pack and the kernel.
local STRINGMETA = rawgetmetatable("")
STRINGMETA.__metatable = "the string metatable is protected"

---------------------------------------------------------------- the string library
-- Lua's pattern matcher is C code: the instruction hook never runs inside
-- it, and it backtracks, so `string.find(string.rep("a", 1e6), ".-.-.-.-b")`
-- would match for longer than anyone waits. Every pattern call rule code can
-- make (string.find, match, gmatch, gsub, and the same as methods: s:find()
-- goes through the string metatable, whose __index is a guarded copy too)
-- first bounds the matcher's work from the pattern's shape and the
-- subject's length alone, so the verdict is the same on every machine:
--
--   n  the subject's length
--   k  the pattern's variable-length items: x*, x+, x-, %bxy, %0-%9 (a
--      back-reference), except a last x*, x+ or x- that only ')' follows
--      (it matches at once and ends the attempt, without backtracking)
--   q  the optional items, x?
--   cost = starts * 2^q * C(n + k, k)
--
-- starts is 1 for a pattern anchored with '^' (except in gmatch, where '^'
-- does not anchor) and n + 1 otherwise; C(n + k, k) counts the ways k items
-- can share n characters, which bounds the backtracking paths of one start.
-- A call whose cost exceeds PATTERN_LIMIT (10^7: about 0.1 s of matching,
-- the order of what a whole instruction budget takes) is refused with an
-- error naming the rule's file and line. A call under it is charged
-- cost / 16 instructions of the budget (a plain find: n / 16), so a loop
-- of expensive calls runs out of budget as a loop of instructions would.
-- string.rep is charged one instruction per repetition before it runs
-- (see spend below).
-- The kernel's own pattern calls on data it produced are exempt.
local PATTERN_LIMIT = 1e7
local byte, floor = string.byte, math.floor
local find, match, gmatch, gsub = string.find, string.match, string.gmatch, string.gsub
local getinfo, charge = core.debug.getinfo, C.charge

-- The index just after the set that starts at i ('['), or nil when it is malformed.
local function setend(p, i)
  i = i + 1
  if byte(p, i) == 94 then i = i + 1 end            -- [^
  repeat
    local c = byte(p, i)
    if c == nil then return nil end
    i = i + 1
    if c == 37 then i = i + 1 end                    -- %x inside a set
  until byte(p, i) == 93                             -- ]
  return i + 1
end

-- { anchored, k, q } of a pattern, or false when it is malformed (the
-- matcher then raises its usual error, having done no work).
local function analyse(p)
  local len, i = #p, 1
  local anchored = byte(p, 1) == 94                  -- ^
  if anchored then i = 2 end
  local k, q, lastfree = 0, 0, false
  while i <= len do
    local c = byte(p, i)
    local single = true                              -- an item a quantifier may follow
    if c == 40 or c == 41 then                       -- ( ) captures match nothing
      i = i + 1; single = false
    elseif c == 36 and i == len then                 -- $ at the end anchors the last item
      i = i + 1; single = false; lastfree = false
    elseif c == 37 then                              -- %
      local d = byte(p, i + 1)
      if d == nil then return false end
      if d == 98 then                                -- %bxy: scans for the balance
        if i + 3 > len then return false end
        i = i + 4; single = false; k = k + 1; lastfree = false
      elseif d == 102 then                           -- %f[set]: a zero-width test
        if byte(p, i + 2) ~= 91 then return false end
        i = setend(p, i + 2)
        if not i then return false end
        single = false; lastfree = false
      elseif d >= 48 and d <= 57 then                -- %0-%9: a back-reference
        i = i + 2; single = false; k = k + 1; lastfree = false
      else
        i = i + 2                                    -- %a, %., ...
      end
    elseif c == 91 then                              -- [set]
      i = setend(p, i)
      if not i then return false end
    else
      i = i + 1
    end
    if single then
      local m = byte(p, i)
      if m == 42 or m == 43 or m == 45 then          -- * + -
        i = i + 1; k = k + 1; lastfree = true
      else
        if m == 63 then i = i + 1; q = q + 1 end     -- ?
        lastfree = false
      end
    end
  end
  if lastfree then k = k - 1 end
  return { anchored = anchored, k = k, q = q }
end

local SHAPES, NSHAPES = {}, 0                        -- memo of analyses (bounded)
local function shape(p)
  local s = SHAPES[p]
  if s == nil then
    s = analyse(p)
    if NSHAPES >= 4096 then SHAPES, NSHAPES = {}, 0 end
    SHAPES[p], NSHAPES = s, NSHAPES + 1
  end
  return s
end

-- m is the pattern's length: each path walks up to m items of it, which
-- counts when the pattern is long (1e5 literal characters tried at each
-- of 2e5 starts is 2e10 steps with no backtracking at all).
local function patterncost(n, s, iterating, m)
  local c = ((s.anchored and not iterating) and 1 or n + 1) * 2.0 ^ s.q * (m > 1 and m or 1)
  for j = 1, s.k do
    c = c * (n + j) / j
    if c > PATTERN_LIMIT then return c end
  end
  return c
end

local function overdrawn(budget)
  error(core.where(2) .. "instruction budget exceeded (" .. tostring(budget) .. " instructions)", 0)
end

-- Raises when the call must not run; charges the budget otherwise.
local function guard(subject, pattern, plain, iterating)
  local ts, tp = type(subject), type(pattern)
  if (ts ~= "string" and ts ~= "number") or (tp ~= "string" and tp ~= "number") then return end
  local n = ts == "string" and #subject or 48
  local cost
  local m = tp == "string" and #pattern or 1
  if plain or tp == "number" then
    cost = (n + 1) * (m > 1 and m or 1)        -- a plain find compares up to m bytes per start
  else
    local s = shape(pattern)
    if not s then return end
    cost = patterncost(n, s, iterating, m)
    if cost > PATTERN_LIMIT then
      -- Exempt only a direct call from the kernel: a rule's tail call
      -- (`return string.find(...)`) also leaves a kernel frame above.
      local wrapper, caller = getinfo(2, "t"), getinfo(3, "S")
      if not wrapper.istailcall and caller and caller.source:sub(1, 10) == "=rulebench" then return end
      error(core.where(2) .. "pattern " .. core.show(#pattern > 40 and pattern:sub(1, 40) .. "..." or pattern)
        .. " is too costly on a subject of " .. n .. " characters: its backtracking could take "
        .. (cost == cost and cost < 1e300 and string.format("%.3g", cost) or "unbounded") .. " steps (the limit is "
        .. string.format("%.0e", PATTERN_LIMIT) .. "); use fewer '-', '*' or '+' items, an anchor, or a shorter subject", 0)
    end
  end
  if cost >= 16 then
    local out, budget = charge(floor(cost / 16))
    if out then overdrawn(budget) end
  end
end

-- M.match(s, p): string.match for the kernel's own fixed pattern `p` on a
-- string `s` (often the rules' own), charged to the budget as the same
-- call through the string metatable is (guard's cost, a kernel caller's
-- exemption past the limit included), without guard's checks of its
-- arguments and calls: the redactions of views and plans make it per string.
function M.match(s, p)
  local sh = SHAPES[p] or shape(p)
  if not sh then return match(s, p) end
  local n, m = #s, #p
  local c = ((sh.anchored) and 1 or n + 1) * 2.0 ^ sh.q * (m > 1 and m or 1)
  for j = 1, sh.k do
    c = c * (n + j) / j
    if c > PATTERN_LIMIT then return match(s, p) end
  end
  if c > PATTERN_LIMIT then return match(s, p) end
  if c >= 16 then
    local out, budget = charge(floor(c / 16))
    if out then overdrawn(budget) end
  end
  return match(s, p)
end

-- M.hasplain(s, p): whether plain text `p` occurs in `s` (string.find's
-- plain search), charged as guard charges the same call.
function M.hasplain(s, p)
  local m = #p
  local c = (#s + 1) * (m > 1 and m or 1)
  if c >= 16 then
    local out, budget = charge(floor(c / 16))
    if out then overdrawn(budget) end
  end
  return find(s, p, 1, true) ~= nil
end

local STRING = {}
for name, f in next, string do if name ~= "dump" then STRING[name] = f end end
function STRING.find(s, p, init, plain)
  guard(s, p, plain, false)
  return find(s, p, init, plain)
end
function STRING.match(s, p, init)
  guard(s, p, false, false)
  return match(s, p, init)
end
function STRING.gmatch(s, p, init)
  guard(s, p, false, true)
  return gmatch(s, p, init)
end
function STRING.gsub(s, p, repl, n)
  guard(s, p, false, false)
  return gsub(s, p, repl, n)
end
-- C functions whose work the count hook cannot see (it runs between VM
-- instructions) are charged from their arguments alone, deterministically;
-- most before they run (see TABLE below), so that a call too big for the
-- budget is refused at once instead of running for minutes inside one
-- instruction.
local function spend(instructions)
  if instructions >= 16 then
    local out, budget = charge(instructions)
    if out then overdrawn(budget) end
  end
end

-- string.rep: one instruction per repetition, once it returns; a result
-- too large for the memory cap fails first, as it allocates the result at
-- once. An empty result is answered here: rep("", 2^62) allocates nothing
-- and would loop 2^62 times.
local rep, tointeger = string.rep, math.tointeger
function STRING.rep(s, n, sep)
  if s == "" and (sep == nil or sep == "") and tointeger(n) then return "" end
  local out = rep(s, n, sep)
  if type(n) == "number" then spend(n) end
  return out
end
-- The C functions whose work grows with their arguments (lower, format,
-- byte, pack, table.concat, utf8.len, select, ...) are charged for it
-- before they run, in C (workcost.c): the same list for every library.
C.chargework(STRING, "string")

-- string.format: "%s" of a table, a function or a coroutine would show its
-- address; it shows its identity instead (identity.tostring, identity.lua). "%p"
-- is nothing but an address, so it is refused. Which arguments a format
-- string converts with %s or %p is worked out once per format string.
local format, identity, ADDRESSED = STRING.format, identity.tostring, identity.addressed   -- format: the charged one
local FORMATS, NFORMATS = {}, 0                      -- format string -> its %s/%p arguments (or false)

-- The arguments of `f` converted by %s (their index) and %p (minus their
-- index), or false when there are none. A malformed spec ends the scan:
-- format itself then raises its usual error.
local function conversions(f)
  local found, i, arg = false, 1, 0
  while true do
    local at = find(f, "%", i, true)
    if not at then return found end
    if byte(f, at + 1) == 37 then
      i = at + 2
    else
      local _, e, conversion = find(f, "^[-+ #0]*%d*%.?%d*(%a)", at + 1)
      if not e then return found end
      arg = arg + 1
      if conversion == "s" or conversion == "p" then
        found = found or {}
        found[#found + 1] = conversion == "p" and -arg or arg
      end
      i = e + 1
    end
  end
end

local unpack, packargs = table.unpack, table.pack
function STRING.format(f, ...)
  if type(f) ~= "string" then return format(f, ...) end
  local shape = FORMATS[f]
  if shape == nil then
    shape = conversions(f)
    if NFORMATS >= 4096 then FORMATS, NFORMATS = {}, 0 end
    FORMATS[f], NFORMATS = shape, NFORMATS + 1
  end
  if not shape then return format(f, ...) end
  local args
  for j = 1, #shape do
    local index = shape[j]
    if index < 0 then
      error(core.where(2) .. "string.format('%p') shows a memory address, which differs from run to run; "
        .. "use tostring(value), which numbers tables, functions and coroutines per game", 0)
    end
    local v = select(index, ...)
    if ADDRESSED[type(v)] then
      args = args or packargs(...)
      args[index] = identity(v)
    end
  end
  if not args then return format(f, ...) end
  return format(f, unpack(args, 1, args.n))
end

-- Method calls on strings (s:find(...), ("").dump) see the guarded copy,
-- without string.dump. Rules cannot reach this table.
STRINGMETA.__index = STRING

local function copy(t, except)
  local out = {}
  for k, v in next, t do if not (except and except[k]) then out[k] = v end end
  return out
end

local function fault(message) error(core.where(2) .. message, 0) end

local LIBRARIES   -- read-only library faces (see readonly below)

-- `kinds` (identity.unordered) have no order that is the same in every process.
local function unorderedfault(walker, kinds)
  error(core.where(2) .. walker .. " has no stable order for a table whose keys are " .. kinds .. " (it would follow"
    .. " memory addresses, which differ from run to run); key it by strings or numbers, or keep a list and use ipairs", 0)
end
local function refusenext(kinds) unorderedfault("next", kinds) end

-- next in the order pairs walks (identity.lua), never in the order of the
-- hash part, which follows the per-process string hash seed.
local function safe_next(t, k)
  local m = NODE[t]
  if m then return orderednext(m.b, k, refusenext) end
  return orderednext(LIBRARIES[t] or t, k, refusenext)
end

-- pairs in a stable order for plain tables (state tables order themselves).
-- Keys that are tables (or functions, coroutines) have no order that is the
-- same in every process, so pairs refuses a table with two of them (of any
-- kinds) rather than let a replay go another way.
local function safe_pairs(t)
  if type(t) == "table" then
    local mt = rawgetmetatable(t)
    if mt == nil or rawget(mt, "__pairs") == nil then
      local iterate, state, start, unordered = core.orderedpairs(t)
      if unordered then unorderedfault("pairs", unordered) end
      return iterate, state, start
    end
  end
  return pairs(t)
end

local function safe_rawget(t, k)
  local m = NODE[t]
  if m then return m.b[k] end
  return rawget(LIBRARIES[t] or t, k)
end

local ENVS = setmetatable({}, { __mode = "k" })     -- a pack's globals table -> the pack

local function safe_rawset(t, k, v)
  if NODE[t] then fault("rawset cannot write the game state: assign normally, so the write is journaled") end
  local owner = ENVS[t]
  if owner and not owner.loading then
    fault("rawset cannot write a global while the game runs; globals are not undone, keep game data in the game state")
  end
  if LIBRARIES[t] then t[k] = v; return t end   -- the face decides (read-only once the game runs)
  return rawset(t, k, v)
end

local function safe_rawlen(t)
  local m = NODE[t]
  if m then return #m.b end
  return rawlen(LIBRARIES[t] or t)
end

local function safe_setmetatable(t, mt)
  if NODE[t] then fault("cannot change the metatable of a state table") end
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    fault("__gc metamethods are not available to rules")
  end
  return setmetatable(t, mt)
end

-- The collector's answers depend on the heap, which the engine's own tables
-- share and which differs from run to run; rules get fixed answers or an
-- error. "collect" and "step" both run a full collection (charged, below)
-- and answer as a full cycle does (0, true); the collector always runs.
local GC_ANSWERS = { collect = 0, step = true, isrunning = true }
local GC_WHY = {
  count = "the heap's size differs from run to run (the engine's own tables share it); the memory cap"
    .. " (256 MiB by default) is the game's whole budget",
  incremental = "the collector's mode is the engine's", generational = "the collector's mode is the engine's",
}
local function safe_collectgarbage(option)
  option = option or "collect"
  local answer = GC_ANSWERS[option]
  if answer == nil then
    fault("collectgarbage('" .. tostring(option) .. "') is not available to rules"
      .. (GC_WHY[option] and ": " .. GC_WHY[option] or ""))
  end
  if option ~= "isrunning" then core.collectgarbage("collect") end
  return answer
end

-- os.clock is gone: the time an action takes differs from run to run, so a
-- rule that read it would replay another way. A pack that still calls it
-- learns what to write instead.
local function removed_clock()
  fault("os.clock is not available to rules: the time an action takes differs from run to run, so a replay"
    .. " would go another way; count turns in the game state instead (game.turn = game.turn + 1)")
end

-- The budget error is raised from inside the count hook, and Lua runs a
-- message handler before unwinding, still inside the hook, where hooks are
-- off: `xpcall(f, function() while true do end end)` would never be
-- stopped. Once the budget is spent, a rule's handler is skipped. So it is
-- once the watchdog stopped a watched call (charge(0) is true then too; the
-- call runs again counted, see vm.c).
local function safe_xpcall(f, handler, ...)
  if type(handler) ~= "function" then return xpcall(f, handler, ...) end
  return xpcall(f, function(e)
    if charge(0) then return e end
    return handler(e)
  end, ...)
end

local function safe_print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = identity((select(i, ...))) end
  C.host("print", concat(parts, "\t"))
end

-- load: compiling is C work too, charged LOAD_BYTES_PER_INSTRUCTION per
-- byte of source before it is compiled (a reader function's pieces as it
-- hands them over): measured 12 ns a byte, against 1.4 ns a plain
-- instruction, so a budget spent compiling ends within about 0.12 s. A chunk's name never starts with '@', which marks the
-- pack's own files: a name a rule gives (`load(s, "@/etc/passwd")`) is
-- shown in messages, but coverage reports name only files of the pack.
local LOAD_BYTES_PER_INSTRUCTION = 1
local function loadcharge(text)
  if type(text) == "string" then spend(#text // LOAD_BYTES_PER_INSTRUCTION) end
  return text
end

local function chunkname(name)
  if type(name) ~= "string" then return "=(load)" end
  local first = byte(name, 1)
  if first == 64 or first == 61 then name = name:sub(2) end   -- @ or =
  return "=" .. name
end

local function safe_load_for(env)
  return function(chunk, name, mode, chunkenv)
    if type(chunk) == "string" and chunk:byte(1) == 27 then
      return nil, "binary chunks are not allowed"
    end
    if chunkenv == nil then chunkenv = env end
    if type(chunk) == "function" then
      local reader = chunk
      chunk = function() return loadcharge(reader()) end
    else
      loadcharge(chunk)
    end
    return load(chunk, chunkname(name), "t", chunkenv)
  end
end

-- coroutine.resume, wrap and close switch the running thread. Their C
-- versions (coroutine.c, the same code and messages as Lua's) give the thread
-- about to run the call's instruction hook, and tell the watchdog which
-- thread runs, so it can stop a loop inside a coroutine. They replace the
-- entries of the library table itself, so package.loaded and tracebacks
-- name them as before.
coroutine.resume, coroutine.wrap, coroutine.close = C.coresume, C.cowrap, C.coclose

-- A library table as rules see it: a pack may add to it while it loads,
-- but once the game runs it is read-only, as the globals are. Nothing would
-- undo a change, so `string.rep = nil` in one action would break every
-- action after it, and a replay would not see it.
LIBRARIES = setmetatable({}, { __mode = "k" })   -- the read-only face -> the table behind it

local function readonly(pack, name, lib)
  local face = setmetatable({}, {
    __index = lib,
    __newindex = function(_, k, v)
      if pack.loading then lib[k] = v; return end
      fault("'" .. name .. "." .. tostring(k) .. "' assigned while the game runs; the libraries are read-only"
        .. " then (nothing would undo the change); set up helpers of your own in a module instead")
    end,
    __pairs = function() return core.orderedpairs(lib) end,
    __len = function() return rawlen(lib) end,
    __metatable = "the " .. name .. " library",
  })
  LIBRARIES[face] = lib
  return face
end

-- table.move, table.sort (without a comparator, all in C) and full
-- collections: charged by the elements they touch, the heap they walk.
local TABLE = copy(table)
C.chargework(TABLE, "table")
local move, sort = table.move, table.sort
function TABLE.move(a1, f, e, t, a2)
  local from, to = tointeger(f), tointeger(e)
  if from and to and to >= from then spend((to + 0.0) - from + 1) end   -- one per element (in floats: no wrap)
  return move(a1, f, e, t, a2)
end
-- Lua picks its pivots from the clock (ltablib.c, l_randomizePivot) once a
-- partition of 128 or more elements comes out badly unbalanced; elements a
-- comparator calls equal may then end in another order from run to run.
-- From 128 elements on, a comparator's ties are broken by the places the
-- elements held before the sort (as a stable sort orders them), so the
-- result is the one order the comparator allows, whatever the pivots.
local STABLE_FROM = 128
local function tiebroken(list, n, less)
  local place = {}
  for i = n, 1, -1 do
    local v = list[i]
    if v ~= nil and v == v then place[v] = i end     -- a value twice: its first place (the copies are alike)
  end
  return function(a, b)
    if less(a, b) then return true end
    if less(b, a) then return false end
    return (place[a] or 0) < (place[b] or 0)
  end
end

function TABLE.sort(list, less)
  local n = type(list) == "table" and safe_rawlen(list) or 0
  -- With a comparator too: a C function as the comparator (rawequal, say)
  -- runs no instruction at all.
  if n > 1 then spend(n * math.ceil(math.log(n, 2))) end
  if n >= STABLE_FROM and type(less) == "function" then less = tiebroken(list, n, less) end
  return sort(list, less)
end
local GC_CHARGED = { collect = true, step = true }   -- each a full collection (safe_collectgarbage)
local function charged_collectgarbage(option, ...)
  if GC_CHARGED[option or "collect"] then
    spend(floor(core.collectgarbage("count") * 16))   -- 16 instructions a KiB of heap walked
  end
  return safe_collectgarbage(option, ...)
end

local UTF8, MATH, BASE = copy(utf8), copy(math), { select = select, tonumber = tonumber, assert = assert }
C.chargework(UTF8, "utf8")
C.chargework(MATH, "math")
C.chargework(BASE, "base")

local function library(pack)
  local math_ = copy(MATH)
  math_.random = function(m, n) return rulebench.rulebench.random(state.game(), m, n) end
  math_.randomseed = function() fault("the engine seeds the random generator; see require 'rulebench'") end
  return {
    assert = BASE.assert, error = error, ipairs = ipairs, next = SEEDEDNEXT and next or safe_next, pairs = safe_pairs,
    pcall = pcall, xpcall = safe_xpcall, select = BASE.select, tonumber = BASE.tonumber, tostring = identity,
    type = type, rawequal = rawequal, rawget = safe_rawget, rawset = safe_rawset,
    rawlen = safe_rawlen, setmetatable = safe_setmetatable, getmetatable = getmetatable,
    collectgarbage = charged_collectgarbage, print = safe_print, _VERSION = _VERSION,
    string = readonly(pack, "string", copy(STRING)), table = readonly(pack, "table", copy(TABLE)),
    math = readonly(pack, "math", math_), utf8 = readonly(pack, "utf8", copy(UTF8)),
    coroutine = readonly(pack, "coroutine", copy(coroutine)), os = readonly(pack, "os", { clock = removed_clock }),
  }
end

local MODULE_NAME = "^[%a_][%w_]*$"
local function validname(name)
  for part in (name .. "."):gmatch("([^.]*)%.") do
    if not part:match(MODULE_NAME) then return false end
  end
  return true
end

-- The module loads under way, innermost last. A load that an exhausted
-- budget stopped cannot finish its own bookkeeping (the count hook then
-- raises at every instruction), so the kernel closes them after the
-- operation is rolled back (M.closeloads, from abort): the module is not
-- loaded, and the globals are frozen again.
local OPENLOADS = {}

function M.closeloads()
  for i = #OPENLOADS, 1, -1 do
    local open = OPENLOADS[i]
    open.pack.modules[open.name] = nil
    open.pack.loading = open.wasloading
    OPENLOADS[i] = nil
  end
end

-- require: the pack's own modules, then its base pack's, then 'rulebench'.
local function requirer(pack)
  local LOADING = {}
  local function find(p, name)
    local cached = p.modules[name]
    if cached == LOADING then fault("module '" .. name .. "' requires itself (a require cycle)") end
    if cached ~= nil then return cached end
    -- A module compiled before (the pack was reloaded) runs again as it is.
    local chunk = p.compiled[name]
    if chunk == false then
      if p.base then return find(p.base, name) end
      return nil
    end
    if chunk == nil then
      local reply = C.host("module", p.dir .. "\n" .. name)
      if reply == "" then
        p.compiled[name] = false
        if p.base then return find(p.base, name) end
        return nil
      end
      local chunkname, source = reply:match("^([^\n]*)\n(.*)$")
      local message
      chunk, message = load(source, "@" .. chunkname, "t", p.env)
      if not chunk then
        if message:find("^attempt to load") then message = chunkname .. ": " .. message end
        error(message, 0)
      end
      p.compiled[name] = chunk
    end
    core.debug.setupvalue(chunk, 1, p.env)   -- the pack's current globals
    p.modules[name] = LOADING
    local wasloading = p.loading
    p.loading = true
    local open = { pack = p, name = name, wasloading = wasloading }
    OPENLOADS[#OPENLOADS + 1] = open
    -- Its top level cannot yield: a load left suspended in a coroutine
    -- would keep the globals open for the rest of the game.
    late.rulecover(true)
    local ok, result = pcall(C.callnoyield, chunk, name)
    late.rulecover(false)
    OPENLOADS[#OPENLOADS] = nil
    p.loading = wasloading
    if not ok then
      p.modules[name] = nil
      if type(result) == "string" and result:find("attempt to yield across a C-call boundary", 1, true) then
        result = result .. " (module '" .. name .. "' yielded while it loaded; a module's top level cannot yield)"
      end
      error(result, 0)
    end
    if result == nil then result = true end
    p.modules[name] = result
    return result
  end
  return function(name)
    if name == "rulebench" then return rulebench.rulebench end
    if type(name) ~= "string" or not validname(name) then
      fault("require loads only this pack's modules and 'rulebench'; " .. core.show(name) .. " is not a module name")
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
function M.newenv(pack)
  local base = library(pack)
  local env = {}
  base.load = safe_load_for(env)
  base.require = requirer(pack)
  base._G = env
  ENVS[env] = pack
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

return M
