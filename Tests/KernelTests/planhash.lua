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

-- valuehash's bits, pinned (choose.lua's choices and plan ids depend on
-- them): integers, floats (both zeros), booleans, strings of every tail
-- length, tables, a plan. Taken from the hash before plans were noted.
local PINNED_VALUES = { 0, 1, -1, 2^53, math.maxinteger, math.mininteger, 0.0, -0.0, 1.5, -2.25, 1e300, true, false, "",
  "a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "ab\0", "é",
  {}, { 1, 2, 3 }, { x = 1, y = "z" }, { kind = "tween", target = "t", from = { 1, { 2 } }, duration = 0.25, ["repeat"] = 1, autoreverse = false },
  { [true] = 1, [2.5] = "f", nested = { {}, { {} } } }, { action = "step", own = { kind = "wait", duration = 1.0 }, subs = { { action = "a" } } } }
local PINNED = {
  "f02814e3ed5e531e8c86e5dacb3e6977", "8a142b3a9738d2db981ddc473fbd3229", "174c4684de533e6c2588116cfe4f3717",
  "274c204aa835f98a9eacf1b671eb8453", "956a18f97ed554f0163b79b7074c5e35", "f9dd061a09670b1eb4109ddd37627445",
  "142956742c71a4b7052c18533297485c", "a46c0ddf159d485f7d0384db2e6a0a31", "c6911d0febabd358de66d12ee51a4ad6",
  "6cf249df3e5eb7468871b1b9f5d7a363", "7e4df6f59427b74a18b1dfe5645b0ebf", "f02814e3ed5e531ee2b7bfde784a3022",
  "8a142b3a9738d2dbc05bfae20d0d9cca", "75402c6e8dec283eca31cc59a6366412", "1a2a668a09b93c577e71e22968a2f489",
  "fbcde23abed854198bdacf6ceb3109de", "b107ba2435751d79ac52afd8b3353574", "a9e5f048a71e4fbc0646042199a436b5",
  "31c421c6377794da1310c852f79ac854", "1cc6c9b574615b183b1bdb66f3f4ef63", "022ffdcf1c17dd38f68759e0ce7355d9",
  "8b13bf26570fcbb3b564287e178cad6a", "153f8db1428ab7f7a2b67188adac581a", "2c2bf9e0f61438030268206548f32854",
  "efdeb9460dcb723bc3a0ecf6cb9abbb9", "6c337870970777d13fddcd65edca9586", "7722f3636012308e0334ab1625e0cd8b",
  "40e9fc7560557b5f7260c0c25049c6a3", "3ec5a0c85b16af82c3886d6decb48b84", "2c43136b5527f68895c0e4c0a9e33bfa",
  "957cd673983134c75b335a9f24782732",
}
for i, v in ipairs(PINNED_VALUES) do
  local hex = valuehash(v):gsub(".", function(c) return string.format("%02x", c:byte()) end)
  assert(hex == PINNED[i], "valuehash of value " .. i .. " (" .. K.show(v) .. ") is " .. hex .. ", was " .. PINNED[i])
  assert(planhash(v) == valuehash(v), "planhash of value " .. i)
end
