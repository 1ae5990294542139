-- Kernel tests: a leaf a builder returns straight to the kernel's planof
-- is checked without a walk (animcore.c's ac_finish_leaf, `fresh`); every
-- other plan is walked as before, so a leaf the rules could change after
-- building it is still refused when it holds what a plan may not.
local K, API = ...

API.definepack("fl", "fl", "fl/pack.lua", [[return { name = "fl", setup = function(g) g.n = 0 end }]])
API.addaction("fl", "go", "fl/actions/go.lua", [[
local SAVED, anim_
-- A helper that hands animate a leaf it then changes.
local function build() return anim_.tween{ target = "t", property = "p", from = 0, to = 1, duration = 1 } end
local plans = {
  -- Straight from the builder: fresh, and valid.
  straight = function(anim) return anim.tween{ target = "t", property = "p", from = { 1 }, to = { 2 }, duration = 0.5 } end,
  wait = function(anim) return anim.wait(0.25) end,
  -- Built, then changed before it is returned: refused.
  changed = function(anim) local t = anim.tween{ target = "t", property = "p", duration = 1 }; t.duration = 0 / 0; return t end,
  -- Tail-returned by a helper to animate, which changes it: refused.
  helper = function(anim) anim_ = anim; local t = build(); t.delay = -1; return t end,
  -- A list tail-returned: its items are the rules' own tables, changed.
  list = function(anim) local w = anim.wait(1); w.duration = 1e308; return anim.sequence{ w } end,
  -- A leaf kept from an earlier call, changed and returned again.
  kept = function(anim)
    if SAVED then SAVED.duration = math.huge; return SAVED end
    SAVED = anim.wait(1); return SAVED
  end,
}
return {
  params = { mode = "string" },
  apply = function(g) g.n = g.n + 1 end,
  undo = function(g) g.n = g.n - 1 end,
  animate = function(anim, game, a, direction) return plans[a.mode](anim) end,
}
]])
API.finishpack("fl", "")
API.newgame("fl", "1", K.encode({}))
API.commit()

local function perform(mode)
  local ok, e = pcall(API.perform, "go", K.encode({ mode = mode }), "")
  if not ok then API.abort() end
  return ok, e
end
for _, mode in ipairs({ "straight", "wait" }) do
  local ok, e = perform(mode)
  assert(ok, mode .. ": " .. tostring(e))
end
local function refused(mode, says)
  local ok, e = perform(mode)
  local text = type(e) == "table" and K.show(e) or tostring(e)
  assert(not ok and text:find(says, 1, true), mode .. " is refused (" .. says .. "), got: " .. text)
end
refused("changed", "returned a plan holding NaN at duration")
refused("helper", "returned a plan holding -1 at delay")
refused("list", "returned a plan holding 1e+308 at items[1].duration")
assert(perform("kept"))
refused("kept", "returned a plan holding inf at duration")
