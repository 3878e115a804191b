-- examples/platform_door.lua: worlds that move. A platform the script moves
-- every frame (across, then up as a lift) carries the character standing on
-- it; a door turning on its hinge first blocks the character, then lets it
-- through once open. Bodies are placed with body:setTransform each frame, and
-- that alone carries their riders; the platform also shows body:setVelocity,
-- which takes the step's displacement (per call, not per second: for m/s see
-- cs.setPlatformVelocity).
--
--   lua5.4 examples/platform_door.lua

local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"

local function say(fmt, ...) print(string.format(fmt, ...)) end

local DT = 1 / 60
local world = cs.newWorld()

-- The ground, and a wall along x at z = 6 with a 1.2 m doorway at x = -0.6 .. 0.6.
local level = cs.newBuilder()
level:quad(-20, 0, -20, -20, 0, 20, 20, 0, 20, 20, 0, -20)
level:box(-10, 0, 6, -0.6, 3, 6.2)
level:box(0.6, 0, 6, 10, 3, 6.2)
world:add(level:mesh())

-- {======================================================================
-- 1. A moving platform: 3 x 3 m, 0.3 m thick, its top at y = 0.5
-- =======================================================================

local platformMesh = cs.newMesh(cs.box(-1.5, -0.3, -1.5, 1.5, 0, 1.5))  -- top at its origin
local platform = world:add(platformMesh, -8, 0.5, -8)
platform.userdata = "platform"

-- Where the platform is at time t: 2 s across +x (6 m), 2 s up (2 m), 1 s still.
local function platformAt(t)
  if t < 2 then return -8 + 3 * t, 0.5 end
  if t < 4 then return -2, 0.5 + (t - 2) end
  return -2, 2.5
end

local ch = cs.newCharacter { position = { -8, 1.5, -8 } }   -- dropped onto the platform
local px, py = platformAt(0)
say("platform: 3 x 3 m at (%.1f, %.1f, -8); the character is dropped onto it", px, py)
for frame = 1, 5 * 60 do
  local t = frame * DT
  local nx, ny = platformAt(t)
  platform:setTransform(nx, ny, -8)
  platform:setVelocity(nx - px, ny - py, 0)     -- this step's displacement (not per second)
  px, py = nx, ny
  ch:update(world, DT, nil)                      -- no input: it only rides
  if frame % 60 == 0 then
    local x, y = ch:getPosition()
    local on = ch.mover:getGroundBody()
    say("t = %.0f s  platform at (%5.2f, %4.2f)  character at (%5.2f, %4.2f): x - platform x = %.2f, "
      .. "feet %.3f m above its top, on %s", t, px, py, x, y, x - px, y - 0.9 - py,
      on and on.userdata or "nothing")
  end
end
platform:setVelocity(0, 0, 0)                    -- it stays put from now on

-- }======================================================================

-- {======================================================================
-- 2. A door: 1.2 x 2.2 m, 0.08 m thick, hinged at (-0.6, 0, 6)
-- =======================================================================

local doorMesh = cs.newMesh(cs.box(0, 0, 0, 1.2, 2.2, 0.08))   -- hinge edge on the y axis
local door = world:add(doorMesh, -0.6, 0, 6)                    -- closed: fills the doorway
door.userdata = "door"

-- Turns the door by `degrees` about the vertical hinge (0: closed; 90: open,
-- swung toward +z, away from the character).
local function setDoor(degrees)
  local a = -math.rad(degrees) / 2
  door:setTransform(-0.6, 0, 6, 0, math.sin(a), 0, math.cos(a))
end

ch:setPosition(0, 0.905, 3)
local opened, through, blocked
say("door: closed across the doorway at z = 6; the character walks toward it (+z) from z = 3")
for frame = 1, 4 * 60 do
  local t = frame * DT
  local angle = 0
  if t > 2 then angle = math.min(90, (t - 2) * 90) end   -- opens in 1 s after t = 2 s
  setDoor(angle)
  ch:update(world, DT, { x = 0, z = 1 })
  local _, _, z = ch:getPosition()
  if not blocked and t > 1.5 then
    blocked = true
    local hitDoor = false
    for i = 1, ch.mover:contactCount() do
      local _, _, _, _, _, _, _, body = ch.mover:getContact(i)
      if body == door then hitDoor = true end
    end
    say("t = %.1f s  stopped at z = %.3f (the door's face is at z = 6, radius 0.4): %s",
      t, z, hitDoor and "touching the door" or "not at the door?")
  end
  if not opened and angle >= 90 then
    opened = true
    say("t = %.1f s  the door is open (90 degrees); the character is at z = %.2f", t, z)
  end
  if not through and z > 6.5 then
    through = true
    say("t = %.1f s  through the doorway (z = %.2f)", t, z)
  end
end
local x, y, z = ch:getPosition()
say("final position (%.2f, %.2f, %.2f), %s", x, y, z, ch.groundState)
