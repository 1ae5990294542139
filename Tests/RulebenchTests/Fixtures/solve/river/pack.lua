-- river: missionaries and cannibals. `missionaries` missionaries and as
-- many cannibals stand on the left bank with a boat that carries up to
-- `boat` people; it never crosses empty. On either bank (the people in
-- the boat counted on the bank it lands at), cannibals may never outnumber
-- missionaries where there is at least one missionary.
--
-- The classic 3 and 3 with a boat of 2 needs 11 crossings, no fewer; with
-- 4 and 4 and a boat of 2 the right bank cannot be reached at all. The
-- solver's tests rely on both.
return {
  name = "river",
  version = "1",
  options = { missionaries = 3, boat = 2, badgoals = false },

  setup = function(game, options)
    game.badgoals = options.badgoals
    game.total = options.missionaries
    game.boat = options.boat
    game.left = { m = options.missionaries, c = options.missionaries }
    game.side = "left"
  end,

  invariants = {
    counts = function(game)
      local l = game.left
      if l.m < 0 or l.c < 0 or l.m > game.total or l.c > game.total then
        return false, "the left bank holds " .. l.m .. " missionaries and " .. l.c .. " cannibals"
      end
      return true
    end,
  },

  goals = {
    crossed = function(game) return game.left.m == 0 and game.left.c == 0 end,
    -- for the tests: a goal that never holds, and (option badgoals) goals that break the rules
    never = function(game) return false end,
    broken = function(game) if game.badgoals then return game.left.m end return false end,
    writes = function(game) if game.badgoals then game.side = "left"; return true end return false end,
  },

  render = function(game)
    local l = game.left
    return string.format("left %dM %dC | boat %s | right %dM %dC", l.m, l.c, game.side,
      game.total - l.m, game.total - l.c)
  end,
}
