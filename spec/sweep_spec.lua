-- world:sweep: exact answers worked out by hand (Fauerby 2003, section 3).
-- Each scene is repeated with its triangles' vertices rotated (a b c, b c a,
-- c a b), which must not change any answer.
local cs = require "collideslide"
local H = require "helper"

local TOL = H.TIGHT

-- A world with one body built from scene s (vertex order rotated k times).
local function world_of(s, k, options)
  local w = cs.newWorld()
  local body = w:add(cs.newMesh(s.vertices, H.rotate_corners(s, k).indices, options))
  return w, body
end

local function mover(r, x, y, z)
  local radius = type(r) == "table" and r or { r, r, r }
  return cs.newMover { radius = radius, position = { x, y, z } }
end

-- Asserts a sweep's returns: t, point and normal.
local function assert_hit(t, px, py, pz, nx, ny, nz, want)
  assert.is_number(t, "expected a hit")
  assert.is_true(H.near(t, want.t, TOL), ("t = %.15g, want %.15g"):format(t, want.t))
  assert.is_true(H.near3(px, py, pz, want.p[1], want.p[2], want.p[3], 1e-7),
    ("point = %g %g %g"):format(px, py, pz))
  assert.is_true(H.near3(nx, ny, nz, want.n[1], want.n[2], want.n[3], 1e-7),
    ("normal = %g %g %g"):format(nx, ny, nz))
end

describe("World", function()
  describe(":sweep", function()
    for k = 0, 2 do
      describe("(vertex order rotated " .. k .. " times)", function()
        --   (1) a unit sphere dropped onto a floor
        --
        --        o  y = 3, falling 4
        --        |
        --   =====+=====  y = 0     face hit when y = 1: t = 2/4
        it("hits a floor face at t = 0.5", function()
          local w, body = world_of(H.floor { size = 10 }, k)
          local t, px, py, pz, nx, ny, nz, tri, b = w:sweep(mover(1, 0, 3, 0), 0, -4, 0)
          assert_hit(t, px, py, pz, nx, ny, nz, { t = 0.5, p = { 0, 0, 0 }, n = { 0, 1, 0 } })
          assert.is_true(tri == 1 or tri == 2)
          assert.are.equal(body, b)
        end)

        --   (2) onto an edge: the triangle lies in y = 0 at x <= 0, its edge on
        --   the z axis; the centre falls at x = 0.6, so it touches the edge
        --   when sqrt(0.6^2 + y^2) = 1, y = 0.8: t = (5 - 0.8) / 10.
        it("hits an edge at the known t and normal", function()
          local s = { vertices = { 0, 0, -5, 0, 0, 5, -5, 0, 0 }, indices = { 1, 2, 3 } }
          local w = world_of(s, k)
          local t, px, py, pz, nx, ny, nz = w:sweep(mover(1, 0.6, 5, 1), 0, -10, 0)
          assert_hit(t, px, py, pz, nx, ny, nz, { t = 0.42, p = { 0, 0, 1 }, n = { 0.6, 0.8, 0 } })
        end)

        --   (3) onto a vertex: the triangle's corner at the origin, the rest in
        --   x < 0, z < 0; the same numbers as (2) with the vertex as contact.
        it("hits a vertex at the known t and normal", function()
          local s = { vertices = { 0, 0, 0, -1, 0, -4, -4, 0, -1 }, indices = { 1, 2, 3 } }
          local w = world_of(s, k)
          local t, px, py, pz, nx, ny, nz = w:sweep(mover(1, 0.6, 5, 0), 0, -10, 0)
          assert_hit(t, px, py, pz, nx, ny, nz, { t = 0.42, p = { 0, 0, 0 }, n = { 0.6, 0.8, 0 } })
        end)

        --   (4) an ellipsoid (0.5, 2, 0.5) and a sphere of radius 0.5, both from
        --   y = 5 down by 5: the sphere touches at y = 0.5 (t = 0.9), the
        --   ellipsoid at y = 2 (t = 0.6): (2 - 0.5) / 5 = 0.3 apart.
        it("hits a floor with an ellipsoid (0.5, 2, 0.5) 0.3 earlier than a sphere", function()
          local w = world_of(H.floor { size = 10 }, k)
          local ts = w:sweep(mover(0.5, 0, 5, 0), 0, -5, 0)
          local te, px, py, pz, nx, ny, nz = w:sweep(mover({ 0.5, 2, 0.5 }, 0, 5, 0), 0, -5, 0)
          assert.is_true(H.near(ts, 0.9, TOL))
          assert_hit(te, px, py, pz, nx, ny, nz, { t = 0.6, p = { 0, 0, 0 }, n = { 0, 1, 0 } })
          assert.is_true(H.near(ts - te, 0.3, TOL))
        end)

        --   (5) misses that pass 1e-3 beside the triangle
        it("misses a triangle it passes 1e-3 beside", function()
          local w = world_of(H.floor { size = 10 }, k)
          assert.is_nil(w:sweep(mover(1, -20, 1.001, 0), 40, 0, 0))         -- over the face
          assert.is_nil(w:sweep(mover(1, 6.001, 5, 0), 0, -10, 0))          -- past an edge
          assert.is_nil(w:sweep(mover(1, 5 + 1.001 / math.sqrt(2), 5, 5 + 1.001 / math.sqrt(2)), 0, -10, 0))
        end)

        --   (6) motion parallel to the plane, the sphere cutting it: the first
        --   contact is the edge x = -5 when (x + 5)^2 + 0.5^2 = 1.
        it("moves parallel to a plane until the edge", function()
          local w = world_of(H.floor { size = 10 }, k)
          local t, px, py, pz, nx, ny, nz = w:sweep(mover(1, -7, 0.5, 0), 10, 0, 0)
          local x = -5 - math.sqrt(0.75)
          assert_hit(t, px, py, pz, nx, ny, nz,
            { t = (x + 7) / 10, p = { -5, 0, 0 }, n = { -math.sqrt(0.75), 0.5, 0 } })
        end)

        --   (7) a start that already overlaps: t = 0 whatever the move
        it("returns t = 0 for a start that already overlaps", function()
          local w = world_of(H.floor { size = 10 }, k)
          for _, d in ipairs { { 0, -1, 0 }, { 0, 1, 0 }, { 3, 0, 0 }, { 0, 0, 0 } } do
            local t, px, py, pz, nx, ny, nz = w:sweep(mover(1, 0, 0.5, 0), d[1], d[2], d[3])
            assert_hit(t, px, py, pz, nx, ny, nz, { t = 0, p = { 0, 0, 0 }, n = { 0, 1, 0 } })
          end
        end)

        it("returns nil for a zero move that overlaps nothing", function()
          local w = world_of(H.floor { size = 10 }, k)
          assert.is_nil(w:sweep(mover(1, 0, 1.5, 0), 0, 0, 0))
        end)

        --   (8) one-sided triangles are hit only against their front
        it("skips back faces of a one-sided mesh", function()
          local w = world_of(H.floor { size = 10 }, k, { backfaces = "ignore" })
          assert.is_nil(w:sweep(mover(1, 0, -3, 0), 0, 4, 0))
          assert.is_true(H.near(w:sweep(mover(1, 0, 3, 0), 0, -4, 0), 0.5, TOL))
        end)

        it("hits back faces of a two-sided mesh", function()
          local w = world_of(H.floor { size = 10 }, k)
          local t, px, py, pz, nx, ny, nz = w:sweep(mover(1, 0, -3, 0), 0, 4, 0)
          assert_hit(t, px, py, pz, nx, ny, nz, { t = 0.5, p = { 0, 0, 0 }, n = { 0, -1, 0 } })
        end)
      end)
    end

    it("keeps the precision contract 1e5 from the origin", function()
      local off = 1e5
      local w = world_of(H.floor { size = 10, x = off, z = off }, 0)
      local t, _, py = w:sweep(mover(1, off + 0.3, 3, off - 0.2), 0, -4, 0)
      assert.is_true(H.near(t, 0.5, 1e-4 * 4))
      assert.is_true(H.near(py, 0, 1e-4 * 4))
    end)

    -- a needle 1e-7 wide and 3 long under a rotated ellipsoid of radius
    -- about 1e-6: its plane, built from the two long edges, was met 2.7e-4
    -- of the move early (an independent tester's case; t from exact
    -- rational arithmetic)
    it("keeps the precision contract against a needle triangle", function()
      local w = cs.newWorld()
      w:add(cs.newMesh({ -3, 0, 0, 0, 0, 1e-7, 0, 0, 0 }, { 1, 2, 3 }))
      local m = cs.newMover { radius = { 6.4667094104634798e-07, 1.2028212883512107e-06, 4.8744318803165759e-07 },
        position = { -0.58309601965547753, -1.0766977181886548e-06, -2.1757345059188762e-07 },
        orientation = { 0.86289628256699824, 0.39203636166504974, 0.10392864631614034, -0.30152335421884002 } }
      local t = w:sweep(m, -1.6509929368434923e-06, 1.8211108887583902e-06, -8.7624749558827189e-07)
      assert.is_true(math.abs(t - 0.1584634419) < 1e-4, ("t = %.12g"):format(t))
    end)

    it("finds the nearest of several bodies", function()
      local w = cs.newWorld()
      w:add(H.mesh(H.floor { size = 10, y = 0 }))
      local near = w:add(H.mesh(H.floor { size = 10, y = 1 }))
      local t, _, _, _, _, _, _, _, b = w:sweep(mover(0.5, 0, 5, 0), 0, -10, 0)
      assert.are.equal(near, b)
      assert.is_true(H.near(t, 0.35, TOL))
    end)
  end)

  describe(":raycast", function()
    it("returns the first triangle on the segment, its normal facing the origin", function()
      local w = cs.newWorld()
      local body = w:add(H.mesh(H.floor { size = 10 }))
      local t, px, py, pz, nx, ny, nz, tri, b = w:raycast(1, 5, 2, 0, -10, 0)
      assert.is_true(H.near(t, 0.5, TOL))
      assert.is_true(H.near3(px, py, pz, 1, 0, 2, TOL))
      assert.is_true(H.near3(nx, ny, nz, 0, 1, 0, TOL))
      assert.is_number(tri)
      assert.are.equal(body, b)
      local _, _, _, _, _, ny2 = w:raycast(1, -5, 2, 0, 10, 0)
      assert.is_true(H.near(ny2, -1, TOL))
      assert.is_nil(w:raycast(1, 5, 2, 0, -4, 0))    -- stops short
    end)
  end)
end)
