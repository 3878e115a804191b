-- bodies.lua: "worlds that move" through the Lua module, the workload of
-- bodies.c as users get it: 10,000 bodies (one shared 12-triangle box mesh)
-- placed by body:setTransform every frame, the world's tree over bodies
-- brought up to date, 256 movers walking among them with gravity; then each
-- query kind on the last frame's world (callbacks count their results).
-- Runs on Lua 5.1-5.4 and LuaJIT.
--
-- usage: lua bench/bodies.lua [--bodies N] [--frames F] [--movers M] [--queries Q]
-- (from the repository root, with LUA_PATH/LUA_CPATH as the Makefile sets them)
-- The last line is machine-readable: "RESULT key=value ...".

local cs = require "collideslide"

local clock = os.clock          -- process CPU time (bodies.c reads the same clock)
local sin, cos, sqrt, ceil, floor, pi = math.sin, math.cos, math.sqrt, math.ceil, math.floor, math.pi
local SPACING, WARMUP = 4.0, 10

local opts = { bodies = 10000, frames = 120, movers = 256, queries = 20000 }
do
  local i = 1
  while i <= #arg do
    local k = arg[i]:match("^%-%-(%w+)$")
    if not k or opts[k] == nil or not tonumber(arg[i + 1]) then
      error("usage: lua bench/bodies.lua [--bodies N] [--frames F] [--movers M] [--queries Q]")
    end
    opts[k] = tonumber(arg[i + 1])
    i = i + 2
  end
end

-- Uniform in [lo, hi): Park and Miller's minimal standard generator (the
-- same numbers on every Lua; bodies.c uses its own).
local seed = 12345
local function rnd(lo, hi)
  seed = (16807 * seed) % 2147483647
  return lo + (hi - lo) * seed / 2147483647
end

-- A closed box [-h, h]^3, front faces outward; a floor grid at y = 0.
local function box_mesh(h)
  local v = {}
  for k = 0, 7 do
    v[#v + 1] = k % 2 == 1 and h or -h
    v[#v + 1] = floor(k / 2) % 2 == 1 and h or -h
    v[#v + 1] = floor(k / 4) % 2 == 1 and h or -h
  end
  local idx = { 0, 4, 6, 0, 6, 2,  1, 3, 7, 1, 7, 5,  0, 1, 5, 0, 5, 4,
                2, 6, 7, 2, 7, 3,  0, 2, 3, 0, 3, 1,  4, 5, 7, 4, 7, 6 }
  for i = 1, #idx do idx[i] = idx[i] + 1 end
  return cs.newMesh(v, idx)
end

local function floor_mesh(size, n)
  local v, idx = {}, {}
  for j = 0, n do
    for i = 0, n do
      v[#v + 1], v[#v + 2], v[#v + 3] = -size / 2 + size * i / n, 0, -size / 2 + size * j / n
    end
  end
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      local a = j * (n + 1) + i + 1
      local b, d = a + 1, a + n + 1
      local c = d + 1
      for _, x in ipairs { a, d, c, a, c, b } do idx[#idx + 1] = x end
    end
  end
  return cs.newMesh(v, idx)
end

--[[ {=================================================================
  Frames: moving bodies, walking movers
=================================================================== ]]

local nbodies, nmovers, frames = opts.bodies, opts.movers, opts.frames
local side = ceil(sqrt(nbodies))
local world = cs.newWorld()
local box = box_mesh(0.5)
world:add(floor_mesh(side * SPACING + 40, 8))
local bodies, bx, bz, phase = {}, {}, {}, {}
for i = 1, nbodies do
  bx[i] = ((i - 1) % side - floor(side / 2)) * SPACING
  bz[i] = (floor((i - 1) / side) - floor(side / 2)) * SPACING
  phase[i] = rnd(0, 2 * pi)
  bodies[i] = world:add(box, bx[i] + 0.6 * cos(phase[i]), 0.5, bz[i] + 0.6 * sin(phase[i]),
                        0, sin(phase[i] / 2), 0, cos(phase[i] / 2))
end

local movers, vy, wx, wz = {}, {}, {}, {}
local mside = ceil(sqrt(nmovers))
for i = 1, nmovers do
  movers[i] = cs.newMover { radius = { 0.4, 0.9, 0.4 },
    position = { ((i - 1) % mside - floor(mside / 2)) * SPACING + SPACING / 2, 0.91,
                 (floor((i - 1) / mside) - floor(mside / 2)) * SPACING + SPACING / 2 } }
  vy[i], wx[i], wz[i] = 0, 0, 0
end

-- One frame; returns the CPU seconds of the transforms, the tree, the moves.
local function frame(f)
  local dt = 1 / 60
  local t0 = clock()
  for i = 1, nbodies do
    local a = 0.03 * f + phase[i]
    bodies[i]:setTransform(bx[i] + 0.6 * cos(a), 0.5, bz[i] + 0.6 * sin(a), 0, sin(a / 2), 0, cos(a / 2))
  end
  local t1 = clock()
  world:raycast(0, 50, 0, 0, -0.1, 0)        -- brings the tree over bodies up to date
  local t2 = clock()
  for i = 1, nmovers do
    if f % 60 == 0 then
      local a = rnd(0, 2 * pi)
      wx[i], wz[i] = 3 * dt * cos(a), 3 * dt * sin(a)
    end
    vy[i] = vy[i] - 9.81 * dt
    local m = movers[i]
    world:collideAndSlide(m, wx[i], 0, wz[i], 0, vy[i] * dt, 0)
    if m:isOnGround() then vy[i] = 0 end
  end
  local t3 = clock()
  return t1 - t0, t2 - t1, t3 - t2
end

for f = 1, WARMUP do frame(f) end
local sxf, stree, smoves = 0, 0, 0
for f = WARMUP + 1, WARMUP + frames do
  local a, b, c = frame(f)
  sxf, stree, smoves = sxf + a, stree + b, smoves + c
end

print(("bodies.lua (%s)"):format(jit and jit.version or _VERSION))
print(("frames: %d bodies (a shared %d-triangle box) moved by setTransform every frame, %d movers walking; mean of %d frames (CPU time):")
  :format(nbodies, box:triangleCount(), nmovers, frames))
print(("  setTransform x %d      %8.3f ms/frame (%.0f ns per body)"):format(nbodies, 1e3 * sxf / frames, 1e9 * sxf / frames / nbodies))
print(("  tree over bodies update %8.3f ms/frame"):format(1e3 * stree / frames))
print(("  collideAndSlide x %-5d %8.3f ms/frame (%.1f us per mover)"):format(nmovers, 1e3 * smoves / frames,
  nmovers > 0 and 1e6 * smoves / frames / nmovers or 0))
print(("  total                   %8.3f ms/frame"):format(1e3 * (sxf + stree + smoves) / frames))
local fell = 0
for i = 1, nmovers do
  local _, y = movers[i]:getPosition()
  if y < 0.85 then fell = fell + 1 end
end
print(("  movers below the floor: %d"):format(fell))

--[[ }=================================================================
  Queries
=================================================================== ]]

local results = 0
local function count() results = results + 1 end
local half = side * SPACING / 2
local probe = cs.newMover { radius = { 0.4, 0.9, 0.4 } }
probe:setOrientation(0.3, 0.1, -0.2, 0.92)

local QUERIES = {
  { "raycast", "raycast", function(x, y, z, dx, dy, dz)
      if world:raycast(x, y, z, dx, dy, dz) then results = results + 1 end end },
  { "raycastAll", "raycast_all", function(x, y, z, dx, dy, dz) world:raycastAll(x, y, z, dx, dy, dz, count) end },
  { "sweepEllipsoid", "sweep", function(x, y, z, dx, dy, dz)
      if world:sweepEllipsoid(x, y, z, 0.4, 0.9, 0.4, dx / 2, dy / 2, dz / 2) then results = results + 1 end end },
  { "sweep (oriented)", "sweep_oriented", function(x, y, z, dx, dy, dz)
      probe:setPosition(x, y, z)
      if world:sweep(probe, dx / 2, dy / 2, dz / 2) then results = results + 1 end end },
  { "closestPoint (max 3)", "closest", function(x, y, z)
      if world:closestPoint(x, y, z, 3) then results = results + 1 end end },
  { "closestPoint (no max)", "closest_far", function(x, y, z)
      if world:closestPoint(x, y + 20, z) then results = results + 1 end end, fewer = true },
  { "queryBox", "box", function(x, y, z) world:queryBox(x - 1, y - 1, z - 1, x + 1, y + 1, z + 1, count) end },
  { "overlapEllipsoid", "overlap", function(x, y, z) world:overlapEllipsoid(x, y, z, 1, 1, 1, count) end },
}

print(("queries on the last frame's world, %d each (10 m rays, 5 m sweeps, 2 m boxes, r = 1 overlaps):"):format(opts.queries))
local keys = {}
for k, q in ipairs(QUERIES) do
  local n = q.fewer and ceil(opts.queries / 20) or opts.queries   -- an unbounded closestPoint visits every body
  seed = 1000 + k
  results = 0
  local fn = q[3]
  local t0 = clock()
  for _ = 1, n do
    local x, y, z = rnd(-half, half), rnd(0.1, 2.5), rnd(-half, half)
    local a = rnd(0, 2 * pi)
    fn(x, y, z, 10 * cos(a), rnd(-1, 1), 10 * sin(a))
  end
  local qps = n / (clock() - t0)
  print(("  %-22s %12.0f queries/s   (%.2f results per query)"):format(q[1], qps, results / n))
  keys[#keys + 1] = ("%s_qps=%.0f"):format(q[2], qps)
end

print(("RESULT bodies=%d movers=%d frames=%d xf_ms=%.4f tree_ms=%.4f moves_ms=%.4f %s"):format(
  nbodies, nmovers, frames, 1e3 * sxf / frames, 1e3 * stree / frames, 1e3 * smoves / frames,
  table.concat(keys, " ")))
