-- Kernel tests: fuzz.lua (the step generator). The expected numbers come
-- from SplitMix64 computed with unbounded integers (and Swift's FuzzRandom,
-- which FuzzKernelTests checks against the same numbers): the Lua port must
-- agree bit for bit, including draws of 2^63 and more, which Lua's signed
-- integers hold as negative numbers.
local K = ...

local r = K.fuzzrandom(12345)
assert(same({ r:next(), r:next(), r:next() }, { 2454886589211414944, 3778200017661327597, 2205171434679333405 }))

-- below(n): unbiased, in 0..<n, the same sequence as Swift's.
r = K.fuzzrandom(12345)
local got = {}
for i = 1, 8 do got[i] = r:below(100) end
assert(same(got, { 44, 97, 5, 50, 63, 46, 46, 68 }))
got = {}
for i = 1, 8 do got[i] = r:below(7) end
assert(same(got, { 6, 0, 1, 5, 0, 5, 2, 2 }))
got = {}
for i = 1, 4 do got[i] = r:below(3) end
assert(same(got, { 1, 2, 0, 1 }))

-- A seed of 2^64 - 5 (written as -5) and a bound that is not a power of two.
r = K.fuzzrandom(-5)
got = {}
for i = 1, 5 do got[i] = r:below(1000003) end
assert(same(got, { 438193, 603998, 511031, 954923, 524214 }))

-- chance(p): the top 53 bits as a fraction of one.
r = K.fuzzrandom(7)
got = {}
for i = 1, 6 do got[i] = r:chance(0.3) end
assert(same(got, { false, true, false, false, false, true }))

-- C.same: deep equality of plain values, numbers by subtype.
local same_, hash = K.C.same, K.C.valuehash
assert(same_({ a = 1, b = { 2, "x" } }, { b = { 2, "x" }, a = 1 }))
assert(not same_({ a = 1 }, { a = 1.0 }))
assert(not same_({ a = 1 }, { a = 1, b = 2 }))
assert(not same_({ a = 1, b = 2 }, { a = 1 }))
assert(not same_({ a = { 1 } }, { a = { 2 } }))
assert(same_("x", "x") and not same_("x", "y") and same_(true, true) and not same_(nil, false))

-- C.valuehash: equal values share a hash whatever the insertion order; a
-- change anywhere (even int to float) changes it.
local a, b = {}, {}
for i = 1, 40 do a["k" .. i] = { i, i * 0.5 } end
for i = 40, 1, -1 do b["k" .. i] = { i, i * 0.5 } end
assert(hash(a) == hash(b))
b.k7[1] = 7.0
assert(hash(a) ~= hash(b))
assert(hash({ x = 1, y = 2 }) ~= hash({ x = 2, y = 1 }))
assert(hash("abc") == hash("ab" .. "c") and hash(1) ~= hash(1.0))
assert(#hash({}) == 16 and hash({}) ~= hash({ {} }))
-- Strings go eight bytes at a time (hash.c's rb_stringhash): every byte,
-- the zero-padded last word and the length all count.
for _, n in ipairs({ 1, 7, 8, 9, 15, 16, 17 }) do
  local s = string.rep("a", n)
  assert(hash(s) ~= hash(s .. "\0") and hash(s) ~= hash(s:sub(1, -2) .. "b") and hash(s) ~= hash("b" .. s:sub(2)))
  assert(hash(s) == hash(string.rep("a", n - 1) .. "a"))
end
assert(hash("") ~= hash("\0") and hash({ ab = 1 }) ~= hash({ ["ab\0"] = 1 }))

-- A run and its abort. A fuzz call found to have run long after it ended
-- is run again (vm.c, rb_call) after fuzzabort, which must take the
-- game back to where the call began even though the run is over.
local API = select(2, ...)
API.definepack("f", "f", "f/pack.lua", [[ return { name = "f", setup = function(game) game.n = 0 end } ]])
API.addaction("f", "add", "f/actions/add.lua", [[
return {
  legal = function(game, emit) emit{} end,
  apply = function(game) game.n = game.n + 1 end,
}
]])
API.finishpack("f", "")
local h0 = API.newgame("f", "1", K.encode({}))
API.commit()
local reply = K.decode((API.fuzz(K.encode({ choices = 5, depth = 30, final = false }))))
assert(#reply.steps == 30 and API.depth() > 0 and K.game.n > 0)
API.fuzzabort()
assert(API.depth() == 0 and API.hash() == h0 and K.game.n == 0)
-- The same after a replay that ended.
assert(API.replay(K.encode({ { name = "add", params = {}, hash = "not the hash" } })) ~= "")
API.replayabort()
assert(API.depth() == 0 and API.hash() == h0)
-- The same call again gives the same run, and the plans it sees first go
-- to Swift again (the rolled-back call's never reached it).
assert(reply.plans[1] and reply.plans[1].plan, "a first plan is sent with its bytes")
local again = K.decode((API.fuzz(K.encode({ choices = 5, depth = 30, final = false }))))
assert(same(again.trace, reply.trace))
assert(again.plans[1].plan and again.plans[1].id ~= reply.plans[1].id)

-- Rare kinds first: a call's kind is the place that emitted it. The kind
-- offered once among many ("rare", on turns 3, 6, ...) is played the first
-- time it is offered, and within a kind the calls played least come first.
API.fuzzabort()
API.definepack("g", "g", "g/pack.lua", [[ return { name = "g", setup = function(game) game.n = 0 end } ]])
API.addaction("g", "pick", "g/actions/pick.lua", [[
return {
  params = { n = "integer" },
  legal = function(game, emit)
    for n = 1, 20 do emit{ n = n } end
    if game.n % 3 == 2 then emit{ n = 0 } end
  end,
  apply = function(game, a) game.n = game.n + 1 end,
}
]])
API.finishpack("g", "")
local g0 = API.newgame("g", "1", K.encode({}))
API.commit()
local function picks(reply)
  local out = {}
  for _, step in ipairs(reply.steps) do
    if step.op == "do" then out[#out + 1] = step.params.n end
  end
  return out
end
local rare = K.decode((API.fuzz(K.encode({ choices = 11, depth = 12, final = false, rare = true }))))
local chosen = picks(rare)
local first = nil
for i, n in ipairs(chosen) do if n == 0 then first = first or i end end
assert(first, "the rare kind was played")
-- The run undoes and redoes now and then, so game.n is not the index; it
-- was offered whenever game.n % 3 == 2 first held, and played then.
local seen = {}
for i = 1, first - 1 do
  assert(not seen[chosen[i]], "calls of a kind are played least-played first")
  seen[chosen[i]] = true
end
-- A rolled-back call takes its counts back: run again, it chooses the same steps.
API.fuzzabort()
assert(API.hash() == g0)
local again = K.decode((API.fuzz(K.encode({ choices = 11, depth = 12, final = false, rare = true }))))
assert(same(picks(again), chosen))
API.fuzzabort()

-- Swarm runs leave out kinds played before, each with even odds: some
-- runs never play the rare kind though it is offered, others play only
-- it whenever it is there; a kind left out is still played when nothing
-- else is offered, so every run goes on. A run kept (not rolled back)
-- leaves its kinds played: both are known to the runs after it.
K.decode((API.fuzz(K.encode({ choices = 11, depth = 12, final = true, rare = true }))))
API.newgame("g", "1", K.encode({}))
API.commit()
local without, only = 0, 0
for choices = 1, 24 do
  local request = K.encode({ choices = choices, depth = 12, final = false, rare = true, leaveout = true })
  local run = K.decode((API.fuzz(request)))
  local zeros, others = 0, 0
  for _, n in ipairs(picks(run)) do
    if n == 0 then zeros = zeros + 1 else others = others + 1 end
  end
  assert(zeros + others >= 4, "a run with kinds left out goes on")
  if zeros == 0 then without = without + 1 end
  if zeros >= 2 then only = only + 1 end
  API.fuzzabort()
  assert(same(picks(K.decode((API.fuzz(request)))), picks(run)), "the kinds left out come from the run's seed")
  API.fuzzabort()
end
assert(without > 0 and only > 0, without .. " runs without the rare kind, " .. only .. " with it twice")

-- Resuming (the shrinker's candidates): a run that shares its first steps
-- with the last one starts after them, where the strict undo took the game
-- back, and answers for its own steps only; what it does from there is
-- what a run from setup does. Each `push` appends its number to a list.
API.definepack("r", "r", "r/pack.lua", [[ return { name = "r", setup = function(game) game.log = {} end } ]])
API.addaction("r", "push", "r/actions/push.lua", [[
return {
  params = { n = "integer" },
  legal = function(game, emit) for n = 1, 3 do emit{ n = n } end end,
  apply = function(game, a) game.log[#game.log + 1] = a.n end,
}
]])
API.finishpack("r", "")
local function newr() local h = API.newgame("r", "1", K.encode({})); API.commit(); return h end
local function push(n) return { op = "do", name = "push", params = { n = n } } end
-- A resumed run is sent its steps after the shared ones only.
local function tail(program, resume) return resume and { table.unpack(program, resume + 1) } or program end
local function run(program, resume)
  return K.decode((API.fuzz(K.encode({ program = tail(program, resume), checklegal = true, resume = resume }))))
end
newr()
local full = run({ push(1), push(2), push(3), push(1) })
assert(#full.outcomes == 4 and #full.trace == 4)
-- The same first two steps, then others: from step 2 of the last run.
local resumed = run({ push(1), push(2), push(2) }, 2)
assert(#resumed.outcomes == 1 and #resumed.trace == 1 and resumed.history.count == 3 and resumed.history.entries == nil,
       "a resumed run's reply carries its own steps' outcomes only, and no entries")
assert(resumed.history.cursor == 3 and resumed.history.count == 3)
newr()
local fresh = run({ push(1), push(2), push(2) })
assert(fresh.trace[3] == resumed.trace[1] and API.hash() == resumed.trace[1], "resumed, a run ends where it does from setup")
-- From no step at all: every entry undone.
local alone = run({ push(3) }, 0)
assert(#alone.trace == 1 and alone.history.count == 1 and alone.history.entries == nil)
newr()
assert(run({ push(3) }).trace[1] == alone.trace[1])
-- Not past the steps the last run completed; not where a later step
-- replaced their entries; not once the game moved since.
assert(not pcall(API.fuzz, K.encode({ program = { push(3), push(1) }, resume = 2 })))
API.fuzzabort()
newr()
run({ push(1), { op = "undo", n = 1 }, push(2) })
assert(not pcall(API.fuzz, K.encode({ program = { push(1) }, resume = 1 })), "a later perform replaced the entry")
API.fuzzabort()
-- A run that ended with an undo (a broken undo's reproduction) resumes
-- below it.
newr()
run({ push(1), push(2), { op = "undo", n = 1 } })
local below = run({ push(1), push(3) }, 1)
assert(#below.trace == 1 and below.history.count == 2 and below.history.cursor == 2)
newr()
assert(run({ push(1), push(3) }).trace[2] == below.trace[1])
newr()
run({ push(1), push(2) })
API.newgame("r", "1", K.encode({}))
API.commit()
assert(not pcall(API.fuzz, K.encode({ program = { push(1) }, resume = 1 })), "a game set up since is not resumed")
API.fuzzabort()
-- A run that rewound at its end (the end-of-run check) resumes by redoing
-- the shared steps with the strict redo.
newr()
K.decode((API.fuzz(K.encode({ program = { push(1), push(2) }, checklegal = true, final = true }))))
local up = run({ push(1), push(3) }, 1)
assert(#up.trace == 1 and up.history.count == 2 and up.history.cursor == 2)
newr()
assert(run({ push(1), push(3) }).trace[2] == up.trace[1])

-- A resumed run's end-of-run rewind stops at the first entry a rewind
-- verified at its index: only the steps the run played itself are undone,
-- and the game stays there for the next run. Entries no rewind verified
-- (a run without the end-of-run check) are undone to the state after setup.
local function final(program, resume)
  return K.decode((API.fuzz(K.encode({ program = tail(program, resume), checklegal = true, final = true, resume = resume }))))
end
newr()
local two = run({ push(1), push(2) })
local whole = final({ push(1), push(2), push(3) }, 2)
assert(whole.rewound == nil and whole.history.cursor == 0, "no rewind verified the shared steps yet: all undone")
local short = final({ push(1), push(2), push(1) }, 2)
assert(short.rewound == nil and short.history.cursor == 2 and API.hash() == short.history.current
       and short.history.current == select(13, API.entries(-1, 0, 2)) and API.hash() == two.trace[2],
       "the shared steps' undos were verified: the rewind stops above them")
local again = final({ push(1), push(3) }, 1)
assert(again.history.cursor == 1 and #again.trace == 1)
newr()
assert(final({ push(1), push(3) }).trace[2] == again.trace[1], "stopped early, a run gives what it gives from setup")
-- A broken undo below the shared steps is found all the same: an entry is
-- trusted only when a rewind verified its undo, never because it is shared.
API.definepack("s", "s", "s/pack.lua", [[ return { name = "s", setup = function(game) game.log = {} end } ]])
API.addaction("s", "mark", "s/actions/mark.lua", [[
return { legal = function(game, emit) emit{} end, apply = function(game) game.log[#game.log + 1] = "m" end }
]])
API.addaction("s", "slip", "s/actions/slip.lua", [[
return { legal = function(game, emit) emit{} end,
         apply = function(game) game.log[#game.log + 1] = 0 end, undo = function(game) end }
]])
API.finishpack("s", "")
API.newgame("s", "1", K.encode({}))
API.commit()
local slip, mark = { op = "do", name = "slip", params = {} }, { op = "do", name = "mark", params = {} }
run({ slip, mark })
local found = final({ slip, mark, mark }, 1)
assert(found.rewound and found.rewound.property == "undoRestores" and found.rewound.undos == 3,
       "the unverified shared entry's undo is checked")
API.fuzzabort()

-- Plans on the checked step: every animate's plan is checked where it
-- always was, the strict redo compares the whole plan as it ends (a
-- shortcut that hashed each animation when it was checked would miss a
-- plan changed later), the undo-mirrors-do check finds a subaction by its
-- index, and a rewind's undo, which builds no plan, still checks it.
local function planrun(id, source, program)
  API.definepack(id, id, id .. "/pack.lua", [[ return { name = "]] .. id .. [[", setup = function(game) game.n = 0 end } ]])
  API.addaction(id, "m", id .. "/actions/m.lua", source)
  API.finishpack(id, "")
  API.newgame(id, "1", K.encode({}))
  API.commit()
  local reply = K.decode((API.fuzz(K.encode({ program = program, final = true }))))
  API.fuzzabort()
  return reply
end
-- Action m queues itself once as a subaction (`child`); its animate is
-- `ANIMATE` below, with `calls` counting the calls for "do".
local function packof(animate)
  return [[
local kept, calls = nil, 0
return { params = { child = "boolean?" }, legal = function(game, emit) emit{} end,
         apply = function(game, a, act) game.n = game.n + 1; if not a.child then act:sub("m", { child = true }) end end,
         animate = function(anim, game, a, direction)
           if direction == "undo" then return nil end
           if a.child then calls = calls + 1 end
]] .. animate .. [[
         end }
]]
end
local steps = { { op = "do", name = "m", params = {} }, { op = "undo", n = 1 }, { op = "redo", n = 1 } }
local function redofinding(reply)
  local f = reply.finding
  return f and f.property == "redoReproduces" and f.step == 3 and f
end

-- The same plan each time: no finding (a new table, the same content).
assert(planrun("p0", packof([[ return anim.tween{ target = "t", property = "x", from = 0, to = 1, duration = 1 } ]]), steps)
  .finding == nil)
-- The child's animate changes the plan the parent's returned (a reference
-- kept in an upvalue), differently each time: the redo's plan differs,
-- though each animation, when it was checked, was the same.
local found = redofinding(planrun("p1", packof([[
           if a.child then
             if kept then kept.to = calls end
             return nil
           end
           kept = anim.tween{ target = "t", property = "x", from = 0, to = 1, duration = 1 }
           return kept ]]), steps))
assert(found and found.mismatch.what == "animation plan", "a plan changed after its check is compared as it ends")
-- The same animation, played by the parent the first time and by the
-- child the second: the plans differ though they hold the same leaf.
found = redofinding(planrun("p2", packof([[
           local t = anim.tween{ target = "t", property = "x", from = 0, to = 1, duration = 1 }
           if a.child then return calls == 2 and t or nil end
           return calls == 0 and t or nil ]]), steps))
assert(found and found.mismatch.what == "animation plan", "the same leaf elsewhere is another plan")
-- Each field of a leaf the builders make, changed in the redo's plan
-- alone (the child's animate, on its second call): the redo is reported.
for i, field in ipairs({ "target = 'u'", "property = 'y'", "from = 0.0", "to = 2", "duration = 2", "delay = 1",
                         "easing = 'easeIn'", "['repeat'] = 2", "autoreverse = true" }) do
  found = redofinding(planrun("pf" .. i, packof([[
           if not a.child then return nil end
           local spec = { target = "t", property = "x", from = 0, to = 1, duration = 1 }
           if calls == 2 then spec = { target = "t", property = "x", from = 0, to = 1, duration = 1, ]] .. field .. [[ } end
           return anim.tween(spec) ]]), steps))
  assert(found and found.mismatch.what == "animation plan", "a redo's plan differing in " .. field .. " is reported")
end
-- A plan built by hand that holds NaN the second time: the redo fails at
-- its step with the check's message, as the perform's would.
found = redofinding(planrun("p3", packof([[
           if a.child then return { kind = "wait", duration = calls == 1 and 1.0 or 0 / 0 } end ]]), steps))
assert(found and found.failure and found.failure.text:find("returned a plan holding NaN at duration: every number of a plan must be finite", 1, true),
       "the redo's plan is checked")
-- And one that is out of range the first time fails the do, at step 1.
found = planrun("p4", packof([[ return { kind = "wait", duration = 1.0, delay = -1 } ]]), steps).finding
assert(found and found.step == 1 and found.property == "legalIsAllowed"
       and found.failure.text:find("returned a plan holding -1 at delay: a plan's delay is 0 to 1000000 seconds", 1, true))
-- An undo that plays a later subaction's animation forwards again is
-- found at the undo step, by its path (the undo's plan is built in the
-- "mirror" shape: only nodes with a plan, each at its index).
local twochildren = [[
return { params = { child = "integer?" }, legal = function(game, emit) emit{} end,
         apply = function(game, a, act)
           game.n = game.n + 1
           if not a.child then act:sub("m", { child = 1 }); act:sub("m", { child = 2 }) end
         end,
         animate = function(anim, game, a, direction)
           if a.child == 1 and direction == "do" then return anim.tween{ target = "t", property = "y", from = 0, to = 1 } end
           if a.child ~= 2 then return nil end
           return anim.tween{ target = "t", property = "x", from = 0, to = 1, duration = 1 }
         end }
]]
found = planrun("p5", twochildren, { { op = "do", name = "m", params = {} }, { op = "undo", n = 1 } }).finding
assert(found and found.property == "undoMirrorsDo" and found.step == 2 and found.failure.action == "m > m", "the second child plays forwards")
-- A rewind's undo builds its plan for the checks alone: a plan the check
-- refuses still stops the rewind.
local rewound = planrun("p6", [[
return { legal = function(game, emit) emit{} end, apply = function(game) game.n = game.n + 1 end,
         animate = function(anim, game, a, direction)
           if direction == "undo" then return { kind = "wait", duration = 0 / 0 } end
         end }
]], { { op = "do", name = "m", params = {} } }).rewound
assert(rewound and rewound.property == "undoRestores" and rewound.undos == 1
       and rewound.failure.text:find("returned a plan holding NaN at duration", 1, true), "the rewind's undo checks its plan")
