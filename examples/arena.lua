-- examples/arena.lua: the benchmark arena, built with the mesh builder (no files,
-- no scripts): a 128 x 128 m floor tessellated like a render mesh, walls 6 m high,
-- two staircases of 16 steps (0.25 m rise, 0.4 m run), ramps of 20, 35 and 50
-- degrees, a V-shaped crease, 36 pillars, a corridor 0.6 m wide, thin walls and a
-- pile of boxes: about 78,000 triangles, the same level as the benchmark's
-- bench/scenes/arena.obj.
--
--   local arena = dofile("examples/arena.lua")   -- or require "arena" with examples/ on the path
--   local builder = arena.build(cs)              -- then world:add(builder:mesh())
--
-- Run as a script it prints the arena's size and writes it as an OBJ when given a path:
--
--   lua5.4 examples/arena.lua [arena.obj]

local arena = {}

-- The quad p0 p1 p2 p3 (counter-clockwise seen from the front), split n x n.
local function quad(b, p0, p1, p2, p3, n)
  n = n or 1
  local first = b.nv
  for j = 0, n do
    local v = j / n
    for i = 0, n do
      local u = i / n
      local a, c = {}, {}
      for k = 1, 3 do
        a[k] = p0[k] + (p1[k] - p0[k]) * u
        c[k] = p3[k] + (p2[k] - p3[k]) * u
      end
      b:vertex(a[1] + (c[1] - a[1]) * v, a[2] + (c[2] - a[2]) * v, a[3] + (c[3] - a[3]) * v)
    end
  end
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      local a = first + j * (n + 1) + i + 1
      local bb, c, d = a + 1, a + n + 1, a + n + 2
      b:face(a, bb, d)
      b:face(a, d, c)
    end
  end
end

-- A closed box (lo, hi corners), each face split n x n, facing outward.
local function box(b, x0, y0, z0, x1, y1, z1, n)
  quad(b, { x0, y1, z0 }, { x0, y1, z1 }, { x1, y1, z1 }, { x1, y1, z0 }, n)   -- top +y
  quad(b, { x0, y0, z0 }, { x1, y0, z0 }, { x1, y0, z1 }, { x0, y0, z1 }, n)   -- bottom -y
  quad(b, { x0, y0, z1 }, { x1, y0, z1 }, { x1, y1, z1 }, { x0, y1, z1 }, n)   -- +z
  quad(b, { x1, y0, z0 }, { x0, y0, z0 }, { x0, y1, z0 }, { x1, y1, z0 }, n)   -- -z
  quad(b, { x1, y0, z1 }, { x1, y0, z0 }, { x1, y1, z0 }, { x1, y1, z1 }, n)   -- +x
  quad(b, { x0, y0, z0 }, { x0, y0, z1 }, { x0, y1, z1 }, { x0, y1, z0 }, n)   -- -x
end

--- arena.build(cs [, builder]) -> the builder holding the arena.
function arena.build(cs, b)
  b = b or cs.newBuilder()
  local half, tiles = 64, 16
  local step = 2 * half / tiles
  for j = 0, tiles - 1 do                                          -- the floor
    for i = 0, tiles - 1 do
      local x0, z0 = -half + i * step, -half + j * step
      quad(b, { x0, 0, z0 }, { x0, 0, z0 + step }, { x0 + step, 0, z0 + step }, { x0 + step, 0, z0 }, 12)
    end
  end
  local H = 6                                                      -- walls, facing in
  quad(b, { -half, 0, -half }, { -half, H, -half }, { half, H, -half }, { half, 0, -half }, 8)
  quad(b, { half, 0, half }, { half, H, half }, { -half, H, half }, { -half, 0, half }, 8)
  quad(b, { -half, 0, half }, { -half, H, half }, { -half, H, -half }, { -half, 0, -half }, 8)
  quad(b, { half, 0, -half }, { half, H, -half }, { half, H, half }, { half, 0, half }, 8)
  for _, sx in ipairs { -40, -20 } do                              -- staircases along +z
    for k = 0, 15 do
      box(b, sx, 0, -40 + k * 0.4, sx + 4, 0.25 * (k + 1), -40 + (k + 1) * 0.4)
    end
  end
  for i, deg in ipairs { 20, 35, 50 } do                           -- ramps along +z, 8 m long
    local x0, x1, h = (i - 1) * 8, 6 + (i - 1) * 8, math.tan(math.rad(deg)) * 8
    quad(b, { x0, 0, -40 }, { x0, h, -32 }, { x1, h, -32 }, { x1, 0, -40 }, 4)
  end
  quad(b, { 30, 3, 20 }, { 30, 0, 25 }, { 40, 0, 25 }, { 40, 3, 20 }, 4)   -- a V crease
  quad(b, { 30, 0, 25 }, { 30, 3, 30 }, { 40, 3, 30 }, { 40, 0, 25 }, 4)
  for i = 0, 5 do                                                  -- pillars, 16 sides
    for j = 0, 5 do
      local cx, cz, r = -50 + i * 6, 10 + j * 6, 0.8
      for s = 0, 15 do
        local a0, a1 = 2 * math.pi * s / 16, 2 * math.pi * (s + 1) / 16
        local p0 = { cx + r * math.cos(a0), 0, cz + r * math.sin(a0) }
        local p1 = { cx + r * math.cos(a1), 0, cz + r * math.sin(a1) }
        quad(b, p1, p0, { p0[1], 4, p0[3] }, { p1[1], 4, p1[3] })
      end
    end
  end
  box(b, 10, 0, 40, 30, 3, 40.2)                                   -- a corridor 0.6 m wide
  box(b, 10, 0, 40.8, 30, 3, 41)
  for i = 0, 9 do                                                  -- thin walls
    box(b, -30 + i * 3, 0, 0, -30 + i * 3 + 0.05, 2.5, 4)
  end
  for i = 0, 39 do                                                 -- a pile of boxes
    local x, z = -10 + (i % 8) * 2.2, 30 + math.floor(i / 8) * 2.2
    box(b, x, 0, z, x + 1.5, 0.3 + 0.2 * (i % 5), z + 1.5, 2)
  end
  return b
end

-- Run as a script (not loaded by another one): build, print, write.
if arg and type(arg[0]) == "string" and arg[0]:match("arena%.lua$") then
  local here = arg[0]:match("^(.*)[/\\]") or "."
  local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
  package.path = here .. "/../lua/?.lua;" .. here .. "/../lua/?/init.lua;" .. package.path
  package.cpath = here .. "/../build/" .. build .. "/?.so;" .. package.cpath
  local cs = require "collideslide"
  local b = arena.build(cs)
  local mesh = b:mesh()
  local x0, y0, z0, x1, y1, z1 = mesh:bounds()
  print(string.format("arena: %d triangles, %d vertices, bounds (%.0f, %.0f, %.0f) .. (%.0f, %.2f, %.0f)",
    mesh:triangleCount(), mesh:vertexCount(), x0, y0, z0, x1, y1, z1))
  if arg[1] then
    local f = assert(io.open(arg[1], "wb"))
    f:write("# the arena of examples/arena.lua\n")
    local V, I = b.vertices, b.indices
    for i = 1, #V, 3 do f:write(string.format("v %.17g %.17g %.17g\n", V[i], V[i + 1], V[i + 2])) end
    for i = 1, #I, 3 do f:write(string.format("f %d %d %d\n", I[i], I[i + 1], I[i + 2])) end
    f:close()
    print("wrote " .. arg[1])
  end
end

return arena
