-- Breaks the pack invariant (counter below 100).
return { apply = function(game) game.counter = 100 end }
