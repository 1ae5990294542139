-- reveal_part (internal): both clues of a part are face up, so the part
-- appears where the row of its row clue meets the column of its column clue
-- (part of excavate).
--
-- Rule choice: the clue tiles' positions count at the moment the second one
-- is excavated. If the meeting point is the storm cell, the part waits in
-- the storm and lands on whichever tile next slides into that cell (parts
-- on the board move with their tiles; see slide).
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: a part appears at the meeting point of its two clues.",
  internal = true,
  params = { part = "string" },

  check = function(game, a)
    local where = game.parts[a.part]
    if not where then return "no part " .. tostring(a.part) end
    if where.cell or where.holder then return a.part .. " is already found" end
    if not (D.face_up(game, a.part .. "_row") and D.face_up(game, a.part .. "_col")) then
      return "both clues of the " .. a.part .. " must be excavated"
    end
  end,

  apply = function(game, a)
    local row = D.POS[D.face_up(game, a.part .. "_row").cell].row
    local col = D.POS[D.face_up(game, a.part .. "_col").cell].col
    a.cell = D.name(col, row)
    game.parts[a.part].cell = a.cell
  end,

  undo = function(game, a)
    game.parts[a.part].cell = nil
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.sequence {
      anim.tween { target = "part:" .. a.part, property = "opacity", from = 0, to = 1, duration = 0.5, easing = "easeIn" },
      anim.cue { name = "part_found", args = { part = a.part, cell = a.cell } },
      anim.sequence("part_found"),   -- sequences/part_found.yaml
    }
  end,
  sound = "chime",
}
return action
