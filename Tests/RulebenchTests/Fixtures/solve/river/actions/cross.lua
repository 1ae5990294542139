-- cross: the boat takes `m` missionaries and `c` cannibals to the other bank.
local function safe(m, c) return m == 0 or m >= c end

local function check(game, a)
  local people = a.m + a.c
  if a.m < 0 or a.c < 0 or people < 1 then return "the boat needs someone to row it" end
  if people > game.boat then return "the boat holds " .. game.boat end
  local l, total = game.left, game.total
  local fromm, fromc = l.m, l.c
  if game.side == "right" then fromm, fromc = total - l.m, total - l.c end
  if a.m > fromm or a.c > fromc then return "not that many on this bank" end
  local lm, lc = l.m, l.c
  if game.side == "left" then lm, lc = lm - a.m, lc - a.c else lm, lc = lm + a.m, lc + a.c end
  if not safe(lm, lc) or not safe(total - lm, total - lc) then return "the cannibals would outnumber the missionaries" end
end

return {
  params = { m = "integer", c = "integer" },

  legal = function(game, emit)
    for m = 0, game.boat do
      for c = 0, game.boat - m do
        if not check(game, { m = m, c = c }) then emit { m = m, c = c } end
      end
    end
  end,

  check = check,

  apply = function(game, a)
    local l = game.left
    if game.side == "left" then
      l.m, l.c, game.side = l.m - a.m, l.c - a.c, "right"
    else
      l.m, l.c, game.side = l.m + a.m, l.c + a.c, "left"
    end
  end,
}
