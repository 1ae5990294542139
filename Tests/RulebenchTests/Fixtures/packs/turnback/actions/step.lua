-- step: the token moves one square right; at most four steps a turn.
return {
  legal = function(game, emit)
    -- Listing the moves starts afresh: between two steps of a fuzz run
    -- (or two moves of a player) the mark is gone, so only an undo that
    -- takes back end_turn and the whole turn in one step meets the bug.
    takeback.since_end_turn = false
    if game.moves < 4 then emit{} end
  end,
  check = function(game)
    if game.moves >= 4 then return "four steps a turn at most" end
  end,
  apply = function(game, a)
    takeback.since_end_turn = false
    a.from = game.x
    game.x = game.x + 1
    game.moves = game.moves + 1
  end,
  undo = function(game, a)
    game.x = a.from
    game.moves = game.moves - 1
  end,
  animate = function(anim, game, a, direction)
    local slide = anim.tween{ target = "token", property = "x", from = a.from, to = a.from + 1, duration = 0.2 }
    if direction == "do" then return slide end
    -- The planted bug: once end_turn was undone, the step that empties the
    -- turn (its first) "slides home" with the do plan, forwards again.
    if game.bug and takeback.since_end_turn and game.moves == 0 then return slide end
    return nil
  end,
}
