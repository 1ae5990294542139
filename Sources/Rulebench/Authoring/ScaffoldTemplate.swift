// The files `rulebench new NAME` writes, with NAME (and the scenario's
// reference to the pack) substituted. They follow rules/template, so a new
// pack starts from the same small race game the README's tutorial uses;
// `dash` here also has an animation of its own.

/// The contents of a new pack's files.
enum ScaffoldTemplate {
    /// Replaced by the pack's name.
    static let namePlaceholder = "%NAME%"
    /// Replaced by how the scenario names the pack (its name or a relative path).
    static let rulesPlaceholder = "%RULES%"

    static let pack = #"""
-- The %NAME% pack: tokens racing along a track of squares.
-- Made by `rulebench new %NAME%`; change it into your own game.
local track = require "track"

return {
  name = "%NAME%",
  version = "0.1",
  description = "Tokens race along a track of squares.",
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

"""#

    static let track = #"""
-- A helper module of the %NAME% pack, loaded with require "track".
local track = {}

function track.on_track(game, square)
  return square >= 1 and square <= game.length
end

return track

"""#

    static let step = #"""
-- step: move one token one square forward. It declares its own undo.
local track = require "track"

return {
  params = { token = "string" },

  -- Every legal param table, for `play`, `explore`, `check` and the fuzzer.
  legal = function(game, emit)
    for name, token in pairs(game.tokens) do
      if track.on_track(game, token.square + 1) then emit{ token = name } end
    end
  end,

  -- nil means allowed; a string is the reason for refusing.
  check = function(game, a)
    local token = game.tokens[a.token]
    if not token then return "no token " .. a.token end
    if not track.on_track(game, token.square + 1) then return "the token is at the end of the track" end
  end,

  -- The only place (with setup and undo) where the state may change.
  apply = function(game, a)
    local token = game.tokens[a.token]
    a.from = token.square            -- kept on `a` for undo and for the animation
    token.square = a.from + 1
    game.moves = game.moves + 1
  end,

  undo = function(game, a)
    game.tokens[a.token].square = a.from
    game.moves = game.moves - 1
  end,

  -- Runs after the action ("do") or its undo ("undo"); an undo with no plan
  -- of its own plays the do plan reversed.
  animate = function(anim, game, a, direction)
    return anim.tween{ target = "token:" .. a.token, property = "square",
                       from = a.from, to = a.from + 1, duration = 0.25, easing = "easeInOut" }
  end,

  sound = "step",
}

"""#

    static let dash = #"""
-- dash: two steps in a row. It changes nothing itself: it queues two `step`
-- subactions, which the engine runs in order and undoes in reverse.
return {
  params = { token = "string" },

  legal = function(game, emit)
    for name, token in pairs(game.tokens) do
      if token.square + 2 <= game.length then emit{ token = name } end
    end
  end,

  check = function(game, a)
    local token = game.tokens[a.token]
    if not token then return "no token " .. a.token end
    if token.square + 2 > game.length then return "not enough track left for a dash" end
  end,

  apply = function(game, a, act)
    act:sub("step", { token = a.token })
    act:sub("step", { token = a.token })
  end,

  -- Its own plan: the token crouches and springs, before the steps play.
  animate = function(anim, game, a, direction)
    return anim.frames{ target = "token:" .. a.token, property = "pose",
                        frames = { "crouch", "spring" }, fps = 10 }
  end,

  subanimations = "sequence",   -- its own plan first, then the two steps one after the other
  sound = "whoosh",
}

"""#

    static let scenario = #"""
# The first scenario of the %NAME% pack. Run it with `rulebench run scenarios/%NAME%`.
scenario: A dash is two steps, and undo takes both back
rules: %RULES%
setup:
  seed: 1
steps:
  - do: step
    with: { token: p1 }
    expect:
      state: { tokens.p1.square: 2, moves: 1 }
      sounds: [step]
  - do: dash
    with: { token: p2 }
    expect:
      state: { tokens.p2.square: 3, moves: 3 }
      subactions: [step, step]
      sounds: [whoosh, step, step]
      animation: { duration: 0.7, conflicts: 0 }
  - undo: 1
    expect:
      state: { tokens.p2.square: 1, moves: 1 }
  - redo: 1
    expect:
      state: { tokens.p2.square: 3 }
  - do: step
    with: { token: p3 }
    expect: { rejected: "no token p3" }

"""#
}
