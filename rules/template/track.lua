-- A helper module of the template pack, loaded with require "track".
local track = {}

function track.on_track(game, square)
  return square >= 1 and square <= game.length
end

-- The board row of a token ("p2" is on row 2), for the view.
function track.row(name)
  return math.tointeger(tonumber(name:match("%d+"))) or 1
end

local COLOURS = { "#c0392b", "#2e86c1", "#27ae60", "#8e44ad" }

-- A token's colour on the board.
function track.colour(name)
  return COLOURS[(track.row(name) - 1) % #COLOURS + 1]
end

return track
