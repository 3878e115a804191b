-- spec/helper.lua: shared test utilities. busted loads it first (--helper in
-- the Makefile and .busted); specs get the same table with
--   local H = require "helper"
-- It holds: module paths for a plain `busted`, tolerances, a random generator
-- that gives the same numbers on every Lua, scene builders (flat vertex/index
-- arrays, 1-based, front faces counter-clockwise) and an exact ellipsoid-space
-- distance check for the no-penetration invariant.

local H = {}
package.loaded.helper = H   -- `require "helper"` returns this very table

local floor, sqrt, sin, cos, rad = math.floor, math.sqrt, math.sin, math.cos, math.rad

--[[ {=================================================================
  Environment
=================================================================== ]]

H.lua_version = _VERSION:match("%d+%.%d+")                     -- "5.1" .. "5.4"
H.LUA = type(jit) == "table" and "luajit" or "lua" .. H.lua_version -- build/<LUA>
H.sanitized = os.getenv("CS_SANITIZED") == "1"   -- ASan+UBSan run: slower
H.valgrind = os.getenv("CS_VALGRIND") == "1"     -- under valgrind: much slower
-- Factor for the size of heavy random or benchmark-like specs.
H.scale = (H.valgrind or H.sanitized) and 0.25 or 1

-- The error message of f(...), which must fail.
function H.errorOf(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error")
  return tostring(err)
end

-- n scaled by H.scale, but at least `min` (default 1): a case count that keeps
-- statistical assertions ("more than a third hit") meaningful under valgrind.
function H.count(n, min)
  return math.max(min or 1, math.floor(n * H.scale))
end

-- The output (stdout and stderr) of `code` run by a child interpreter of
-- this one, with this state's module paths; flags: the interpreter's own
-- ("-joff"), or nil.
function H.child(code, flags)
  local cmd = ("LUA_PATH=%q LUA_CPATH=%q %s %s-e %q 2>&1"):format(package.path, package.cpath, H.LUA,
    flags and flags .. " " or "", code)
  local p = io.popen(cmd)
  local out = p:read("*a")
  p:close()
  return out
end

-- For a child's code (H.child), first in its chunk: under_raising_hook(n, f)
-- runs f under a count hook that raises "time limit" at every instruction
-- from the n-th on outside the chunk itself (a sandbox's time limit), then
-- clears the hook.
H.RAISING_HOOK = [[
  local MAIN = debug.getinfo(1, "f").func
  local under_raising_hook
  function under_raising_hook(n, f)
    local count = 0
    pcall(function()
      debug.sethook(function()
        count = count + 1
        local at = debug.getinfo(2, "f").func
        if count >= n and at ~= MAIN and at ~= under_raising_hook then error("time limit", 0) end
      end, "", 1)
      f()
    end)
    debug.sethook()
  end
]]

-- A plain `busted` (no make) has no LUA_PATH/LUA_CPATH: find ./lua, ./spec
-- and the module built for this interpreter. make exports both, and the
-- sanitized run points LUA_CPATH elsewhere: leave them alone then.
local suffix = "_" .. H.lua_version:gsub("%.", "_")
if not (os.getenv("LUA_PATH") or os.getenv("LUA_PATH" .. suffix)) then
  package.path = "./lua/?.lua;./lua/?/init.lua;./spec/?.lua;" .. package.path
end
if not (os.getenv("LUA_CPATH") or os.getenv("LUA_CPATH" .. suffix)) then
  package.cpath = "./build/" .. H.LUA .. "/?.so;" .. package.cpath
end

-- CS_BACKEND=ffi (make test-ffi, LuaJIT): `require "collideslide"` is the FFI
-- binding (spec/ffi/collideslide.lua); H.backend is "ffi" or "c".
H.backend = os.getenv("CS_BACKEND") == "ffi" and "ffi" or "c"
if H.backend == "ffi" and not package.path:find("./spec/ffi/?.lua", 1, true) then
  package.path = "./spec/ffi/?.lua;" .. package.path
end

--[[ }=================================================================
  Tolerances and comparisons
=================================================================== ]]

H.EXACT = 1e-12  -- results that are computed, not searched (vertices, normals)
H.TIGHT = 1e-9   -- a few floating-point operations away from exact
H.LOOSE = 1e-6   -- after an iterative or multi-step computation
H.API = 1e-4     -- API.md precision contract (times the displacement's length)

-- True when |a - b| <= tol (default H.TIGHT).
function H.near(a, b, tol)
  return math.abs(a - b) <= (tol or H.TIGHT)
end

-- True when the vectors (ax, ay, az) and (bx, by, bz) are within tol per axis.
function H.near3(ax, ay, az, bx, by, bz, tol)
  tol = tol or H.TIGHT
  return math.abs(ax - bx) <= tol and math.abs(ay - by) <= tol and math.abs(az - bz) <= tol
end

-- Length of (x, y, z); and the unit vector along it (zero stays zero).
function H.length(x, y, z) return sqrt(x * x + y * y + z * z) end
function H.normalize(x, y, z)
  local l = sqrt(x * x + y * y + z * z)
  if l == 0 then return 0, 0, 0 end
  return x / l, y / l, z / l
end

-- Unit normal of triangle a b c: normalize((b - a) x (c - a)) (API.md).
function H.normal(ax, ay, az, bx, by, bz, cx, cy, cz)
  local ux, uy, uz = bx - ax, by - ay, bz - az
  local vx, vy, vz = cx - ax, cy - ay, cz - az
  return H.normalize(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)
end

--[[ }=================================================================
  Random numbers, identical on Lua 5.1-5.4 and LuaJIT
  L'Ecuyer's combined LCG (CACM 31(6), 1988): every product stays below
  2^47, so doubles (5.1, LuaJIT) and integers (5.3+) give the same bits.
=================================================================== ]]

local M1, A1, M2, A2 = 2147483563, 40014, 2147483399, 40692

local Rng = {}
Rng.__index = Rng

-- Next integer in [1, 2147483562].
function Rng:next()
  self.s1 = (A1 * self.s1) % M1
  self.s2 = (A2 * self.s2) % M2
  local z = (self.s1 - self.s2) % (M1 - 1)
  if z == 0 then z = M1 - 1 end
  return z
end

-- Uniform float in (0, 1).
function Rng:float() return self:next() / M1 end

-- Uniform float in [lo, hi).
function Rng:range(lo, hi) return lo + (hi - lo) * self:float() end

-- Uniform integer in [lo, hi].
function Rng:int(lo, hi) return lo + floor(self:float() * (hi - lo + 1)) end

-- A uniformly distributed unit vector (x, y, z).
function Rng:unit()
  local z = self:range(-1, 1)
  local a = self:range(0, 2 * math.pi)
  local r = sqrt(1 - z * z)
  return r * cos(a), r * sin(a), z
end

-- A generator seeded with a positive integer (other seeds are errors).
function H.rng(seed)
  assert(type(seed) == "number" and seed >= 1 and seed == floor(seed) and seed < 2^53,
         "helper.rng: seed must be a positive integer")
  local s = seed + 0.0   -- keep the state a float on 5.3+, like 5.1
  local r = setmetatable({ seed = seed, s1 = s % (M1 - 1) + 1, s2 = s % (M2 - 1) + 1 }, Rng)
  for _ = 1, 8 do r:next() end  -- spread nearby seeds apart
  return r
end

-- The seed a random spec uses: $CS_SEED when set (to replay a failure), else
-- `default`. Prints it, as STYLE.md asks.
function H.seed(default, name)
  local s = tonumber(os.getenv("CS_SEED") or "") or default
  io.stdout:write(("\n[%s] seed = %d (CS_SEED=%d to replay)\n"):format(name or "random", s, s))
  return s
end

--[[ }=================================================================
  Scenes: { vertices = {x1, y1, z1, ...}, indices = {i1, i2, i3, ...} }
  Use as cs.newMesh(s.vertices, s.indices) or H.mesh(s). Every builder takes
  an options table; y is up; front faces point out of solids and up out of
  floors (normal = (b - a) x (c - a)).
=================================================================== ]]

local function new_scene() return { vertices = {}, indices = {} } end

-- Appends vertex (x, y, z) and returns its 1-based index.
local function vertex(s, x, y, z)
  local v = s.vertices
  v[#v + 1], v[#v + 2], v[#v + 3] = x, y, z
  return #v / 3
end

local function tri(s, a, b, c)
  local i = s.indices
  i[#i + 1], i[#i + 2], i[#i + 3] = a, b, c
end

-- Quad a b c d, counter-clockwise seen from the front, as a-b-c and a-c-d.
local function quad(s, a, b, c, d)
  tri(s, a, b, c); tri(s, a, c, d)
end

-- A closed box, front faces outward (12 triangles).
-- opts: min = {x, y, z} (default -1, -1, -1), max = {x, y, z} (default 1, 1, 1).
function H.box(opts)
  opts = opts or {}
  local lo, hi = opts.min or { -1, -1, -1 }, opts.max or { 1, 1, 1 }
  local s = new_scene()
  local c = {}
  for k = 0, 7 do  -- corner k: bit 0 picks x, bit 1 y, bit 2 z
    local x = (k % 2 == 1) and hi[1] or lo[1]
    local y = (floor(k / 2) % 2 == 1) and hi[2] or lo[2]
    local z = (floor(k / 4) % 2 == 1) and hi[3] or lo[3]
    c[k] = vertex(s, x, y, z)
  end
  quad(s, c[0], c[4], c[6], c[2]) -- -x
  quad(s, c[1], c[3], c[7], c[5]) -- +x
  quad(s, c[0], c[1], c[5], c[4]) -- -y
  quad(s, c[2], c[6], c[7], c[3]) -- +y
  quad(s, c[0], c[2], c[3], c[1]) -- -z
  quad(s, c[4], c[5], c[7], c[6]) -- +z
  return s
end

-- A horizontal square facing up, split into n x n cells of two triangles.
-- opts: size (10), n (1), y (0), x, z (0: the centre).
function H.floor(opts)
  opts = opts or {}
  local size, n, y = opts.size or 10, opts.n or 1, opts.y or 0
  local x0, z0 = (opts.x or 0) - size / 2, (opts.z or 0) - size / 2
  local s = new_scene()
  local id = {}
  for j = 0, n do
    for i = 0, n do
      id[j * (n + 1) + i] = vertex(s, x0 + size * i / n, y, z0 + size * j / n)
    end
  end
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      local a, b = id[j * (n + 1) + i], id[j * (n + 1) + i + 1]
      local c, d = id[(j + 1) * (n + 1) + i + 1], id[(j + 1) * (n + 1) + i]
      quad(s, a, d, c, b)  -- a -> +z -> +x: counter-clockwise from above
    end
  end
  return s
end

-- Stairs climbing along +x: for each step a riser (facing -x) then a tread
-- (facing +y). The first riser stands at x, its foot at y.
-- opts: steps (4), rise (0.25), run (0.3), width (2), x, y, z (0; z is the centre).
function H.staircase(opts)
  opts = opts or {}
  local steps, rise, run, w = opts.steps or 4, opts.rise or 0.25, opts.run or 0.3, opts.width or 2
  local x0, y0, z0 = opts.x or 0, opts.y or 0, opts.z or 0
  local zl, zr = z0 - w / 2, z0 + w / 2
  local s = new_scene()
  for k = 0, steps - 1 do
    local x, yb, yt = x0 + k * run, y0 + k * rise, y0 + (k + 1) * rise
    quad(s, vertex(s, x, yb, zl), vertex(s, x, yb, zr), vertex(s, x, yt, zr), vertex(s, x, yt, zl))
    quad(s, vertex(s, x, yt, zl), vertex(s, x, yt, zr), vertex(s, x + run, yt, zr), vertex(s, x + run, yt, zl))
  end
  return s
end

-- A plane rising along +x at `angle` degrees, facing up and toward -x:
-- normal (-sin angle, cos angle, 0). Its low edge is the line x, y.
-- opts: angle (30), length (5, horizontal), width (2), x, y, z (0; z the centre).
function H.ramp(opts)
  opts = opts or {}
  local a, len, w = rad(opts.angle or 30), opts.length or 5, opts.width or 2
  local x0, y0, z0 = opts.x or 0, opts.y or 0, opts.z or 0
  local x1, y1 = x0 + len, y0 + len * math.tan(a)
  local s = new_scene()
  quad(s, vertex(s, x0, y0, z0 - w / 2), vertex(s, x0, y0, z0 + w / 2),
          vertex(s, x1, y1, z0 + w / 2), vertex(s, x1, y1, z0 - w / 2))
  return s
end

-- A V-shaped crease along z: two planes meeting on the line x, y and rising
-- to both sides at `angle` degrees, both facing up into the V.
-- opts: angle (45), length (3, horizontal, per side), width (4), x, y, z (0).
function H.crease(opts)
  opts = opts or {}
  local a, len, w = rad(opts.angle or 45), opts.length or 3, opts.width or 4
  local x0, y0, z0 = opts.x or 0, opts.y or 0, opts.z or 0
  local h = len * math.tan(a)
  local zl, zr = z0 - w / 2, z0 + w / 2
  local s = new_scene()
  local bl, br = vertex(s, x0, y0, zl), vertex(s, x0, y0, zr)
  quad(s, bl, br, vertex(s, x0 + len, y0 + h, zr), vertex(s, x0 + len, y0 + h, zl)) -- right side
  quad(s, br, bl, vertex(s, x0 - len, y0 + h, zl), vertex(s, x0 - len, y0 + h, zr)) -- left side
  return s
end

-- n random triangles around [-half, half]^3 (sides 0.3 to 3), drawn from
-- rng (H.rng): each a centre and three corners 0.3 to 1.5 from it.
function H.soup(rng, n, half)
  local s = new_scene()
  for _ = 1, n do
    local cx, cy, cz = rng:range(-half, half), rng:range(-half, half), rng:range(-half, half)
    for _ = 1, 3 do
      local ux, uy, uz = rng:unit()
      local l = rng:range(0.3, 1.5)
      s.indices[#s.indices + 1] = vertex(s, cx + ux * l, cy + uy * l, cz + uz * l)
    end
  end
  return s
end

-- One scene holding all the given scenes (indices renumbered).
function H.merge(...)
  local out = new_scene()
  for k = 1, select("#", ...) do
    local s = select(k, ...)
    local base = #out.vertices / 3
    for _, x in ipairs(s.vertices) do out.vertices[#out.vertices + 1] = x end
    for _, i in ipairs(s.indices) do out.indices[#out.indices + 1] = base + i end
  end
  return out
end

-- A copy of scene s with each triangle's vertex order rotated k times
-- (a b c -> b c a for k = 1): the same triangles, as STYLE.md asks specs to
-- repeat them.
function H.rotate_corners(s, k)
  local out = { vertices = s.vertices, indices = {} }
  for t = 0, #s.indices / 3 - 1 do
    for j = 0, 2 do
      out.indices[3 * t + j + 1] = s.indices[3 * t + (j + k) % 3 + 1]
    end
  end
  return out
end

-- The triangles of scene s in world space: { {ax, ay, az, bx, by, bz, cx, cy, cz}, ... },
-- after an optional body transform as body:setTransform takes it
-- (tx, ty, tz [, qx, qy, qz, qw [, sx, sy, sz]]): T + R(q) * (S * p).
function H.triangles(s, ...)
  local v, out = s.vertices, {}
  local place = select("#", ...) > 0 and H.transformer(...) or nil
  for t = 0, #s.indices / 3 - 1 do
    local tr = {}
    for j = 0, 2 do
      local i = s.indices[3 * t + j + 1]
      local x, y, z = v[3 * i - 2], v[3 * i - 1], v[3 * i]
      if place then x, y, z = place(x, y, z) end
      tr[3 * j + 1], tr[3 * j + 2], tr[3 * j + 3] = x, y, z
    end
    out[t + 1] = tr
  end
  return out
end

-- Rotates (x, y, z) by the unit quaternion (qx, qy, qz, qw).
function H.rotate(qx, qy, qz, qw, x, y, z)
  -- v + 2w (q x v) + 2 q x (q x v)
  local tx = 2 * (qy * z - qz * y)
  local ty = 2 * (qz * x - qx * z)
  local tz = 2 * (qx * y - qy * x)
  return x + qw * tx + (qy * tz - qz * ty),
         y + qw * ty + (qz * tx - qx * tz),
         z + qw * tz + (qx * ty - qy * tx)
end

-- A function p -> T + R(q) * (S * p) for setTransform-style arguments.
function H.transformer(tx, ty, tz, qx, qy, qz, qw, sx, sy, sz)
  qx, qy, qz, qw = qx or 0, qy or 0, qz or 0, qw or 1
  sx, sy, sz = sx or 1, sy or 1, sz or 1
  return function(x, y, z)
    x, y, z = H.rotate(qx, qy, qz, qw, sx * x, sy * y, sz * z)
    return tx + x, ty + y, tz + z
  end
end

-- A function p -> the point placed by a body's or sensor's getTransform
-- (the 16 numbers of a column-major 4x4 matrix).
function H.placer(obj)
  local M = { obj:getTransform() }
  return function(x, y, z)
    return M[1] * x + M[5] * y + M[9] * z + M[13], M[2] * x + M[6] * y + M[10] * z + M[14],
           M[3] * x + M[7] * y + M[11] * z + M[15]
  end
end

-- cs.newMesh for scene s (requires the module lazily).
function H.mesh(s, options)
  return require("collideslide").newMesh(s.vertices, s.indices, options)
end

-- A world holding one body per scene given; returns world, then the bodies.
function H.world(...)
  local cs = require("collideslide")
  local world, bodies = cs.newWorld(), {}
  for k = 1, select("#", ...) do
    bodies[k] = world:add(H.mesh((select(k, ...))))
  end
  return world, (table.unpack or unpack)(bodies)
end

--[[ }=================================================================
  Invariant: distance in ellipsoid space
  An ellipsoid with centre c, radii r and orientation q maps a world point p
  to p_es = diag(1/r) * R(q)^-1 * (p - c); it overlaps no triangle exactly
  when every mapped triangle is at distance >= 1 from the origin.
=================================================================== ]]

-- Closest point to the origin on triangle a b c (Ericson, Real-Time
-- Collision Detection, 5.1.5, with p = 0); returns x, y, z.
local function closest_on_triangle(ax, ay, az, bx, by, bz, cx, cy, cz)
  local abx, aby, abz = bx - ax, by - ay, bz - az
  local acx, acy, acz = cx - ax, cy - ay, cz - az
  local d1 = -(abx * ax + aby * ay + abz * az)  -- ab . (p - a)
  local d2 = -(acx * ax + acy * ay + acz * az)
  if d1 <= 0 and d2 <= 0 then return ax, ay, az end          -- vertex a
  local d3 = -(abx * bx + aby * by + abz * bz)
  local d4 = -(acx * bx + acy * by + acz * bz)
  if d3 >= 0 and d4 <= d3 then return bx, by, bz end         -- vertex b
  local vc = d1 * d4 - d3 * d2
  if vc <= 0 and d1 >= 0 and d3 <= 0 then                    -- edge ab
    local v = d1 / (d1 - d3)
    return ax + v * abx, ay + v * aby, az + v * abz
  end
  local d5 = -(abx * cx + aby * cy + abz * cz)
  local d6 = -(acx * cx + acy * cy + acz * cz)
  if d6 >= 0 and d5 <= d6 then return cx, cy, cz end         -- vertex c
  local vb = d5 * d2 - d1 * d6
  if vb <= 0 and d2 >= 0 and d6 <= 0 then                    -- edge ac
    local w = d2 / (d2 - d6)
    return ax + w * acx, ay + w * acy, az + w * acz
  end
  local va = d3 * d6 - d5 * d4
  if va <= 0 and (d4 - d3) >= 0 and (d5 - d6) >= 0 then      -- edge bc
    local w = (d4 - d3) / ((d4 - d3) + (d5 - d6))
    return bx + w * (cx - bx), by + w * (cy - by), bz + w * (cz - bz)
  end
  local denom = 1 / (va + vb + vc)                           -- inside the face
  local v, w = vb * denom, vc * denom
  return ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w
end
H.closest_on_triangle = closest_on_triangle

-- Distance from point (px, py, pz) to triangle tri = {ax, ay, az, bx, ..., cz},
-- and the closest point on it.
function H.point_triangle_distance(px, py, pz, t)
  local x, y, z = closest_on_triangle(t[1] - px, t[2] - py, t[3] - pz, t[4] - px,
                                      t[5] - py, t[6] - pz, t[7] - px, t[8] - py, t[9] - pz)
  return sqrt(x * x + y * y + z * z), x + px, y + py, z + pz
end

-- Minimum over world-space triangles `tris` (as H.triangles gives) of the
-- distance from the origin to the triangle mapped into the space of the
-- ellipsoid at (px, py, pz) with radii (rx, ry, rz) and optional unit
-- orientation (qx, qy, qz, qw). Returns the distance (1 = touching, < 1 =
-- penetrating), the 1-based index of the nearest triangle, and the closest
-- point in ellipsoid space; math.huge and nil when tris is empty.
function H.min_distance_es(tris, px, py, pz, rx, ry, rz, qx, qy, qz, qw)
  local ix, iy, iz, iw = -(qx or 0), -(qy or 0), -(qz or 0), qw or 1  -- inverse rotation
  local best, bi, bx, by, bz = math.huge, nil, nil, nil, nil
  local m = {}
  for k = 1, #tris do
    local t = tris[k]
    for j = 0, 6, 3 do
      local x, y, z = H.rotate(ix, iy, iz, iw, t[j + 1] - px, t[j + 2] - py, t[j + 3] - pz)
      m[j + 1], m[j + 2], m[j + 3] = x / rx, y / ry, z / rz
    end
    local x, y, z = closest_on_triangle(m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9])
    local d = sqrt(x * x + y * y + z * z)
    if d < best then best, bi, bx, by, bz = d, k, x, y, z end
  end
  return best, bi, bx, by, bz
end

-- H.min_distance_es for a mover's current position, radii and (if the
-- binding has mover:getOrientation) orientation.
function H.mover_distance_es(tris, mover)
  local px, py, pz = mover:getPosition()
  local rx, ry, rz = mover:getRadius()
  local has = pcall(function() assert(mover.getOrientation) end) -- unknown fields may raise
  if has then
    return H.min_distance_es(tris, px, py, pz, rx, ry, rz, mover:getOrientation())
  end
  return H.min_distance_es(tris, px, py, pz, rx, ry, rz)
end

-- }=================================================================

return H
