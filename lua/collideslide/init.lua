-- collideslide: ellipsoids that collide and slide through triangle worlds.
-- The module a script requires: every function of the C core (collideslide.core),
-- plus the Lua layer: the OBJ loader, a mesh builder for boxes and quads, the
-- character controller and the drawing helpers (see API.md, "The Lua layer").

-- The interpreter's name as the Makefile spells it (make LUA=...).
local function interpreter()
  if type(jit) == "table" then return "luajit" end
  return "lua" .. _VERSION:match("%d+%.%d+")
end

-- Inside LÖVE the shell's fixes do not apply: where its C loader looks
-- (README, "LÖVE 11 in your game"), or "" outside LÖVE.
local function love_hint(lib)
  local hint = require("collideslide.check").loveHint(lib .. " (built for LuaJIT)")
  return hint and ". In LÖVE: " .. hint .. "; a fused game: beside the executable (README, "
    .. "\"LÖVE 11 in your game\")" or ""
end

-- The C module's load error as one line that names the fix.
local function explain(err)
  err = tostring(err)
  local lua = interpreter()
  local luaopt = lua == "lua5.4" and "" or " LUA=" .. lua          -- (the Makefile's default)
  local rocks = "luarocks --lua-version=" .. (lua == "luajit" and "5.1" or lua:sub(4))
  local rock = rocks .. " make --local rockspec/collideslide-scm-1.rockspec"
  if err:find("module 'collideslide.core' not found", 1, true) then
    return "collideslide: the C module collideslide.core is not built for " .. lua
      .. " or not on package.cpath: run `make" .. luaopt
      .. "` in the collideslide folder (it writes build/" .. lua .. "/collideslide/core.so), "
      .. "then `eval \"$(make -s env" .. luaopt
      .. ")\"` there (LUA_CPATH for any directory) or `make install" .. luaopt
      .. " PREFIX=...`; or `" .. rock .. "` and `eval \"$(" .. rocks .. " path)\"`"
      .. love_hint("collideslide/core.so")
  end
  local symbol = err:match("undefined symbol: ([%w_]+)")
  if symbol and symbol:match("^lua") then
    local file = err:match("from file '([^']*)'") or "collideslide/core.so"
    return "collideslide: " .. file .. " was built for another Lua than " .. lua
      .. " (undefined symbol " .. symbol .. "): build it for this one with `make LUA=" .. lua
      .. "` (build/" .. lua .. "/collideslide/core.so) and put that first on package.cpath, or"
      .. " reinstall the rock for it: `" .. rock .. "`"
  end
  return err
end

local ok, core = pcall(require, "collideslide.core")
if not ok then error(explain(core), 0) end

return require("collideslide.layer")(core)
