-- lay_row: the example of docs/lua-api.md, "A plain table assigned into
-- game": once assigned, `row` is the state's own table, so the writes
-- through the local after the assignment are state writes (journaled,
-- hashed, undone); scenarios/docs/plain-table-becomes-state.yaml runs it.
return {
  params = { sq = "string" },
  apply = function(game, a)
    local row = {}
    game.board[a.sq] = row
    row[1] = "."
    row[2] = "x"
  end,
}
