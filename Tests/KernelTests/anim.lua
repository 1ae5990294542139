-- Kernel tests: anim.lua (plan builders: defaults, validation, copies).
local K = ...
local anim = K.anim

local t = anim.tween{ target = "p1", property = "position", from = { 1, 2 }, to = { 3, 4 }, duration = 1 }
assert(t.kind == "tween" and t.easing == "linear" and t["repeat"] == 1 and t.autoreverse == false)
assert(math.type(t.duration) == "float" and t.delay == 0.0)
assert(same(t.from, { 1, 2 }) and same(t.to, { 3, 4 }))

fails(function() anim.tween{ target = "p1", property = "x", duraton = 1 } end, "did you mean 'duration'")
fails(function() anim.tween{ target = "p1", property = "x", easing = "bounce" } end, "unknown easing 'bounce'")
-- Names are matched whole (animcore.c's ac_is_name): a prefix, a longer name, one with a zero byte.
for _, bad in ipairs({ "ease", "easeInOutX", "easeIn\0", "linea", "" }) do
  fails(function() anim.tween{ target = "p1", property = "x", easing = bad } end, "easing")
end
fails(function() anim.tween{ target = "p1", property = "x", durationx = 1 } end, "unknown field")
fails(function() anim.tween{ target = "p1", property = "x", ["duration\0"] = 1 } end, "unknown field")
assert(anim.tween{ target = "p1", property = "x", easing = "easeIn" }.easing == "easeIn")
-- A plan's times are found by their names whole (animcore.c's ac_time_ok):
-- "delays" is data, not a time, so a negative one is no error.
assert(K.checkplan({ kind = "wait", duration = 1.0, delays = -1 }, "here"))
fails(function() K.checkplan({ kind = "wait", duration = 1.0, delay = -1 }, "here") end, "here")
fails(function() K.checkplan({ kind = "sequence", items = { { kind = "wait", duration = 0 / 0 } } }, "here") end, "here")
fails(function() anim.tween{ target = "p1", property = "x", duration = -1 } end, "must not be negative")
fails(function() anim.tween{ property = "x" } end, "'target' must be a non%-empty string")
fails(function() anim.frames{ target = "p", frames = { 1 } } end, "exactly one of 'fps' and 'duration'")

local s = anim.sound("wind")
assert(s.kind == "sound" and s.name == "wind" and s.volume == 1.0)

local seq = anim.sequence{ anim.wait(0.5), s }
assert(seq.kind == "sequence" and #seq.items == 2 and seq.items[1].duration == 0.5)
fails(function() anim.parallel{ 1 } end, "item 1 is not a plan")

local st = anim.stagger{ interval = 0.1, anim.wait(1), anim.wait(1) }
assert(st.kind == "stagger" and st.interval == 0.1 and #st.items == 2)
fails(function() anim.stagger{ anim.wait(1), bogus = 1 } end, "unexpected field 'bogus'")

-- checkplan's key (`hashed`): valuehash's bits, taken in the walk that
-- checks the plan, or nil where valuehash reads the plan otherwise
-- (a state table) or refuses it (a function, nesting past 200 levels).
local hash = K.C.valuehash
local keyed = {
  anim.tween{ target = "p1", property = "position", from = { 1, 2.5, { x = -0.0 } }, to = { 3, 4 }, duration = 1, easing = "easeIn" },
  anim.sequence{ anim.wait(0.5), anim.sound("wind"), anim.cue{ name = "c", args = { a = true, [3] = "x\0y", [0.5] = 2 } } },
  anim.stagger{ interval = 0.1, anim.frames{ target = "t", frames = { "a", "b" }, fps = 12 }, anim.wait(1) },
  { kind = "wait", duration = 1.0, delays = -1, [1.5] = { [true] = 2, [false] = "" } },
  { kind = "parallel", items = { 7, { kind = "wait", duration = 2 }, [9] = "x" } },
  { kind = "wait", duration = 1.0, note = "a text longer than eight bytes, and then some" },
}
for i, p in ipairs(keyed) do
  local back, key = K.checkplan(p, "here", nil, true)
  assert(back == p and #key == 16 and key == hash(p), "plan " .. i .. ": the key is valuehash's")
  assert(select(2, K.checkplan(p, "here")) == nil, "plan " .. i .. ": no key unless asked")
end
assert(select(2, K.checkplan(keyed[1], "here", nil, true)) ~= select(2, K.checkplan(keyed[2], "here", nil, true)))
local withfunction = { kind = "wait", duration = 1.0, f = print }
assert(K.checkplan(withfunction, "here") == withfunction and select(2, K.checkplan(withfunction, "here", nil, true)) == nil)
fails(function() hash(withfunction) end, "cannot hash a function value")
local deep = { kind = "wait" }
local at = deep
for _ = 1, 210 do at.next = {}; at = at.next end
assert(select(2, K.checkplan(deep, "here", nil, true)) == nil)
fails(function() hash(deep) end, "nested more than 200 levels")
-- An invalid plan fails with or without a key asked for.
fails(function() K.checkplan({ kind = "wait", duration = -1 }, "here", nil, true) end, "here: animate returned a plan holding %-1 at duration")

-- C.plankey(v, known, key): valuehash(v) where the table `known` hashes
-- to `key`, unwalked (the key the check took); nil where valuehash raises.
local plankey = K.C.plankey
local own = keyed[1]
local node = { action = "a", mode = "sequence", own = own, subs = { { action = "b", own = own }, { action = "c" } } }
assert(plankey(node) == hash(node) and plankey(node, own, hash(own)) == hash(node))
assert(plankey(node, own, hash({})) ~= hash(node), "the key given stands for the table, which is not walked")
assert(plankey(node, {}, hash({})) == hash(node), "another table than `known` is walked")
assert(plankey(withfunction) == nil and plankey(deep) == nil and plankey({ subs = { withfunction } }, withfunction, hash({})) ~= nil)
