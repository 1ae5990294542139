-- Kernel tests: a pack's generate(rng, params) (engine.lua's API.generate)
-- and its generator (rulebench.lua's K.generator).
local K, API = ...

-- The generator draws as a game seeded alike: the same SplitMix64, the same first state.
API.definepack("g", "g", "g/pack.lua", [[
local rb = require "rulebench"
return {
  name = "g",
  options = { size = 0 },
  setup = function(game, options)
    game.draws = {}
    for i = 1, 8 do game.draws[i] = rb.random(game, 1, 100) end
  end,
  generate = function(rng, params)
    local draws = {}
    for i = 1, 8 do draws[i] = rng:random(1, 100) end
    local list = rng:shuffle({ 1, 2, 3, 4, 5 })
    return { size = params.size or 3, draws = table.concat(draws, ","), list = table.concat(list, ","), f = rng:random() }
  end,
}
]])
API.finishpack("g", "")
API.newgame("g", "77", K.encode({}))
API.commit()
local fromgame = {}
for i = 1, 8 do fromgame[i] = K.game.draws[i] end

local options = K.decode(API.generate("g", "77", K.encode({ size = 5 })))
assert(options.draws == table.concat(fromgame, ","), "generate's draws are the game's for the same seed: " .. options.draws)
assert(options.size == 5 and math.type(options.f) == "float" and options.f >= 0 and options.f < 1)
-- The same seed and params, the same options; another seed, others.
assert(API.generate("g", "77", K.encode({ size = 5 })) == API.generate("g", "77", K.encode({ size = 5 })))
assert(K.decode(API.generate("g", "78", K.encode({}))).draws ~= options.draws)
-- The game is left as it was.
assert(K.game.draws[1] == fromgame[1])

-- A method called with a dot, and a result that is not a table of named options, are the rules' errors.
API.definepack("h", "h", "h/pack.lua", [[
return {
  name = "h",
  generate = function(rng, params)
    if params.dot then return { n = rng.random(1, 6) } end
    if params.list then return { 1, 2 } end
    return 7
  end,
}
]])
API.finishpack("h", "")
local ok, e = pcall(API.generate, "h", "1", K.encode({ dot = true }))
assert(not ok and tostring(e.message or e):find("with a colon"), tostring(e.message or e))
ok, e = pcall(API.generate, "h", "1", K.encode({ list = true }))
assert(not ok and e.message:find("options named by strings"), e.message)
ok, e = pcall(API.generate, "h", "1", K.encode({}))
assert(not ok and e.message:find("as a table, not 7"), e.message)
-- A pack without generate answers "" (Swift says what to add).
assert(API.generate("g", "1", K.encode({})) ~= "")
API.definepack("n", "n", "n/pack.lua", [[ return { name = "n" } ]])
API.finishpack("n", "")
assert(API.generate("n", "1", K.encode({})) == "")
