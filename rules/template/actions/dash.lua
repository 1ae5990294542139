-- dash: two steps in a row. It has no apply effect of its own: it is made of
-- subactions, which the engine runs in order and undoes in reverse.
---@type rulebench.Action
local action = {
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
return action
