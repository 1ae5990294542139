-- Kernel tests: solve.lua (the solver's search and its closed set)
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

-- Breadth-first to depth 2 for a goal that never holds: every state
-- within two moves (n = 0..4) reached once: from n = 1 the moves reach 2
-- (reached from 0 already: a transposition) and 3, from n = 2 they reach 3
-- (another) and 4. States at depth 2 are not expanded: the search ends at
-- the limit.
fails(function() API.solvebegin("thre", "100", "1", "2", "shortest") end, "unknown goal")
API.abort()
assert(API.solvebegin("never", "100", "1", "2", "shortest") == "breadth")
local status, counts = API.solvestep("100")
counts = K.decode(counts)
assert(status == "depth", status)
assert(counts.states == 5 and counts.expanded == 3 and counts.performs == 6 and counts.transpositions == 2, K.encode(counts))
assert(K.hash() == h0 and API.depth() == 0, "the step leaves the game as it was")

-- Without the closed set every line is searched: 1 + 2 + 4 states.
API.solvebegin("never", "100", "0", "2", "shortest")
status, counts = API.solvestep("100")
counts = K.decode(counts)
assert(status == "depth" and counts.states == 7 and counts.transpositions == 0, K.encode(counts))

-- One state per call: the search goes on where the last call stopped.
API.solvebegin("never", "100", "1", "2", "shortest")
assert(API.solvestep("1") == "more")
assert(K.decode(select(2, API.solvestep("1"))).expanded == 2)

-- The goal: tested when a state is first reached, its line played again
-- from the start (1 + 2, the first line of two moves in legal order).
API.solvebegin("three", "100", "1", "5", "shortest")
assert(API.solvestep("100") == "found")
local line = K.decode(API.solveline())
assert(#line == 2 and line[1].params.by == 1 and line[2].params.by == 2, K.encode(line))
assert(K.hash() == h0 and API.depth() == 0)

-- No limit short of every state, and n grows without end: the bound stops it.
API.solvebegin("never", "4", "1", "50", "shortest")
assert(API.solvestep("100") == "full")
assert(K.hash() == h0 and API.depth() == 0)

-- A step that fails halfway is rolled back by abort, and the search keeps
-- only the states it finished: the line to the failure is still known.
API.set(K.encode({ "fail" }), K.encode(true))
API.commit()
local h1 = K.hash()
API.solvebegin("never", "100", "1", "5", "shortest")
fails(function() API.solvestep("100") end, "five is forbidden")
API.abort()
assert(K.hash() == h1 and API.depth() == 0, "abort rolls the step back")
line = K.decode(API.solveline())
local n = 0
for _, call in ipairs(line) do n = n + call.params.by end
assert(n == 5, "the line ends with the move that failed: " .. K.encode(line))
API.solveend()
