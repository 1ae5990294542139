return { apply = function(game) game.counter = game.counter + 1 end }
