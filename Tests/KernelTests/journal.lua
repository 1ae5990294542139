-- Kernel tests: the journal (statecore.c keeps its entries in a C array,
-- with what the collector must see anchored in a Lua table). Every write
-- must be one entry, in order, with the record, key and old value exactly
-- as they were; rollback, revert and truncate must drop and replay them
-- newest first; the fast pass of verification (clean) must compare each
-- kind of old value (nil, boolean, integer, float, string, table) by value
-- and subtype, or by identity for tables.
local K = ...
local SC = K.C.state
local NIL = K.NIL

local game = K.newroot()
K.setwritable(true, "a kernel test")
game.a = { n = 1, [1] = "one", [2] = 2.5 }
game.b = { flag = true }
game.spare = { tag = "moved" }
K.truncate(0)

local LONGKEY = string.rep("k", 30)   -- a key the barrier hashes byte by byte
local LONGVALUE = string.rep("v", 80)  -- over the barrier's memo threshold

-- The writes, each (table, key, value): every kind of old and new value,
-- integer and string keys, runs of one table and switches between tables.
local function writes()
  local a, b = game.a, game.b
  return {
    { a, "n", 2 }, { a, "n", 2.0 }, { a, "n", "two" }, { a, "n", false }, { a, "n", nil },
    { b, "flag", 3 }, { a, 1, "uno" }, { a, 1, LONGVALUE }, { b, LONGKEY, 1 }, { a, 2, 0.25 },
    { b, "flag", game.spare }, { a, "moved", game.spare }, { b, LONGKEY, nil }, { a, 3, true },
    { game, "c", { deep = { 1 } } }, { a, 1, nil }, { game, "c", nil },
  }
end

local function describe(v)
  if type(v) == "table" then return "table " .. tostring(K.NODE[v] ~= nil) end
  return (math.type(v) or type(v)) .. ":" .. tostring(v)
end

-- Plays the writes; returns what each should journal (record, key, old),
-- and before each write the journal's mark, the hash and the plain state.
local function play(list)
  local expected, befores = {}, {}
  for i, w in ipairs(list) do
    local t, k, v = w[1], w[2], w[3]
    local old = K.backing(t)[k]
    befores[i] = { mark = K.mark(), hash = K.hash(), plain = K.plain(game) }
    -- A state table moved here empties its old slot first: that write comes first.
    local m = type(v) == "table" and K.NODE[v]
    if m and m.up then expected[#expected + 1] = { m.up, m.key, v } end
    expected[#expected + 1] = { K.NODE[t], k, old == nil and NIL or old }
    t[k] = v
  end
  return expected, befores
end

local function sameentry(a, b)
  for j = 1, 3 do
    if not (rawequal(a[j], b[j]) and math.type(a[j]) == math.type(b[j])) then
      return false, "field " .. j .. ": " .. describe(a[j]) .. " against " .. describe(b[j])
    end
  end
  return true
end

local function checkentries(got, want, where)
  assert(#got == #want, where .. ": " .. #got .. " entries against " .. #want)
  for i = 1, #want do
    local ok, why = sameentry(got[i], want[i])
    assert(ok, where .. ": entry " .. i .. " " .. tostring(why))
  end
end

-- Every write one entry, in order, exactly.
local h0, p0 = K.hash(), K.plain(game)
local from = K.mark()
local expected = play(writes())
checkentries(K.entries(from), expected, "the writes")
assert(K.mark() == from + 3 * #expected)

-- written(from): each slot written, with its first entry's old value.
local want, got, slots = {}, K.written(from), 0
for _, e in ipairs(expected) do
  local f = want[e[1]] or {}
  want[e[1]] = f
  if f[e[2]] == nil then f[e[2]] = e[3]; slots = slots + 1 end
end
for m, f in next, got do
  for k, old in next, f do
    local w = want[m] and want[m][k]
    assert(rawequal(w, old) and math.type(w) == math.type(old), "written: " .. tostring(k) .. " " .. describe(old))
    slots = slots - 1
  end
end
assert(slots == 0, "written: every slot once")

-- Rollback one entry at a time passes through every state before, newest first.
local marks, n = {}, 0
for i = 1, #expected do marks[i] = from + 3 * (i - 1) end
for i = #expected, 1, -1 do
  K.rollback(marks[i])
  checkentries(K.entries(from), { table.unpack(expected, 1, i - 1) }, "rolled back to " .. i)
  n = n + 1
end
assert(n == #expected and K.hash() == h0 and same(K.plain(game), p0), "rolled back to the start")

-- The same writes again, then collections: what the journal holds (a long
-- key, a long string, a detached table) must survive, and rollback restore it.
game.a = { n = 1, [1] = "one", [2] = 2.5 }
game.b = { flag = true }
game.spare = { tag = "moved" }
K.truncate(0)
h0, p0 = K.hash(), K.plain(game)
from = K.mark()
local befores
expected, befores = play(writes())
for _ = 1, 3 do K.collectgarbage("collect") end
checkentries(K.entries(from), expected, "after collections")
for i = #befores, 1, -1 do
  K.rollback(befores[i].mark)
  K.collectgarbage("collect")
  local ok = K.hash() == befores[i].hash and same(K.plain(game), befores[i].plain)
  assert(ok, "rollback past write " .. i .. " restores the state before it")
end

-- Revert writes the old values back newest first, as new entries; undone
-- that way, the fast pass and Lua's verification agree that it is clean.
local serial0 = K.serial()
expected = play(writes())
local done = K.mark()
K.revert(from, done)
local back = K.entries(done)
assert(#back == #expected, "one entry a reverted entry")
for i = 1, #back do
  local want = expected[#expected + 1 - i]
  assert(back[i][1] == want[1] and back[i][2] == want[2], "revert entry " .. i .. " is entry " .. #expected + 1 - i .. "'s slot")
end
assert(K.hash() == h0 and same(K.plain(game), p0), "reverted")
assert(SC.clean(from, done, done, K.mark(), serial0), "an exact undo is clean in C")
assert(K.verify(from, done, done, K.mark(), serial0) == nil, "and in Lua")
K.rollback(from)

-- The fast pass tells each kind of old value from a near one: 1 from 1.0,
-- a string from another, false from nil, a table from a copy of it.
local function differs(key, first, near)
  game.a[key] = first
  local base = K.mark()
  local s0 = K.serial()
  game.a[key] = "something else"
  local d = K.mark()
  game.a[key] = near
  assert(not SC.clean(base, d, d, K.mark(), s0), describe(first) .. " against " .. describe(near) .. ": not clean")
  local diffs = K.verify(base, d, d, K.mark(), s0)
  assert(diffs and #diffs == 1 and diffs[1].path == "a." .. key, "the diff names a." .. key)
  game.a[key] = game.a[key]   -- no change: no entry
  K.rollback(base)
  game.a[key] = "something else"
  K.revert(base, d)
  assert(SC.clean(base, d, d, K.mark(), s0), describe(first) .. " put back: clean")
  K.rollback(from)
end
differs("x", 1, 1.0)
differs("x", 1.5, 2.5)
differs("x", "abc", "abd")
differs("x", LONGVALUE, LONGVALUE .. "!")
differs("x", false, nil)
differs("x", true, false)
differs("x", nil, false)
differs("x", { 1 }, { 1 })

-- Truncate forgets entries without undoing them; later writes journal
-- after the mark, also for the table the last kept entry wrote.
game.a.n = 10
local keep = K.mark()
game.b.flag = 11
game.a.n = 12
K.truncate(keep)
assert(K.mark() == keep and game.a.n == 12 and game.b.flag == 11, "truncate changes no slot")
game.a.n = 13
local got = K.entries(keep)
assert(#got == 1 and got[1][1] == K.NODE[game.a] and got[1][2] == "n" and got[1][3] == 12, "after a truncate")
K.collectgarbage("collect")
K.rollback(from)
assert(game.a.n == 1, "rolled back through a truncate: the first write's old value")
K.truncate(0)
assert(K.mark() == 0)
