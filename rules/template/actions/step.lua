-- step: move one token one square forward. It declares its own undo.
local track = require "track"

---@type rulebench.Action
local action = {
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

  -- Runs after the action ("do") or its undo ("undo"). Returning nil on
  -- undo plays the do plan backwards, mirrored in time (delays included);
  -- returning the do plan itself would play it forwards again.
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end   -- the engine plays the do plan backwards
    return anim.tween{ target = "token:" .. a.token, property = "square",
                       from = a.from, to = a.from + 1, duration = 0.25, easing = "easeInOut" }
  end,

  sound = "step",
}
return action
