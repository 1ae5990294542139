-- A pack whose name, used as a folder name, would climb out of the corpus
-- folder (.rulebench/corpus/NAME) to ../escaped/PWNED.
return {
  name = "../../../escaped/PWNED",
  setup = function(game) game.n = 0 end,
}
