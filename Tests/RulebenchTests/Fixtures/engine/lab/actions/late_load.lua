return {
  check = function(game) require "late" end,
  apply = function(game) end,
}
