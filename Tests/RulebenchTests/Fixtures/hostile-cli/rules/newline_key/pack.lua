-- A state key that holds a line break, and an undo that forgets it: the
-- reproduction's comments name the key, and must stay comments.
return { name = "newline_key", setup = function(game) game["a\nb"] = 0 end }
