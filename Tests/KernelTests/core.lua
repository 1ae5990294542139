-- Kernel tests: core.lua (ordering, rendering, suggestions, error objects).
-- Run by KernelLuaTests.swift: each file gets the kernel table K and the
-- helpers `fails` and `same` (see engine.lua, API.selftest).
local K = ...

-- sortedkeys: numbers, then strings, then booleans; one type sorts natively.
local keys, n = K.sortedkeys({ b = 1, a = 2, [3] = 0, [1] = 0, [true] = 0 })
assert(n == 5)
assert(same(keys, { 1, 3, "a", "b", true }))
assert(same((K.sortedkeys({ z = 1, y = 1 })), { "y", "z" }))

-- orderedpairs visits keys in that order, and skips keys removed meanwhile.
local seen = {}
local t = { c = 1, a = 2, b = 3 }
for k in K.orderedpairs(t) do
  seen[#seen + 1] = k
  if k == "a" then t.b = nil end
end
assert(same(seen, { "a", "c" }))

-- show: readable, bounded, exact for floats.
assert(K.show("x") == '"x"')
assert(K.show(3) == "3")
assert(K.show(3.0) == "3.0")
assert(K.show(0.1) == "0.10000000000000001")
assert(K.show({ b = 1, a = { 1, 2 } }) == "{a = {[1] = 1, [2] = 2}, b = 1}")
assert(K.show({ { { { 1 } } } }) == "{[1] = {[1] = {...}}}")

-- suggest: the closest name within a small edit distance, or nothing.
assert(K.suggest("mvoe", { "move", "dig" }) == " (did you mean 'move'?)")
assert(K.suggest("zzzzzz", { "move", "dig" }) == "")
-- The rule of Swift's Suggestion: case ignored, a swap is one edit, at most
-- a third of the candidate's length (1 to 3 edits), or a prefix of it.
assert(K.suggest("MOVE", { "move" }) == " (did you mean 'move'?)")
assert(K.suggest("subanimatoins", { "subanimations", "sound" }) == " (did you mean 'subanimations'?)")
assert(K.suggest("pl", { "players", "length" }) == " (did you mean 'players'?)")
assert(K.suggest("dog", { "dig" }) == " (did you mean 'dig'?)")
assert(K.suggest("dxx", { "dig" }) == "", "two edits in three letters is not a typo")
assert(K.suggest("x", {}) == "")

-- fail: a kernel error object with its fields; `fn` becomes file and line.
local function here() end
local ok, e = pcall(K.fail, "rejected", "no", { action = "move", fn = here })
assert(not ok and e.kind == "rejected" and e.message == "no" and e.action == "move")
assert(e.file:match("core%.lua$") and e.line > 0 and e.fn == nil)

-- chunkname: the file of a chunk source, in full.
assert(K.chunkname("@rules/x/pack.lua") == "rules/x/pack.lua")
assert(K.chunkname("=rulebench/Kernel/core.lua") == "rulebench/Kernel/core.lua")

-- encode: canonical order whatever the insertion order, for small tables
-- (sorted in place) and large ones (an index that grows past 32 keys).
local big, reversed = {}, {}
for i = 1, 150 do big[i] = i; big["k" .. i] = -i end
for i = 150, 1, -1 do reversed["k" .. i] = -i; reversed[i] = i end
assert(K.encode(big) == K.encode(reversed))
assert(same(K.decode(K.encode(big)), big))
assert(K.encode({ b = 1, a = { 2.5, "x" }, [3] = true }) == "{i3;ts1:a{i1;d4004000000000000i2;s1:x}s1:bi1;}")
-- Past 12 keys: a list (its keys come in order) is written as it comes,
-- anything else sorted, numbers first, then strings by their bytes.
local list, want = {}, "{"
for i = 1, 20 do list[i] = -i; want = want .. "i" .. i .. ";i-" .. i .. ";" end
assert(K.encode(list) == want .. "}")
local keyed, names = { [7] = true, [2] = true, [-4] = true }, {}
for i = 1, 30 do local k = ("n%02d"):format(31 - i); keyed[k] = i; names[i] = k end
table.sort(names)
want = "{i-4;ti2;ti7;t"
for _, k in ipairs(names) do want = want .. "s3:" .. k .. "i" .. keyed[k] .. ";" end
assert(K.encode(keyed) == want .. "}", K.encode(keyed))
assert(K.encode(string.rep("y", 5000)):sub(1, 6) == "s5000:")

-- decode's counted forms (what Swift's Wire.Writer writes: a fuzz run's
-- request): the same tables as the `{` form, made at their size; a count
-- past the bytes left, a short list or a cut pair is an error, never a
-- table made that large or a crash.
assert(same(K.decode("a3;i1;s1:xa0;"), { 1, "x", {} }))
assert(same(K.decode("h2;s2:ops2:dos1:nh1;s1:ai-4;"), { op = "do", n = { a = -4 } }))
assert(K.encode(K.decode("h3;s1:bi1;s1:a{i1;d4004000000000000i2;s1:x}i3;t")) == "{i3;ts1:a{i1;d4004000000000000i2;s1:x}s1:bi1;}")
for _, bad in ipairs({ "a2;i1;", "a9999999999;i1;", "h1;s1:a", "h2;s1:ai1;", "a-1;", "a1", "h1;ni1;", "a1;h1;" }) do
  local ok, err = pcall(K.decode, bad)
  assert(not ok and tostring(err):find("malformed value from host"), bad .. ": " .. tostring(err))
end
