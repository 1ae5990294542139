-- poke: marks square 0. Its undo or its redo is broken by the option `bug`.
local counter = 0   -- a module local: state the engine does not journal

return {
  legal = function(game, emit)
    if game.pos == 0 and not game.poked then emit{} end
  end,
  check = function(game)
    if game.pos ~= 0 then return "only on square 0" end
    if game.poked then return "already poked" end
  end,
  apply = function(game)
    if game.bug == "redo" then
      counter = counter + 1
      game.poked = counter
    else
      game.poked = true
    end
  end,
  undo = function(game)
    local broken = game.bug == "undo" and game.ticks >= game.need and game.salt % 2 == 1
    if not broken then game.poked = nil end
  end,
}
