-- give_water: a player pours water into another player's canteen (free).
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free: it costs no action, and any player may give at any time while
--     the game runs, not only on their own turn.
--   * The receiver stands on the giver's tile; the water carrier may also
--     give to players on orthogonally adjacent tiles.
--   * `amount` is 1 or more, at most what the giver has and what the
--     receiver's canteen still holds.
local D = require "desert"

local function check(game, a)
  local why = D.free_check(game, a.player)
  if why then return why end
  local giver, taker = game.players[a.player], game.players[a.to]
  if not taker then return "no player " .. tostring(a.to) end
  if a.to == a.player then return "a player cannot give water to themself" end
  if taker.cell ~= giver.cell and not (giver.role == "water_carrier" and D.orthogonal(giver.cell, taker.cell)) then
    return a.to .. " is out of reach"
  end
  if a.amount < 1 then return "give at least 1 water" end
  if a.amount > giver.water then return a.player .. " has only " .. giver.water .. " water" end
  if taker.water + a.amount > taker.canteen then return a.to .. "'s canteen holds only " .. (taker.canteen - taker.water) .. " more" end
end

---@type rulebench.Action
local action = {
  description = "Give water to a player on your tile (the water carrier: also adjacent).",
  params = { player = "string", to = "string", amount = "integer" },

  legal = function(game, emit)
    if D.over(game) then return end
    for _, giver in ipairs(game.order) do
      local g = game.players[giver]
      if g.water > 0 then
        for _, taker in ipairs(game.order) do
          local t = game.players[taker]
          if taker ~= giver and t.water < t.canteen then
            local candidates = {}
            for amount = 1, math.min(g.water, t.canteen - t.water) do
              candidates[#candidates + 1] = { player = giver, to = taker, amount = amount }
            end
            D.emit_checked(game, emit, check, candidates)
          end
        end
      end
    end
  end,

  check = check,

  apply = function(game, a)
    local giver, taker = game.players[a.player], game.players[a.to]
    a.giver_before, a.taker_before = giver.water, taker.water
    giver.water = giver.water - a.amount
    taker.water = taker.water + a.amount
  end,

  undo = function(game, a)
    game.players[a.player].water = a.giver_before
    game.players[a.to].water = a.taker_before
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.parallel {
      anim.tween { target = "pawn:" .. a.player, property = "water", from = a.giver_before, to = a.giver_before - a.amount, duration = 0.3 },
      anim.tween { target = "pawn:" .. a.to, property = "water", from = a.taker_before, to = a.taker_before + a.amount, duration = 0.3 },
    }
  end,
  sound = "pour",
}
return action
