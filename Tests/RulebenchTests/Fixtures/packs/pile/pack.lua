-- The example of docs/lua-api.md, "Moving tables": a pile of pieces and a
-- board. `trap` is the mistake the docs show, `deal` what to write instead;
-- scenarios/docs/moving-tables.yaml runs both (a doc test).
return {
  name = "pile",
  version = "1",
  setup = function(game)
    game.pile = { { name = "a" }, { name = "b" }, { name = "c" } }
    game.board = {}
  end,
}
