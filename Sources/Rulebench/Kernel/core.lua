-- The kernel is the engine's own Lua code. It runs inside the game's Lua
-- state so that state reads and writes stay inside the VM (a Lua table read
-- costs about ten nanoseconds; a crossing into Swift costs several times
-- that). Swift calls it once per operation, never per field.
--
-- It is split into parts by concern. Each part is a chunk (a module) that
-- receives the modules it uses as its arguments and returns its own table;
-- KernelSource.swift lists each part with what it receives, in an order
-- where every part receives only parts loaded before it (checked there, and
-- by KernelModulesTests against each file's first line). This part is the
-- bootstrap: it captures the standard library before any rule can touch it,
-- and defines the helpers every other part uses.
--
-- Receives: C, the C helpers (LuaShim). Returns: the helpers, `API` (the
-- table of entry points Swift calls, KernelEntry.swift; each part adds its
-- own), and `late` (below), the one way a part calls a later part.

local C = ...
local M = { C = C }
local API = {}
M.API = API

-- Late-bound functions: where a part must call a function of a part loaded
-- after it (the call would close a cycle), it declares the slot here
-- (`late(part, names)`, which returns the slots and the part's `provide`);
-- the later part fills it when it loads, through the earlier part's
-- `provide` (so it names, in its own head, the part it serves).
-- kernel.lua checks that every slot is filled before Swift can call.
local LATE = {}   -- part name -> { slots = the slots, names = { name = true } }
function M.late(part, names)
  local slots, declared = {}, {}
  for i = 1, #names do declared[names[i]] = true end
  LATE[part] = { slots = slots, names = declared }
  local function provide(name, f)
    if not declared[name] or slots[name] ~= nil then
      error(part .. ": no open late slot '" .. tostring(name) .. "'", 2)
    end
    slots[name] = f
  end
  return slots, provide
end
-- The slots still empty, sorted ("part.name"): none once the kernel is loaded.
function M.latemissing()
  local missing = {}
  for part, late in next, LATE do
    for name in next, late.names do
      if late.slots[name] == nil then missing[#missing + 1] = part .. "." .. name end
    end
  end
  table.sort(missing)
  return missing
end

-- Capture everything the kernel needs before removing it from the globals.
M.debug = debug
M.G = _G
M.collectgarbage = collectgarbage
-- Generational collection: a step makes many short-lived tables (records,
-- params, plans) beside a long-lived state, which is what it is for; it
-- doubled explore's speed. Rules cannot change the mode (sandbox.lua).
-- Its two multipliers (Lua's defaults are 20 and 100): a minor collection
-- once the heap has grown GC_MINOR% since the last one, a major one once it
-- has grown GC_MAJOR% over what the last major one left. A fuzz run's
-- history grows through the run, and each major collection walks the whole
-- kernel (its code, the pack's, the state): at Lua's defaults they came
-- every 200 steps of template. Measured (callgrind, `--loop-kernel`, row 1k
-- of BENCHMARKS.md): 10k fewer instructions a checked step of template
-- (1.9%), 21k of desert (1.5%); the heap may reach (1 + 1) x (1 + 2) = 6
-- times what a full collection leaves (2.4 at the defaults;
-- KernelCollectorTests). No answer depends on when the collector runs:
-- identities are numbered, not addressed (identity.lua), and the memory
-- cap collects in full before it refuses (alloc.c).
M.GC_MINOR, M.GC_MAJOR = 100, 200
collectgarbage("generational", M.GC_MINOR, M.GC_MAJOR)
debug, os, dofile, loadfile, require, collectgarbage = nil, nil, nil, nil, nil, nil

local type, pairs, next, error, setmetatable, tostring, select =
      type, pairs, next, error, setmetatable, tostring, select
local math_type, floor, huge = math.type, math.floor, math.huge
local format, concat, sort = string.format, table.concat, table.sort
local getinfo = M.debug.getinfo
-- Defined by state.lua (backing) and identity.lua (tostring, unordered).
local late, provide = M.late("core", { "backing", "tostring", "unordered" })
M.provide = provide

-- Kernel error objects: tables marked with the C side's metatable, so the
-- message handler passes them through without a traceback. Swift reads
-- their fields (kind, message, action, invariant, file, line), never their
-- text. `fields.fn`, when given, is the rule function to blame: its file and
-- line become the error's location.
local ERRMETA = C.errormeta
function M.fail(kind, message, fields)
  local e = fields or {}
  e.kind, e.message = kind, message
  if e.fn then e.file, e.line = M.site(e.fn); e.fn = nil end
  error(setmetatable(e, ERRMETA), 0)
end

-- The file name of a chunk source, in full (short_src truncates long paths).
function M.chunkname(source)
  local first = source:sub(1, 1)
  if first == "@" or first == "=" then return source:sub(2) end
  return "[string]"
end

-- "file:line: " of the innermost frame that belongs to a rule pack, skipping
-- the kernel's own frames and C functions (table.insert, for instance).
function M.where(level, limit)
  level = level or 2
  limit = limit and level + limit or math.huge
  while level < limit do
    local info = getinfo(level, "Sl")
    if not info then return "" end
    if info.currentline and info.currentline > 0 and info.source:sub(1, 10) ~= "=rulebench" then
      return M.chunkname(info.source) .. ":" .. info.currentline .. ": "
    end
    level = level + 1
  end
  return ""
end

-- "file:line" where a function is defined.
local DEFINED = setmetatable({}, { __mode = "k" })
function M.defined(f)
  if type(f) ~= "function" then return nil end
  local where = DEFINED[f]
  if not where then
    local info = getinfo(f, "S")
    where = M.chunkname(info.source) .. ":" .. (info.linedefined or 0)
    DEFINED[f] = where
  end
  return where
end

-- The file and line where a function is defined, as two values.
function M.site(f)
  local info = getinfo(f, "S")
  return M.chunkname(info.source), info.linedefined or 0
end

-- A total, deterministic order on keys: numbers, then strings, then booleans.
local RANK = { number = 1, string = 2, boolean = 3 }
local function keyless(a, b)
  local ta, tb = type(a), type(b)
  if ta == tb then
    if ta == "number" or ta == "string" then return a < b end
    if ta == "boolean" then return (not a) and b end
    return false
  end
  return (RANK[ta] or 4) < (RANK[tb] or 4)
end
M.keyless = keyless

-- Keys of one type (the usual case) sort with Lua's native comparison,
-- which is several times faster than calling `keyless` per comparison.
-- The third result says whether they did: all strings, or all numbers.
function M.sortedkeys(t)
  local keys, n, kind, mixed = {}, 0, nil, false
  for k in next, t do
    n = n + 1; keys[n] = k
    local tk = type(k)
    if kind == nil then kind = tk elseif tk ~= kind then mixed = true end
  end
  local native = not mixed and (kind == "string" or kind == "number")
  if native then sort(keys) else sort(keys, keyless) end
  return keys, n, native
end

-- Ordered pairs over a plain table: the order rules see must not depend on
-- Lua's per-process string hash seed. Returns the iterator triple and, when
-- the table has two keys of kinds without an order (two tables, or a table
-- and a function, say), those kinds (identity.unordered, identity.lua): no order
-- of them would be the same in every process.
function M.orderedpairs(t)
  local keys, n, native = M.sortedkeys(t)
  local kinds = late.unordered(keys, n, native)
  if kinds then return nil, nil, nil, kinds end
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    while k ~= nil and t[k] == nil do i = i + 1; k = keys[i] end
    if k ~= nil then return k, t[k] end
  end, t, nil
end

-- The wire format shared with Swift (decoded in C by C.decode):
-- n t f | i<int>; | d<16 hex bits> | s<len>:<bytes> | { k v ... }
-- Encoding is in C (rb_encode): in Lua it cost more than the actions.
M.encode = C.encode
M.decode = C.decode

-- A readable, bounded rendering of a value for messages and diffs.
local function show(v, depth)
  local t = type(v)
  if t == "string" then return format("%q", v) end
  if t == "number" then
    if math_type(v) == "float" then
      local s = format("%.17g", v)
      if not s:find("[%.eEn]") then s = s .. ".0" end
      return s
    end
    return tostring(v)
  end
  if t ~= "table" then return late.tostring(v) end   -- no address (identity.lua)
  local raw = late.backing and late.backing(v) or v
  if (depth or 0) >= 2 then return "{...}" end
  local keys, n = M.sortedkeys(raw)
  local parts = {}
  for i = 1, n do
    if i > 6 then parts[#parts + 1] = "..."; break end
    local k = keys[i]
    local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or ("[" .. show(k, 2) .. "]")
    parts[#parts + 1] = key .. " = " .. show(raw[k], (depth or 0) + 1)
  end
  return "{" .. concat(parts, ", ") .. "}"
end
M.show = show

-- " (did you mean 'x'?)" for the closest candidate within a small edit distance.
-- "Did you mean": the same rule as Swift's Suggestion (Kernel/Suggestion.swift):
-- the nearest candidate by edit distance, case ignored and a swap of two
-- neighbours counted as one edit, when it is at most a third of the
-- candidate's length away (1 to 3 edits) or starts with what was written.
-- Only called on error paths.
local function distance(a, b)
  local previous2, previous = {}, {}
  for j = 0, #b do previous[j] = j end
  for i = 1, #a do
    local current = { [0] = i }
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      current[j] = math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1 and j > 1 and a:byte(i) == b:byte(j - 1) and a:byte(i - 1) == b:byte(j) then
        current[j] = math.min(current[j], previous2[j - 2] + 1)
      end
    end
    previous2, previous = previous, current
  end
  return previous[#b]
end
function M.suggest(word, candidates)
  local lowered = word:lower()
  local best, bestd
  sort(candidates)
  for _, c in ipairs(candidates) do
    local d = distance(lowered, c:lower())
    if not bestd or d < bestd then best, bestd = c, d end
  end
  if not best then return "" end
  local allowed = math.max(1, math.min(3, #best // 3))
  local prefix = #lowered >= 2 and best:lower():sub(1, #lowered) == lowered
  if bestd > allowed and not prefix then return "" end
  return " (did you mean '" .. best .. "'?)"
end

return M
