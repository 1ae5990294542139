-- Ordinary pattern use that the pattern guard must let through (see
-- HostileScriptTests.testPatternGuardLetsOrdinaryPatternsThrough).
return { name = "patterns", version = "1.0", setup = function(game) game.out = {} end }
