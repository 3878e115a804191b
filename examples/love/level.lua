-- examples/love/level.lua: the playground's level. The OBJ file given on the
-- command line, or the benchmark arena (built in Lua by examples/arena.lua), or
-- a small level built here when neither is there, so that the playground always
-- runs. It keeps the flat vertex and index arrays
-- as well as the mesh, since the views draw the triangles themselves.

local level = {}

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

local function readAll(path)
  local f, err = io.open(path, "rb")
  if not f then error(err, 0) end
  local text = f:read("*a")
  f:close()
  return text
end

-- The benchmark arena, built in Lua by examples/arena.lua (no files, no scripts);
-- nil when that file is not there (the playground copied alone).
local function arena(cs, root)
  local file = root .. "/examples/arena.lua"
  if not exists(file) then return nil end
  local b = dofile(file).build(cs)
  return b.vertices, b.indices, "arena (examples/arena.lua)"
end

-- A small level (40 x 40 m) with what the arena has: stairs, ramps of 20, 35 and
-- 50 degrees, boxes to step onto, pillars and walls.
local function builtin(cs)
  local b = cs.newBuilder()
  local H = 4
  b:quad(-20, 0, -20, -20, 0, 20, 20, 0, 20, 20, 0, -20)            -- floor
  local function wall(x1, z1, x2, z2)                                -- facing left
    b:quad(x1, 0, z1, x2, 0, z2, x2, H, z2, x1, H, z1)
  end
  wall(20, -20, 20, 20); wall(20, 20, -20, 20); wall(-20, 20, -20, -20); wall(-20, -20, 20, -20)
  for k = 0, 11 do                                                   -- stairs along +z
    b:box(-14, 0, -12 + 0.4 * k, -10, 0.25 * (k + 1), -12 + 0.4 * (k + 1))
  end
  for i, deg in ipairs { 20, 35, 50 } do                             -- ramps along +z
    local x0, h = -4 + (i - 1) * 7, math.tan(math.rad(deg)) * 6
    b:quad(x0, 0, -12, x0, h, -6, x0 + 5, h, -6, x0 + 5, 0, -12)
  end
  for i = 0, 11 do                                                   -- boxes
    local x, z = -12 + (i % 4) * 2.2, 6 + math.floor(i / 4) * 2.2
    b:box(x, 0, z, x + 1.5, 0.2 + 0.15 * (i % 5), z + 1.5)
  end
  for i = 0, 3 do                                                    -- pillars
    b:box(6 + 3 * i, 0, 8, 6.8 + 3 * i, 3, 8.8)
  end
  return b.vertices, b.indices, "built-in level"
end

--[[ level.load(cs, root, objPath) -> the level:
  name, vertices, indices (flat, 1-based, as newMesh takes them), mesh, world,
  body, bounds {minx, miny, minz, maxx, maxy, maxz}, tags (the tags in use),
  (builtinOnly: the built-in level even when the arena is there)
  start {x, y, z} (a place to drop the character), arena (true for the benchmark
  arena, whose layout the scripted runs know). ]]
function level.load(cs, root, objPath, builtinOnly)
  local V, I, name
  local path = objPath
  local isArena = false
  if path then
    V, I = cs.parseOBJ(readAll(path), path)
    name = path:match("[^/\\]+$")
  elseif not builtinOnly then
    V, I, name = arena(cs, root)
    isArena = V ~= nil
  end
  if not V then
    V, I, name = builtin(cs)
  end
  local L = { name = name, vertices = V, indices = I, path = path }
  L.mesh = cs.newMesh(V, I)
  L.world = cs.newWorld()
  L.body = L.world:add(L.mesh)
  L.bounds = { L.mesh:bounds() }
  L.tags = { 0 }                                  -- parseOBJ without options: all 0
  L.arena = isArena
  L.builtin = not path and not isArena
  -- the start: above the middle of the level, on whatever a ray down meets
  local b = L.bounds
  local cx, cz = (b[1] + b[4]) / 2, (b[3] + b[6]) / 2
  if L.builtin then cx, cz = -12, -16 end
  local top = b[5] + 2
  local t, _, hy = L.world:raycast(cx, top, cz, 0, b[2] - top - 1, 0)
  L.start = { cx, (t and hy or b[2]) + 1.5, cz }
  if L.arena then L.start = { -38, 1.5, -43 } end  -- in front of the first stairs
  return L
end

-- The triangle's three corners (1-based triangle index t).
function level.corners(L, t)
  local V, I = L.vertices, L.indices
  local a, b, c = 3 * I[3 * t - 2] - 2, 3 * I[3 * t - 1] - 2, 3 * I[3 * t] - 2
  return V[a], V[a + 1], V[a + 2], V[b], V[b + 1], V[b + 2], V[c], V[c + 1], V[c + 2]
end

return level
