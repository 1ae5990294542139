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

  subanimations = "sequence",   -- the two steps play one after the other
  sound = "whoosh",
}
return action
