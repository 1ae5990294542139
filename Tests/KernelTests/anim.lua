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
