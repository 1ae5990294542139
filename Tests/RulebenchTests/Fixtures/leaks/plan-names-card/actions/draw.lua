-- draw, leaking: its cue tells every seat which card was drawn.
return {
  params = { player = "string" },
  legal = function(game, emit) if #game.deck > 0 then emit{ player = game.current } end end,
  apply = function(game, a) a.card = table.remove(game.deck); table.insert(game.hands[a.player], a.card) end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.cue{ name = "drawn", args = { text = a.player .. " drew the " .. a.card } }
  end,
}
