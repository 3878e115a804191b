-- Worlds that move: bodies placed by setTransform in every form API.md
-- lists (a body point p lands at T + R(q) * (S * p)), instancing, bodies
-- that turn every frame (a door), removal, enabling, layers, user data,
-- vertex edits, and oriented movers. Where an answer is not worked out by
-- hand it is compared with the same triangles baked into world space, or
-- with the whole scene turned the other way. Seeds are fixed and printed;
-- CS_SEED replays one.
local cs = require "collideslide"
local H = require "helper"

local TOL_T = 1e-9        -- a sweep's t, relative to the displacement (t is a fraction of it)
local TOL_P = 1e-7        -- contact points and normals
local ON_TRI = 1e-7       -- a point this close to a triangle lies on it (ties at shared edges)
local unpack = table.unpack or unpack

local function mover(r, x, y, z)
  local radius = type(r) == "table" and r or { r, r, r }
  return cs.newMover { radius = radius, position = { x, y, z } }
end

-- A mesh whose triangles are world-space triangles `tris` (as H.triangles
-- gives), in the same order: triangle k of the mesh is tris[k]. flip swaps
-- each triangle's b and c (the other face in front).
local function baked(tris, options, flip)
  local v = {}
  for _, t in ipairs(tris) do
    local a, b, c = { t[1], t[2], t[3] }, { t[4], t[5], t[6] }, { t[7], t[8], t[9] }
    if flip then b, c = c, b end
    for _, p in ipairs { a, b, c } do v[#v + 1], v[#v + 2], v[#v + 3] = p[1], p[2], p[3] end
  end
  return cs.newMesh(v, nil, options)
end

-- A soup of n random triangles (sides 0.3 to 3) around [-half, half]^3,
-- merged with a small box and a tessellated floor, so that there are
-- shared edges and vertices as well as lone triangles.
local function random_scene(rng, n, half)
  return H.merge(H.soup(rng, n, half), H.box { min = { -1, -1, -1 }, max = { 0.5, 1, 1.5 } },
                 H.floor { size = 2 * half, n = 3, y = -half })
end

-- A random unit quaternion.
local function random_quat(rng)
  local x, y, z, w = rng:range(-1, 1), rng:range(-1, 1), rng:range(-1, 1), rng:range(-1, 1)
  local l = math.sqrt(x * x + y * y + z * z + w * w)
  return x / l, y / l, z / l, w / l
end

-- The 16 numbers (column-major, translation in 13-15) of T + R(q) * S.
local function trs_matrix(tx, ty, tz, qx, qy, qz, qw, sx, sy, sz)
  local m = {}
  local s = { sx, sy, sz }
  for j = 1, 3 do
    local e = { 0, 0, 0 }
    e[j] = s[j]
    local x, y, z = H.rotate(qx, qy, qz, qw, e[1], e[2], e[3])
    m[4 * j - 3], m[4 * j - 2], m[4 * j - 1], m[4 * j] = x, y, z, 0
  end
  m[13], m[14], m[15], m[16] = tx, ty, tz, 1
  return m
end

-- p -> M p for a column-major 4x4 matrix (a table of 16).
local function matrix_transformer(m)
  return function(x, y, z)
    return m[1] * x + m[5] * y + m[9] * z + m[13],
           m[2] * x + m[6] * y + m[10] * z + m[14],
           m[3] * x + m[7] * y + m[11] * z + m[15]
  end
end

-- The triangles of scene s placed by `place` (a p -> world point function).
local function placed_triangles(s, place)
  local out = H.triangles(s)
  for _, t in ipairs(out) do
    for j = 0, 6, 3 do t[j + 1], t[j + 2], t[j + 3] = place(t[j + 1], t[j + 2], t[j + 3]) end
  end
  return out
end

-- A sweep's returns as a table (nil for a miss).
local function sweep_of(w, m, dx, dy, dz)
  local t, px, py, pz, nx, ny, nz, tri, body = w:sweep(m, dx, dy, dz)
  if t == nil then return nil end
  return { t = t, p = { px, py, pz }, n = { nx, ny, nz }, tri = tri, body = body }
end

-- nil when hits a and b agree (t within TOL_T, point and normal within
-- TOL_P, the same triangle unless both lie on the contact point: a tie at
-- a shared edge or vertex), else what differs. tris: the world triangles
-- by index, to settle ties.
local function sweep_difference(a, b, tris)
  if a == nil or b == nil then
    if a == nil and b == nil then return nil end
    return ("one hit, one miss: %s vs %s"):format(a and ("t = " .. a.t) or "nil", b and ("t = " .. b.t) or "nil")
  end
  if math.abs(a.t - b.t) > TOL_T then return ("t: %.17g vs %.17g"):format(a.t, b.t) end
  if a.t == 0 then return nil end   -- an overlap at the start: any overlapped triangle
  if not H.near3(a.p[1], a.p[2], a.p[3], b.p[1], b.p[2], b.p[3], TOL_P) then
    return ("point: %.12g %.12g %.12g vs %.12g %.12g %.12g"):format(a.p[1], a.p[2], a.p[3], unpack(b.p))
  end
  if not H.near3(a.n[1], a.n[2], a.n[3], b.n[1], b.n[2], b.n[3], TOL_P) then
    return ("normal: %.12g %.12g %.12g vs %.12g %.12g %.12g"):format(a.n[1], a.n[2], a.n[3], unpack(b.n))
  end
  if a.tri ~= b.tri then
    local da = H.point_triangle_distance(a.p[1], a.p[2], a.p[3], tris[b.tri])
    local db = H.point_triangle_distance(b.p[1], b.p[2], b.p[3], tris[a.tri])
    if da > ON_TRI or db > ON_TRI then return ("triangle: %d vs %d"):format(a.tri, b.tri) end
  end
  return nil
end

-- A random mover that does not overlap tris and a displacement aimed near
-- the middle of the scene (most sweeps hit something, some miss).
local function random_sweep(rng, tris, half)
  while true do
    local r = { rng:range(0.15, 1), rng:range(0.15, 1), rng:range(0.15, 1) }
    local p = { rng:range(-2 * half, 2 * half), rng:range(-2 * half, 2 * half), rng:range(-2 * half, 2 * half) }
    if H.min_distance_es(tris, p[1], p[2], p[3], r[1], r[2], r[3]) > 1 + 1e-6 then
      local gx, gy, gz = rng:range(-half, half), rng:range(-half, half), rng:range(-half, half)
      local k = rng:range(0.3, 1.5)
      return r, p, { (gx - p[1]) * k, (gy - p[2]) * k, (gz - p[3]) * k }
    end
  end
end

describe("World", function()
  --[[ {=================================================================
    body:setTransform in every form
  =================================================================== ]]
  describe("body:setTransform", function()
    -- A box that does not sit on its own origin, so that rotation and scale
    -- about the origin show.
    local BOX = H.box { min = { 0.5, -0.5, -0.25 }, max = { 2, 0.5, 0.75 } }

    -- For every triangle k of the placed box (world triangles `tris`): a ray
    -- and a sphere of radius 0.25 come straight down its normal onto its
    -- centroid g from 2 away. The box is convex, so both meet that very
    -- triangle first, at g:
    --
    --        o   g + 2n
    --        |   ray t = 0.5, sphere t = (2 - 0.25) / 4
    --   =====g=====  triangle k
    local function assert_placed(w, body, tris)
      for k, t in ipairs(tris) do
        local gx, gy, gz = (t[1] + t[4] + t[7]) / 3, (t[2] + t[5] + t[8]) / 3, (t[3] + t[6] + t[9]) / 3
        local nx, ny, nz = H.normal(unpack(t))
        local ox, oy, oz = gx + 2 * nx, gy + 2 * ny, gz + 2 * nz
        local rt, px, py, pz, rnx, rny, rnz, rtri, rb = w:raycast(ox, oy, oz, -4 * nx, -4 * ny, -4 * nz)
        assert.is_number(rt, "ray missed triangle " .. k)
        assert.is_true(H.near(rt, 0.5, H.TIGHT), ("triangle %d: ray t = %.15g"):format(k, rt))
        assert.is_true(H.near3(px, py, pz, gx, gy, gz, TOL_P), ("triangle %d: ray point"):format(k))
        assert.is_true(H.near3(rnx, rny, rnz, nx, ny, nz, TOL_P), ("triangle %d: ray normal"):format(k))
        assert.are.equal(k, rtri)
        assert.are.equal(body, rb)
        local h = sweep_of(w, mover(0.25, ox, oy, oz), -4 * nx, -4 * ny, -4 * nz)
        assert.is_truthy(h, "sweep missed triangle " .. k)
        assert.is_true(H.near(h.t, 1.75 / 4, H.TIGHT), ("triangle %d: sweep t = %.15g"):format(k, h.t))
        assert.is_true(H.near3(h.p[1], h.p[2], h.p[3], gx, gy, gz, TOL_P), ("triangle %d: sweep point"):format(k))
        assert.is_true(H.near3(h.n[1], h.n[2], h.n[3], nx, ny, nz, TOL_P), ("triangle %d: sweep normal"):format(k))
        assert.are.equal(k, h.tri)
        assert.are.equal(body, h.body)
      end
    end

    local Q = { H.normalize(0.2, -0.6, 0.3) }
    local ANGLE = math.rad(70)
    local QX, QY, QZ, QW = Q[1] * math.sin(ANGLE / 2), Q[2] * math.sin(ANGLE / 2),
                           Q[3] * math.sin(ANGLE / 2), math.cos(ANGLE / 2)
    local FORMS = {
      { "a translation (3 numbers)", { 3, -2, 7 } },
      { "a translation and a rotation (7 numbers)", { 3, -2, 7, QX, QY, QZ, QW } },
      { "translation, rotation and uniform scale (10 numbers)", { 3, -2, 7, QX, QY, QZ, QW, 1.7, 1.7, 1.7 } },
      { "translation, rotation and non-uniform scale (10 numbers)", { 3, -2, 7, QX, QY, QZ, QW, 2.5, 0.4, 1.3 } },
    }
    for _, form in ipairs(FORMS) do
      local name, args = form[1], form[2]
      it("places a body by " .. name .. " where H.transformer says", function()
        local w = cs.newWorld()
        local body = w:add(H.mesh(BOX))
        body:setTransform(unpack(args))
        assert_placed(w, body, H.triangles(BOX, unpack(args)))
        -- world:add takes the same forms
        local w2 = cs.newWorld()
        local body2 = w2:add(H.mesh(BOX), unpack(args))
        assert_placed(w2, body2, H.triangles(BOX, unpack(args)))
      end)
    end

    it("takes a quaternion that is not normalised (it is normalised)", function()
      local w = cs.newWorld()
      local body = w:add(H.mesh(BOX))
      body:setTransform(3, -2, 7, 3 * QX, 3 * QY, 3 * QZ, 3 * QW, 2.5, 0.4, 1.3)
      assert_placed(w, body, H.triangles(BOX, 3, -2, 7, QX, QY, QZ, QW, 2.5, 0.4, 1.3))
    end)

    it("places a body by 16 numbers and by a table of 16 (column-major, translation in 13-15)", function()
      local args = { 3, -2, 7, QX, QY, QZ, QW, 2.5, 0.4, 1.3 }
      local m = trs_matrix(unpack(args))
      local want = H.triangles(BOX, unpack(args))
      local w = cs.newWorld()
      local body = w:add(H.mesh(BOX))
      body:setTransform(unpack(m))
      assert_placed(w, body, want)
      body:setTransform(1, 1, 1)                   -- somewhere else in between
      body:setTransform(m)
      assert_placed(w, body, want)
      local w2 = cs.newWorld()
      assert_placed(w2, w2:add(H.mesh(BOX), m), want)
      local w3 = cs.newWorld()
      assert_placed(w3, w3:add(H.mesh(BOX), unpack(m)), want)
    end)

    --   a matrix that no (T, q, S) gives: a shear, x += 0.5 y, then turned
    it("places a body by a sheared matrix", function()
      local m = { 1, 0.2, 0, 0,  0.5, 1, 0.3, 0,  0, -0.4, 1.5, 0,  -4, 1, 2, 1 }
      local w = cs.newWorld()
      local body = w:add(H.mesh(BOX), m)
      assert_placed(w, body, placed_triangles(BOX, matrix_transformer(m)))
    end)

    it("reports the transform back as the matrix of T + R(q) * S", function()
      local args = { 3, -2, 7, QX, QY, QZ, QW, 2.5, 0.4, 1.3 }
      local w = cs.newWorld()
      local body = w:add(H.mesh(BOX))
      body:setTransform(unpack(args))
      local got, want = { body:getTransform() }, trs_matrix(unpack(args))
      assert.are.equal(16, #got)
      for i = 1, 16 do
        assert.is_true(H.near(got[i], want[i], H.TIGHT), ("element %d: %.15g, want %.15g"):format(i, got[i], want[i]))
      end
    end)

    --   a body moved and turned every frame: each frame's raycasts and
    --   sweeps see it where that frame put it, and nowhere else
    it("follows a transform that changes every frame", function()
      local w = cs.newWorld()
      local body = w:add(H.mesh(BOX))
      for f = 1, 120 do
        local a = f * 0.05
        local args = { 10 * math.cos(a), math.sin(3 * a), 10 * math.sin(a),
                       0, math.sin(a / 2), 0, math.cos(a / 2), 1 + 0.5 * math.sin(a), 1, 1 }
        body:setTransform(unpack(args))
        local tris = H.triangles(BOX, unpack(args))
        if f % 10 == 0 then
          assert_placed(w, body, tris)
        else
          -- one triangle a frame, straight down its normal
          local k = f % #tris + 1
          local t = tris[k]
          local gx, gy, gz = (t[1] + t[4] + t[7]) / 3, (t[2] + t[5] + t[8]) / 3, (t[3] + t[6] + t[9]) / 3
          local nx, ny, nz = H.normal(unpack(t))
          local rt, _, _, _, _, _, _, rtri = w:raycast(gx + nx, gy + ny, gz + nz, -2 * nx, -2 * ny, -2 * nz)
          assert.is_true(rt ~= nil and H.near(rt, 0.5, H.TIGHT) and rtri == k, "frame " .. f)
        end
        -- where the body was 10 frames ago (a quarter radian away) is empty
        local ox, oz = 10 * math.cos(a - 0.5), 10 * math.sin(a - 0.5)
        assert.is_nil(w:raycast(ox, 5, oz, 0, -10, 0), "frame " .. f .. ": a stale body")
      end
    end)
  end)

  --[[ }=================================================================
    Non-uniform scale and rotation against baked triangles
  =================================================================== ]]
  describe("a body with rotation and non-uniform scale", function()
    --   one mesh placed by (T, q, S) in world A, its triangles mapped by
    --   H.transformer and baked into a mesh at the identity in world B:
    --   the same sweeps must give the same answers in both
    local HALF = 3
    local CASES = math.floor(1000 * H.scale)

    local function compare(name, seed_default, args, backfaces, flip)
      local seed = H.seed(seed_default, name)
      local rng = H.rng(seed)
      local s = random_scene(rng, 40, HALF)
      local tris = H.triangles(s, unpack(args))
      local wa, wb = cs.newWorld(), cs.newWorld()
      local body = wa:add(H.mesh(s, { backfaces = backfaces }))
      body:setTransform(unpack(args))
      wb:add(baked(tris, { backfaces = backfaces }, flip))
      local hits = 0
      for i = 1, CASES do
        local r, p, d = random_sweep(rng, tris, HALF * 1.5)
        local m = mover(r, p[1], p[2], p[3])
        local a = sweep_of(wa, m, d[1], d[2], d[3])
        local b = sweep_of(wb, m, d[1], d[2], d[3])
        local diff = sweep_difference(a, b, tris)
        assert(diff == nil, ("case %d (seed %d): %s"):format(i, seed, diff or ""))
        if a then
          hits = hits + 1
          assert.are.equal(body, a.body)
        end
      end
      -- the comparison means something only if many sweeps hit
      assert.is_true(hits > CASES / 4, "only " .. hits .. " hits")
    end

    it("gives the same sweeps as its triangles baked into world space (1000 random sweeps)", function()
      local l = math.sqrt(0.3 ^ 2 + 0.5 ^ 2 + 0.2 ^ 2 + 0.8 ^ 2)
      compare("scaled body vs baked", 4242, { 0.5, -1, 2, 0.3 / l, -0.5 / l, 0.2 / l, 0.8 / l, 2, 0.5, 1.3 })
    end)

    it("gives the same sweeps with one-sided triangles", function()
      compare("scaled one-sided body vs baked", 4343, { -1, 0.5, 0, 0, 0.6, 0, 0.8, 0.7, 1.8, 1.1 }, "ignore")
    end)

    --[[ }=================================================================
      Mirrored bodies (negative scale)
    =================================================================== ]]
    describe("mirrored by a negative scale", function()
      -- A mirror flips each triangle's winding; the body keeps its outside
      -- outside: a mirrored closed box is still solid from outside, and a
      -- one-sided one is met from outside and crossed from inside. So the
      -- baked equivalent of a mirrored one-sided mesh has b and c swapped.
      it("gives the same sweeps as its triangles baked into world space (two-sided)", function()
        compare("mirrored body vs baked", 4444, { 1, 0, -1, 0, 0.6, 0, 0.8, -1.5, 1, 0.7 })
      end)

      it("gives the same sweeps as a point reflection baked into world space (two-sided)", function()
        compare("point-reflected body vs baked", 4545, { 0, 1, 0, 0, 0, 0, 1, -1, -1, -1 })
      end)

      it("gives the same sweeps as its triangles baked with the winding swapped (one-sided)", function()
        compare("mirrored one-sided body vs baked", 4646, { 1, 0, -1, 0, 0.6, 0, 0.8, -1.5, 1, 0.7 }, "ignore", true)
      end)

      --   a one-sided box mirrored in x, at x = 10:
      --
      --     o -->  |#####|  --> o     hit from outside (both ways)
      --            |  o -|->          crossed from inside
      it("keeps a one-sided box's outside facing out", function()
        local box = H.box { min = { -1, -1, -1 }, max = { 1, 1, 1 } }
        local w = cs.newWorld()
        local body = w:add(H.mesh(box, { backfaces = "ignore" }), 10, 0, 0, 0, 0, 0, 1, -1, 1, 1)
        local h = sweep_of(w, mover(0.5, 5, 0, 0), 10, 0, 0)
        assert.is_truthy(h, "the -x side was crossed from outside")
        assert.is_true(H.near(h.t, 3.5 / 10, TOL_T) and H.near3(h.n[1], h.n[2], h.n[3], -1, 0, 0, TOL_P))
        h = sweep_of(w, mover(0.5, 15, 0, 0), -10, 0, 0)
        assert.is_truthy(h, "the +x side was crossed from outside")
        assert.is_true(H.near(h.t, 3.5 / 10, TOL_T) and H.near3(h.n[1], h.n[2], h.n[3], 1, 0, 0, TOL_P))
        assert.is_nil(w:sweep(mover(0.2, 10, 0, 0), 5, 0, 0), "a one-sided box stopped a mover inside it")
        assert.is_nil(w:sweep(mover(0.2, 10, 0, 0), 0, -5, 0))
        -- raycasts: the face of the mirrored box toward the ray, from outside only
        local t, _, _, _, nx = w:raycast(5, 0.1, 0.2, 10, 0, 0)
        assert.is_true(t ~= nil and H.near(t, 0.4, H.TIGHT) and H.near(nx, -1, H.TIGHT))
        assert.is_nil(w:raycast(10, 0.1, 0.2, 5, 0, 0))
        assert.are.equal(body, select(9, w:raycast(15, 0.1, 0.2, -10, 0, 0)))
      end)
    end)
  end)

  --[[ }=================================================================
    Instancing
  =================================================================== ]]
  describe("instancing", function()
    --   one box mesh added three times
    --
    --      [A]          [B]~turned      [C] scaled, raised
    --     x = -5        x = 0           x = 5
    it("collides each instance at its own place", function()
      local box = H.box { min = { -1, -1, -1 }, max = { 1, 1, 1 } }
      local mesh = H.mesh(box)
      local w = cs.newWorld()
      local s45 = math.sin(math.rad(45) / 2)
      local places = {
        { -5, 0, 0 },
        { 0, 0, 0, 0, s45, 0, math.cos(math.rad(45) / 2) },   -- turned 45 degrees about y
        { 5, 2, 0, 0, 0, 0, 1, 1, 0.5, 1 },                   -- squashed to half height, raised 2
      }
      local bodies = {}
      for i, args in ipairs(places) do bodies[i] = w:add(mesh, unpack(args)) end
      assert.are.equal(3, w:bodyCount())
      -- the tops: y = 1, 1, 2.5
      for i, top in ipairs { 1, 1, 2.5 } do
        local x = places[i][1]
        local t, _, py, _, _, _, _, _, b = w:raycast(x + 0.3, 10, 0.2, 0, -20, 0)
        assert.are.equal(bodies[i], b)
        assert.is_true(H.near(py, top, H.TIGHT), ("instance %d: top at %g"):format(i, py))
        assert.is_true(H.near(t, (10 - top) / 20, H.TIGHT))
        local h = sweep_of(w, mover(0.5, x + 0.3, 10, 0.2), 0, -20, 0)
        assert.are.equal(bodies[i], h.body)
        assert.is_true(H.near(h.t, (10 - top - 0.5) / 20, TOL_T))
      end
      -- the turned one: its corner points along +x, at x = sqrt 2
      local t = w:raycast(3, 0, 0, -10, 0, 0)
      assert.is_true(H.near(t, (3 - math.sqrt(2)) / 10, H.TIGHT), "t = " .. t)
      -- between the instances there is nothing
      assert.is_nil(w:raycast(-2.5, 10, 0, 0, -20, 0))
      assert.is_nil(w:raycast(2.7, 10, 0, 0, -20, 0))
      assert.is_nil(w:raycast(5, 1.3, -5, 0, 0, 10))   -- under C's raised bottom (y = 1.5)
    end)

    it("shares the mesh: mesh:memory() does not change as bodies are added", function()
      local mesh = H.mesh(H.floor { size = 10, n = 20 })
      local before = mesh:memory()
      local w = cs.newWorld()
      for i = 1, 1000 do w:add(mesh, i * 20, 0, 0) end
      assert.are.equal(before, mesh:memory())
      assert.are.equal(1000, w:bodyCount())
    end)

    --   1000 instances of a 10k-triangle mesh cost no more than the mesh
    --   plus a small fixed size per body. The core allocates through the
    --   interpreter's allocator but outside the collector's count, so the
    --   resident memory of a fresh interpreter is measured (Linux:
    --   /proc/self/statm), where freed memory from other specs cannot hide
    --   the bodies. Copies of the mesh would cost ~0.5 MB per body.
    it("costs a small fixed size per body: 1000 instances of a 10k-triangle mesh", function()
      local probe = io.open("/proc/self/statm")
      if not probe then
        io.stdout:write("\n[instancing] no /proc/self/statm here: not measured\n")
        return
      end
      probe:close()
      local script = os.tmpname()
      local f = assert(io.open(script, "w"))
      f:write(("package.path = %q; package.cpath = %q\n"):format(package.path, package.cpath), [[
        local cs, H = require "collideslide", require "helper"
        local function rss()
          collectgarbage(); collectgarbage()
          local f = io.open("/proc/self/statm")
          local _, res = f:read("*n", "*n")
          f:close()
          return res * 4096
        end
        local scene = H.floor { size = 100, n = 71 }      -- 2 * 71^2 = 10082 triangles
        local mesh = H.mesh(scene)
        local w = cs.newWorld()
        local bodies = { w:add(mesh) }
        w:raycast(0, 1, 0, 0, -2, 0)
        local n = 1000
        local before = rss()
        for i = 1, n do bodies[#bodies + 1] = w:add(mesh, (i % 40) * 120, 0, math.floor(i / 40) * 120) end
        w:raycast(0, 1, 0, 0, -2, 0)                      -- the world's tree over bodies is built
        io.write(mesh:triangleCount(), " ", mesh:memory(), " ", (rss() - before) / n, " ", w:bodyCount(), "\n")
      ]])
      f:close()
      local interp = H.LUA == "luajit" and "luajit" or H.LUA
      local p = assert(io.popen(interp .. " " .. script))
      local out = p:read("*a")
      p:close()
      os.remove(script)
      local ntris, mem, per_body, count = out:match("^(%d+) (%d+) (%S+) (%d+)")
      assert.is_truthy(ntris, "the measuring interpreter printed: " .. out)
      ntris, mem, per_body = tonumber(ntris), tonumber(mem), tonumber(per_body)
      io.stdout:write(("\n[instancing] mesh of %d triangles: %d bytes; about %.0f bytes per body (resident)\n")
        :format(ntris, mem, per_body))
      assert.is_true(ntris >= 10000)
      assert.are.equal("1001", count)
      assert.is_true(per_body < 2048, ("%.0f bytes per body (the mesh is %d bytes)"):format(per_body, mem))
    end)
  end)

  --[[ }=================================================================
    A rotating door
  =================================================================== ]]
  describe("a rotating door", function()
    --   seen from above; the door is a box hinged at x = 0 (its body's
    --   origin), turned about y by setTransform alone, 90 degrees over 60
    --   frames, away from the mover:
    --
    --   z                          open:   |
    --   ^  ######|==========|######        |<- door along +z
    --   |  wall  0   door   2  wall   ######|          |######
    --   |               o  mover at x = 1, walking +z
    --   +--> x
    local WALL_L = H.box { min = { -6, 0, -0.1 }, max = { 0, 3, 0.1 } }
    local WALL_R = H.box { min = { 2, 0, -0.1 }, max = { 8, 3, 0.1 } }
    local DOOR = H.box { min = { 0.02, 0, -0.05 }, max = { 1.98, 2.5, 0.05 } }
    local R = 0.4

    local function door_args(deg)   -- about -y: x -> +z
      local a = math.rad(deg)
      return { 0, 0, 0, 0, math.sin(-a / 2), 0, math.cos(-a / 2) }
    end

    it("blocks a mover when closed and lets it through when open", function()
      local w = H.world(WALL_L, WALL_R)
      local door = w:add(H.mesh(DOOR))
      local m = mover(R, 1, 1.2, -3)
      local function step(dz, deg)
        local x, y, z = w:collideAndSlide(m, 0, 0, dz)
        local d = H.mover_distance_es(H.triangles(DOOR, unpack(door_args(deg))), m)
        assert(d >= 1 - 1e-9, ("inside the door at %g %g %g (distance %.12g)"):format(x, y, z, d))
        return x, y, z
      end
      -- (1) closed: stopped by the door's face at z = -0.05
      local x, y, z
      for _ = 1, 60 do x, y, z = step(0.05, 0) end
      assert.is_true(z <= -0.05 - R and z > -0.05 - R - 0.01, ("closed: z = %g"):format(z))
      assert.is_true(H.near(x, 1, 1e-9) and H.near(y, 1.2, 1e-9))
      assert.are.equal(door, select(8, m:getContact(1)))
      -- (2) the door opens over 60 frames while the mover keeps pushing
      for f = 1, 60 do
        door:setTransform(unpack(door_args(90 * f / 60)))
        x, y, z = step(0.05, 90 * f / 60)
      end
      -- (3) open: through the doorway
      for _ = 1, 60 do x, y, z = step(0.05, 90) end
      assert.is_true(z > 2.5, ("open: z = %g"):format(z))
      -- pushing on the turning door slid it along the door, still clear of the walls
      assert.is_true(x > 0.05 + R and x < 2 - R, ("open: x = %g"):format(x))
      -- (4) the door closes behind it; walking back, the door's other face stops it
      for f = 1, 60 do door:setTransform(unpack(door_args(90 - 90 * f / 60))) end
      for _ = 1, 120 do x, y, z = step(-0.05, 0) end
      assert.is_true(z >= 0.05 + R and z < 0.05 + R + 0.01, ("closed again: z = %g"):format(z))
    end)
  end)

  --[[ }=================================================================
    Removal, enabling, layers, user data
  =================================================================== ]]
  describe(":remove", function()
    it("takes the body out of every call and kills its handle", function()
      local w = cs.newWorld()
      local keep = w:add(H.mesh(H.floor { size = 10, y = -1 }))
      local gone = w:add(H.mesh(H.floor { size = 10, y = 0 }))
      assert.are.equal(gone, select(9, w:raycast(0, 5, 0, 0, -10, 0)))
      w:remove(gone)
      assert.are.equal(1, w:bodyCount())
      assert.is_true(gone:isRemoved())
      assert.is_false(keep:isRemoved())
      local t, _, py, _, _, _, _, _, b = w:raycast(0, 5, 0, 0, -10, 0)
      assert.are.equal(keep, b)
      assert.is_true(H.near(py, -1, H.TIGHT) and H.near(t, 0.6, H.TIGHT))
      assert.are.equal(keep, sweep_of(w, mover(0.5, 0, 5, 0), 0, -10, 0).body)
      local m = mover(0.5, 0, 2, 0)
      local _, y = w:collideAndSlide(m, 0, -5, 0)
      assert.is_true(y < -0.45 and y > -0.51, "y = " .. y)
      assert.has_error(function() gone:setTransform(1, 2, 3) end)
      assert.has_error(function() w:remove(gone) end)
    end)

    it("removes one of many instances and keeps the rest", function()
      local mesh = H.mesh(H.box { min = { -0.5, -0.5, -0.5 }, max = { 0.5, 0.5, 0.5 } })
      local w = cs.newWorld()
      local bodies = {}
      for i = 1, 50 do bodies[i] = w:add(mesh, 2 * i, 0, 0) end
      for i = 1, 50, 3 do w:remove(bodies[i]) end
      for i = 1, 50 do
        local b = select(9, w:raycast(2 * i, 5, 0, 0, -10, 0))
        if (i - 1) % 3 == 0 then assert.is_nil(b, "removed body " .. i) else assert.are.equal(bodies[i], b) end
      end
    end)
  end)

  describe("body:setEnabled", function()
    it("false takes the body out of sweeps, moves and queries; true brings it back", function()
      local w = cs.newWorld()
      local body = w:add(H.mesh(H.floor { size = 10 }))
      assert.is_true(body:isEnabled())
      body:setEnabled(false)
      assert.is_false(body:isEnabled())
      assert.is_nil(w:raycast(0, 5, 0, 0, -10, 0))
      assert.is_nil(w:sweep(mover(0.5, 0, 5, 0), 0, -10, 0))
      assert.is_nil(w:closestPoint(0, 1, 0))
      assert.are.equal(0, w:queryBox(-1, -1, -1, 1, 1, 1, function() end))
      local m = mover(0.5, 0, 2, 0)
      local _, y = w:collideAndSlide(m, 0, -5, 0)
      assert.are.equal(-3, y)
      body:setEnabled(true)
      assert.are.equal(body, select(9, w:raycast(0, 5, 0, 0, -10, 0)))
      m:setPosition(0, 2, 0)
      _, y = w:collideAndSlide(m, 0, -5, 0)
      assert.is_true(y >= 0.5 and y < 0.51)
      -- a transform set while disabled applies when enabled again
      body:setEnabled(false)
      body:setTransform(0, 3, 0)
      body:setEnabled(true)
      local t = w:raycast(0, 5, 0, 0, -10, 0)
      assert.is_true(H.near(t, 0.2, H.TIGHT))
    end)
  end)

  describe("body.layers and mover.collidesWith", function()
    it("meet when collidesWith & layers ~= 0, in moves, sweeps and raycasts", function()
      local w = cs.newWorld()
      local body = w:add(H.mesh(H.floor { size = 10 }))
      assert.are.equal(1, body.layers)
      body.layers = 4 + 16
      assert.are.equal(20, body.layers)
      local m = mover(0.5, 0, 2, 0)
      for _, case in ipairs { { 1, false }, { 2 + 8, false }, { 4, true }, { 16, true }, { 0xFFFFFFFF, true } } do
        m.collidesWith = case[1]
        local hit = w:sweep(m, 0, -5, 0) ~= nil
        assert.are.equal(case[2], hit, "collidesWith " .. case[1])
        m:setPosition(0, 2, 0)
        local _, y = w:collideAndSlide(m, 0, -5, 0)
        assert.are.equal(case[2], y > 0, "collideAndSlide with collidesWith " .. case[1])
        m:setPosition(0, 2, 0)
        assert.are.equal(case[2], w:raycast(0, 2, 0, 0, -5, 0, case[1]) ~= nil)
      end
      assert.is_truthy(w:raycast(0, 2, 0, 0, -5, 0))   -- no mask: every layer
    end)
  end)

  describe("body.userdata", function()
    it("holds any Lua value, reachable from what a call returns", function()
      local w = cs.newWorld()
      local a = w:add(H.mesh(H.floor { size = 4, x = -5 }))
      local b = w:add(H.mesh(H.floor { size = 4, x = 5 }))
      assert.is_nil(a.userdata)
      local ud = { name = "right floor" }
      a.userdata = "left floor"
      b.userdata = ud
      assert.are.equal("left floor", a.userdata)
      assert.are.equal(ud, select(9, w:raycast(5, 1, 0, 0, -2, 0)).userdata)
      assert.are.equal("left floor", select(9, w:sweep(mover(0.5, -5, 2, 0), 0, -3, 0)).userdata)
      local m = mover(0.5, 5, 0.6, 0)
      w:collideAndSlide(m, 0, 0, 0, 0, -0.2, 0)
      assert.are.equal(ud, select(8, m:getContact(1)).userdata)
      b.userdata = nil
      assert.is_nil(b.userdata)
      -- survives removal, and nothing else is a field
      a.userdata = 42
      w:remove(a)
      assert.are.equal(42, a.userdata)
      assert.has_error(function() b.color = "red" end)
    end)
  end)

  --[[ }=================================================================
    Editing vertices
  =================================================================== ]]
  describe("editing vertices", function()
    --   a 4 x 4 floor quad (vertices 1-4), used by two bodies: one moved
    --   to x = 10, one turned upside down at x = -10
    local function setup()
      local s = H.floor { size = 4 }
      local mesh = H.mesh(s)
      local w = cs.newWorld()
      local a = w:add(mesh, 10, 0, 0)
      local b = w:add(mesh, -10, 0, 0, 1, 0, 0, 0)   -- 180 degrees about x: y -> -y
      return w, mesh, a, b, s
    end

    it("mesh:setVertex moves the collision (every body of the mesh)", function()
      local w, mesh, a, b = setup()
      assert.is_true(H.near(select(3, w:raycast(10.5, 5, 0.5, 0, -10, 0)), 0, H.TIGHT))
      for i = 1, mesh:vertexCount() do
        local x, _, z = mesh:getVertex(i)
        mesh:setVertex(i, x, 1, z)
      end
      local t, _, py, _, _, _, _, _, body = w:raycast(10.5, 5, 0.5, 0, -10, 0)
      assert.are.equal(a, body)
      assert.is_true(H.near(py, 1, H.TIGHT) and H.near(t, 0.4, H.TIGHT))
      _, _, py, _, _, _, _, _, body = w:raycast(-9.5, 5, 0.5, 0, -10, 0)
      assert.are.equal(b, body)
      assert.is_true(H.near(py, -1, H.TIGHT))
      local h = sweep_of(w, mover(0.5, 10, 5, 0), 0, -10, 0)
      assert.is_true(H.near(h.t, 3.5 / 10, TOL_T))
      local m = mover(0.5, 10, 1.2, 0)                  -- was free, now overlaps: pushed out up
      w:collideAndSlide(m, 0, 0, 0)
      assert.is_true(select(2, m:getPosition()) >= 1.5 - 1e-9)
      local lo = { a:getBounds() }
      assert.is_true(H.near(lo[2], 1, H.TIGHT) and H.near(lo[5], 1, H.TIGHT))
    end)

    it("mesh:setVertex of one corner tilts the triangles that use it", function()
      local w, mesh, _, _, s = setup()
      local x, y, z = mesh:getVertex(1)
      mesh:setVertex(1, x, 2, z)
      local tris = H.triangles(s, 10, 0, 0)
      for _, t in ipairs(tris) do
        for j = 0, 6, 3 do
          if t[j + 1] == x + 10 and t[j + 3] == z then t[j + 2] = 2 end
        end
      end
      -- a ray straight down on the mesh's 2 triangles, anywhere, lands on the edited plane
      for _, p in ipairs { { 9, -1 }, { 8.5, -1.7 }, { 11, 1 }, { 10.2, 0.1 } } do
        local t, px, py, pz, nx, ny, nz, tri = w:raycast(p[1], 5, p[2], 0, -10, 0)
        local d = H.point_triangle_distance(px, py, pz, tris[tri])
        assert.is_true(d < H.TIGHT, ("(%g, %g): the point is %g off triangle %d"):format(p[1], p[2], d, tri))
        local wx, wy, wz = H.normal(unpack(tris[tri]))
        assert.is_true(H.near3(nx, ny, nz, wx, wy, wz, TOL_P))
        assert.is_true(H.near(t, (5 - py) / 10, H.TIGHT))
      end
    end)

    it("mesh:setVertices moves the collision far from where it was", function()
      local w, mesh, a = setup()
      local v = {}
      for i = 1, mesh:vertexCount() do
        local x, y, z = mesh:getVertex(i)
        v[#v + 1], v[#v + 2], v[#v + 3] = x + 50, y + 0.5, z   -- 50 m along x: outside the old bounds
      end
      mesh:setVertices(v)
      assert.is_nil(w:raycast(10, 5, 0, 0, -10, 0), "the old place still collides")
      local t, _, py, _, _, _, _, _, body = w:raycast(60, 5, 0, 0, -10, 0)
      assert.are.equal(a, body)
      assert.is_true(H.near(py, 0.5, H.TIGHT) and H.near(t, 0.45, H.TIGHT))
      local m = mover(0.5, 60, 3, 0)
      local _, y = w:collideAndSlide(m, 0, -5, 0)
      assert.is_true(y >= 1 and y < 1.01, "y = " .. y)
      assert.is_truthy(w:closestPoint(60, 3, 0, 3))
      assert.is_true(w:queryBox(59, 0, -1, 61, 1, 1, function() end) > 0)
      -- and back: setVertices with a table of {x, y, z}
      local back = {}
      for i = 1, mesh:vertexCount() do
        local x, y, z = mesh:getVertex(i)
        back[i] = { x - 50, y - 0.5, z }
      end
      mesh:setVertices(back)
      assert.is_nil(w:raycast(60, 5, 0, 0, -10, 0))
      assert.is_true(H.near(select(3, w:raycast(10, 5, 0, 0, -10, 0)), 0, H.TIGHT))
    end)
  end)
end)

--[[ }=================================================================
  Oriented ellipsoids
=================================================================== ]]
describe("Mover", function()
  describe(":setOrientation", function()
    --   an ellipsoid (2, 0.5, 0.5) dropped onto a floor from y = 5 by 5:
    --   lying down it touches at y = 0.5 (t = 0.9); turned 90 degrees
    --   about z its long axis is vertical and it touches at y = 2 (t = 0.6)
    it("turns the ellipsoid: its long axis stands up when turned 90 degrees about z", function()
      local w = H.world(H.floor { size = 20 })
      local m = mover({ 2, 0.5, 0.5 }, 0, 5, 0)
      assert.is_true(H.near(w:sweep(m, 0, -5, 0), 0.9, TOL_T))
      local h = math.sqrt(0.5)
      m:setOrientation(0, 0, h, h)
      local t, px, py, pz, nx, ny, nz = w:sweep(m, 0, -5, 0)
      assert.is_true(H.near(t, 0.6, TOL_T), "t = " .. t)
      assert.is_true(H.near3(px, py, pz, 0, 0, 0, TOL_P) and H.near3(nx, ny, nz, 0, 1, 0, TOL_P))
      local qx, qy, qz, qw = m:getOrientation()
      assert.is_true(H.near3(qx, qy, qz, 0, 0, h, H.TIGHT) and H.near(qw, h, H.TIGHT))
      -- a collideAndSlide stops it at the same height
      local _, y = w:collideAndSlide(m, 0, -5, 0)
      assert.is_true(y >= 2 and y < 2.01, "y = " .. y)
    end)

    --   the scene turned by q^-1 about the origin, the mover's centre and
    --   displacement too: an axis-aligned sweep there is the oriented sweep
    --   here, with the contact point and normal turned back by q
    it("sweeps as the axis-aligned ellipsoid does in the scene turned by the inverse rotation (1000 random cases)", function()
      local seed = H.seed(5150, "oriented sweeps")
      local rng = H.rng(seed)
      local HALF = 3
      local s = random_scene(rng, 40, HALF)
      local tris = H.triangles(s)
      local w = cs.newWorld()
      w:add(H.mesh(s))
      local cases, hits = math.floor(1000 * H.scale), 0
      for i = 1, cases do
        local qx, qy, qz, qw = random_quat(rng)
        local r, p, d
        repeat
          r, p, d = random_sweep(rng, tris, HALF * 1.5)
        until H.min_distance_es(tris, p[1], p[2], p[3], r[1], r[2], r[3], qx, qy, qz, qw) > 1 + 1e-6
        local m = mover(r, p[1], p[2], p[3])
        m:setOrientation(qx, qy, qz, qw)
        local a = sweep_of(w, m, d[1], d[2], d[3])
        -- the turned scene, baked
        local inv = { -qx, -qy, -qz, qw }
        local turned = H.triangles(s, 0, 0, 0, unpack(inv))
        local wt = cs.newWorld()
        wt:add(baked(turned))
        local px, py, pz = H.rotate(inv[1], inv[2], inv[3], inv[4], p[1], p[2], p[3])
        local dx, dy, dz = H.rotate(inv[1], inv[2], inv[3], inv[4], d[1], d[2], d[3])
        local b = sweep_of(wt, mover(r, px, py, pz), dx, dy, dz)
        if b then   -- back into this world
          b.p = { H.rotate(qx, qy, qz, qw, b.p[1], b.p[2], b.p[3]) }
          b.n = { H.rotate(qx, qy, qz, qw, b.n[1], b.n[2], b.n[3]) }
        end
        local diff = sweep_difference(a, b, tris)
        assert(diff == nil, ("case %d (seed %d): %s"):format(i, seed, diff or ""))
        if a then hits = hits + 1 end
      end
      assert.is_true(hits > cases / 3, "only " .. hits .. " hits")
    end)

    it("makes collideAndSlide keep the oriented ellipsoid out of the scene", function()
      local seed = H.seed(5151, "oriented slides")
      local rng = H.rng(seed)
      local box = H.box { min = { -6, -6, -6 }, max = { 6, 6, 6 } }
      local s = H.merge(box, random_scene(rng, 20, 3))
      local tris = H.triangles(s)
      local w = H.world(s)
      local m = mover({ 0.6, 0.2, 0.35 }, 0, 4.5, 0)
      for step = 1, math.floor(500 * H.scale) do
        m:setOrientation(random_quat(rng))
        while H.mover_distance_es(tris, m) < 1.001 do   -- turned into something: start elsewhere
          m:setPosition(rng:range(-5, 5), rng:range(-5, 5), rng:range(-5, 5))
        end
        local before = { m:getPosition() }
        local dx, dy, dz = rng:unit()
        w:collideAndSlide(m, dx * 0.5, dy * 0.5, dz * 0.5)
        local d = H.mover_distance_es(tris, m)
        assert(d >= 1 - 1e-6, ("step %d: overlap %.12g after moving from %g %g %g"):format(step, d, unpack(before)))
      end
    end)
  end)
end)

-- }=================================================================
