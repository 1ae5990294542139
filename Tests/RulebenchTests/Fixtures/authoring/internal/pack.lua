-- A fixture pack for `check`'s rules about act:sub and internal actions.
return {
  name = "internal",
  options = { start = 0 },
  setup = function(game, options) game.count = options.start end,
}
