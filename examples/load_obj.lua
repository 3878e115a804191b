-- examples/load_obj.lua: loading Wavefront OBJ files. First a small level written
-- here to a temporary file (two materials, tagged: "ice" slides, "mud" stops),
-- then the benchmark arena (bench/scenes/arena.obj, `make bench-scenes`, or else
-- the one examples/arena.lua builds, written to a temporary OBJ) or any OBJ given
-- on the command line. For each: the mesh's
-- statistics, the time to load it, and raycasts straight down onto it.
--
--   lua5.4 examples/load_obj.lua [level.obj]

local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"

local function say(fmt, ...) print(string.format(fmt, ...)) end

-- Mesh statistics and a few rays straight down (from 100 m above its top).
local function report(name, mesh, seconds, points)
  local minx, miny, minz, maxx, maxy, maxz = mesh:bounds()
  say("%s: %d triangles, %d vertices, %d degenerate, loaded in %.3f s", name,
    mesh:triangleCount(), mesh:vertexCount(), mesh:degenerateCount(), seconds)
  say("  bounds (%.2f, %.2f, %.2f) .. (%.2f, %.2f, %.2f); %d bytes (%.0f per triangle)",
    minx, miny, minz, maxx, maxy, maxz, mesh:memory(), mesh:memory() / mesh:triangleCount())
  local world = cs.newWorld()
  world:add(mesh)
  local top = maxy + 100
  for _, p in ipairs(points or { { 0.5, 0.5 }, { 0.25, 0.75 }, { 0.8, 0.2 } }) do
    local x, z = minx + (maxx - minx) * p[1], minz + (maxz - minz) * p[2]
    local t, hx, hy, hz, nx, ny, nz, triangle, _, tag = world:raycast(x, top, z, 0, miny - top - 1, 0)
    if t then
      say("  raycast down at (%.2f, %.2f): hit y = %.3f, triangle %d (tag %d), normal (%.2f, %.2f, %.2f)",
        hx, hz, hy, triangle, tag, nx, ny, nz)
    else
      say("  raycast down at (%.2f, %.2f): no hit", x, z)
    end
  end
  return world
end

-- 1. A small OBJ written here: a floor of two materials and a box (negative
-- indices, a quad face, comments, normals that are ignored).
local OBJ = [[
# two floor halves and a box
o floor
v -4 0 -2
v  0 0 -2
v  4 0 -2
v -4 0  2
v  0 0  2
v  4 0  2
vn 0 1 0
usemtl ice
f 1//1 4//1 5//1 2//1
usemtl mud
f 2 5 6 3
o crate
v 1 0 -0.5
v 2 0 -0.5
v 2 1 -0.5
v 1 1 -0.5
v 1 1 0.5
v 2 1 0.5
usemtl wood
f -3 -4 -5 -6
f 10 11 12 9
]]
local path = os.tmpname()
local f = assert(io.open(path, "w"))
f:write(OBJ)
f:close()

local TAGS = { ice = 1, mud = 2, wood = 3 }
local t0 = os.clock()
local mesh = cs.loadOBJ(path, { tags = TAGS })       -- tags by material (then group, object)
-- rays at x = -2 (ice), 3 (mud) and 1.5 (the crate), z = 0 (as fractions of the bounds)
local world = report("small level", mesh, os.clock() - t0,
  { { 0.25, 0.5 }, { 0.875, 0.5 }, { 0.6875, 0.5 } })
say("  tags by material: ice = 1, mud = 2, wood = 3; triangles 1-2 have tag %d, 3-4 tag %d, 5-8 tag %d",
  mesh:getTag(1), mesh:getTag(3), mesh:getTag(5))

-- The tags at work: a mover resting on the ice, then walking at an angle into
-- the crate, with the crate's friction 0 (it slides along) and then 1 (it stops).
local m = cs.newMover { radius = 0.4, position = { -2, 0.405, 0 } }
world:collideAndSlide(m, 0, 0, 0, 0, -0.1, 0)
say("  a mover resting on it stands on tag %d (%s)", m:getGroundTag(), m:getGroundState())
for _, friction in ipairs { 0, 1 } do
  world:setFriction(TAGS.wood, friction)
  m:setPosition(1.5, 0.405, -1.5)
  local x, _, z = world:collideAndSlide(m, 0.3, 0, 1.0)
  say("  walking (0.3, 0, 1.0) into the crate, wood's friction %d: x moved %.3f (0.3 asked), z stopped at %.3f",
    friction, x - 1.5, z)
end

-- parseOBJ gives the flat arrays without building a mesh; errors name the line.
local V, I = cs.parseOBJ(OBJ, "inline")
say("  parseOBJ: %d numbers of vertices, %d indices", #V, #I)
local ok, err = pcall(cs.parseOBJ, "v 0 0 0\nv 1 0 0\nf 1 2 3\n", "broken.obj")
say("  a broken file: %s", ok and "no error?" or err)
os.remove(path)

-- 2. The arena of the benchmark, or the OBJ on the command line. Without
-- bench/scenes/arena.obj (`make bench-scenes`), the arena built by
-- examples/arena.lua is written as an OBJ to a temporary file first.
local big = arg and arg[1] or root .. "/bench/scenes/arena.obj"
local written
if not (arg and arg[1]) and not io.open(big, "rb") then
  local b = dofile(here .. "/arena.lua").build(cs)
  big = os.tmpname() .. "-arena.obj"
  local f = assert(io.open(big, "wb"))
  f:write("# the arena of examples/arena.lua\n")
  local V, I = b.vertices, b.indices
  for i = 1, #V, 3 do f:write(string.format("v %.17g %.17g %.17g\n", V[i], V[i + 1], V[i + 2])) end
  for i = 1, #I, 3 do f:write(string.format("f %d %d %d\n", I[i], I[i + 1], I[i + 2])) end
  f:close()
  written = big
  say("wrote the arena of examples/arena.lua to %s (%d triangles)", big, b.nt)
end
local probe = io.open(big, "rb")
if probe then
  probe:close()
  t0 = os.clock()
  local arena = cs.loadOBJ(big)
  -- on the arena: rays onto the first stairs, the 50 degree ramp and the floor
  local points = not (arg and arg[1]) and { { 0.203125, 0.2265625 }, { 0.6484375, 0.21875 },
    { 0.5, 0.5 } } or nil
  report(big:match("[^/\\]+$"), arena, os.clock() - t0, points)
else
  say("(cannot open %s)", big)
end
if written then os.remove(written); os.remove((written:gsub("%-arena%.obj$", ""))) end
