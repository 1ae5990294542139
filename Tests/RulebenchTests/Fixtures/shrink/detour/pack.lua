-- detour: a token on squares 0 to 4, made for the search for shorter
-- endings: `finish` is legal on square 4 only, and its undo forgets that the
-- game was finished (the bug). Walking there takes four steps, leaping two;
-- a walked line is 1-minimal (no step can be deleted, and no step can be
-- made simpler: `walk` is the simplest call), so only a search for another
-- ending shortens it. `hum` changes nothing that matters and is always
-- legal, eight ways: it makes every line of play fan out, so that a search
-- of every line from the setup runs out of nodes before one from a prefix does.
return {
  name = "detour",
  version = "1",
  setup = function(game)
    game.pos = 0
    game.hum = 0
  end,
}
