-- examples/level_logic.lua: level logic with sensors. A character walks down
-- a corridor into a hall; the hall's sensor opens the door at its far end
-- (the door body is disabled). Then a runner dashes across a checkpoint line
-- 1 cm thick at 600 m/s (10 m a frame): the line's enter and exit are both
-- reported in that frame, where along the frame's path they happened.
--
--   lua5.4 examples/level_logic.lua

local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"

local function say(fmt, ...) print(string.format(fmt, ...)) end

local DT = 1 / 60
local world = cs.newWorld()

-- Seen from above (x to the right, z down the page):
--
--   z = -2 +----------------+-----------+
--          |   corridor     |   hall    D   D: the door at x = 20
--   z =  2 +----------------+-----------+
--          x = 0          x = 10      x = 20
local level = cs.newBuilder()
level:quad(-5, 0, -10, -5, 0, 10, 40, 0, 10, 40, 0, -10)  -- the floor
level:box(-5, 0, -2.2, 20, 3, -2)                         -- the two long walls
level:box(-5, 0, 2, 20, 3, 2.2)
world:add(level:mesh())
local door = world:add(cs.newMesh(cs.box(20, 0, -2, 20.2, 3, 2)))

-- The hall: a sensor volume over x = 10 .. 20 (a closed box mesh).
local hall = world:addSensor(cs.newMesh(cs.box(10, 0, -2, 20, 3, 2)))
hall.userdata = "hall"

local player = cs.newCharacter { position = { 0, 0.9, 0 } }
local frames, opened = 0, nil
for frame = 1, 60 * 8 do
  frames = frame
  player:update(world, DT, { x = 1 })
  for _, e in ipairs(player.sensorEvents) do
    if e.sensor.userdata == "hall" and e.event == "enter" and door:isEnabled() then
      door:setEnabled(false)                -- the door opens
      opened = frame
      say("frame %d: entered the hall at x = %.2f (t = %.2f of the frame's path): the door opens",
          frame, player.position[1], e.t)
    end
  end
  if player.position[1] > 22 then break end
end
assert(opened, "the hall never fired")
say("walked through the open door: x = %.2f after %d frames", player.position[1], frames)

-- The checkpoint: a line 1 cm thick across the track at x = 105.
local line = world:addSensor(cs.newMesh(cs.box(105, 0, -10, 105.01, 5, 10)))
line.userdata = "checkpoint"
local runner = cs.newMover { radius = 0.5, position = { 100, 1, 5 } }
for frame = 1, 3 do
  world:collideAndSlide(runner, 600 * DT, 0, 0)    -- 10 m in each frame
  for i = 1, runner:sensorEventCount() do
    local sensor, kind, t = runner:getSensorEvent(i)
    say("dash frame %d: %s the %s at t = %.4f (x = %.3f)", frame, kind, sensor.userdata, t,
        100 + 10 * (frame - 1) + 10 * t)
  end
end
