-- The template pack: tokens racing along a track of squares.
-- `rulebench new NAME` starts a pack from this folder, named NAME; change it
-- into your own game.
local track = require "track"

---@type rulebench.Pack
local pack = {
  name = "template",
  version = "1.0",
  description = "Tokens race along a track; the smallest pack that shows every part of a rule pack.",
  options = { players = 2, length = 10 },

  -- Writes the initial state. Runs once, as an action, before any move.
  setup = function(game, options)
    game.length = options.length
    game.tokens = {}
    for i = 1, options.players do
      game.tokens["p" .. i] = { square = 1 }
    end
    game.moves = 0
  end,

  -- Checked after every action by scenarios, `check` and the fuzzer.
  invariants = {
    tokens_stay_on_the_track = function(game)
      for name, token in pairs(game.tokens) do
        if not track.on_track(game, token.square) then
          return false, name .. " left the track at square " .. token.square
        end
      end
      return true
    end,
  },

  -- The board as text, for `rulebench play`.
  render = function(game)
    local lines = {}
    for name, token in pairs(game.tokens) do
      local row = {}
      for square = 1, game.length do row[square] = square == token.square and "@" or "." end
      lines[#lines + 1] = name .. " " .. table.concat(row)
    end
    return table.concat(lines, "\n")
  end,
}
return pack
