-- A pack whose error messages hold terminal escape sequences: clear the
-- screen, set the window title. The tool must show them, not obey them.
return { name = "escapes", setup = function(game) game.n = 0 end }
