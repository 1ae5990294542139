-- Kernel tests: a plan's key (anim.lua's planhash, history.plankey) has
-- valuehash's bits. A leaf a builder returns straight to the planner is
-- hashed as animcore.c builds it, from its own arguments, and noted; the
-- key takes the note instead of walking the leaf. For every builder and
-- many mixes of arguments, the noted hash must be the walk's.
local K = ...
local anim, planhash, valuehash = K.anim, K.planhash, K.C.valuehash

-- The planner stand-in: level 2 of a builder that `build` tail-calls, as
-- engine.lua's planof is for an animate that returns `anim.x{...}`.
local function planner(build, spec)
  local leaf = build(spec)
  return leaf
end
K.setplanner(planner)

local BUILDERS = {
  tween = function(s) return anim.tween(s) end,
  frames = function(s) return anim.frames(s) end,
  wait = function(s) return anim.wait(s) end,
  sound = function(s) return anim.sound(s) end,
  cue = function(s) return anim.cue(s) end,
}

local SPECS = {
  tween = {
    { target = "t", property = "p" },
    { target = "token:a", property = "square", from = 3, to = 4, duration = 0.25, easing = "easeInOut" },
    { target = "t", property = "p", from = 1.5, to = -2, duration = 1, delay = 2, ["repeat"] = 3, autoreverse = true },
    { target = "t", property = "p", from = { 1, 2 }, to = { x = 1, y = { 2.5, "z" } }, autoreverse = false },
    { target = "t", property = "p", from = "a", to = true, duration = 1e6, delay = 0 },
    { target = "pawn:é", property = "water", from = { 0 }, to = {}, easing = "easeOut" },
    { target = "t", property = "p", duration = 0 / 0 },                 -- the slow path refuses it
  },
  frames = {
    { target = "t", frames = { "crouch", "spring" }, fps = 10 },
    { target = "t", property = "pose", frames = { 1, 2.5, { n = 3 } }, duration = 2, delay = 1, ["repeat"] = 2 },
    { target = "t", property = false, frames = { "a" }, duration = 0.5 },
  },
  wait = { nil, 0, 3, 0.25, 1e6 },
  sound = {
    "wind", { name = "step" }, { name = "step", volume = 0.5, delay = 1 }, { name = "x", volume = 2 },
    { name = "win", do_only = true },                                   -- built by anim.lua
  },
  cue = {
    { name = "storm" }, { name = "defeat", args = { reason = "thirst" } },
    { name = "c", args = { 1, { 2, { deep = "yes" } }, k = false }, delay = 0.5 },
    { name = "c", args = {}, do_only = true },                          -- built by anim.lua
  },
}

local noted, checked = 0, 0
local function check(kind, spec, sources)
  local ok, leaf = pcall(planner, BUILDERS[kind], spec)
  if not ok then return end
  checked = checked + 1
  local walked = valuehash(leaf)
  assert(planhash(leaf) == walked, kind .. ": the noted hash is the walk's (" .. K.show(spec) .. ", sources " .. tostring(sources) .. ")")
  local node = { action = "a", mode = "parallel", own = leaf, subs = { { action = "b", own = leaf } } }
  assert(planhash(node) == valuehash(node), kind .. ": inside a plan too")
  -- The note was taken, not a walk: changing the leaf (which no one does
  -- to a fresh leaf) leaves planhash with the note.
  leaf.changed = true
  if planhash(leaf) == walked then noted = noted + 1 end
  leaf.changed = nil
end

for _, sources in ipairs({ false, true }) do
  K.setleafsources(sources)
  for kind, specs in pairs(SPECS) do
    for i = 1, #SPECS[kind] + 1 do check(kind, specs[i], sources) end   -- wait's first spec is nil
  end
end
K.setleafsources(false)
assert(checked == 48, "built " .. checked)
-- Every leaf built here is noted but the four do_only ones, which anim.lua builds.
assert(noted == checked - 4, "the builders note the leaves they build (" .. noted .. " of " .. checked .. ")")

-- A leaf that was not built straight for the planner is not noted: a
-- change made to it shows in its key.
local held = anim.tween{ target = "t", property = "p" }
local before = planhash(held)
held.duration = 5.0
assert(planhash(held) ~= before and planhash(held) == valuehash(held), "a leaf the rules held is walked")
-- A list and its items are the rules' tables: walked.
local list = planner(function(s) return anim.sequence(s) end, { anim.wait(1), anim.cue{ name = "c" } })
local key = planhash(list)
list.items[1].duration = 2.0
assert(planhash(list) ~= key and planhash(list) == valuehash(list), "a list's items are walked")
