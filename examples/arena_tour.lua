-- examples/arena_tour.lua: how a character with given tunables handles the
-- benchmark's arena (examples/arena.lua builds it with the mesh builder): the staircase of 0.25 m steps, the
-- ramps of 20, 35 and 50 degrees, the 0.6 m corridor, and a run across the
-- floor. Tunables come from the command line as name=value:
--
--   lua5.4 examples/arena_tour.lua
--   lua5.4 examples/arena_tour.lua stepHeight=0.2 slopeLimit=30 walkSpeed=6

local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"

local DT = 1 / 60

-- Tunables from name=value arguments (numbers, or true/false).
local function tunables()
  local t = {}
  for _, a in ipairs(arg or {}) do
    local k, v = a:match("^(%w+)=(.+)$")
    assert(k, "arguments are name=value, got " .. a)
    if v == "true" or v == "false" then t[k] = v == "true" else t[k] = assert(tonumber(v), a) end
  end
  return t
end

local world = cs.newWorld()
local arena = dofile(here .. "/arena.lua").build(cs)
world:add(arena:mesh())
local settings = tunables()

-- Walks a fresh character, standing at (x, z), along the input (ix, iz) for
-- at most `seconds`; returns the greatest height of its feet, the time its
-- centre first got past `goal` along the walk (or nil), and its position.
-- The character's radii: the default, or radius=r from the command line (a
-- sphere), which also sets where its feet are (found by an independent
-- tester: the feet were taken at 0.9 under the centre whatever the radius).
local RX, RY = 0.4, 0.9
if type(settings.radius) == "number" then RX, RY = settings.radius, settings.radius end

local function walk(x, z, ix, iz, seconds, goal)
  local s = { radius = { 0.4, 0.9, 0.4 }, position = { x, RY + 0.005, z } }
  for k, v in pairs(settings) do s[k] = v end
  local ch = cs.newCharacter(s)
  local feet, reached = 0, nil
  for f = 1, math.floor(seconds / DT) do
    ch:update(world, DT, { x = ix, z = iz })
    local cx, y, cz = ch.mover:getPosition()
    feet = math.max(feet, y - RY)
    if goal and not reached and cx * ix + cz * iz >= goal then reached = f * DT end
  end
  return feet, reached, ch.mover:getPosition()
end

local function say(fmt, ...) print(string.format(fmt, ...)) end

say("character: radii %s; tunables: %s",
    settings.radius and tostring(settings.radius) or "0.4 0.9 0.4",
    next(settings) and table.concat((function()
      local out = {}
      for k, v in pairs(settings) do out[#out + 1] = k .. "=" .. tostring(v) end
      table.sort(out)
      return out
    end)(), " ") or "the character controller's defaults")

-- The staircase at x in [-40, -36]: 16 steps of 0.25 m rise, 0.4 m run, from z = -40.
local feet, t = walk(-38, -42, 0, 1, 6, -33.7)
if feet > 3.9 then
  say("stairs (16 x 0.25 m): climbed to the top (feet at %.2f m) in %.1f s", feet, t)
else
  say("stairs (16 x 0.25 m): stopped with the feet at %.2f m (stepHeight too low?)", feet)
end

-- The ramps: 8 m long along +z from z = -40, at x 0..6, 8..14, 16..22.
for i, deg in ipairs { 20, 35, 50 } do
  local top = math.tan(math.rad(deg)) * 8
  local f, tt = walk(3 + (i - 1) * 8, -42, 0, 1, 6, -32.5)
  if f > top - 0.2 then
    say("ramp %2d deg (top %.2f m): walked up in %.1f s", deg, top, tt or 0)
  else
    say("ramp %2d deg (top %.2f m): held back with the feet at %.2f m", deg, top, f)
  end
end

-- The corridor between z = 40.2 and 40.8 (0.6 m wide), from x = 10 to 30,
-- walked into from its open end at x = 10: the character is 0.8 m wide.
local _, _, cx = walk(6, 40.5, 1, 0, 3)
say("corridor (0.6 m wide, the character %.1f m): %s", 2 * RX,
    cx < 10 and ("too narrow: stopped at its mouth, x = %.2f"):format(cx)
      or ("went in to x = %.2f"):format(cx))

-- A run across the open floor along z = -20 from x = -60.
do
  local s = { radius = { 0.4, 0.9, 0.4 }, position = { -60, RY + 0.005, -20 } }
  for k, v in pairs(settings) do s[k] = v end
  local ch = cs.newCharacter(s)
  local frames = 0
  while frames < 60 * 60 do
    frames = frames + 1
    ch:update(world, DT, { x = 1, z = 0 })
    if ch.mover:getPosition() >= 60 then break end   -- the x coordinate
  end
  local x = ch.mover:getPosition()
  say("across the floor (120 m): %s", x >= 60 and ("%.1f s, %.2f m/s"):format(frames * DT, 120 / (frames * DT))
      or ("stopped at x = %.2f"):format(x))
end
