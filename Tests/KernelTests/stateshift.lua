-- Kernel tests: table.insert and table.remove on a state table. Rules call
-- the sandbox's charged wrappers (workcost.c), which move the elements of
-- a state table in statecore.c (rb_state_shift) against its backing table.
-- The long way is the library function itself (the kernel's own
-- table.insert), each element a lua_seti through the barrier. Both must
-- make the same journal entries, state, hash, slot-change count and key
-- order, raise the same errors, and be undone alike.
local K = ...

local SHIFT = { insert = table.insert, remove = table.remove }
K.C.chargework(SHIFT, "table")   -- the wrappers a rule's table library holds
assert(SHIFT.insert ~= table.insert and SHIFT.remove ~= table.remove)
local LONG = { insert = table.insert, remove = table.remove }
local SC = K.C.state

local game = K.newroot()
K.setwritable(true, "a kernel test")
game.spare = { tag = "moved" }             -- a state table an insert moves into the list
game.deep = {}
do   -- a list below more parents than a free walk: the shift leaves it to the library
  local t = game.deep
  for _ = 1, 34 do t.down = {}; t = t.down end
  t.list = {}
end
local function deeplist()
  local t = game.deep
  for _ = 1, 34 do t = t.down end
  return t.list
end

local LONGSTRING = string.rep("long ", 20)   -- over 64 bytes: its hash is memoised by the barrier
-- The lists: scalars of every kind, tables (moved, not copied), values the
-- barrier handles on its own or hands on, holes.
local LISTS = {
  {},
  { "a" },
  { "a", "b", "c", "d", "e" },
  { 1, 2.5, true, false, "x", -7, 0.0, LONGSTRING, 3 },
  { { n = 1 }, "b", { n = 3 }, { n = 4 } },
  { "a", "a", "a", 1, 1, 1.0, "a" },
  { "a", nil, "c", "d" },
  { nil, nil, "c" },
  [9] = { "a", "b", nil, nil, "e", "f" },
}

-- What a change left: the state under game.list, the whole hash, the
-- journal's entries since `from`, slots changed, the keys pairs gives.
local function outcome(from, changes0, results)
  local keys = {}
  for k in pairs(game.list) do keys[#keys + 1] = k end
  return { plain = K.plain(game.list), hash = K.hash(), entries = K.entries(from), mark = K.mark(),
           changes = SC.changes() - changes0, keys = keys, results = results }
end

local function describe(v)
  if type(v) == "table" then return "table " .. tostring(K.NODE[v] ~= nil) end
  return math.type(v) or type(v) .. ":" .. tostring(v)
end

-- Journal entries compare by identity (records, tables moved), scalars by value and subtype.
local function sameentries(a, b)
  if #a ~= #b then return false, "entries " .. #a .. " against " .. #b end
  for i = 1, #a do
    for j = 1, 3 do
      local x, y = a[i][j], b[i][j]
      if not (rawequal(x, y) and math.type(x) == math.type(y)) then
        return false, "entry " .. i .. " field " .. j .. ": " .. describe(x) .. " against " .. describe(y)
      end
    end
  end
  return true
end

-- Runs op (with the given library) on game.list; returns what it left,
-- then undoes it by journal (as an undo without a rule does), checks the
-- undo verifies, and rolls everything back to the list as it was.
local function run(lib, op, where)
  local h0, from, changes0, serial0 = K.hash(), K.mark(), SC.changes(), K.serial()
  local before = K.plain(game.list)
  for _ in pairs(game.list) do end   -- the sorted keys cached: a change of the key set must clear them
  local ok, results = pcall(function() return table.pack(op(lib, game.list)) end)
  local got = outcome(from, changes0, ok and results or { error = tostring(results) })
  local done = K.mark()
  K.revert(from, done)
  assert(K.hash() == h0, where .. ": undo by journal restores the hash")
  assert(K.verify(from, done, done, K.mark(), serial0) == nil, where .. ": the undo verifies")
  got.undone = K.plain(game.list)
  assert(same(got.undone, before), where .. ": undone")
  K.rollback(from)
  assert(K.hash() == h0, where .. ": rolled back")
  return got
end

-- The same change both ways, on the same state tables (so journal entries
-- compare by identity).
local function check(list, op, where)
  local base = K.mark()
  game.list = K.plain(list)
  local fast, long = run(SHIFT, op, where), run(LONG, op, where)
  K.rollback(base)
  assert(same(fast.plain, long.plain), where .. ": the same state")
  assert(fast.hash == long.hash, where .. ": the same hash")
  local ok, why = sameentries(fast.entries, long.entries)
  assert(ok, where .. ": the same journal (" .. tostring(why) .. ")")
  assert(fast.changes == long.changes, where .. ": the same slot changes")
  assert(same(fast.keys, long.keys), where .. ": the same keys in pairs")
  local fr, lr = fast.results, long.results
  assert(fr.n == lr.n and fr.error == lr.error, where .. ": the same results or error: "
    .. tostring(fr.error) .. " / " .. tostring(lr.error))
  for i = 1, (fr.n or 0) do
    assert(rawequal(fr[i], lr[i]) or same(K.plain(fr[i]), K.plain(lr[i])), where .. ": the same value removed")
  end
end

-- Values inserted (a fresh table each time: it becomes a state table).
local VALUES = { "new", 42, 0.5, -0.0, false, LONGSTRING, "table", 0 / 0 }
local function value(vi)
  if VALUES[vi] == "table" then return { fresh = true } end
  return VALUES[vi]
end
local shifted = 0
for li = 1, 9 do
  local list = LISTS[li]
  local n = #list
  for pos = -1, n + 2 do
    for vi = 1, #VALUES do
      check(list, function(lib, t) return lib.insert(t, pos, value(vi)) end,
        "list " .. li .. " insert at " .. pos .. " of " .. describe(VALUES[vi]))
      shifted = shifted + 1
    end
    check(list, function(lib, t) return lib.remove(t, pos) end, "list " .. li .. " remove at " .. pos)
    check(list, function(lib, t) return lib.insert(t, pos, game.spare) end, "list " .. li .. " insert a state table at " .. pos)
  end
  check(list, function(lib, t) return lib.insert(t, "new") end, "list " .. li .. " insert at the end")
  check(list, function(lib, t) return lib.remove(t) end, "list " .. li .. " remove at the end")
  check(list, function(lib, t) return lib.remove(t, nil) end, "list " .. li .. " remove at nil")
  check(list, function(lib, t) return lib.insert(t, 1.0, "x") end, "list " .. li .. " insert at 1.0")
  check(list, function(lib, t) return lib.insert(t, "1", "x") end, "list " .. li .. " insert at \"1\"")
  check(list, function(lib, t) return lib.insert(t, 1.5, "x") end, "list " .. li .. " insert at 1.5")
  check(list, function(lib, t) return lib.remove(t, "x") end, "list " .. li .. " remove at \"x\"")
  check(list, function(lib, t) return lib.insert(t, 1, "x", "y") end, "list " .. li .. " insert with four arguments")
  check(list, function(lib, t) return lib.insert(t) end, "list " .. li .. " insert with one argument")
end
assert(shifted > 300)

-- A list below more parents than a free parent walk: the library's way (the barrier charges the walk).
local deepfrom = K.mark()
local list = deeplist()
SHIFT.insert(list, "a"); SHIFT.insert(list, 1, "b"); SHIFT.insert(list, 2, { n = 1 })
assert(same(K.plain(list), { "b", { n = 1 }, "a" }))
assert(SHIFT.remove(list, 1) == "b" and same(K.plain(list), { { n = 1 }, "a" }))
K.rollback(deepfrom)
assert(#deeplist() == 0)

-- The fast pass of undo verification (statecore.c's clean) decides on its
-- own when an undo restored every slot, for entries of several nodes in
-- runs (a shift's) and interleaved, and says no when one slot differs.
do
  local base = K.mark()
  game.a, game.b = { 1, 2, 3 }, { x = "p", y = "q" }
  local from, serial0 = K.mark(), K.serial()
  game.a[1] = 10; game.b.x = "r"; game.a[2] = 20; game.a[3] = 30; game.b.y = "s"; game.a[1] = 11
  SHIFT.insert(game.a, 1, 0)
  SHIFT.remove(game.a, 2)
  game.b.z = "t"
  local done = K.mark()
  K.revert(from, done)
  assert(SC.clean(from, done, done, K.mark(), serial0), "an exact undo is clean in C")
  game.b.y = "s"
  assert(not SC.clean(from, done, done, K.mark(), serial0), "one slot differs")
  assert(K.verify(from, done, done, K.mark(), serial0)[1].path == "b.y")
  K.rollback(base)
end

-- Read-only: the same error as a write, with nothing changed.
game.list = { "a", "b" }
local h = K.hash()
K.setwritable(false, "a kernel test's check")
fails(function() SHIFT.insert(game.list, 1, "x") end, "read%-only in a kernel test's check")
fails(function() SHIFT.remove(game.list, 1) end, "read%-only in a kernel test's check")
assert(K.hash() == h and same(K.plain(game.list), { "a", "b" }))

-- A plain table is the library's own business.
local plain = { 1, 2, 3 }
SHIFT.insert(plain, 1, 0)
assert(SHIFT.remove(plain) == 3 and same(plain, { 0, 1, 2 }))
K.truncate(0)
