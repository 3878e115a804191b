-- examples/crowd.lua: a crowd moved by one call per frame. 400 walkers, solid
-- to each other (world:addMover), wander on a floor around pillars; each
-- frame fills one flat list of moves (walk and gravity per walker) and calls
-- world:collideAndSlideMany once, on the world's threads. The same frames
-- are then run again with one thread and as a loop of collideAndSlide: the
-- crowd ends in the same place to the last bit.
--
--   lua5.4 examples/crowd.lua

local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"

local function say(fmt, ...) print(string.format(fmt, ...)) end

--[[ The level, from above: a 60 x 60 m floor with a 4 x 4 grid of pillars.

      +-----------------------------+
      |   []     []     []     []   |      [] a pillar, 2 x 2 m, 3 m high
      |      o  o    o     o   o    |      o  a walker (radius 0.4 x 0.9)
      |   []   o []  o  [] o   []   |
      |    o      o     o    o      |
      +-----------------------------+
]]
local level = cs.newBuilder()
level:box(-30, -1, -30, 30, 0, 30)
for i = 0, 3 do
  for j = 0, 3 do
    local x, z = -18 + 12 * i, -18 + 12 * j
    level:box(x - 1, 0, z - 1, x + 1, 3, z + 1)
  end
end
local mesh = level:mesh()

local N, FRAMES, DT, SPEED, GRAVITY = 400, 240, 1 / 60, 3, 9.81

-- A deterministic wander: each walker turns a little every half second.
local function heading(i, frame)
  local k = math.floor(frame / 30)
  return ((i * 7919 + k * 104729) % 360) * math.pi / 180
end

-- A world with the crowd; returns the world and the walkers.
local function newCrowd(threads)
  local world = cs.newWorld()
  world:add(mesh)
  world:setThreads(threads)
  local walkers = {}
  for i = 1, N do
    local row, col = math.floor((i - 1) / 20), (i - 1) % 20
    local m = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = { -24 + col * 2.5 + 0.3, 1.5, -24 + row * 2.5 + 0.3 } }
    world:addMover(m)
    walkers[i] = m
  end
  return world, walkers
end

-- The frames: the moves of every walker into one list, one call per frame.
local function run(world, walkers, batch)
  local moves, out, fall, ground = {}, {}, {}, {}
  for i = 1, N do fall[i] = 0 end
  local clock0 = os.clock()
  for frame = 1, FRAMES do
    for i = 1, N do
      local a = heading(i, frame)
      fall[i] = fall[i] - GRAVITY * DT
      local k = 6 * (i - 1)
      moves[k + 1], moves[k + 2], moves[k + 3] = SPEED * DT * math.cos(a), 0, SPEED * DT * math.sin(a)
      moves[k + 4], moves[k + 5], moves[k + 6] = 0, fall[i] * DT, 0
    end
    if batch then     -- the whole crowd, one call: centres into out, ground into ground
      world:collideAndSlideMany(walkers, moves, out, ground)
    else
      for i, m in ipairs(walkers) do
        local k = 6 * (i - 1)
        out[k / 2 + 1], out[k / 2 + 2], out[k / 2 + 3] = world:collideAndSlide(m, moves[k + 1], moves[k + 2],
          moves[k + 3], moves[k + 4], moves[k + 5], moves[k + 6])
        ground[i] = m:isOnGround()
      end
    end
    for i = 1, N do
      if ground[i] then fall[i] = 0 end
    end
  end
  return out, os.clock() - clock0
end

local threads = math.min(cs.cpuCount(), 4)
local world, walkers = newCrowd(threads)
local out = run(world, walkers, true)

local grounded, met = 0, 0
for _, m in ipairs(walkers) do
  if m:isOnGround() then grounded = grounded + 1 end
  for c = 1, m:contactCount() do
    if getmetatable(select(8, m:getContact(c))) == getmetatable(m) then met = met + 1 break end
  end
end
say("%d walkers, %d frames, one collideAndSlideMany per frame on %d thread%s", N, FRAMES, threads,
  threads == 1 and "" or "s")
say("on the ground: %d of %d; touching another walker in the last frame: %d", grounded, N, met)

local function same(a, b)
  for k = 1, 3 * N do
    if a[k] ~= b[k] then return false end
  end
  return true
end
local w1, m1 = newCrowd(1)
local one = run(w1, m1, true)
local w2, m2 = newCrowd(1)
local loop = run(w2, m2, false)
say("the same crowd on 1 thread: %s", same(out, one) and "the same bits" or "DIFFERENT")
say("the same crowd as a loop of collideAndSlide: %s", same(out, loop) and "the same bits" or "DIFFERENT")

--[[ Characters: the same, with the character controller. 100 characters,
solid to each other, walk toward the middle (input camera-free: x, z) and
jump now and then; cs.updateCharacters updates them all by one
collideAndSlideMany per frame. A second crowd updated one character:update at
a time ends in the same place to the last bit. ]]
local function newCharacters(threads)
  local world = cs.newWorld()
  world:add(mesh)
  world:setThreads(threads)
  local chars = {}
  for i = 1, 100 do
    local row, col = math.floor((i - 1) / 10), (i - 1) % 10
    local c = cs.newCharacter { position = { -20 + col * 4, 1, -20 + row * 4 } }
    world:addMover(c.mover)
    chars[i] = c
  end
  return world, chars
end

local function steer(chars, frame, inputs)
  for i, c in ipairs(chars) do
    local p = c.position
    local dx, dz = -p[1], -p[3]
    local l = math.sqrt(dx * dx + dz * dz) + 1e-9
    local input = inputs[i] or {}
    input.x, input.z, input.jump = dx / l, dz / l, (frame + i) % 90 == 0
    inputs[i] = input
  end
  return inputs
end

local wc, crowd = newCharacters(threads)
local wl, alone = newCharacters(1)
local inputs, inputsAlone = {}, {}
for frame = 1, 180 do
  cs.updateCharacters(wc, crowd, DT, steer(crowd, frame, inputs))   -- the whole crowd, one call
  steer(alone, frame, inputsAlone)
  for i, c in ipairs(alone) do c:update(wl, DT, inputsAlone[i]) end
end
local sameChars, nearMiddle = true, 0
for i, c in ipairs(crowd) do
  local p, q = c.position, alone[i].position
  if p[1] ~= q[1] or p[2] ~= q[2] or p[3] ~= q[3] then sameChars = false end
  if p[1] * p[1] + p[3] * p[3] < 10 * 10 then nearMiddle = nearMiddle + 1 end
end
say("100 characters, 180 frames, cs.updateCharacters: %d within 10 m of the middle", nearMiddle)
say("the same characters updated one at a time: %s", sameChars and "the same bits" or "DIFFERENT")
