-- Kernel tests: solve.lua (the solver's walk and its transposition table)
-- and goals (engine.lua).
local K, API = ...

-- n goes up by 1 or 2: 1+2 and 2+1 reach the same state (a transposition).
API.definepack("s", "s", "s/pack.lua", [[
return { name = "s", setup = function(game) game.n = 0 end,
         goals = { three = function(game) return game.n == 3 end,
                   never = function(game) return false end,
                   nonsense = function(game) return "yes" end,
                   writes = function(game) game.n = 9; return true end } }
]])
API.addaction("s", "add", "s/actions/add.lua", [[
return {
  params = { by = "integer" },
  legal = function(game, emit) emit{ by = 1 }; emit{ by = 2 } end,
  apply = function(game, a)
    if game.n + a.by == 5 and game.fail then error("five is forbidden") end
    game.n = game.n + a.by
  end,
}
]])
API.finishpack("s", "")
local h0 = API.newgame("s", "1", K.encode({}))
API.commit()

-- Goals: true or false, read-only, unknown ones named with a suggestion.
assert(API.goal("three") == "false" and API.goal("never") == "false")
fails(function() API.goal("nonsense") end, "returned \"yes\" %(a goal returns true or false%)")
fails(function() API.goal("writes") end, "read%-only in a goal")
fails(function() API.goal("thre") end, "did you mean 'three'")
API.abort()
assert(K.game.n == 0 and K.hash() == h0, "goals change nothing")

-- A search of depth 2 for a goal that never holds: every state within two
-- moves once (n = 0..4), and both orders of 1+2 reach one state.
fails(function() API.solvebegin("thre", "100", "1") end, "unknown goal")
API.abort()
API.solvebegin("never", "100", "1")
API.solveiteration()
local status, counts = API.solvevisit("0", "2", "1")
counts = K.decode(counts)
assert(status == "done", status)
assert(API.solvecount() == "5", API.solvecount())
-- searched: 0, then 1 (and its 2, 3), then 2 again at depth 1 (shallower), 3 cut at depth 2, 4
assert(counts.nodes == 6 and counts.cut == 1 and counts.performs == 6 and counts.frontier == 3, K.encode(counts))
assert(K.hash() == h0 and API.depth() == 0, "the walk leaves the game as it was")
-- The root is searched now: visiting it again at depth 0 is a skip.
assert(API.solvevisit("0", "2", "0") == "skip")

-- Without the table every line is searched: 2 + 4 sequences, 6 nodes + the root.
API.solvebegin("never", "100", "0")
API.solveiteration()
status, counts = API.solvevisit("0", "2", "1")
counts = K.decode(counts)
assert(status == "done" and counts.nodes == 7 and counts.cut == 0 and counts.performs == 6, K.encode(counts))

-- The goal: found with its line from the walk's root (a shortest one at
-- the limit, so the iteration of depth 2 finds 1+2).
API.solvebegin("three", "100", "1")
API.solveiteration()
local line
status, counts, line = API.solvevisit("0", "2", "1")
line = K.decode(line)
assert(status == "found" and #line == 2 and line[1].params.by == 1 and line[2].params.by == 2, K.encode(line))
assert(K.hash() == h0 and API.depth() == 0)

-- Swift's levels: "open" a state, walk its moves, then close it.
API.solveiteration()
assert(API.solvevisit("0", "3", "0") == "open")
assert(API.solveclose("0") == "ok" and API.solvevisit("0", "3", "0") == "skip")

-- The bound: a full table stops the walk, rolled back.
API.solvebegin("never", "2", "1")
API.solveiteration()
assert(API.solvevisit("0", "2", "1") == "full")
assert(K.hash() == h0 and API.depth() == 0)

-- A walk that fails halfway is rolled back by abort, and the table keeps
-- only what it finished: the same walk made again finds the same states.
API.set(K.encode({ "fail" }), K.encode(true))
API.commit()
local h1 = K.hash()
API.solvebegin("never", "100", "1")
API.solveiteration()
fails(function() API.solvevisit("0", "3", "1") end, "five is forbidden")
API.abort()
assert(K.hash() == h1 and API.depth() == 0, "abort rolls the walk back")
local kept = tonumber(API.solvecount())
assert(kept > 0 and kept < 5, "finished states only: " .. kept)
API.solveend()
