-- Kernel tests: state.lua (proxies, the write barrier, the journal, the
-- incremental hash and undo verification).
local K = ...

local game = K.newroot()
K.setwritable(true, "a kernel test")

-- Writes go to the backing table; reads see them; tables become state tables.
game.score = 1
game.board = { a = { sand = 2 }, b = { sand = 0 } }
assert(game.score == 1 and game.board.a.sand == 2)
assert(K.isnode(game.board) and K.isnode(game.board.a))
assert(rawget(game, "score") == nil, "the proxy itself stays empty")

-- Values the state cannot hold are refused, naming the problem.
fails(function() game.f = print end, "cannot be stored in the state")
fails(function() game.x = 0 / 0 end, "NaN cannot be stored")
fails(function() game.x = math.huge end, "infinite number")
fails(function() game[1.5] = true end, "must be a string or an integer")
local shared = {}
fails(function() game.pair = { shared, shared } end, "appears twice")
fails(function() game.board.a.loop = game.board end, "inside itself")
assert(game.x == nil and game.pair == nil, "a refused write changes nothing")

-- The hash is canonical: the same contents give the same hash, whatever
-- the order of the writes.
local h0 = K.hash()
local mark = K.mark()
game.board.b.sand = 5
game.board.a.sand = 7
local h1 = K.hash()
assert(h1 ~= h0)
K.rollback(mark)
assert(game.board.a.sand == 2 and game.board.b.sand == 0)
assert(K.hash() == h0, "rollback restores the hash")
game.board.a.sand = 7
game.board.b.sand = 5
assert(K.hash() == h1, "the same state in another order, the same hash")
K.rollback(mark)

-- Integers and floats are different values (1 ~= 1.0 to the hash), and
-- -0.0 is stored as 0.0.
game.n = 1
local hi = K.hash()
game.n = 1.0
assert(math.type(game.n) == "float" and K.hash() ~= hi)
game.n = -0.0
game.z = 0.0
assert(1 / game.n > 0)
K.rollback(mark)

-- Moving a table moves it: its old slot empties.
local a = game.board.a
game.spare = a
assert(game.board.a == nil and game.spare == a)
K.rollback(mark)
assert(game.board.a == a and game.spare == nil)

-- A move gives the hash of the same contents written afresh, whether it
-- stays at its depth (statecore.c moves it) or goes deeper (state.lua does,
-- after checking the depth of the moved subtree), and rolls back exactly.
local function afresh(write)
  write()
  local h = K.hash()
  K.rollback(mark)
  return h
end
local sideways = afresh(function() game.board.c = { sand = 2 }; game.board.a = nil end)
local deeper = afresh(function() game.board.b.top = { sand = 2 }; game.board.a = nil end)
game.board.c = a
assert(game.board.a == nil and game.board.c == a and K.hash() == sideways)
game.board.b.top = a
assert(game.board.c == nil and game.board.b.top == a and K.hash() == deeper)
game.board.a = a
assert(game.board.b.top == nil and K.hash() == h0, "moved back: the hash it had")
K.rollback(mark)
assert(game.board.a == a and game.board.c == nil and game.board.b.top == nil and K.hash() == h0)

-- revert writes old values back as new journal entries; verify compares
-- each written slot with its value before the action.
local s = K.mark()
local serial = K.serial()
game.score = 10
game.board.a.sand = 3
local e = K.mark()
K.revert(s, e)
assert(game.score == 1 and game.board.a.sand == 2)
assert(K.verify(s, e, e, K.mark(), serial) == nil, "an exact undo verifies")
K.truncate(s)

game.score = 10
local e2 = K.mark()
game.score = 9                     -- an undo that forgets one
local diffs = K.verify(s, e2, e2, K.mark(), serial)
assert(diffs and #diffs == 1 and diffs[1].path == "score")
assert(diffs[1].before == "1" and diffs[1].after == "9")
K.rollback(s)

-- An undo that puts back a copy instead of the table is reported as such.
local before = game.board.b
game.board.b = nil
local e3 = K.mark()
game.board.b = { sand = 0 }
diffs = K.verify(s, e3, e3, K.mark(), serial)
assert(diffs and diffs[1].path == "board.b" and diffs[1].note:find("a copy"))
K.rollback(s)
assert(game.board.b == before)

-- Ordered pairs and length go through the backing table.
game.list = { "x", "y", "z" }
assert(#game.list == 3)
local order = {}
for k, v in pairs(game.board) do order[#order + 1] = k end
assert(same(order, { "a", "b" }))
K.rollback(s)

-- Paths name a slot from the root.
assert(K.pathof(K.NODE[game.board.a], "sand") == "board.a.sand")

-- Read-only outside setup, apply and undo.
K.setwritable(false, "a kernel test's check")
fails(function() game.score = 2 end, "read%-only in a kernel test's check")
K.truncate(0)

-- textcopy: the copy emitted params leave the kernel in (as JSON text), so
-- every string in it, key or value, must be well-formed UTF-8.
local good = K.textcopy({ "é😀", { ["\u{D7FF}\u{E000}"] = "\u{10000}\u{10FFFF}" } })
assert(good[1] == "é😀" and good[2]["\u{D7FF}\u{E000}"] == "\u{10000}\u{10FFFF}")
for _, bad in ipairs({ "\xff", "\x80", "\xc0\x80", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80",
                       "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "ok\xe2\x82", "\xe2\x28\xa1" }) do
  local copy, s, what = K.textcopy({ x = { bad } })
  assert(copy == nil and s == bad and what:find("at position"), "refused: " .. bad:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end
local copy, s, what = K.textcopy({ ["a\xffb"] = 1 })
assert(copy == nil and s == "a\xffb" and what == "byte 0xFF at position 2", what)
