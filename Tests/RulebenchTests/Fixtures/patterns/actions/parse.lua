return {
  apply = function(game)
    local out = {}
    out.direction, out.strength = string.match("wind_north_3", "^wind_(%a+)_(%d)$")
    local words = 0
    for _ in ("wind_north_3,dig,x,dig"):gmatch("[^,]+") do words = words + 1 end
    out.words = words
    out.upper = ("dig,x,dig"):gsub("%a+", function(w) return w:upper() end)
    out.digits = ("a1b2c3d4e5"):gsub("%D", "")
    out.key, out.value = ("  speed = fast lane  "):match("^%s*(%w+)%s*=%s*(.-)%s*$")
    out.balanced = ("x(a(b)c)y"):match("%b()")
    -- A long subject: a plain search and a single final repetition are linear.
    local long = string.rep("a", 99999) .. "b"
    out.plain = long:find("ab", 1, true)
    out.tail = select(2, long:gsub("a+", ""))
    -- A malformed pattern gets Lua's own error, not the guard's.
    local ok, err = pcall(string.find, "abc", "[a")
    out.malformed = not ok and err:find("malformed pattern", 1, true) ~= nil
    -- A costly call is refused, and pcall sees an ordinary error.
    local ok2, err2 = pcall(string.find, long, ".-.-c")
    out.refused = not ok2 and err2:find("too costly", 1, true) ~= nil
    game.out = out
  end,
}
