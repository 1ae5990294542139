local rulebench = require "rulebench"
return {
  apply = function(game, a)
    rulebench.shuffle(game, game.deck)
    game.rolled = rulebench.random(game, 1, 6)
  end,
}
