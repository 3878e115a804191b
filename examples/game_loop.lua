-- examples/game_loop.lua: a plain-Lua game loop around the character controller.
-- The loop has the shape a game has: frames of varying length (here a made-up
-- sequence of 144, 60 and 30 Hz frames, so that the output is the same on every
-- machine), a fixed simulation step fed by an accumulator, input read once per
-- step, and the position drawn between the last two steps. It prints what the
-- character does: lands, walks up stairs, jumps a gap, stops at a wall.
--
--   lua5.4 examples/game_loop.lua

local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"

local function say(fmt, ...) print(string.format(fmt, ...)) end

--[[ The level, along +x (seen from the side, y up):

                                   platform y = 1.2      gap     ledge y = 1.2    wall
        start        stairs 6 x 0.2 m  ______________            ___________    |
      ___*________ ___|‾‾|___________|              |____________|           |__|
      x = -6      x = 0         2.4              6.4     8.4            12     13.5
]]
local level = cs.newBuilder()
level:quad(-8, 0, -3, -8, 0, 3, 16, 0, 3, 16, 0, -3)              -- floor, facing up
for k = 0, 5 do                                                    -- stairs along +x
  level:box(0.4 * k, 0, -1.5, 0.4 * (k + 1), 0.2 * (k + 1), 1.5)
end
level:box(2.4, 0, -1.5, 6.4, 1.2, 1.5)                             -- the platform
level:box(8.4, 0, -1.5, 12, 1.2, 1.5)                              -- the ledge past the gap
level:box(13.5, 0, -3, 14, 3, 3)                                    -- a wall at x = 13.5

local world = cs.newWorld()
world:add(level:mesh())

local ch = cs.newCharacter {
  radius = { 0.4, 0.9, 0.4 },
  position = { -6, 2, 0 },          -- dropped from 2 m
  walkSpeed = 4, jumpSpeed = 5.5,   -- per second; the other settings: defaults
}

-- The input of the step at time t (s): what a keyboard would give.
local function input(t, x)
  if t < 0.5 then return {} end                         -- wait for the landing
  if x < 12.5 then
    return { x = 1, z = 0, jump = x > 5.9 and x < 6.4 }  -- jump at the platform's edge
  end
  return { x = 1 }                                      -- keep walking into the wall
end

-- Frame lengths (s) of the made-up display: mostly 144 Hz, with 60 Hz and
-- 30 Hz stretches, as a real game's would vary.
local function frameTime(frame)
  if frame % 97 < 10 then return 1 / 30 end
  if frame % 41 < 12 then return 1 / 60 end
  return 1 / 144
end

local STEP = 1 / 120                  -- the fixed simulation step
local accumulator, t, steps = 0, 0, 0
local prev = { ch:getPosition() }
local wasOnGround, wasGroundState = false, nil
-- The script's own marks live in ch.userdata: a character refuses fields it does
-- not know (so that a typo such as ch.walkspeed = 5 is an error, not a no-op).
ch.userdata = { upStairs = false, atWall = false }
local events = 0
local topY = -math.huge

local function event(fmt, ...)
  events = events + 1
  local x, y, z = ch:getPosition()
  say("t = %5.2f s  (%6.2f, %5.2f, %5.2f)  " .. fmt, t, x, y, z, ...)
end

event("start: dropped from %.1f m", 2)
local frame, drawn = 0, nil
while t < 6.5 do
  frame = frame + 1
  accumulator = accumulator + frameTime(frame)
  while accumulator >= STEP do                          -- catch up in fixed steps
    prev[1], prev[2], prev[3] = ch:getPosition()
    local x = prev[1]
    ch:update(world, STEP, input(t, x))
    t, steps, accumulator = t + STEP, steps + 1, accumulator - STEP
    -- what happened in this step
    if ch.jumped then event("jumped (%.1f m/s up)", ch.jumpSpeed) end
    if ch.onGround and not wasOnGround then
      event("on the ground (%s), after %s", ch.groundState, wasGroundState or "the drop")
    elseif not ch.onGround and wasOnGround and not ch.jumped then
      event("left the ground (%s)", ch.groundState)
    end
    wasOnGround, wasGroundState = ch.onGround, ch.groundState
    local _, y = ch:getPosition()
    if y > topY then topY = y end
    if ch.onGround and y > 2.05 and not ch.userdata.upStairs then
      ch.userdata.upStairs = true
      event("up the stairs: 6 steps of 0.2 m (stepHeight %.1f m)", ch.stepHeight)
    end
    for i = 1, ch.mover:contactCount() do               -- a wall ahead: a contact facing -x
      local _, _, _, nx = ch.mover:getContact(i)
      if nx < -0.9 and not ch.userdata.atWall then
        ch.userdata.atWall = true
        event("stopped by the wall (contact normal %.0f, 0, 0)", nx)
      end
    end
  end
  -- draw: between the last two steps, by how far the accumulator is into the next
  local a = accumulator / STEP
  local x, y, z = ch:getPosition()
  drawn = { prev[1] + (x - prev[1]) * a, prev[2] + (y - prev[2]) * a, prev[3] + (z - prev[3]) * a }
end

local x, y, z = ch:getPosition()
say("%d frames drawn, %d fixed steps of %.4f s (%d per second), %d events",
  frame, steps, STEP, 1 / STEP, events)
say("highest centre: y = %.2f (the platform top is 1.2 m, ry 0.9 m: %.2f standing on it)",
  topY, 1.2 + 0.9)
say("last drawn position (%.2f, %.2f, %.2f), interpolated between two steps", drawn[1], drawn[2], drawn[3])
say("final position (%.2f, %.2f, %.2f), %s, velocity (%.2f, %.2f, %.2f) m/s", x, y, z,
  ch.groundState, ch.velocity[1], ch.velocity[2], ch.velocity[3])
