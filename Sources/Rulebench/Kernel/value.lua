-- The game-value search: what `rulebench solve --value` runs
-- (Solve/GameValue.swift), and the `alphabeta` bot's move.
--
-- Negamax with alpha-beta over the game's own steps: each move performed
-- through the checked engine and undone with strict verification (the
-- search's steps, solve.walk, as solve.lua and unique.lua take them), one
-- operation each under the instruction budget. The pack declares
-- `result(game)`: nil while play goes on, else the seat that won, "draw",
-- or a table of whole-number scores by seat (two seats: summing to 0). The
-- seat to move is the one `turn` names; a game without seats is a puzzle
-- of one seat. `appraise(game, seat)`, when declared, orders the moves
-- (best first) and scores a position where a search cut short stops.
--
-- Values are whole numbers from the view of the seat to move: a result's
-- score times SCALE, less the moves to it from the root for a score above
-- 0 (a quicker win is better), plus them for one below (a later loss is
-- better); an appraisal is at most SCALE / 4 either way, below any win.
-- VALUE.table maps a state's hash (its hex text, as the checked perform
-- returns it: no second hashing, no parsing) to { v (the value from that state's
-- mover, its distance counted from there), bound (EXACT, LOWER, UPPER),
-- depth (moves searched below), proven (no cut below), best (a move's
-- index) }: a transposition table, kept for the whole search (the
-- iterations of iterative deepening share it).
--
-- A move that draws from the game's random generator is chance: the value
-- would hang on the seed, so the search stops there and says so.

-- Receives: core, state, rulebench, engine, seats, solve (KernelSource.swift).
-- Returns its table `M`.
local core, state, rulebench, engine, seats, solve = ...
local M = {}
local API = core.API
local ops, encode, backing = engine.ops, core.encode, state.backing
local walk = solve.walk
local perform, undo, replay = walk.perform, walk.undo, walk.replay
local hashof = state.hash
local setwritable = state.setwritable
local operation = core.C.operation or function() end
local tonumber, tointeger, type, next, mathtype, sort = tonumber, math.tointeger, type, next, math.type, table.sort

local SCALE = 1 << 10          -- a score's unit: above every distance (plies are at most 200)
local MOST_SCORE = 1 << 40     -- the largest score a result may give
local INF = math.maxinteger    -- beyond every value
local EXACT, LOWER, UPPER = 0, 1, 2
local SOLO = "(solo)"          -- the one seat of a game without seats
-- Moves are ordered by `appraise` only this few moves below the root: each
-- appraisal performs a move once more (and asks `result` and `turn` again),
-- which deeper down costs more than the cuts it buys.
local ORDER_PLIES = 2

local VALUE                    -- the search (see valuebegin)
-- The table outlives a search, for the next search of the same pack (a
-- bot's next move): { pack = the pack, entries, count }. A value in it
-- hangs on the state alone (distances are counted from the state), so it
-- holds whatever the root. At most TABLE_MOST entries (then no new ones).
local KEPT
local TABLE_MOST = 1 << 19

---------------------------------------------------------------- the pack's answers
local function readonly(what)
  operation()
  setwritable(false, what)
  ops.setcontext(what, what)
end

-- The seat to move now, or nil when none may (the game acts by itself, or is over).
local function mover()
  local seats, set = seats.actors()
  if not seats then return SOLO end
  local one
  for s in next, set do
    if one then
      VALUE.stop = { kind = "turn", why = "turn lets more than one seat act (" .. one .. ", " .. s .. ")" }
      return nil
    end
    one = s
  end
  return one
end

-- The scores of a finished game by seat, or nil while play goes on;
-- `known` the game's seats when known (the search asks once:
-- seats.actors asks `turn` too).
local function result(known)
  local fn = ops.pack().result
  readonly("result")
  local r = fn(state.game())
  if r == nil then return nil end
  local seats = known or seats.actors() or { SOLO }
  local scores = {}
  if r == "draw" then
    for _, s in ipairs(seats) do scores[s] = 0 end
  elseif type(r) == "string" then
    local known = false
    for _, s in ipairs(seats) do
      scores[s] = s == r and 1 or -1
      known = known or s == r
    end
    if not known then
      core.fail("error", "result returned " .. core.show(r) .. ", which is not a seat (a seat that won, \"draw\", or a table of scores by seat)", { fn = fn })
    end
  elseif type(r) == "table" then
    local sum = 0
    for _, s in ipairs(seats) do
      local v = r[s]
      if mathtype(v) ~= "integer" or v > MOST_SCORE or v < -MOST_SCORE then
        core.fail("error", "result's score of " .. s .. " is " .. core.show(v) .. " (each seat's score is a whole number from -2^40 to 2^40)", { fn = fn })
      end
      scores[s] = v
      sum = sum + v
    end
    if #seats == 2 and sum ~= 0 then
      core.fail("error", "result's scores sum to " .. sum .. ": --value searches games where one seat's gain is the other's loss (scores summing to 0)", { fn = fn })
    end
  else
    core.fail("error", "result returned " .. core.show(r) .. " (nil while play goes on; a seat that won, \"draw\", or a table of scores by seat)", { fn = fn })
  end
  return scores
end

-- The game's result now and, while play goes on, the seat to move: one
-- question per state (`result`, then `turn` only when it is nil).
local function outcome()
  local r = result(VALUE.seats)
  if r then return r, nil end
  return nil, mover()
end

-- How the position looks to `seat`, as a value (at most SCALE / 4 either way); 0 without `appraise`.
local function appraisal(seat)
  local fn = ops.pack().appraise
  if not fn then return 0 end
  readonly("appraise")
  local a = fn(state.game(), seat ~= SOLO and seat or nil)
  if type(a) ~= "number" or a ~= a or a < -1 or a > 1 then
    core.fail("error", "appraise returned " .. core.show(a) .. " (how good the position is for the seat: a number from -1 to 1)", { fn = fn })
  end
  return math.floor(a * (SCALE // 4))
end

-- A finished game's value for `seat`, `ply` moves from the root.
local function final(scores, seat, ply)
  local s = scores[seat] or 0
  if s > 0 then return s * SCALE - ply end
  if s < 0 then return s * SCALE + ply end
  return 0
end

-- A value seen by the other seat, and the table's form of values (a result's distance counted from the state).
local function totable(v, ply) if v >= SCALE // 2 then return v + ply elseif v <= -(SCALE // 2) then return v - ply end return v end
local function fromtable(v, ply) if v >= SCALE // 2 then return v - ply elseif v <= -(SCALE // 2) then return v + ply end return v end

---------------------------------------------------------------- moves
-- Performs `call` (checked); the state's hash after it, or nil with a stop
-- when it drew from the generator.
local function play(call)
  local rng = backing(state.game())[rulebench.RNG]
  local hash = perform(call)
  VALUE.performs = VALUE.performs + 1
  if backing(state.game())[rulebench.RNG] ~= rng then
    VALUE.stop = { kind = "chance", why = "action '" .. call.name .. "' drew from the game's random generator (rulebench.random): "
      .. "a move of chance, whose outcome hangs on the seed. --value searches games without chance: deal or roll in setup, "
      .. "or make the outcome a seat's choice" }
    VALUE.path[#VALUE.path + 1] = call
    return nil
  end
  return hash
end

-- Undoes `call` (strictly verified) back to the state `key`; true when it did not restore it.
local function takeback(call, key)
  local problems = undo(call, key)
  if problems then
    VALUE.stop = { kind = "undo", problems = problems }
    VALUE.path[#VALUE.path + 1] = call
    return true
  end
  return false
end

-- The moves of the state `key` for `seat` by appraisal, best first: the
-- table's best move (`first`), then by appraisal, then in legal order. Only
-- when the pack appraises, the state is near the root and enough is left
-- to search below to pay for it; else nil: the table's best move, then the
-- others in legal order (`nth`), with no table made.
local function ordered(calls, key, seat, depth, ply, first)
  if ply >= ORDER_PLIES or depth < 3 or not ops.pack().appraise then return false end
  local order, score = {}, {}
  for k = 1, #calls do
    order[k] = k
    if not play(calls[k]) then return nil end
    local r, who = outcome()
    if VALUE.stop then return nil end
    score[k] = r and final(r, seat, 0) or (who == seat and appraisal(seat) or -appraisal(who))
    if takeback(calls[k], key) then return nil end
  end
  sort(order, function(a, b)
    if a == first or b == first then return a == first and b ~= first end
    local x, y = score[a] or 0, score[b] or 0
    if x ~= y then return x > y end
    return a < b
  end)
  return order
end

-- The index of the i-th move without an appraised order: the table's best
-- move `first` (when there is one) first, then the others in legal order.
local function nth(i, first)
  if not first then return i end
  if i == 1 then return first end
  if i <= first then return i - 1 end
  return i
end

---------------------------------------------------------------- the search
local search

-- The value of move `call` for `seat` at `ply`, searched `depth` more moves within (alpha, beta).
local function child(call, key, seat, depth, alpha, beta, ply)
  local hash = play(call)
  if not hash then return 0 end
  VALUE.path[#VALUE.path + 1] = call
  local v
  local r, who = outcome()
  if r then
    v = final(r, seat, ply + 1)
    VALUE.finished = VALUE.finished + 1
  else
    if VALUE.stop then return 0 end
    if not who then
      VALUE.stop = { kind = "stuck", why = "no seat may move and result returned nil: a finished game's result says who won (or \"draw\")" }
      return 0
    end
    if who == seat then
      v = search(hash, depth - 1, alpha, beta, ply + 1, who)
    else
      v = -search(hash, depth - 1, -beta, -alpha, ply + 1, who)
    end
  end
  if VALUE.stop then return 0 end
  VALUE.path[#VALUE.path] = nil
  if takeback(call, key) then return 0 end
  return v
end

-- The value of the current state `key` (not finished) for `seat`, its mover.
function search(key, depth, alpha, beta, ply, seat)
  local V = VALUE
  V.nodes = V.nodes + 1
  if V.nodes > V.budget then
    V.stop = { kind = "budget", why = "the search's budget of " .. V.budget .. " states is spent" }
    return 0
  end
  local e = V.table[key]
  if e and (e.proven or e.depth >= depth) then
    local v = fromtable(e.v, ply)
    if e.bound == EXACT or (e.bound == LOWER and v >= beta) or (e.bound == UPPER and v <= alpha) then
      V.hits = V.hits + 1
      if not e.proven then V.cuts = V.cuts + 1 end
      return v
    end
  end
  if depth <= 0 then
    V.cuts = V.cuts + 1
    return appraisal(seat)
  end
  operation()
  local calls = ops.legal()
  if #calls == 0 then
    V.stop = { kind = "stuck", why = "no legal call and result returned nil: a finished game's result says who won (or \"draw\")" }
    return 0
  end
  local first = e and e.best
  local order = ordered(calls, key, seat, depth, ply, first)
  if order == nil then return 0 end
  local cuts, start, best, bestk = V.cuts, alpha, -INF, nil
  for i = 1, #calls do
    local k = order and order[i] or nth(i, first)
    local v = child(calls[k], key, seat, depth, alpha, beta, ply)
    if V.stop then return 0 end
    if v > best then best, bestk = v, k end
    if v > alpha then alpha = v end
    if alpha >= beta then break end
  end
  local bound = best <= start and UPPER or best >= beta and LOWER or EXACT
  if e then   -- the state's entry, rewritten in place
    e.v, e.bound, e.depth, e.proven, e.best = totable(best, ply), bound, depth, V.cuts == cuts, bestk
    V.stored = V.stored + 1
  elseif KEPT.count < TABLE_MOST then
    KEPT.count = KEPT.count + 1
    V.table[key] = { v = totable(best, ply), bound = bound, depth = depth, proven = V.cuts == cuts, best = bestk }
    V.stored = V.stored + 1
  end
  return best
end

---------------------------------------------------------------- calls
local function counts(extra)
  local V = VALUE
  local out = { nodes = V.nodes, performs = V.performs, hits = V.hits, stored = V.stored, finished = V.finished }
  for k, v in next, extra or {} do out[k] = v end
  return encode(out)
end

-- A stop, encoded: its kind, why, the problems of an undo, the line to it.
local function stopped()
  local s = VALUE.stop
  local line = {}
  for i, c in ipairs(VALUE.path) do line[i] = { name = c.name, params = c.params } end
  return encode({ kind = s.kind, why = s.why or "", problems = s.problems or {}, line = line })
end

-- valuebegin(budget): a new search from the current state, of at most
-- `budget` states in all (none given: no bound); a valuemove that would
-- search more stops with "budget" (its search is dropped, the state rolled back). Returns "ok" and {
-- seat (to move), calls (the root's moves) }; "over" and the result's
-- score of each seat when the game is over at the start; "none" when the
-- pack declares no result; "seats" with the seats when there are more than
-- two; "stuck" when no seat may move and the game is not over.
function API.valuebegin(budget)
  local pack = ops.pack()
  if not pack or not state.game() then core.fail("error", "no game is running") end
  if not pack.result then return "none", encode({}) end
  local seats = seats.actors()
  if seats and #seats > 2 then return "seats", encode(seats) end
  if not KEPT or KEPT.pack ~= pack then KEPT = { pack = pack, entries = {}, count = 0 } end
  VALUE = { table = KEPT.entries, budget = tointeger(tonumber(budget)) or INF, nodes = 0, performs = 0, hits = 0, stored = 0, finished = 0, cuts = 0, path = {},
            seats = seats or { SOLO } }
  walk.open()
  local r, seat = outcome()
  operation()
  local calls = not r and seat and ops.legal() or {}
  walk.close()
  if r then return "over", encode(r) end
  if VALUE.stop then return VALUE.stop.kind, stopped() end
  if not seat or #calls == 0 then return "stuck", encode({}) end
  local list = {}
  for i, c in ipairs(calls) do list[i] = { name = c.name, params = c.params } end
  VALUE.root = { key = hashof(), seat = seat, calls = calls }
  return "ok", encode({ seat = seat, calls = list })
end

-- valuemove(k, depth): the value of root move k for the seat to move,
-- searched `depth` moves deep in all (the move included), with the whole
-- window: an exact value. Returns "ok" and { value, proven (no cut short
-- below), counts }, or the stop's kind and its record.
function API.valuemove(k, depth)
  local V = VALUE
  if not V or not V.root then core.fail("error", "no value search is running") end
  k, depth = tointeger(tonumber(k)), tointeger(tonumber(depth)) or 1
  local R = V.root
  walk.open()
  V.path, V.stop = {}, nil
  local cuts = V.cuts
  local v = child(R.calls[k], R.key, R.seat, depth, -INF, INF, 0)
  walk.close()
  if V.stop then return V.stop.kind, stopped() end
  return "ok", counts({ value = v, proven = V.cuts == cuts })
end

-- The exact value of the current state `key` for its mover, searched `depth`
-- moves deep, when the table holds it (an exact entry of that depth, or
-- proven); else nil.
local function known(key, depth)
  local e = VALUE.table[key]
  if e and e.bound == EXACT and (e.proven or e.depth == depth) then return e.v end
  return nil
end

-- The first of `calls` (in legal order) whose value for `seat`, searched
-- `depth` deep, is the best: with the state's exact value `want` known, a
-- null window (want - 1, want) around it per move (a move worth `want` or
-- more is worth exactly `want`, the best), else a whole-window search of
-- every move. The move's index and its value.
local function bestmove(calls, key, seat, depth, want)
  local V = VALUE
  if want then
    for k = 1, #calls do
      local v = child(calls[k], key, seat, depth, want - 1, want, 0)
      if V.stop then return nil end
      if v >= want then return k, want end
    end
  end
  local best, bestk = -INF, nil   -- no exact value known (or the table was overwritten): every move, whole window
  for k = 1, #calls do
    local v = child(calls[k], key, seat, depth, -INF, INF, 0)
    if V.stop then return nil end
    if v > best then best, bestk = v, k end
  end
  return bestk, best
end

-- The principal line from the current state: each state's best move, the
-- first in legal order (bestmove), until the game ends or `most` moves.
-- The value of the move played carries to the next state (its value for
-- its own mover, the distance counted from there). The game is left at the
-- line's end: the caller's walk.close() rolls it back.
local function principal(depth, most)
  local V = VALUE
  local line = {}
  local want = known(hashof(), depth)
  local r, seat = outcome()
  while #line < most and not r and seat and not V.stop do
    operation()
    local calls = ops.legal()
    if #calls == 0 then break end
    local bestk, v = bestmove(calls, hashof(), seat, depth - #line, want)
    if V.stop then break end
    line[#line + 1] = bestk
    perform(calls[bestk])
    local moved = seat
    r, seat = outcome()
    want = not r and seat and totable(seat == moved and v or -v, 1) or nil
  end
  return line
end

-- valueline(k, depth): the principal line after root move k (k itself
-- first), as calls played again through the engine; "" with the stop's
-- kind when it stopped.
function API.valueline(k, depth)
  local V = VALUE
  if not V or not V.root then core.fail("error", "no value search is running") end
  k, depth = tointeger(tonumber(k)), tointeger(tonumber(depth)) or 1
  V.path, V.stop, V.budget = {}, nil, INF   -- a line is searched within the table the search filled: no budget
  walk.open()
  perform(V.root.calls[k])
  local rest = principal(depth - 1, depth - 1)
  walk.close()
  if V.stop then return V.stop.kind, stopped() end
  local moves = { k }
  for i = 1, #rest do moves[#moves + 1] = rest[i] end
  return "ok", replay(moves)
end

-- valueresult(): the result's score of each seat now, encoded; "" while
-- play goes on or when the pack declares no result (the bots' playouts).
function API.valueresult()
  ops.nogame()
  if not ops.pack().result then return "" end
  local r = result()
  setwritable(false, "")
  return r and encode(r) or ""
end

-- valuefailed(): after a call that raised, the line to where it was.
function API.valuefailed()
  local line = {}
  for i, c in ipairs(VALUE and VALUE.path or {}) do line[i] = { name = c.name, params = c.params } end
  return encode(line)
end

-- valueend(): the search is over (its table is kept for the pack's next).
function API.valueend()
  VALUE = nil
  return ""
end

return M
