-- Even "%p" of a value without an address is refused: the rule is the conversion, not the value.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.none = string.format("%s %p", "nothing:", nil) --!
  end,
}
