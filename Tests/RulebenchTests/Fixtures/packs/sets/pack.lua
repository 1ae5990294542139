-- A fixture pack: a small SET-like game, written the way a new author would.
-- Cards have a number (1..3) and a colour (r, g, b). Three cards on the table
-- form a set when, for each of the two, they are all the same or all
-- different. `deal` lays out three more cards when the table holds no set;
-- `claim` takes a set. When the deck is empty and no set is left, the game
-- is over: no action is legal.
--
-- State: deck (cards, 1 is the top), table (cards), won (claimed cards),
-- score, over (true once the game is over).
local S = require "sets"

return {
  name = "sets",
  version = "1.0",
  options = {
    shuffle = true,
    colours = { type = "integer", default = 3, description = "how many colours the deck has (1..3)" },
  },

  setup = function(game, options)
    game.deck = S.deck(options.colours)
    if options.shuffle then require("rulebench").shuffle(game, game.deck) end
    game.table, game.won, game.score = {}, {}, 0
  end,

  invariants = {
    score_counts_claimed_sets = function(game)
      return #game.won == 3 * game.score, "won holds " .. #game.won .. " cards for a score of " .. game.score
    end,
    score_is_not_negative = function(game)
      return game.score >= 0, "the score is " .. game.score
    end,
  },
}
