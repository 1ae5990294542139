-- lights: Lights Out on a 3 by 3 grid. Pressing a light toggles it and its
-- orthogonal neighbours; the goal is every light off. Presses commute and
-- pressing twice undoes, so most orders of the same presses reach the same
-- state: a small tree full of transpositions. From every light on, the
-- fewest presses is 5 (the four corners and the centre).
--
-- Option `lit`: the lights on at the start, a string of 9 digits, row by
-- row. Option `bug`: "undo" makes the undo of pressing light 5 forget to
-- toggle light 5 back; "late" does so only where lights 1 and 9 are off.
-- For the tests: `flaky` is `dark`, but with the option `flaky` it fails
-- the first time it is asked in a state with light 5 off (a module-level
-- flag, outside the state).
local failed = false

local function dark(game)
  for i = 1, 9 do if game.on[i] then return false end end
  return true
end

return {
  name = "lights",
  version = "1",
  options = { lit = "111111111", bug = "none", flaky = false },

  setup = function(game, options)
    game.on = {}
    for i = 1, 9 do game.on[i] = options.lit:sub(i, i) == "1" end
    game.bug = options.bug
    game.flaky = options.flaky
  end,

  goals = {
    dark = dark,
    flaky = function(game)
      if game.flaky and not failed and not game.on[5] then
        failed = true
        error("flaky fails once")
      end
      return dark(game)
    end,
  },

  render = function(game)
    local rows = {}
    for r = 0, 2 do
      local row = ""
      for c = 1, 3 do row = row .. (game.on[r * 3 + c] and "#" or ".") end
      rows[#rows + 1] = row
    end
    return table.concat(rows, "\n")
  end,
}
