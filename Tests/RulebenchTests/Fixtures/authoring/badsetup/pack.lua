-- Setup refuses the pack's own default options.
return {
  name = "badsetup",
  options = { start = 50, limit = 20 },
  setup = function(game, options)
    if options.start > options.limit then error("start must not exceed limit") end
    game.count = options.start
    game.limit = options.limit
  end,
}
