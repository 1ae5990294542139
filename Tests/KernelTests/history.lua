-- Kernel tests: history.lua, the game's one history (entries, cursor, the
-- strict checks, the redo comparison, the turn counts), through the calls
-- Game makes and through a fuzz run, which use the same code.
local K, API = ...
local H = K.history

API.definepack("h", "h", "h/pack.lua", [[return { name = "h", setup = function(g) g.n = 0 end }]])
API.addaction("h", "step", "h/actions/step.lua", [[return { apply = function(g) g.n = g.n + 1 end,
  legal = function(g, emit) emit({}) end }]])
API.addaction("h", "done", "h/actions/done.lua", [[return { apply = function(g) g.n = g.n + 10 end, checkpoint = true }]])
-- Gives another state each time it runs: a redo of it cannot reproduce it.
API.addaction("h", "wobble", "h/actions/wobble.lua", [[local count = 0
return { apply = function(g) count = count + 1; g.w = count end }]])
-- Queues a subaction every other time: the same state, another tree.
API.addaction("h", "fork", "h/actions/fork.lua", [[local count = 0
return { apply = function(g, a, act) count = count + 1; if count % 2 == 0 then act:sub("noop", {}) end end }]])
API.addaction("h", "noop", "h/actions/noop.lua", [[return { apply = function(g) end }]])
API.finishpack("h", "")
local function params(t) return K.encode(t or {}) end
local function position() return H.position() end

-- A new game: an empty history from the state after setup.
local h0 = API.newgame("h", "1", params())
assert(H.cursor() == 0 and H.count() == 0 and H.initial() == h0 and H.current() == h0)

-- A perform records its entry and commits in the same call; its last
-- five results are where the history stands (cursor, count, turn counts,
-- version).
local h1, tree, plan, cursor, count, turn, lastturn = API.perform("step", params())
assert(cursor == 1 and count == 1 and turn == 1 and lastturn == 1, cursor .. " " .. count .. " " .. turn .. " " .. lastturn)
local e = H.last()
assert(e.name == "step" and e.hash == h1 and e.tree == tree and e.plan == plan and e.checkpoint == false)

-- The turn counts: back to the last checkpoint (which stays applied), and
-- right after a checkpoint, the whole turn it ended.
API.perform("done", params())
assert(H.turn() == 0 and H.lastturn() == 2, H.turn() .. " " .. H.lastturn())
API.perform("step", params())
API.perform("step", params())
assert(H.turn() == 2 and H.lastturn() == 2)
API.perform("done", params())
assert(H.turn() == 0 and H.lastturn() == 3 and H.cursor() == 5)

-- An undo moves the cursor back and keeps the entry to redo; a new
-- perform drops the redo tail.
local u = table.pack(API.undo("1"))
local hu, problems, ucursor, ucount = u[1], u[3], u[11], u[12]
assert(problems == "" and H.cursor() == 4 and H.count() == 5 and ucursor == 4 and ucount == 5)
assert(u[4] == H.current() and u[4] == hu, "the hash recorded for the state now")
assert(u[5] == "done" and u[7] == "1" and u[8] == H.following().hash and u[9] == H.following().tree, "the entry undone")
assert(hu == H.current() and H.following().name == "done")
assert(H.turn() == 2 and H.lastturn() == 2)
API.undo("1")
API.perform("done", params())
assert(H.cursor() == 4 and H.count() == 4 and H.last().name == "done", "the redo tail is gone")
-- A failed operation changes nothing in the history.
local ok = pcall(API.perform, "nosuch", params())
assert(not ok)
API.abort()
assert(H.cursor() == 4 and H.count() == 4)

-- A strict redo reproduces the entry: the same hash, tree and plan.
API.undo("1")
local before = H.following()
local hr, _, _, mismatch, rname, _, _, rcursor = API.redo("1")
assert(mismatch == "" and hr == before.hash and H.cursor() == 4 and rcursor == 4 and rname == "done")
fails(function() API.redo("1") end, "nothing to redo")
API.abort()

-- A redo that gives another hash is rolled back, with the report.
API.perform("wobble", params())
local wobbled = H.current()
API.undo("1")
local back = K.hash()
hr, _, _, mismatch, _, _, _, rcursor = API.redo("1")
mismatch = K.decode(mismatch)
assert(mismatch.what == "state hash" and mismatch.action == "wobble", K.show(mismatch))
assert(mismatch.expected == wobbled and mismatch.actual == hr and hr ~= wobbled)
assert(K.hash() == back and H.cursor() == 4 and rcursor == 4, "rolled back: the cursor stays")
-- Not strict, the redo is taken as it comes: the entry is replaced.
hr = API.redo("0")
assert(H.cursor() == 5 and H.last().hash == hr and hr ~= wobbled)

-- The same hash but another subaction tree: the report shows both trees as values.
API.perform("fork", params())
API.undo("1")
hr, _, _, mismatch = API.redo("1")
mismatch = K.decode(mismatch)
assert(mismatch.what == "subaction tree", K.show(mismatch))
assert(type(mismatch.expected) == "table" and mismatch.expected.subs == nil and mismatch.actual.subs[1].name == "noop")

-- The strict undo's hash check: nil when the state is back, else one problem.
local last = H.last()
assert(last.name == "wobble", "the fork was undone and its redo rolled back")
assert(H.undoproblems(last, H.current()) == nil)
local p = H.undoproblems(last, "0000000000000000")[1]
assert(p.action == "wobble" and p.diffs[1].path == "(state hash)" and p.diffs[1].before == H.current()
  and p.diffs[1].after == "0000000000000000")

-- A fuzz run plays in the same history: a new game, then a program of
-- every kind of step; the reply says where the history stands (no entries:
-- Swift reads those from the kernel when it reads them).
API.newgame("h", "1", params())
local program = {
  { op = "do", name = "step", params = {} }, { op = "do", name = "done", params = {} },
  { op = "do", name = "step", params = {} }, { op = "do", name = "step", params = {} },
  { op = "lastturn" }, { op = "redo", n = 1 }, { op = "turn" }, { op = "redo", n = 5 }, { op = "undo", n = 1 },
}
local reply = K.decode((API.fuzz(K.encode({ program = program, choices = 1, depth = #program }))))
assert(reply.finding == nil, K.show(reply.finding))
local kinds = {}
for i, o in ipairs(reply.outcomes) do kinds[i] = o.kind .. (o.n and o.n or "") end
assert(table.concat(kinds, " ") == "performed performed performed performed undone2 redone1 undone1 redone2 undone1",
  table.concat(kinds, " "))
assert(reply.history.cursor == 3 and reply.history.count == 4 and H.cursor() == 3 and H.count() == 4)
assert(reply.history.entries == nil and reply.history.current == H.current() and reply.history.initial == H.initial())
assert(reply.history.turn == H.turn() and reply.history.lastturn == H.lastturn() and H.turn() == 1)
-- The run's trees and plans stay tables until an entry is read (API.entries
-- encodes it); Game's strict redo compares its own with them all the same.
assert(type(H.following().tree) == "table")
assert(select(4, API.redo("1")) == "" and H.cursor() == 4)
assert(select(3 + 6 * 3 + 5, API.entries(-1, 0, 4)) == H.last().tree and type(H.last().tree) == "string")
-- A run rolled back (fuzzabort) leaves a game with no history.
API.fuzzabort()
assert(H.cursor() == 0 and H.count() == 0 and K.hash() == H.initial())

-- travel: several undos and redos in one call, each its own operation,
-- committed before the next; the reply gives each step's word and results,
-- then the position (five integers).
API.newgame("h", "1", params())
for _, name in ipairs { "step", "done", "step", "step", "done", "step" } do API.perform(name, params()) end
local WIDTH = { undone = 11, redone = 7, failed = 2, differs = 2 }
local function travel(kind, target)
  local r = table.pack(API.travel("1", kind, target))
  local n = r.n - 5
  assert(r[n + 1] == H.cursor() and r[n + 2] == H.count() and r[n + 3] == H.turn() and r[n + 4] == H.lastturn()
    and r[n + 5] == H.version(),
    "the reply's position is the history's")
  local steps, i = {}, 1
  while i <= n do
    local word, step = r[i], {}
    if word == "undone" then
      step.hash, step.plan, step.problems = r[i + 1], r[i + 2], r[i + 3] ~= "" and K.decode(r[i + 3]) or nil
      step.current, step.name, step.entryhash = r[i + 4], r[i + 5], r[i + 8]
    elseif word == "redone" then
      step.hash, step.tree, step.plan, step.name = r[i + 1], r[i + 2], r[i + 3], r[i + 4]
    elseif word == "failed" then
      step.failure = K.decode(r[i + 1])
    else
      assert(word == "differs", "a step's word: " .. tostring(word))
      step.mismatch = K.decode(r[i + 1])
    end
    steps[#steps + 1] = step
    i = i + WIDTH[word]
  end
  assert(i == n + 1, "the steps end where the position begins")
  return { steps = steps }
end
local out = travel("lastturn", "")
assert(#out.steps == 1 and H.cursor() == 5 and out.steps[1].hash == H.current() and out.steps[1].problems == nil)
assert(out.steps[1].name == "step" and out.steps[1].entryhash == H.following().hash, "an undone step carries its entry")
assert(out.steps[1].current == H.current())
out = travel("lastturn", "")
assert(#out.steps == 3 and H.cursor() == 2, "right after a checkpoint: the turn it ended")
out = travel("seek", "6")
assert(#out.steps == 4 and out.steps[4].tree and H.cursor() == 6 and H.count() == 6, "seeking forward redoes")
out = travel("turn", "")
assert(#out.steps == 1 and H.cursor() == 5)
out = travel("rewind", "")
assert(#out.steps == 5 and H.cursor() == 0 and K.hash() == H.initial())
fails(function() API.travel("1", "seek", "7") end, "no history position 7")
API.abort()
-- A redo that differs stops the travel there, rolled back.
API.perform("wobble", params())
API.undo("1")
out = travel("seek", "1")
assert(#out.steps == 1 and out.steps[1].mismatch.what == "state hash" and H.cursor() == 0)
-- Not strict, a redo that differs is taken: it replaces the entry.
local was = H.following().hash
local r = table.pack(API.travel("0", "seek", "1"))
assert(r.n == 12 and r[1] == "redone" and r[2] ~= was and H.last().hash == r[2] and H.cursor() == 1)
-- position(from), read after a travel a stop ended: the entries after
-- `from` (those the travel redid) as its reply gives a redo, then the
-- position; only the position when the cursor is not past `from`.
local p = table.pack(API.position("0"))
assert(p.n == 12 and p[1] == "redone" and p[2] == r[2] and p[3] == r[3] and p[4] == r[4] and p[5] == "wobble", "the redone entry")
assert(p[8] == 1 and p[9] == 1 and p[10] == r[10] and p[11] == r[11] and p[12] == r[12], "then the position")
assert(select("#", API.position("1")) == 5 and select("#", API.position("5")) == 5)

-- History is stored once: each entry is the engine's own record of its
-- action (what undo reads: its journal span), and the engine keeps no list
-- of its own beside the history (ops.records() holds only a walk's or a
-- replay's records, above the entries).
API.newgame("h", "1", params())
for _, name in ipairs { "step", "done", "step", "step" } do API.perform(name, params()) end
local ops = K.ops
assert(#ops.records() == 0 and ops.depth() == H.cursor(), "no second list of the applied actions")
local top = H.last()
assert(top.s and top.e and top.def and top.hash, "an entry is the engine's record: its journal span and its hash")
-- An undo takes back the history's entry at the cursor; a redo keeps that
-- very record (fuzz.lua knows entries by identity), with the redo's span.
local span = top.s
API.undo("1")
assert(H.following() == top and H.cursor() == 3)
API.redo("1")
assert(H.last() == top and top.s == span and #ops.records() == 0)
-- The version changes with the entries, not with the cursor: what Swift's
-- view keeps stays good over undo and strict redo, and is read again
-- from the first entry a change touched.
local v = H.version()
API.undo("1"); API.undo("1"); API.redo("1")
assert(H.version() == v, "undo and strict redo change no entry")
local e = table.pack(API.entries(tostring(v), "4", "4"))
assert(e[1] == tostring(v) and e[2] == "4" and e[3] == "5" and e.n == 3, "nothing changed since: nothing sent")
API.perform("step", params())           -- drops entry 4, puts a new one there
assert(H.version() == v + 1 and H.count() == 4)
e = table.pack(API.entries(tostring(v), "4", "4"))
assert(e[1] == tostring(v + 1) and e[3] == "4" and e.n == 3 + 6, "entry 4 changed: only it is sent")
assert(e[4] == "step" and e[6] == "" and e[7] == H.last().hash and e[8] == H.last().tree and e[9] == H.last().plan)
assert(e[5] == params(), "the params as Swift sent them")
e = table.pack(API.entries("", "0", "4"))
assert(e[3] == "1" and e.n == 3 + 4 * 6 and e[4 + 6] == "done" and e[6 + 6] == "1", "a view holding nothing reads all")
-- A walk's records stay the engine's: solve's performs commit with
-- nothing staged, above the entries, and leave the history as it was.
local count, last = H.count(), H.last()
ops.perform("step", {}, nil, "hash"); ops.commit()
assert(#ops.records() == 1 and H.count() == count and H.last() == last and ops.depth() == H.cursor() + 1)
ops.undo(true, false); ops.commit()
assert(#ops.records() == 0 and H.count() == count and H.cursor() == count and H.last() == last)

-- The strict redo's plan comparison is exact: a redo whose plan differs
-- from the original's in any one field, at any depth (a value changed, a
-- number's subtype, a field dropped or added), is reported as "animation
-- plan" with both plans, whether the entry keeps its plan's key (a fuzz
-- run's, H.plankey) or not (Game's), as tables or encoded; the same plan
-- in new tables is not.
local function planof()
  return { action = "m", mode = "parallel", sound = "tick", src = "m.lua:3", step = 0.25, delays = { 0.5, 1 },
           own = { kind = "tween", target = "t", property = "x", from = { 0, 1 }, to = { x = 2 }, duration = 0.25,
                   delay = 0.0, easing = "linear", ["repeat"] = 1, autoreverse = false },
           subs = { { action = "c", mode = "sequence", own = { kind = "sequence", items = {
                      { kind = "wait", duration = 1.0 }, { kind = "cue", name = "go", args = {}, delay = 0.0 } } } } } }
end
-- Each change: a path of keys and what the field becomes there (DROP: no field).
local DROP = {}
local changes = {
  { { "action" }, "n" }, { { "mode" }, "sequence" }, { { "sound" }, DROP }, { { "src" }, "m.lua:4" },
  { { "step" }, 0.5 }, { { "delays", 2 }, 1.0 }, { { "delays", 3 }, 1 }, { { "own", "kind" }, "frames" },
  { { "own", "target" }, "u" }, { { "own", "property" }, "y" }, { { "own", "from", 1 }, 0.0 },
  { { "own", "to", "x" }, 3 }, { { "own", "to", "y" }, 2 }, { { "own", "duration" }, 0.5 },
  { { "own", "delay" }, 0 }, { { "own", "easing" }, "easeIn" }, { { "own", "repeat" }, 2 },
  { { "own", "autoreverse" }, true }, { { "own", "autoreverse" }, DROP }, { { "own", "extra" }, false },
  { { "subs", 1, "action" }, "d" }, { { "subs", 2 }, { action = "c" } },
  { { "subs", 1, "own", "items", 1, "duration" }, 2.0 }, { { "subs", 1, "own", "items", 2, "args", "k" }, 1 },
  { { "subs", 1, "own", "items", 3 }, { kind = "wait", duration = 0.0 } }, { { "subs", 1, "own", "items" }, {} },
}
local tree = { name = "m", params = {} }
local function entry(plan, keyed)
  return { name = "m", hash = "h", tree = tree, plan = plan, plankey = keyed and H.plankey(plan) or nil }
end
for _, keyed in ipairs({ true, false }) do
  assert(H.difference(entry(planof(), keyed), "h", tree, planof()) == nil, "the same plan in new tables is the same")
  for _, change in ipairs(changes) do
    local path, value = change[1], change[2]
    local plan = planof()
    local t = plan
    for i = 1, #path - 1 do t = t[path[i]] end
    if value == DROP then t[path[#path]] = nil else t[path[#path]] = value end
    local original = entry(planof(), keyed)
    local expected = original.plan
    local m = H.difference(original, "h", tree, plan)
    local where = table.concat(path, ".") .. (keyed and " (keyed)" or "")
    assert(m and m.what == "animation plan" and m.action == "m" and m.expected == expected and m.actual == plan,
           "a redo's plan differing at " .. where .. " is reported")
    original = { name = "m", hash = "h", tree = K.encode(tree), plan = K.encode(planof()) }
    m = H.difference(original, "h", K.encode(tree), K.encode(plan))
    assert(m and m.what == "animation plan" and K.encode(m.actual) == K.encode(plan), "encoded, at " .. where)
  end
end

-- The fuzzer's strict redo runs into the entry it redoes and compares the
-- record with the entry's tree node by node, building no tree of its own
-- (engine.lua's run and sametree): a redo that queues other subactions,
-- the same ones with other params, one more or none, is still the finding
-- "subaction tree", with both trees as values, and one that delays no
-- subaction where the do delayed one is still "animation plan" (nothing
-- of the entry's last run is left in it); a redo with the same nested
-- subactions passes.
API.definepack("r", "r", "r/pack.lua", [[return { name = "r", setup = function(g) g.n = 0 end }]])
API.addaction("r", "leaf", "r/actions/leaf.lua", [[return { params = { k = "integer" }, apply = function(g, a) g.n = g.n + a.k end,
  undo = function(g, a) g.n = g.n - a.k end }]])
API.addaction("r", "twin", "r/actions/twin.lua", [[return { params = { k = "integer" }, apply = function(g, a) g.n = g.n + a.k end }]])
API.addaction("r", "noop", "r/actions/noop.lua", [[return { apply = function(g) end }]])
-- Two leaves under a noop; the same tree every time.
API.addaction("r", "pair", "r/actions/pair.lua", [[return { apply = function(g, a, act)
  act:sub("noop", {}); act:sub("leaf", { k = 1 }); act:sub("leaf", { k = 2 }) end }]])
-- On every other run (the same state each time): leaf params 3 and 0 in
-- place of 1 and 2, a twin in place of a leaf, one noop more at the end,
-- no noop, or no delay (which, from the params).
API.addaction("r", "shift", "r/actions/shift.lua", [[local count = 0
return { params = { mode = "string" }, apply = function(g, a, act)
  count = count + 1
  local odd = count % 2 == 1
  if a.mode == "params" then act:sub("leaf", { k = odd and 1 or 3 }); act:sub("leaf", { k = odd and 2 or 0 })
  elseif a.mode == "name" then act:sub("leaf", { k = 0 }); act:sub(odd and "leaf" or "twin", { k = 0 })
  elseif a.mode == "more" then act:sub("leaf", { k = 1 }); if not odd then act:sub("noop", {}) end
  elseif a.mode == "none" then if odd then act:sub("noop", {}) end
  else act:sub("leaf", { k = 0 }, odd and { delay = 0.5 } or nil) end
end }]])
API.finishpack("r", "")
local function redorun(name, p)
  API.newgame("r", "1", params())
  local reply = K.decode((API.fuzz(K.encode({ program = { { op = "do", name = name, params = p },
    { op = "undo", n = 1 }, { op = "redo", n = 1 } }, choices = 1, depth = 3 }))))
  API.fuzzabort()
  return reply
end
local passed = redorun("pair", {})
assert(passed.finding == nil and passed.outcomes[3].kind == "redone", K.show(passed.finding))
for _, mode in ipairs { "params", "name", "more", "none", "delay" } do
  local found = redorun("shift", { mode = mode }).finding
  local what = mode == "delay" and "animation plan" or "subaction tree"
  assert(found and found.property == "redoReproduces" and found.mismatch.what == what, mode .. ": " .. K.show(found))
  assert(mode == "delay" or found.mismatch.expected.subs, "both trees as values")
  assert(H.count() == 0, "rolled back")
end
-- An entry a run redid into is the redo's record: Game's strict undo of
-- it (its journal span and subactions the redo's) restores the state.
API.newgame("r", "1", params())
local start = K.hash()
assert(K.decode((API.fuzz(K.encode({ program = { { op = "do", name = "pair", params = {} }, { op = "undo", n = 1 },
  { op = "redo", n = 1 } }, choices = 1, depth = 3 })))).finding == nil)
assert(#H.last().subs == 3 and H.last().subs[3].a.k == 2)
local undone = table.pack(API.undo("1"))
assert(undone[3] == "" and undone[1] == start and K.hash() == start, "the redone entry undoes exactly")
