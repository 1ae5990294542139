-- lights: Lights Out on a `size` by `size` grid, for the solver's benchmark.
-- Pressing a light toggles it and its orthogonal neighbours; the goal is
-- every light off. Presses commute and pressing twice undoes, so the d!
-- orders of d presses all reach one state: a tree full of transpositions.
--
-- Option `pressed`: the lights pressed on a dark board to make the start,
-- so pressing them again solves it (the solver may find a shorter way).
return {
  name = "lights",
  version = "1",
  options = { size = 5, pressed = { 1, 7, 13, 19 } },

  setup = function(game, options)
    game.size = options.size
    game.on = {}
    for i = 1, options.size * options.size do game.on[i] = false end
    local press = require("press")
    for _, n in ipairs(options.pressed) do press(game, n) end
  end,

  goals = {
    dark = function(game)
      for i = 1, #game.on do if game.on[i] then return false end end
      return true
    end,
  },
}
