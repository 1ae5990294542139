-- Kernel tests: the kinds of legal calls (emit's second argument), which the
-- fuzzer's guided search plays rare ones first by.
local K, API = ...

API.definepack("k", "k", "k/pack.lua", "return { name = 'k', setup = function(game) game.at = 0 end }")
API.addaction("k", "step", "k/actions/step.lua", [[
local function offer(emit, to, kind) emit({ to = to }, kind) end
return {
  params = { to = "integer" },
  legal = function(game, emit)
    for to = 1, 3 do offer(emit, to, to == 3 and "far" or "near") end
    emit({ to = 4 })
    emit({ to = 5 })
  end,
  apply = function(game, a) game.at = a.to end,
  undo = function(game) game.at = 0 end,
}
]])
API.addaction("k", "hop", "k/actions/hop.lua", [[
return {
  legal = function(game, emit) emit({}, "near") end,
  apply = function(game) end,
}
]])
API.finishpack("k", "")
API.newgame("k", "1", K.encode({}))
API.commit()

-- Sites are on only while the fuzzer asks for them.
K.emitsites(true)
local legal = K.decode(API.legal())
K.emitsites(false)
local site = {}
for _, call in ipairs(legal) do site[call.name .. (call.params.to or "")] = call.site end
-- One helper line emits two named kinds: two sites, the same for each kind.
assert(site.step1 == site.step2, "two calls of the kind 'near'")
assert(site.step1 ~= site.step3, "'near' and 'far' are two kinds, though one line emits both")
-- Without a kind, the emitting line is the kind (one line per call here).
assert(site.step4 ~= site.step5 and site.step4 ~= site.step1)
-- A kind is the action's: 'near' of hop is not 'near' of step.
assert(site.hop ~= site.step1)
assert(math.type(site.step1) == "integer" and site.step1 >= 0)
-- A named kind's site is FNV-1a of "action\0kind", shifted non-negative,
-- by the bridge's one text hash (C.fnv): the values sessions saved before
-- it moved to C, the Lua loop here written as the kernel had it.
local function fnv(text)
  local h = -3750763034362895579   -- the FNV-1a 64-bit offset basis
  for i = 1, #text do h = (h ~ text:byte(i)) * 0x100000001b3 end
  return h >> 1
end
assert(site.step1 == fnv("step\0near") and site.step3 == fnv("step\0far") and site.hop == fnv("hop\0near"))
assert(K.C.fnv("") == fnv("") and K.C.fnv("a/b\0\255") == fnv("a/b\0\255"))
-- Without sites asked for, emit(params, kind) lists the call as emit(params) does.
legal = K.decode(API.legal())
assert(#legal == 6 and legal[1].site == nil)

-- A kind that is not a string is an error at the emit.
API.definepack("b", "b", "b/pack.lua", "return { name = 'b', setup = function(game) end }")
API.addaction("b", "go", "b/actions/go.lua", "return { legal = function(game, emit) emit({}, 3) end, apply = function() end }")
API.finishpack("b", "")
API.newgame("b", "1", K.encode({}))
API.commit()
local ok, e = pcall(API.legal)
assert(not ok and tostring(e.message or e):find("emit: the kind %(second argument%) must be a string"), tostring(e.message or e))
API.abort()
