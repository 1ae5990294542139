return {
  chek = function() end,
  apply = function() end,
}
