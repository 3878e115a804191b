-- collideslide/draw.lua: plain arrays for drawing what collideslide holds, with no
-- graphics API of its own (cs.draw, or require "collideslide.draw"):
--
--   triangles(mesh [, body or sensor]) / triangles(body or sensor) / triangles(vertices, indices)
--       -> { {x, y, z, u, v, nx, ny, nz, 1, 1, 1, 1}, ... }, three per triangle
--       (flat normals, white): the vertex format of g3d's models
--       (g3d.newModel(verts)), love.graphics.newMesh(draw.FORMAT, verts, "triangles").
--   topDown(mesh [, body or sensor]) / topDown(body or sensor) / topDown(vertices, indices)
--       -> { {x, z, 0, 0, r, g, b, a}, ... }: the triangles seen from above (+y),
--       lowest first, shaded by slope and height, in LÖVE's default 2D format:
--       love.graphics.newMesh(verts, "triangles").
--   ellipsoid(mover [, segments]) -> g3d/FORMAT vertices of the mover's ellipsoid.
--   outline(mover [, segments])   -> {x1, z1, x2, z2, ...}: the ellipsoid from above,
--       for love.graphics.polygon("line", points).
--   contacts(mover [, length])    -> { {x1, y1, z1, x2, y2, z2}, ... }: each contact
--       point and the point `length` (default 0.5) along its normal.
-- A character can be given wherever a mover is (its mover is used).

local draw = {}

local type, error, format = type, error, string.format
local check = require "collideslide.check"
local sqrt, cos, sin, pi, floor = math.sqrt, math.cos, math.sin, math.pi, math.floor

--- draw.FORMAT: the vertex format of triangles() and ellipsoid() for
-- love.graphics.newMesh (position, texture coordinates, normal, colour), g3d's.
draw.FORMAT = {
  { "VertexPosition", "float", 3 },
  { "VertexTexCoord", "float", 2 },
  { "VertexNormal", "float", 3 },
  { "VertexColor", "byte", 4 },
}

local tname = check.tname

-- Raises the error blaming the caller of the API function, `depth` calls up
-- (1: the API function itself raises it, 2: a helper of it does).
local function argerror(arg, fname, msg, depth)
  error(format("bad argument #%d to '%s' (%s)", arg, fname, msg), depth + 2)
end

-- cs.draw:f(...) (a colon) gives draw itself as the first argument: say so
-- (it said "collideslide.Mover ... expected, got table": found by an
-- independent tester).
local function notDraw(v, fname)
  if rawequal(v, draw) then
    argerror(1, fname, "got the cs.draw table: call it with a dot, cs.draw." .. fname .. "(...)", 3)
  end
end

-- The mover of a mover or a character, alive.
local function moverOf(m, fname)
  notDraw(m, fname)
  local t = tname(m)
  if t == "collideslide.Character" then m = m.mover
  elseif t ~= "collideslide.Mover" then
    argerror(1, fname, "collideslide.Mover or collideslide.Character expected, got "
      .. check.argType(m, 1, 2), 2)
  end
  check.alive(m, "getPosition", 1, fname, 2)   -- closed: in fname's words, not getPosition's
  return m
end

local PLACED = { ["collideslide.Body"] = true, ["collideslide.Sensor"] = true }

-- Calls fn(ax, ay, az, bx, by, bz, cx, cy, cz) for each triangle of a mesh (placed
-- by a body's or sensor's transform when given), of a body or a sensor (its mesh
-- where it is), or of flat vertex/index arrays. A removed body or a closed mesh is
-- its argument's error, in fname's words (check.alive).
local function eachTriangle(fname, a, b, fn)
  notDraw(a, fname)
  if PLACED[tname(a)] and b == nil then a, b = check.alive(a, "getMesh", 1, fname, 2), a end
  if tname(a) == "collideslide.Mesh" then
    local nt = check.alive(a, "triangleCount", 1, fname, 2)
    local m, mirrored
    if b ~= nil then
      if not PLACED[tname(b)] then
        argerror(2, fname, "collideslide.Body, collideslide.Sensor or nil expected, got " .. tname(b), 2)
      end
      check.alive(b, "getTransform", 2, fname, 2)
      m = { b:getTransform() }
      -- a mirroring transform (determinant < 0) keeps the mesh's front faces
      -- in front (as the core's one-sided tests do): two corners swap
      mirrored = m[1] * (m[6] * m[11] - m[7] * m[10]) - m[5] * (m[2] * m[11] - m[3] * m[10])
        + m[9] * (m[2] * m[7] - m[3] * m[6]) < 0
    end
    local function at(i)
      local x, y, z = a:getVertex(i)
      if not m then return x, y, z end
      return m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14],
        m[3] * x + m[7] * y + m[11] * z + m[15]
    end
    for t = 1, nt do
      local i, j, k = a:getTriangle(t)
      if mirrored then j, k = k, j end
      local ax, ay, az = at(i)
      local bx, by, bz = at(j)
      local cx, cy, cz = at(k)
      fn(ax, ay, az, bx, by, bz, cx, cy, cz)
    end
  elseif tname(a) == "table" and tname(b) == "table" then
    check.flatMesh(fname, a, b, 1, 2, 2)
    -- (as floats: on Lua 5.3 and 5.4 integer coordinates made the normal's
    -- cross product in integers, which wrapped from about 5e4: found by an
    -- independent tester; * 1.0 keeps -0.0)
    for t = 1, floor(check.len(b) / 3) do
      local i, j, k = 3 * b[3 * t - 2] - 2, 3 * b[3 * t - 1] - 2, 3 * b[3 * t] - 2
      fn(a[i] * 1.0, a[i + 1] * 1.0, a[i + 2] * 1.0, a[j] * 1.0, a[j + 1] * 1.0, a[j + 2] * 1.0,
        a[k] * 1.0, a[k + 1] * 1.0, a[k + 2] * 1.0)
    end
  else
    argerror(1, fname, "a collideslide.Mesh, Body or Sensor, or flat vertex and index arrays expected, got "
      .. check.argType(a, 1, 2) .. (b == nil and "" or " and " .. tname(b)), 2)
  end
end

-- The unit normal of a triangle (0, 0, 0 when degenerate).
local function normal(ax, ay, az, bx, by, bz, cx, cy, cz)
  local ux, uy, uz = bx - ax, by - ay, bz - az
  local vx, vy, vz = cx - ax, cy - ay, cz - az
  local nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
  local l = sqrt(nx * nx + ny * ny + nz * nz)
  if l == 0 then return 0, 0, 0 end
  return nx / l, ny / l, nz / l
end

--- draw.triangles(mesh [, body or sensor]), (body or sensor) or (vertices, indices) -> list of
-- {x, y, z, u, v, nx, ny, nz, r, g, b, a} (u = v = 0, white), three per triangle.
function draw.triangles(a, b)
  local out, n = {}, 0
  eachTriangle("triangles", a, b, function(ax, ay, az, bx, by, bz, cx, cy, cz)
    local nx, ny, nz = normal(ax, ay, az, bx, by, bz, cx, cy, cz)
    out[n + 1] = { ax, ay, az, 0, 0, nx, ny, nz, 1, 1, 1, 1 }
    out[n + 2] = { bx, by, bz, 0, 0, nx, ny, nz, 1, 1, 1, 1 }
    out[n + 3] = { cx, cy, cz, 0, 0, nx, ny, nz, 1, 1, 1, 1 }
    n = n + 3
  end)
  return out
end

--- draw.topDown(mesh [, body or sensor]), (body or sensor) or (vertices, indices) -> list of
-- {x, z, 0, 0, r, g, b, 1}: seen from above, lowest triangles first (so that
-- higher ones cover them), grey by slope and height: flat ground light, walls
-- dark, higher a little lighter (g = 0.25 + 0.45 |ny| + 0.3 (1 - e^(-y/3)) for
-- y >= 0).
function draw.topDown(a, b)
  local tris = {}
  eachTriangle("topDown", a, b, function(ax, ay, az, bx, by, bz, cx, cy, cz)
    local _, ny = normal(ax, ay, az, bx, by, bz, cx, cy, cz)
    local y = (ay + by + cy) / 3
    local g = 0.25 + 0.45 * (ny < 0 and -ny or ny) + 0.3 * (1 - math.exp(-(y > 0 and y or 0) / 3))
    tris[#tris + 1] = { y, #tris, ax, az, bx, bz, cx, cz, g }
  end)
  table.sort(tris, function(p, q) if p[1] ~= q[1] then return p[1] < q[1] end return p[2] < q[2] end)
  local out = {}
  for i, t in ipairs(tris) do
    local g = t[9]
    out[3 * i - 2] = { t[3], t[4], 0, 0, g, g, g, 1 }
    out[3 * i - 1] = { t[5], t[6], 0, 0, g, g, g, 1 }
    out[3 * i] = { t[7], t[8], 0, 0, g, g, g, 1 }
  end
  return out
end

-- Rotates (x, y, z) by the unit quaternion (qx, qy, qz, qw).
local function rotate(qx, qy, qz, qw, x, y, z)
  local tx, ty, tz = 2 * (qy * z - qz * y), 2 * (qz * x - qx * z), 2 * (qx * y - qy * x)
  return x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz),
    z + qw * tz + (qx * ty - qy * tx)
end

-- The most segments: an outline makes 2 numbers a segment, an ellipsoid
-- about 2 segments^2 vertex tables (256: 130,560 tables, a tenth of a second;
-- 65536 would ask for 8.6e9).
local MAX_OUTLINE, MAX_ELLIPSOID = 65536, 256

local function segmentsArg(s, fname, default, max)
  if s == nil then return default end
  if type(s) ~= "number" or s ~= floor(s) or s < 3 or s > max then
    argerror(2, fname, format("segments must be an integer in 3..%d, got %s", max,
      type(s) == "number" and check.num2str(s) or tname(s)), 2)
  end
  return s
end

--- draw.ellipsoid(mover [, segments]) -> list of draw.FORMAT vertices: the
-- mover's ellipsoid (with its orientation), `segments` (default 16, 3..256) around.
function draw.ellipsoid(m, segments)
  m = moverOf(m, "ellipsoid")
  local sides = segmentsArg(segments, "ellipsoid", 16, MAX_ELLIPSOID)
  local rings = math.max(2, floor(sides / 2))
  local px, py, pz = m:getPosition()
  local rx, ry, rz = m:getRadius()
  local qx, qy, qz, qw = m:getOrientation()
  local function point(i, j)                    -- ring i (0..rings), side j
    local th, ph = pi * i / rings, 2 * pi * j / sides
    local ux, uy, uz = sin(th) * cos(ph), cos(th), sin(th) * sin(ph)
    local x, y, z = rotate(qx, qy, qz, qw, rx * ux, ry * uy, rz * uz)
    local nx, ny, nz = rotate(qx, qy, qz, qw, ux / rx, uy / ry, uz / rz)
    local l = sqrt(nx * nx + ny * ny + nz * nz)
    return { px + x, py + y, pz + z, j / sides, i / rings, nx / l, ny / l, nz / l, 1, 1, 1, 1 }
  end
  local out = {}
  for i = 0, rings - 1 do
    for j = 0, sides - 1 do
      local a, b, c, d = point(i, j), point(i, j + 1), point(i + 1, j + 1), point(i + 1, j)
      if i > 0 then out[#out + 1] = a; out[#out + 1] = b; out[#out + 1] = c end
      if i < rings - 1 then out[#out + 1] = a; out[#out + 1] = c; out[#out + 1] = d end
    end
  end
  return out
end

--- draw.outline(mover [, segments]) -> {x1, z1, x2, z2, ...}: the mover's
-- ellipse from above (radii rx and rz; its orientation is not drawn), `segments`
-- (default 24, 3..65536) points.
function draw.outline(m, segments)
  m = moverOf(m, "outline")
  local sides = segmentsArg(segments, "outline", 24, MAX_OUTLINE)
  local px, _, pz = m:getPosition()
  local rx, _, rz = m:getRadius()
  local out = {}
  for j = 0, sides - 1 do
    local a = 2 * pi * j / sides
    out[2 * j + 1], out[2 * j + 2] = px + rx * cos(a), pz + rz * sin(a)
  end
  return out
end

--- draw.contacts(mover [, length]) -> list of {x1, y1, z1, x2, y2, z2}: each
-- contact of the last call, from its point along its normal by length (0.5).
function draw.contacts(m, length)
  m = moverOf(m, "contacts")
  if length == nil then length = 0.5 end
  if type(length) ~= "number" or length - length ~= 0 then
    argerror(2, "contacts", "length must be a finite number, got "
      .. (type(length) == "number" and check.num2str(length) or tname(length)), 1)
  end
  local out = {}
  for i = 1, m:contactCount() do
    local x, y, z, nx, ny, nz = m:getContact(i)
    out[i] = { x, y, z, x + nx * length, y + ny * length, z + nz * length }
  end
  return out
end

return draw
