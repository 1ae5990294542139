-- A pack whose `legal` fails on the very first state: the finding has no
-- step, and its reproduction must still fail under `run`.
return { name = "legal_raises", setup = function(game) game.n = 0 end }
