-- A sprite flickers through four frames, the screen shakes a quarter second
-- in and a zap sounds at the half second.
return {
  params = { token = "string" },
  apply = function(game, a) game.tokens[a.token].pose = "flash" end,
  animate = function(anim, game, a, direction)
    return anim.parallel{
      anim.frames{ target = "token:" .. a.token, property = "sprite", frames = { 1, 2, 3, 4 }, fps = 8 },
      anim.cue{ name = "shake", args = { strength = 2 }, delay = 0.25 },
      anim.sound{ name = "zap", delay = 0.5 },
    }
  end,
}
