return {
  legal = function(game, emit)
    if game.n >= 2 then error("legal broke after two ticks") end
    emit{}
  end,
  apply = function(game) game.n = game.n + 1 end,
}
