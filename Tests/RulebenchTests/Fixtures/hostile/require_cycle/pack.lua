-- Hostile corpus: two modules that require each other.
local a = require "a"
return { name = "require_cycle", setup = function(game) game.a = a.value end }
