-- Kernel tests: engine.lua (packs, perform, undo with verification, redo).
local K, API = ...

-- A pack built from source text, as Swift hands it over.
API.definepack("t", "t", "t/pack.lua", [[
return { name = "t", setup = function(game) game.n = 0; game.log = {} end,
         invariants = { small = function(game) return game.n < 50, "n is too big" end } }
]])
API.addaction("t", "add", "t/actions/add.lua", [[
return {
  params = { by = "integer", note = "string?" },
  legal = function(game, emit) emit{ by = 1 }; emit{ by = 2 } end,
  check = function(game, a) if a.by > 50 then return "too much" end end,
  apply = function(game, a) game.n = game.n + a.by; game.log[#game.log + 1] = a.by end,
  undo = function(game, a) game.n = game.n - a.by; game.log[#game.log] = nil end,
}
]])
API.addaction("t", "bad", "t/actions/bad.lua", [[
return {
  apply = function(game) game.n = game.n + 1 end,
  undo = function(game) game.n = game.n - 2 end,
}
]])
API.finishpack("t", "")

local h0 = API.newgame("t", "1", K.encode({}))
API.commit()
local function params(t) return K.encode(t) end

-- perform: hash and an encoded reply; commit makes it permanent.
local h1 = API.perform("add", params({ by = 2 }), "")
API.commit()
assert(h1 ~= h0 and K.game.n == 2 and API.depth() == 1)

-- legal: every emitted call, in action-name order.
local legal = K.decode(API.legal())
assert(#legal == 2 and legal[1].name == "add" and legal[2].params.by == 2)

-- Rejections, bad params and unknown actions are kernel errors with kinds.
fails(function() API.perform("add", params({ by = 60 }), "") end, "too much")
API.abort()
local ok, e = pcall(API.perform, "add", params({ by = "x" }), "")
assert(not ok and e.kind == "params" and e.message:find("must be integer"))
API.abort()
ok, e = pcall(API.perform, "ad", params({}), "")
assert(not ok and e.kind == "unknown" and e.message:find("did you mean 'add'"))
API.abort()
assert(K.hash() == h1, "failures change nothing")

-- strict undo of an exact undo: no problems, the hash is back.
local h, plan, problems = API.undo("1")
API.commit()
assert(h == h0 and problems == "")

-- An undo that is not exact is reported with its path and line, and the
-- state is repaired from the journal.
API.perform("bad", params({}), "")
API.commit()
h, plan, problems = API.undo("1")
API.commit()
local p = K.decode(problems)[1]
assert(p.action == "bad" and p.file == "t/actions/bad.lua" and p.line == 3)
assert(p.diffs[1].path == "n" and p.diffs[1].before == "0" and p.diffs[1].after == "-1")
assert(h == h0 and K.game.n == 0)

-- An invariant that fails is a kernel error naming it.
API.perform("add", params({ by = 40 }), "")
API.commit()
ok, e = pcall(API.perform, "add", params({ by = 40 }), "")
assert(not ok and e.kind == "invariant" and e.invariant == "small" and e.file == "t/pack.lua")
API.abort()

-- Reloading a pack runs its files again from their compiled chunks.
API.reloadpack("t")
assert(API.newgame("t", "1", K.encode({})) == h0)
API.commit()
