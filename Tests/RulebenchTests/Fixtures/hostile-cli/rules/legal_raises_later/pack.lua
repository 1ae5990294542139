-- A pack whose `legal` fails once two actions have been played: the
-- finding shrinks to those two actions and ends by listing the legal ones.
return { name = "legal_raises_later", setup = function(game) game.n = 0 end }
