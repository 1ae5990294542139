-- A loop inside a gsub replacement function.
return {
  apply = function(game)
    game.counter = game.counter + 1
    return (string.gsub("aaa", "a", function() while true do end end)) --!
  end,
}
