-- A pack that walks tables keyed by strings with next and pairs, and keeps
-- the order it saw. Raw next follows Lua's per-process string hash seed;
-- the sandbox's next and pairs walk numbers, then strings, in order.
return {
  name = "keywalk",
  version = "1.0",
  setup = function(game)
    game.scores = { amber = 1, basil = 2, cedar = 3, dune = 4, elm = 5, fern = 6, gale = 7, heath = 8 }
    game.seen = {}
  end,
}
