-- pass_equipment: a player hands one equipment card to another (free).
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free, by any player at any time while the game runs.
--   * The receiver must stand on the giver's tile (the water carrier's reach
--     applies to water only).
--   * Cards of one kind are identical; the giver's first card of that kind goes
--     to the end of the receiver's hand.
local D = require "desert"

local function check(game, a)
  local why = D.free_check(game, a.player)
  if why then return why end
  local taker = game.players[a.to]
  if not taker then return "no player " .. tostring(a.to) end
  if a.to == a.player then return "a player cannot pass a card to themself" end
  if taker.cell ~= game.players[a.player].cell then return a.to .. " is not on " .. a.player .. "'s tile" end
  if not D.has_card(game, a.player, a.card) then return a.player .. " holds no " .. a.card end
end

---@type rulebench.Action
local action = {
  description = "Pass an equipment card to a player on your tile.",
  params = { player = "string", to = "string", card = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    for _, giver in ipairs(game.order) do
      local g = game.players[giver]
      local kinds, seen = {}, {}
      for _, card in ipairs(g.gear) do
        if not seen[card] then seen[card] = true; kinds[#kinds + 1] = card end
      end
      if #kinds > 0 then
        for _, taker in ipairs(D.players_at(game, g.cell)) do
          if taker ~= giver then
            for _, card in ipairs(kinds) do emit { player = giver, to = taker, card = card } end
          end
        end
      end
    end
  end,

  check = check,

  apply = function(game, a)
    local hand = game.players[a.player].gear
    for i, card in ipairs(hand) do
      if card == a.card then a.index = i; break end
    end
    table.remove(hand, a.index)
    table.insert(game.players[a.to].gear, a.card)
  end,

  undo = function(game, a)
    table.remove(game.players[a.to].gear)
    table.insert(game.players[a.player].gear, a.index, a.card)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.tween { target = "card:" .. a.card, property = "holder", from = a.player, to = a.to, duration = 0.3, easing = "easeInOut" }
  end,
  sound = "card",
}
return action
