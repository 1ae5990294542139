-- Kernel tests: seats.lua, seats and secrets: who may act, which seat
-- performs a call, each seat's view of the state and of a step's plan,
-- the players' undo barriers, and the no-leak probe of one state.
local K, API = ...
local H = K.history

API.definepack("s", "s", "s/pack.lua", [[return { name = "s",
  seats = function(o) local out = {} for i = 1, o.players do out[i] = "p" .. i end return out end,
  options = { players = 2 },
  turn = function(g) if g.over then return nil end return g.current, "it is " .. g.current .. "'s turn" end,
  secrets = function(g, secret)
    secret(g.deck)
    for name, hand in pairs(g.hands) do secret(hand, nil, name) end
  end,
  setup = function(g, o)
    g.deck = { "a", "b", "c", "d", "e" }
    g.hands = { p1 = {}, p2 = {} }
    g.pile = {}
    g.current = "p1"
    g.n = 0
  end }]])
-- draw: the current player takes the top card (its param names the seat).
API.addaction("s", "draw", "s/actions/draw.lua", [[return { params = { player = "string" },
  legal = function(g, emit) emit({ player = g.current }) end,
  apply = function(g, a) table.insert(g.hands[a.player], table.remove(g.deck)) end,
  animate = function(anim, g, a, direction)
    if direction == "undo" then return nil end
    local hand = g.hands[a.player]
    return anim.tween{ target = "card:" .. hand[#hand], property = "place", from = "deck", to = a.player, duration = 0.2 }
  end }]])
-- count: public bookkeeping, no secret touched.
API.addaction("s", "count", "s/actions/count.lua", [[return {
  legal = function(g, emit) emit({}) end,
  apply = function(g) g.n = g.n + 1 end }]])
-- pass: the turn goes to the other seat (a checkpoint); `seat` says who passes.
API.addaction("s", "pass", "s/actions/pass.lua", [[return { checkpoint = true,
  seat = function(g, a) return g.current end,
  legal = function(g, emit) emit({}) end,
  apply = function(g) g.current = g.current == "p1" and "p2" or "p1" end }]])
-- cut: the two bottom cards of the face-down deck swap.
API.addaction("s", "cut", "s/actions/cut.lua", [[return {
  apply = function(g) g.deck[1], g.deck[2] = g.deck[2], g.deck[1] end }]])
-- roll: draws from the generator.
API.addaction("s", "roll", "s/actions/roll.lua", [[local rb = require "rulebench"
return { apply = function(g) g.rolled = rb.random(g, 6) end }]])
API.finishpack("s", "")
local function params(t) return K.encode(t or {}) end
-- A seated perform's views, decoded, each twin ({ twin = seat }) as the view it shares.
local function stepviewsof(encoded)
  local views = K.decode(encoded)
  for seat, view in pairs(views) do
    if view.twin then views[seat] = assert(views[view.twin], seat .. "'s twin " .. view.twin .. " is missing") end
  end
  return views
end

API.newgame("s", "1", params())
assert(same(K.decode(API.seats()), { "p1", "p2" }), "the seats come from the options")

-- Turns: p2 may not act on p1's turn; the pack's reason; nothing changes.
local h0 = K.hash()
fails(function() API.performas("count", params(), "p2") end, "it is p1's turn")
API.abort()
assert(K.hash() == h0 and H.count() == 0)
assert(API.refusal("count", params(), "p2") == "it is p1's turn")
assert(API.refusal("count", params(), "p1") == "")
-- A call naming another seat (its `player` param) is that seat's to make.
assert(API.refusal("draw", params({ player = "p2" }), "p1") == "this call is p2's to make, not p1's")
fails(function() API.performas("count", params(), "p9") end, "unknown seat 'p9'")
API.abort()
-- Only the acting seat is offered calls.
assert(#K.decode(API.legalas("p2")) == 0)
assert(#K.decode(API.legalas("p1")) == 3)

-- Views: the deck face down to everyone, a hand to its owner only, the
-- generator to no one; the view's hash is not the state's.
local v1 = K.decode(API.seatview("p1"))
assert(v1.state.deck[5] == K.HIDDEN and #v1.state.deck == 5 and v1.state._rng == nil)
assert(v1.hash ~= h0 and #v1.hash == 16 and v1.hash == API.viewhash("p1"))
local _, _, _, drawbarrier, views = API.performas("draw", params({ player = "p1" }), "p1", "1")
assert(drawbarrier == "secret")
views = stepviewsof(views)
local p1, p2 = K.decode(API.seatview("p1")), K.decode(API.seatview("p2"))
assert(p1.state.hands.p1[1] == "e", "the owner sees its card")
assert(p2.state.hands.p1[1] == K.HIDDEN, "the other seat sees a card back")
assert(views.p1.hash == p1.hash and views.p2.hash == p2.hash)
-- The plan: the owner sees which card moved, the other seat a card back.
assert(views.p1.plan.own.target == "card:e", K.show(views.p1.plan))
assert(views.p2.plan.own.target == "card:?1", K.show(views.p2.plan))
assert(views.p1.barrier == "secret", "a card left the face-down deck")
-- The changes: the owner sees its card arrive, the other seat a card back;
-- both see the deck's top slot leave, neither sees which card it held.
local function changesof(list)
  local out = {}
  for i, c in ipairs(list) do out[i] = c.path .. ": " .. tostring(c.before) .. " -> " .. tostring(c.after) end
  return table.concat(out, "; ")
end
assert(changesof(views.p1.changes) == "deck.5: (hidden) -> nil; hands.p1.1: nil -> e", changesof(views.p1.changes))
assert(changesof(views.p2.changes) == "deck.5: (hidden) -> nil; hands.p1.1: nil -> (hidden)", changesof(views.p2.changes))
-- A cut of the face-down deck: every seat learns that its hidden slots changed, not how.
local _, _, _, _, cut = API.performas("cut", params(), "p1", "1")
cut = stepviewsof(cut)
assert(changesof(cut.p2.changes) == "deck: (hidden) -> (hidden)", changesof(cut.p2.changes))
assert(cut.p2.barrier == "secret")
API.undo("1")
assert(H.cursor() == 1, "the cut undone")
-- Rearranging what p2 cannot see does not change its view.
assert(API.leakprobe("p2", "3") == "")
assert(K.hash() ~= h0)

-- Undo barriers: a player's undo turn stops after the draw; the author's goes through.
API.performas("count", params(), "p1")
API.performas("count", params(), "p1")
assert(H.turn() == 3)
API.travel("1", "seatturn", "")
assert(H.cursor() == 1, "stopped at the draw, which stays applied")
local steps = { API.travel("1", "turn", "") }
assert(H.cursor() == 0, "the author's undo turn goes through: " .. K.show(steps))
-- A draw from the generator is a barrier too; public bookkeeping is not.
API.performas("count", params(), "p1")
assert(not H.last().barrier)
API.perform("roll", params())
assert(H.last().barrier == "generator")

-- A step's views are read from what it wrote and from the marks, not from
-- whole views: in random play of a pack that moves, copies and mutates
-- tables, writes values back, turns slots visible without writing them
-- and replaces a marked table, each seat's view hash after every step is
-- its whole view's hash, and its changes are the differences of its whole
-- views before and after (then the tables whose hidden slots changed).
API.definepack("sv", "sv", "sv/pack.lua", [[return { name = "sv", seats = { "p1", "p2" },
  secrets = function(g, secret)
    secret(g.deck)
    for name, hand in pairs(g.hands) do secret(hand, nil, name) end
    for i, tile in ipairs(g.tiles) do if not tile.up then secret(g.faces, i) end end
    if g.peek then secret(g.deck, #g.deck, g.peek) end
    secret(g.box.inner, "code", "p2")
  end,
  setup = function(g)
    g.deck = { { id = "a" }, { id = "b" }, { id = "c" }, { id = "d" }, { id = "e" }, { id = "f" } }
    g.hands = { p1 = {}, p2 = {} }
    g.tiles = { { up = false }, { up = false }, { up = false } }
    g.faces = { "x", "y", "z" }
    g.box = { inner = { code = 7, label = "box" } }
    g.n = 0
  end }]])
API.addaction("sv", "act", "sv/actions/act.lua", [[return { params = { what = "integer", who = "string" },
  legal = function(g, emit) for what = 1, 12 do for _, who in ipairs({ "p1", "p2" }) do emit({ what = what, who = who }) end end end,
  apply = function(g, a)
    local hand, what, deck = g.hands[a.who], a.what, g.deck
    if what == 1 and #deck > 0 then table.insert(hand, table.remove(deck))
    elseif what == 2 and #hand > 0 then table.insert(deck, 1, table.remove(hand))
    elseif what == 3 then local t = g.tiles[#hand % 3 + 1]; t.up = not t.up
    elseif what == 4 and #deck >= 2 then deck[1], deck[2] = deck[2], deck[1]
    elseif what == 5 then if g.peek then g.peek = nil else g.peek = a.who end
    elseif what == 6 then local copy = {} for i, c in ipairs(hand) do copy[i] = { id = c.id } end g.hands[a.who] = copy
    elseif what == 7 then g.n = g.n; g.box.inner.code = g.box.inner.code + 0
    elseif what == 8 then g.box.inner.code = g.box.inner.code + 1
    elseif what == 9 then g.box = { inner = { code = g.box.inner.code, label = "box" .. g.n } }; g.n = g.n + 1
    elseif what == 10 and #deck > 0 then deck[#deck].id = deck[#deck].id .. "'"
    elseif what == 11 and #deck > 0 then local c = table.remove(deck); c.id = c.id .. "!"; table.insert(hand, c)
    elseif what == 12 then g.faces[#deck % 3 + 1] = g.faces[#deck % 3 + 1] .. "+"
    end
  end }]])
API.finishpack("sv", "")
API.newgame("sv", "1", params())
-- The differences of two whole views, as seats.lua took them before it read the journal.
local function wholediff(a, b, keys, out)
  local both = {}
  for k in next, a do both[k] = true end
  for k in next, b do both[k] = true end
  for _, k in ipairs(K.sortedkeys(both)) do
    local x, y = a[k], b[k]
    keys[#keys + 1] = k
    if type(x) == "table" and type(y) == "table" then wholediff(x, y, keys, out)
    elseif x ~= y then out[#out + 1] = { path = K.joinpath(keys), before = x, after = y } end
    keys[#keys] = nil
  end
  return out
end
local calls, pick = K.decode(API.legal()), 7
for step = 1, 300 do
  local before = { p1 = K.decode(API.seatview("p1")), p2 = K.decode(API.seatview("p2")) }
  pick = (pick * 1103515245 + 12345) % 2147483648
  local call = calls[pick % #calls + 1]
  local _, _, _, _, stepviews = API.performas(call.name, K.encode(call.params), call.params.who, "1")
  stepviews = stepviewsof(stepviews)
  for _, seat in ipairs({ "p1", "p2" }) do
    local after = K.decode(API.seatview(seat))
    local view = stepviews[seat]
    assert(view.hash == after.hash, "step " .. step .. ", " .. seat .. ": the step's view hash is its whole view's")
    local shown = {}
    for _, c in ipairs(view.changes) do
      if not (c.before == K.HIDDEN and c.after == K.HIDDEN) then shown[#shown + 1] = c end
    end
    local expected = wholediff(before[seat].state, after.state, {}, {})
    assert(same(shown, expected), "step " .. step .. " (" .. K.show(call.params) .. "), " .. seat .. ": "
      .. changesof(shown) .. " is not " .. changesof(expected))
  end
  if step % 17 == 0 then API.undo("1") end
end

-- A leak: a legal call offered only when the hidden top card is "c".
API.definepack("leak", "leak", "leak/pack.lua", [[return { name = "leak", seats = { "p1", "p2" },
  secrets = function(g, secret) secret(g.deck) end,
  setup = function(g) g.deck = { "a", "b", "c" } end }]])
API.addaction("leak", "peek", "leak/actions/peek.lua", [[return {
  legal = function(g, emit) if g.deck[3] == "c" then emit({}) end end,
  apply = function(g) end }]])
API.finishpack("leak", "")
API.newgame("leak", "1", params())
local found = K.decode(API.leakprobe("p1", "1"))
assert(found.seat == "p1" and found.what == "calls" and found.slots[2] == "deck", K.show(found))
assert(K.lookup({ "deck", 3 }) == "c", "the probe rolled its rearrangement back")

-- A pack without seats: no seats, and performing as a seat says why.
API.definepack("plain", "plain", "plain/pack.lua", [[return { name = "plain", setup = function(g) g.n = 0 end }]])
API.addaction("plain", "step", "plain/actions/step.lua", [[return { apply = function(g) g.n = g.n + 1 end }]])
API.finishpack("plain", "")
API.newgame("plain", "1", params())
assert(#K.decode(API.seats()) == 0)
fails(function() API.performas("step", params(), "p1") end, "declares no seats")
API.abort()
API.perform("step", params())
assert(H.last().barrier == nil)

-- `turn` without seats is a load error at its line.
fails(function()
  API.definepack("bad", "bad", "bad/pack.lua", "return { name = 'bad',\n turn = function(g) end }")
  API.finishpack("bad", "")
end, "declare the seats too")

-- What `turn` returns and what `secret` takes name seats: a seat or a list
-- of them; anything else, or a name that is not a seat, is an error saying so.
for i, case in ipairs {
  { turn = "'p9'", owner = "nil", call = "perform", says = "which is not a seat" },
  { turn = "7", owner = "nil", call = "perform", says = "a list of seats or nil, not 7" },
  { turn = "{ 'p1', 'p9' }", owner = "nil", call = "perform", says = "which is not a seat" },
  { turn = "'p1'", owner = "'p9'", call = "view", says = "is not a seat" },
  { turn = "'p1'", owner = "7", call = "view", says = "that sees it, not 7" },
} do
  local name = "named" .. i
  API.definepack(name, name, name .. "/pack.lua", "return { name = '" .. name .. "', seats = { 'p1', 'p2' },\n"
    .. " turn = function(g) return " .. case.turn .. " end,\n"
    .. " secrets = function(g, secret) secret(g.deck, nil, " .. case.owner .. ") end,\n"
    .. " setup = function(g) g.deck = { 'a' } end }")
  API.addaction(name, "step", name .. "/actions/step.lua", "return { apply = function(g) end }")
  API.finishpack(name, "")
  API.newgame(name, "1", params())
  if case.call == "perform" then
    fails(function() API.performas("step", params(), "p1") end, case.says)
    API.abort()
  else
    fails(function() API.seatview("p1") end, case.says)
  end
end

-- The marks of the state as it stands are kept while no slot changes
-- (seats.lua's `declared`): a served step (a perform as a seat with views,
-- then every seat's calls) runs `secrets` once, after the step; the next
-- step's snapshot, the views' hashes and the scenes reuse it. Any write,
-- an undo's included, makes them read again, and they say what a run would.
API.newgame("s", "1", params())
local spack = K.ops.pack()
local secretsof, runs = spack.secrets, 0
spack.secrets = function(...) runs = runs + 1; return secretsof(...) end
API.performas("count", params(), "p1", "1")
API.legalbyseat()
assert(runs == 2, "a new game's first step reads the marks before it and after: " .. runs)
runs = 0
API.performas("draw", params({ player = "p1" }), "p1", "1")
API.legalbyseat()
local hashes = { p1 = API.viewhash("p1"), p2 = API.viewhash("p2"), [""] = API.viewhash("") }
assert(runs == 1, "the step's marks serve the next step and the views' hashes: " .. runs)
API.undo("1")
assert(API.viewhash("p1") ~= hashes.p1 and runs == 2, "an undo's rollback makes the marks read again: " .. runs)
API.performas("draw", params({ player = "p1" }), "p1", "1")
for seat, hash in pairs(hashes) do assert(API.viewhash(seat) == hash, "seat '" .. seat .. "' after the step again") end
spack.secrets = secretsof
