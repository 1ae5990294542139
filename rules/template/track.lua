-- A helper module of the template pack, loaded with require "track".
local track = {}

function track.on_track(game, square)
  return square >= 1 and square <= game.length
end

return track
