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

-- paramproblem: the one param check, asked without performing; the first
-- param that does not fit, in key order, with what is wrong with it.
assert(API.paramproblem("add", params({ by = 1 })) == "")
local pp = K.decode(API.paramproblem("add", params({ zz = 1, by = "x" })))
assert(pp.param == "by" and pp.problem == "type" and pp.message:find("must be integer"), pp.message)
pp = K.decode(API.paramproblem("add", params({ note = "n" })))
assert(pp.param == "by" and pp.problem == "missing")
pp = K.decode(API.paramproblem("add", params({ by = 1, bz = 2 })))
assert(pp.param == "bz" and pp.problem == "undeclared" and pp.message:find("did you mean 'by'"), pp.message)
assert(API.paramproblem("nosuch", params({})) == "", "an unknown action is the caller's to word")

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

-- Reloading a pack runs its files again from their compiled chunks (restart).
assert(API.restart("t", "1", K.encode({})) == h0)
API.commit()

-- Internal actions, every broken invariant, declared options, overrides
-- that may not create tables.
API.definepack("i", "i", "i/pack.lua", [[
return { name = "i",
         options = { start = 0, mode = { type = "any", default = "plain" }, extra = { type = "table" } },
         setup = function(game, options) game.n = options.start; game.mode = options.mode; game.t = {} end,
         invariants = { a = function(game) return game.n < 5, "a: n is " .. game.n end,
                        b = function(game) return game.n < 6, "b: n is " .. game.n end } }
]])
API.addaction("i", "outer", "i/actions/outer.lua", [[
return { legal = function(game, emit) emit{} end,
         apply = function(game, a, act) act:sub("inner", {}) end }
]])
API.addaction("i", "inner", "i/actions/inner.lua", [[
return { internal = true, apply = function(game) game.n = game.n + 3 end }
]])
local described = K.decode(API.finishpack("i", ""))
assert(described.actions.inner.internal == true and described.actions.outer.internal == false)
assert(described.optiontypes.start == "integer" and described.optiontypes.mode == "any" and described.optiontypes.extra == "table")
assert(described.options.mode == "plain" and described.options.extra == nil)
API.newgame("i", "1", K.encode({}))
API.commit()
assert(K.game.mode == "plain")
-- legal never lists an internal action; performed on its own, it is rejected by name.
local calls = K.decode(API.legal())
assert(#calls == 1 and calls[1].name == "outer")
ok, e = pcall(API.perform, "inner", params({}), "")
assert(not ok and e.kind == "rejected" and e.message:find("'inner' is an internal action"))
API.abort()
API.perform("outer", params({}), "")
API.commit()
assert(K.game.n == 3)
-- Both invariants broken: one error, a line for each.
ok, e = pcall(API.perform, "outer", params({}), "")
assert(not ok and e.kind == "invariant" and e.invariant == "a")
assert(e.message == "invariant 'a' failed: a: n is 6\ninvariant 'b' failed: b: n is 6", e.message)
API.abort()
-- An override creates a missing table only when asked to.
API.newgame("i", "1", K.encode({}))
API.commit()
ok, e = pcall(API.set, K.encode({ "s", "x" }), K.encode(1), "0")
assert(not ok and e.kind == "path" and e.message:find("s does not exist") and e.message:find("create: true"))
API.abort()
API.set(K.encode({ "t", "x" }), K.encode(1), "0")     -- t exists: a new key is fine
API.commit()
API.set(K.encode({ "s", "x" }), K.encode(1), "1")
API.commit()
assert(K.game.s.x == 1 and K.game.t.x == 1)
-- A load error about a field names the line that sets it.
API.definepack("j", "j", "j/pack.lua", "return { name = 'j' }")
ok, e = pcall(API.addaction, "j", "go", "j/actions/go.lua", "return {\n  apply = function() end,\n  subanimations = 'serial',\n}")
assert(not ok and e.kind == "load" and e.line == 3, tostring(e.line))
-- A strict redo runs into its entry (ops.perform's `into`): the entry's own
-- params passed the param check when it first ran and are not checked
-- again; any other params, or another action's, are.
API.newgame("t", "1", K.encode({}))
API.commit()
local _, rec = K.ops.perform("add", { by = 1 }, nil, "record")
K.ops.abort()
assert(K.ops.perform("add", rec.params, nil, "record", rec) and K.game.n == 1)
K.ops.abort()
ok, e = pcall(K.ops.perform, "add", { by = "one" }, nil, "record", rec)
assert(not ok and e.kind == "params" and e.param == "by", "other params are checked: " .. tostring(e.message))
K.ops.abort()
ok, e = pcall(K.ops.perform, "add", {}, nil, "record", rec)
assert(not ok and e.kind == "params" and e.problem == "missing")
K.ops.abort()
