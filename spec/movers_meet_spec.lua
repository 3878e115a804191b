-- spec/movers_meet_spec.lua: movers that meet (issue 14). A mover added to a
-- world (world:addMover) is solid to the world's other movers whose
-- collidesWith meets its layers; the same sweep, slide, ground and carry as
-- for triangles. Scenes are drawn from above (x to the right) unless said.

local cs = require "collideslide"
local H = require "helper"

local function dist(a, b)
  local ax, ay, az = a:getPosition()
  local bx, by, bz = b:getPosition()
  return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2 + (az - bz) ^ 2)
end

local function floor_world()
  local w = cs.newWorld()
  w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
  return w
end

describe("Movers that meet", function()
  describe("head-on", function()
    --   A o-->        <--o B     radius 0.5 each, 4 apart, each walks 3
    it("stop with their surfaces 0 to 2 skins apart, never overlapping", function()
      local w = cs.newWorld()
      local a = cs.newMover { radius = 0.5, position = { -2, 0, 0 } }
      local b = cs.newMover { radius = 0.5, position = { 2, 0, 0 } }
      w:addMover(a); w:addMover(b)
      assert.are.equal(2, w:moverCount())
      w:collideAndSlide(a, 3, 0, 0)
      local gap = dist(a, b) - 1
      assert.is_true(gap >= 0 and gap <= 2 * a.skin, "gap " .. gap)
      assert.are.equal(1, a:contactCount())
      local _, _, _, nx, _, _, tri, other, tag = a:getContact(1)
      assert.are.equal(b, other)                 -- the other mover, where a body would be
      assert.near(-1, nx, 1e-9)
      assert.are.equal(0, tag)
      assert.is_truthy(tri)
      w:collideAndSlide(b, -3, 0, 0)
      gap = dist(a, b) - 1
      assert.is_true(gap >= 0 and gap <= 2 * a.skin, "gap " .. gap)
    end)

    -- the contact keeps naming the other mover after that one is closed
    it("name each other in contacts read after the other is closed", function()
      local w = cs.newWorld()
      local a = cs.newMover { radius = 0.5, position = { -2, 0, 0 } }
      local b = cs.newMover { radius = 0.5, position = { 2, 0, 0 } }
      w:addMover(a); w:addMover(b)
      w:collideAndSlide(a, 3, 0, 0)
      getmetatable(b).__close(b)
      assert.are.equal(1, a:contactCount())
      assert.are.equal(b, select(8, a:getContact(1)))
    end)
  end)

  describe("a crowd standing still", function()
    --         o o o
    --   A o-->  o o      A walks into a standing block of movers at 45 degrees
    --         o o o      and slides along it
    it("is slid around, not walked through", function()
      local w = floor_world()
      local crowd = {}
      for i = 0, 2 do
        for j = 0, 2 do
          local m = cs.newMover { radius = 0.5, position = { 3 + i * 1.1, 0.51, j * 1.1 - 1.1 } }
          w:addMover(m)
          crowd[#crowd + 1] = m
        end
      end
      local a = cs.newMover { radius = 0.5, position = { 0, 0.51, -3 } }
      w:addMover(a)
      for _ = 1, 60 do w:collideAndSlide(a, 0.1, 0, 0.1, 0, -0.05, 0) end
      for _, m in ipairs(crowd) do assert.is_true(dist(a, m) >= 1 - 1e-9) end
      local x, _, z = a:getPosition()
      assert.is_true(x < 3 + 2 * 1.1 + 1 or z < -1.1 - 0.5, "walked through the crowd")
    end)
  end)

  describe("wedged between a wall and another mover", function()
    --        wall x = 1
    --   A o--> |       A walks (2, 0, 0.6) into the corner a wall and a standing
    --      o B |       mover B (radius 0.5, touching the wall) make: it slides
    --          |       along the wall into the crease and stops there, clear of
    --                  both, never turning back against its walk
    it("stops in the crease, a skin from both", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(1, -5, -5, 2, 5, 5)))
      local b = cs.newMover { radius = 0.5, position = { 0.49, 0, 1.2 } }
      local a = cs.newMover { radius = 0.5, position = { -1, 0, 0 } }
      w:addMover(a); w:addMover(b)
      for _ = 1, 10 do w:collideAndSlide(a, 0.5, 0, 0.3) end
      local x, _, z = a:getPosition()
      assert.is_true(x <= 0.5 + 1e-9 and x >= 0.5 - 2 * a.skin - 1e-9, "against the wall: " .. x)
      assert.is_true(dist(a, b) >= 1 - 1e-9 and dist(a, b) <= 1 + 2 * a.skin + 1e-9)
      assert.is_true(z < 1.2)
    end)
  end)

  describe("standing on another mover", function()
    --      o A (0.5)    dropped on B, a mover of radius 1 on the floor;
    --     (  B  )       B walks 1 along x: A rides along
    it("is ground, names the mover below, and is carried by its last move", function()
      local w = floor_world()
      local b = cs.newMover { radius = 1, position = { 0, 1.01, 0 } }
      local a = cs.newMover { radius = 0.5, position = { 0, 3.2, 0 } }
      w:addMover(b); w:addMover(a)
      for _ = 1, 10 do w:collideAndSlide(a, 0, 0, 0, 0, -0.3, 0) end
      assert.are.equal("ground", a:getGroundState())
      assert.are.equal(b, a:getGroundMover())
      assert.is_nil(a:getGroundBody())
      local _, y = a:getPosition()
      assert.is_true(y >= 2.51 and y <= 2.51 + 2 * a.skin + 1e-9)
      w:collideAndSlide(b, 1, 0, 0, 0, -0.1, 0)
      w:collideAndSlide(a, 0, 0, 0, 0, -0.1, 0)
      local ax = a:getPosition()
      assert.near(1, ax, 1e-9)
      assert.are.equal(b, a:getGroundMover())
    end)
  end)

    -- found by an independent tester: movers spawned in one another may
    -- record one of them as their ground; once that one was pushed out,
    -- the carry took the rider after it, deep into it, though the rider
    -- was clear of it before the call
    it("never carries a rider into the mover it stands on, spawned in one another", function()
      local seed = 7
      local function rand() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
      local function d(a, b)
        local ax, ay, az = a:getPosition()
        local bx, by, bz = b:getPosition()
        return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2 + (az - bz) ^ 2)
      end
      -- 6 to 9 spheres, half of them at one point, half near it; trials 15
      -- and 58 went into another mover before (a sliding carry, a free one)
      for trial = 1, 60 do
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-20, -1, -20, 20, 0, 20)))
        local ms = {}
        for i = 1, 6 + trial % 4 do
          local p = rand() < 0.5 and { 0, 2, 0 } or
            { (rand() - 0.5) * 0.6, 1.5 + rand(), (rand() - 0.5) * 0.6 }
          ms[i] = cs.newMover { radius = 0.5, position = p }
          w:addMover(ms[i])
        end
        for round = 1, 6 do
          for i, a in ipairs(ms) do
            local before = {}
            for j, b in ipairs(ms) do before[j] = d(a, b) end
            w:collideAndSlide(a, 0, 0, 0, 0, -0.1, 0)
            for j, b in ipairs(ms) do
              assert.is_false(j ~= i and before[j] >= 1 and d(a, b) < 1 - 1e-9,
                ("trial %d round %d: mover %d went into mover %d (%.6f -> %.6f)"):format(
                  trial, round, i, j, before[j], d(a, b)))
            end
          end
        end
      end
    end)

    -- found by an independent tester: a rider was carried by its ground
    -- mover's last move at every call it made, across the still carrier
    -- and off it; and a mover leaning on another's steep side named it as
    -- its ground and was dragged off with it
    it("carries a rider by each move of the mover it stands on once, and only from its top", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-20, -1, -20, 20, 0, 20)))
      local carrier = cs.newMover { radius = { 3, 0.5, 3 }, position = { 0, 0.501, 0 } }
      local rider = cs.newMover { radius = 0.3, position = { 0, 1.31, 0 } }
      w:addMover(carrier)
      w:addMover(rider)
      for _ = 1, 5 do
        w:collideAndSlide(carrier, 0, 0, 0, 0, -0.05, 0)
        w:collideAndSlide(rider, 0, 0, 0, 0, -0.05, 0)
      end
      assert.are.equal(carrier, rider:getGroundMover())
      local x0 = rider:getPosition()
      w:collideAndSlide(carrier, 0.3, 0, 0, 0, -0.05, 0)
      w:collideAndSlide(carrier, 0.2, 0, 0, 0, -0.05, 0)    -- two moves before the rider's call
      for _ = 1, 4 do w:collideAndSlide(rider, 0, 0, 0, 0, -0.05, 0) end
      assert.is_true(math.abs(rider:getPosition() - (x0 + 0.5)) < 1e-9, "rider x = " .. rider:getPosition())
      -- b leans on a's steep side against a wall: a is no ground of b's
      local v = cs.newWorld()
      v:add(cs.newMesh(cs.box(-20, -1, -20, 20, 0, 20)))
      v:add(cs.newMesh(cs.box(1.5, 0, -5, 2.5, 5, 5)))
      local a = cs.newMover { radius = 1, position = { 0, 1.001, 0 } }
      local b = cs.newMover { radius = 0.4, position = { 1.1, 2.2, 0 } }
      v:addMover(a)
      v:addMover(b)
      for _ = 1, 20 do v:collideAndSlide(b, 0, 0, 0, 0, -0.1, 0) end
      assert.are.equal("steep", b:getGroundState())
      assert.are.equal(a, b:getGroundMover())                  -- leaned on, not carried by
      local bx = b:getPosition()
      v:collideAndSlide(a, -3, 0, 0, 0, -0.01, 0)
      v:collideAndSlide(b, 0, 0, 0, 0, -0.001, 0)
      assert.is_true(math.abs(b:getPosition() - bx) < 1e-9, "b dragged to x = " .. b:getPosition())
    end)

    -- found by an independent tester: a mover added after its last call
    -- had landed was not taken along by the next placement of its ground
    it("takes along a mover added where it already stands", function()
      local w = cs.newWorld()
      local p = w:add(cs.newMesh(cs.box(-2, -0.5, -2, 2, 0, 2)))
      local a = cs.newMover { radius = 0.5, position = { 0, 0.6, 0 } }
      w:collideAndSlide(a, 0, 0, 0, 0, -0.2, 0)
      assert.are.equal(p, a:getGroundBody())
      local x0, y0, z0 = a:getPosition()
      w:addMover(a)
      p:setTransform(0.5, 0, 0)
      local x, y, z = a:getPosition()
      assert.is_true(math.abs(x - (x0 + 0.5)) <= 1e-12 and y == y0 and z == z0,
        ("%.17g %.17g %.17g"):format(x, y, z))
    end)

  describe("riding a platform", function()
    -- side view: a (r 0.1) stands on a closed platform slab (y 0.4 to 0.5)
    -- that moves 0.5 to -x under an overhang (a closed slab from y = 0.68,
    -- ending at x = -0.2): the carry meets the overhang's edge, and a is
    -- wedged there, on the platform, as a walk on a still slab would be;
    -- the slide off the edge no longer takes it into the platform and out
    -- below (by a placement, with a velocity too, as a plain mover or added)
    --   ======== overhang
    --          a
    --    ========= platform, moving <-
    for _, how in ipairs { "placed", "velocity", "added" } do
      it("is wedged at an overhang it is carried into, not pushed through the platform (" .. how .. ")", function()
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-2, 0.68, -1, -0.2, 0.8, 1)))
        local p = w:add(cs.newMesh(cs.box(-0.5, 0.4, -0.5, 0.5, 0.5, 0.5)))
        local a = cs.newMover { radius = 0.1, position = { 0, 0.65, 0 } }
        if how == "added" then w:addMover(a) end
        w:collideAndSlide(a, 0, 0, 0, 0, -0.2, 0)
        assert.are.equal(p, a:getGroundBody())
        if how == "velocity" then p:setVelocity(-0.5, 0, 0) end
        p:setTransform(-0.5, 0, 0)
        local x, y = w:collideAndSlide(a, 0, 0, 0, 0, -0.01, 0)
        assert.is_false(a:wasStuck())
        assert.near(0.601, y, 1e-9)
        -- a touches the overhang's lower edge (x = -0.2, y = 0.68): its centre
        -- is 0.1 from it, at x = -0.2 + sqrt(0.1^2 - 0.079^2), a skin less
        assert.near(-0.2 + math.sqrt(0.01 - 0.079 ^ 2), x, 2e-3)
      end)
    end

    --   o      a mover added to the world stands on a lift that starts rising
    --  ===     0.02 a frame at frame 10; the script places the lift before the
    --          mover's call, or after it: either way, after every frame the
    --          mover rests on the lift's top, 0 to 2 skins above it
    for _, order in ipairs { "before", "after" } do
      it("stays on it when the script places it " .. order .. " moving the mover", function()
        local w = cs.newWorld()
        local lift = w:add(cs.newMesh(cs.box(-2, -0.5, -2, 2, 0, 2)))
        local m = cs.newMover { radius = 0.5, position = { 0, 0.51, 0 } }
        w:addMover(m)
        local y = 0
        for f = 1, 60 do
          local speed = f >= 10 and 0.02 or 0
          if order == "before" then y = y + speed; lift:setTransform(0, y, 0) end
          w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0)
          if order == "after" then y = y + speed; lift:setTransform(0, y, 0) end
          local _, my = m:getPosition()
          local gap = my - 0.5 - y
          assert.is_true(gap >= -1e-9 and gap <= 2 * m.skin + 1e-9, ("frame %d: gap %g"):format(f, gap))
          assert.are.equal("ground", m:getGroundState())
        end
      end)
    end

    -- A platform carries its riders toward a wall box (x in [6, 7]) 0.15 a
    -- frame, placed each frame (and, in the second case, with the same
    -- velocity set). Each rider is carried once a frame, stops a skin short
    -- of the wall as the same mover not added does, and never enters it,
    -- neither at its call nor when the platform is placed; two riders side
    -- by side go along as one.
    local function platform_run(added, velocity)
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(6, 0, -40, 7, 10, 40)))
      local plat = w:add(cs.newMesh(cs.box(-4, -0.5, -4, 4, 0, 4)), 0, 3, 0)
      local ms = { cs.newMover { radius = 0.5, position = { 3, 3.505, -1 } },
                   cs.newMover { radius = 0.5, position = { 3, 3.505, 1 } } }
      for _, m in ipairs(ms) do
        if added then w:addMover(m) end
        w:collideAndSlide(m, 0, 0, 0, 0, -0.1, 0)
      end
      local xs = {}
      for f = 1, 30 do
        if velocity then plat:setVelocity(0.15, 0, 0) end
        plat:setTransform(0.15 * f, 3, 0)
        for i, m in ipairs(ms) do
          local x = m:getPosition()
          assert.is_true(x <= 6 - 0.5, ("frame %d, rider %d placed at x = %.17g, inside the wall"):format(f, i, x))
          x = w:collideAndSlide(m, 0, 0, 0, 0, -0.1, 0)
          assert.is_true(x <= 6 - 0.5, ("frame %d, rider %d: x = %.17g, inside the wall"):format(f, i, x))
          xs[#xs + 1] = x
        end
      end
      return xs
    end
    --    o B     B stands on A, A on a platform the script places 0.05 further
    --   (A)      along x each frame: A is taken along, and B, at its call
    --  =====     after A's, by A's whole displacement (placement and call)
    it("carries a mover standing on its rider", function()
      local w = cs.newWorld()
      local plat = w:add(cs.newMesh(cs.box(-5, -0.5, -5, 5, 0, 5)))
      local a = cs.newMover { radius = 0.5, position = { 0, 0.51, 0 } }
      local b = cs.newMover { radius = 0.3, position = { 0, 1.32, 0 } }
      w:addMover(a); w:addMover(b)
      for _ = 1, 5 do
        w:collideAndSlide(a, 0, 0, 0, 0, -0.05, 0)
        w:collideAndSlide(b, 0, 0, 0, 0, -0.05, 0)
      end
      assert.are.equal(a, b:getGroundMover())
      for f = 1, 40 do
        plat:setTransform(0.05 * f, 0, 0)
        local ax = w:collideAndSlide(a, 0, 0, 0, 0, -0.05, 0)
        local bx = w:collideAndSlide(b, 0, 0, 0, 0, -0.05, 0)
        assert.near(0.05 * f, ax, 1e-9)
        assert.near(0.05 * f, bx, 1e-9)
        assert.are.equal(a, b:getGroundMover())
      end
    end)

    -- the same with B not added: the placement takes A along, and B's next
    -- call carries it by how far A went (it stayed behind: found by an
    -- independent tester), rising too, never left in A
    for _, rise in ipairs { 0, 0.005 } do
      it("carries a mover that is not added standing on its rider (rise " .. rise .. ")", function()
        local w = cs.newWorld()
        local plat = w:add(cs.newMesh(cs.box(-5, -0.5, -5, 5, 0, 5)))
        local a = cs.newMover { radius = 0.5, position = { 0, 0.5005, 0 } }
        local b = cs.newMover { radius = 0.4, position = { 0, 1.4015, 0 } }
        w:addMover(a)
        for _ = 1, 3 do
          w:collideAndSlide(a, 0, 0, 0, 0, -0.02, 0)
          w:collideAndSlide(b, 0, 0, 0, 0, -0.02, 0)
        end
        assert.are.equal(a, b:getGroundMover())
        for f = 1, 60 do
          plat:setTransform(0.01 * f, rise * f, 0)
          local ax = w:collideAndSlide(a, 0, 0, 0, 0, -0.02, 0)
          local bx = w:collideAndSlide(b, 0, 0, 0, 0, -0.02, 0)
          assert.near(0.01 * f, ax, 1e-9)
          assert.near(ax, bx, 1e-9)
          assert.is_true(dist(a, b) >= 0.9 - 1e-9, ("frame %d: overlap %g"):format(f, 0.9 - dist(a, b)))
          assert.are.equal("ground", b:getGroundState())
        end
      end)
    end

    -- a stack of added movers on a lift placed 0.1 higher each frame goes up
    -- with it, in either order of the calls (the bottom one's way up was
    -- blocked by the one on it: neither moved, and the lift swallowed it)
    for _, order in ipairs { "bottom first", "top first" } do
      it("lifts a stack of added movers (" .. order .. ")", function()
        local w = cs.newWorld()
        local lift = w:add(cs.newMesh(cs.box(-2, -0.5, -2, 2, 0, 2)))
        local a = cs.newMover { radius = 0.5, position = { 0, 0.505, 0 } }
        local b = cs.newMover { radius = 0.5, position = { 0, 1.51, 0 } }
        w:addMover(a); w:addMover(b)
        local list = order == "bottom first" and { a, b } or { b, a }
        for _ = 1, 3 do for _, m in ipairs(list) do w:collideAndSlide(m, 0, 0, 0, 0, -0.02, 0) end end
        for f = 1, 20 do
          lift:setTransform(0, 0.1 * f, 0)
          for _, m in ipairs(list) do w:collideAndSlide(m, 0, 0, 0, 0, -0.02, 0) end
          local _, ya = a:getPosition()
          local gap = ya - 0.5 - 0.1 * f
          assert.is_true(gap >= -1e-9 and gap <= 2 * a.skin + 1e-9, ("frame %d: gap %g"):format(f, gap))
          assert.is_true(dist(a, b) >= 1 - 1e-9, ("frame %d: overlap %g"):format(f, 1 - dist(a, b)))
          assert.is_false(a:wasStuck())
        end
      end)
    end

    -- a mover falling onto a stack on a rising lift is pushed up with the
    -- stack: it held the whole stack back, the lift rose into the bottom
    -- mover, and that one ended inside the lift or below it (found by an
    -- independent tester: 37 of 48 heights)
    for _, h in ipairs { 2.0, 2.5, 3.0 } do
      it("pushes a mover in a lifted stack's way along (falling from " .. h .. ")", function()
        local w = cs.newWorld()
        local lift = w:add(cs.newMesh(cs.box(-3, -1, -3, 3, 0, 3)))
        local a = cs.newMover { radius = 0.4, position = { 0, 0.4, 0 } }
        local b = cs.newMover { radius = 0.4, position = { 0.1, 1.2, 0 } }
        local c = cs.newMover { radius = 0.4, position = { 0.3, h, 0 } }
        local list = { a, b, c }
        for _, m in ipairs(list) do w:addMover(m) end
        for _, m in ipairs(list) do w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0) end
        for f = 1, 40 do
          lift:setTransform(0, 0.1 * f, 0)
          for _, m in ipairs(list) do w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0) end
          local _, ya = a:getPosition()
          assert.is_true(ya - 0.4 >= 0.1 * f - 1e-9, ("frame %d: a %g into the lift"):format(f, 0.1 * f - (ya - 0.4)))
          assert.is_false(a:wasStuck())
          for i = 1, 3 do
            for j = i + 1, 3 do
              assert.is_true(dist(list[i], list[j]) >= 0.8 - 1e-9, ("frame %d: %d and %d overlap"):format(f, i, j))
            end
          end
        end
      end)
    end

    -- a mover beside a rider, nearer than half the rider's skin, is not in
    -- the way of a placement that takes the rider off it (it was dragged or
    -- lifted along: found by an independent tester, 72 of 150 walkers)
    for _, d in ipairs { { 0, 0.5, 0 }, { -0.5, 0, 0 } } do
      it("drags no mover the rider is taken away from (" .. table.concat(d, ", ") .. ")", function()
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-10, -1, -5, 10, 0, 5)))
        local lift = w:add(cs.newMesh(cs.box(-0.75, 0, -0.15, -0.45, 0.1, 0.15)))
        local r = cs.newMover { radius = 0.4, position = { -0.6, 0.55, 0 } }
        local n = cs.newMover { radius = 0.4, position = { 0.9, 0.45, 0 }, skin = 0.001 }
        w:addMover(r); w:addMover(n)
        for _ = 1, 10 do w:collideAndSlide(r, 0, 0, 0, 0, -0.02, 0); w:collideAndSlide(n, 0, 0, 0, 0, -0.02, 0) end
        for _ = 1, 10 do w:collideAndSlide(n, -0.1, 0, 0, 0, -0.02, 0) end   -- walks into r and stops
        assert.are.equal(lift, r:getGroundBody())
        assert.is_true(dist(r, n) - 0.8 < 0.5 * r.skin)
        local before = { n:getPosition() }
        lift:setTransform(d[1], d[2], d[3])
        assert.are.same(before, { n:getPosition() })
      end)
    end

    -- a mover pushed before the mover it stands on is pushed stands on one
    -- going along: its next call does not carry it again (it went twice the
    -- way: found by an independent tester, 76 of 76 scenes)
    it("does not carry a pushed mover again by its pushed ground mover", function()
      local w = cs.newWorld()
      local lift = w:add(cs.newMesh(cs.box(-2.5, -1, -1, -1, 0, 1)))
      w:add(cs.newMesh(cs.box(-0.9, -1, -3, 6, 0, 3)))
      local r = cs.newMover { radius = { 0.3, 1.2, 0.3 }, position = { -1.8, 1.25, 0 } }
      local g = cs.newMover { radius = 0.4, position = { 0.5, 0.45, 0 } }
      local p = cs.newMover { radius = 0.4, position = { 0.1, 0.45 + math.sqrt(0.64 - 0.16) + 0.01, 0 } }
      local list = { r, g, p }
      for _, m in ipairs(list) do w:addMover(m) end
      for _ = 1, 20 do for _, m in ipairs(list) do w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0) end end
      assert.are.equal(g, p:getGroundMover())
      assert.are.equal(lift, r:getGroundBody())
      local p0, g0 = p:getPosition(), g:getPosition()
      lift:setTransform(2, 0, 0)
      assert.are.equal(2, g:getPosition() - g0)                 -- both pushed along
      assert.are.equal(2, p:getPosition() - p0)
      w:collideAndSlide(g, 0, 0, 0, 0, -0.01, 0)
      w:collideAndSlide(p, 0, 0, 0, 0, -0.01, 0)
      assert.near(2, p:getPosition() - p0, 1e-12)
      assert.are.equal(g, p:getGroundMover())
    end)

    -- a placement asks no filter: a mover a filter might let pass is not
    -- pushed (one whose filter crossed the rider was dragged 2.4 along: found
    -- by an independent tester); the rider's call carries it, crossing
    for _, who in ipairs { "rider", "other" } do
      it("pushes no mover when the " .. who .. " has a filter", function()
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-10, -1, -5, 10, 0, 5)))
        local lift = w:add(cs.newMesh(cs.box(-3, 0, -0.3, -1, 0.2, 0.3)))
        local r = cs.newMover { radius = 0.4, position = { -2, 0.7, 0 } }
        local n = cs.newMover { radius = 0.4, position = { 0.5, 0.5, 0.7 } }
        local cross = function(_, other) return (other == n or other == r) and "cross" or "slide" end
        if who == "rider" then r.filter = cross else n.filter = cross end
        w:addMover(r); w:addMover(n)
        for _ = 1, 30 do w:collideAndSlide(r, 0, 0, 0, 0, -0.02, 0); w:collideAndSlide(n, 0, 0, 0, 0, -0.02, 0) end
        local n0 = { n:getPosition() }
        for f = 1, 30 do
          lift:setTransform(0.15 * f, 0, 0)
          assert.are.same(n0, { n:getPosition() })
          w:collideAndSlide(r, 0, 0, 0, 0, -0.02, 0)
        end
      end)
    end

    -- a rider whose anchor is older than the lift's last placement (a turn,
    -- which takes none along) goes with its stack the way its anchor went,
    -- at once: it went to its anchor alone, into the mover on it (found by
    -- an independent tester; the same into a mover pushed by d, 400 of 500
    -- scenes); gone by the placement's own displacement, with the rest left
    -- to its call, its stack held it inside the lift (the next tester)
    it("takes a stack whose rider's anchor is old the way the anchor went", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-10, -1, -5, 10, 0, 5)))
      local lift = w:add(cs.newMesh(cs.box(-1, 0, -1, 1, 0.1, 1)))
      local r = cs.newMover { radius = 0.4, position = { 0, 0.55, 0 } }
      local s = cs.newMover { radius = 0.4, position = { 0, 1.4, 0 } }
      w:addMover(r); w:addMover(s)
      for _ = 1, 20 do w:collideAndSlide(r, 0, 0, 0, 0, -0.02, 0); w:collideAndSlide(s, 0, 0, 0, 0, -0.02, 0) end
      assert.are.equal(r, s:getGroundMover())
      local a = 0.05
      lift:setTransform(0, 0.2, 0, 0, math.sin(a / 2), 0, math.cos(a / 2))  -- takes none along
      lift:setTransform(0, 0.2, 0)                                         -- back unturned
      local _, ry0 = r:getPosition()
      local _, sy0 = s:getPosition()
      lift:setTransform(0, 0.3, 0)
      local _, ry = r:getPosition()
      local _, sy = s:getPosition()
      assert.near(0.3, ry - ry0, 1e-12)                   -- the anchor's way since r's call
      assert.near(0.3, sy - sy0, 1e-12)
      assert.is_true(dist(r, s) >= 0.8 - 1e-9)
      w:collideAndSlide(r, 0, 0, 0, 0, -0.02, 0)
      w:collideAndSlide(s, 0, 0, 0, 0, -0.02, 0)
      assert.is_true(dist(r, s) >= 0.8 - 1e-9)
      local _, y = r:getPosition()
      assert.is_true(y - 0.4 >= 0.4 - 1e-9 and y - 0.4 <= 0.4 + 2 * r.skin + 1e-9, ("r at %g"):format(y))
      assert.is_false(r:wasStuck())
    end)

    -- a mover in the way of a pushed one that cannot go (a ceiling) keeps
    -- them all to their calls, as before: none is placed into the ceiling
    it("pushes no mover into a ceiling", function()
      local w = cs.newWorld()
      local lift = w:add(cs.newMesh(cs.box(-3, -1, -3, 3, 0, 3)))
      w:add(cs.newMesh(cs.box(-3, 2.45, -3, 3, 3, 3)))      -- 0.05 over c's top
      local a = cs.newMover { radius = 0.4, position = { 0, 0.4, 0 } }
      local b = cs.newMover { radius = 0.4, position = { 0.1, 1.2, 0 } }
      local c = cs.newMover { radius = 0.4, position = { 0.3, 2.0, 0 } }
      for _, m in ipairs { a, b, c } do w:addMover(m) end
      w:collideAndSlide(a, 0, 0, 0, 0, -0.01, 0)
      w:collideAndSlide(b, 0, 0, 0, 0, -0.01, 0)
      assert.are.equal(a, b:getGroundMover())
      local ya, yb, yc = select(2, a:getPosition()), select(2, b:getPosition()), select(2, c:getPosition())
      assert.is_true(yc - yb < 0.9)                          -- b's way up meets c
      lift:setTransform(0, 0.1, 0)
      assert.are.equal(yc, select(2, c:getPosition()))     -- not pushed: its way is blocked
      assert.are.equal(yb, select(2, b:getPosition()))     -- nor b, nor a, which their calls carry
      assert.are.equal(ya, select(2, a:getPosition()))
    end)

    -- a turn of the platform leaves its riders to their calls (ellipsoids
    -- side by side turned a quarter were placed into each other)
    it("leaves its riders to their calls when turned", function()
      local w = cs.newWorld()
      local plat = w:add(cs.newMesh(cs.box(-4, -1, -4, 4, 0, 4)))
      local a = cs.newMover { radius = { 1, 0.5, 0.3 }, position = { 0, 0.51, -0.35 } }
      local b = cs.newMover { radius = { 1, 0.5, 0.3 }, position = { 0, 0.51, 0.35 } }
      w:addMover(a); w:addMover(b)
      w:collideAndSlide(a, 0, 0, 0, 0, -0.2, 0); w:collideAndSlide(b, 0, 0, 0, 0, -0.2, 0)
      local s = math.sqrt(0.5)
      plat:setTransform(0, 0, 0, 0, s, 0, s)
      assert.are.equal(0, w:overlap(a))                   -- not placed into b
      w:collideAndSlide(a, 0, 0, 0, 0, -0.2, 0); w:collideAndSlide(b, 0, 0, 0, 0, -0.2, 0)
      assert.are.equal(0, w:overlap(a))
      assert.are.equal(0, w:overlap(b))
    end)

    -- a placement from a filter (here of another world) does not move a
    -- mover whose move is under way
    it("does not take along a mover that is moving", function()
      local wa, wb = cs.newWorld(), cs.newWorld()
      wa:add(cs.newMesh(cs.box(-5, -1, -5, 5, 0, 5)))
      wa:add(cs.newMesh(cs.box(1, 0, -5, 3, 3, 5)))      -- a wall in world A
      local pb = wb:add(cs.newMesh(cs.box(-5, -1, -5, 5, 0, 5)))
      local m = cs.newMover { radius = 0.5, position = { 0, 0.505, 0 } }
      wb:addMover(m)
      wb:collideAndSlide(m, 0, 0, 0, 0, -0.1, 0)
      assert.are.equal(pb, m:getGroundBody())
      m.filter = function() pb:setTransform(2, 0, 0); return "slide" end
      local x = wa:collideAndSlide(m, 0.1, 0, 0, 0, -0.1, 0)
      assert.are.equal(0.1, x)                          -- not put into A's wall at x = 2
    end)

    -- a platform the mover no longer collides with (disabled, or a layer
    -- its collidesWith left out) carries no rider, added or not
    for _, how in ipairs { "disabled", "a layer left out" } do
      it("carries no rider when " .. how, function()
        for _, added in ipairs { false, true } do
          local w = cs.newWorld()
          local plat = w:add(cs.newMesh(cs.box(-5, -0.5, -5, 5, 0, 5)))
          local m = cs.newMover { radius = 0.5, position = { 3, 0.6, 0 } }
          if added then w:addMover(m) end
          w:collideAndSlide(m, 0, 0, 0, 0, -0.2, 0)
          assert.are.equal(plat, m:getGroundBody())
          if how == "disabled" then plat:setEnabled(false) else m.collidesWith = 2 end
          plat:setTransform(1, 0, 0)
          assert.are.equal(3, (m:getPosition()))
          assert.are.equal(3, (w:collideAndSlide(m, 0, 0, 0)))
        end
      end)
    end
    for _, velocity in ipairs { false, true } do
      it("takes its riders along once a frame, never through a wall (" ..
         (velocity and "placed, with a velocity" or "placed") .. ")", function()
        local plain, added = platform_run(false, velocity), platform_run(true, velocity)
        assert.are.equal(3.15, added[1])          -- one frame's carry, not two
        assert.near(6 - 0.5 - cs.newMover { radius = 0.5 }.skin, added[#added], 1e-9)
        for k = 1, #plain do assert.near(plain[k], added[k], 1e-9) end
      end)
    end
  end)

  -- a body that moves into a mover with movers standing on it: the push out
  -- that the mover's call chooses takes them along when it meets them and
  -- their ways are clear (its push up was blocked by the mover on it, which
  -- moves only by its travel: neither moved, and the mover stayed in the
  -- lift for good; found by an independent tester, round 28)
  describe("pushed out of a body with movers on it", function()
    -- the tester's scene: a lift (its top at 0.5), a on it, b on a; the lift
    -- placed 0.1 higher for 20 frames from before the stack's first call
    -- (nothing stands yet: it takes none along), then still; b and a move
    -- each frame with gravity, b first
    local function stack_scene()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-20, -1, -20, 20, 0, 20)))
      local lift = w:add(cs.newMesh(cs.box(-2, 0, -2, 2, 0.5, 2)), 0, 0, 0)
      local a = cs.newMover { radius = 0.5, position = { 0, 1.0 + 1e-3, 0 } }
      local b = cs.newMover { radius = 0.5, position = { 0, 2.0 + 2e-3, 0 } }
      w:addMover(a); w:addMover(b)
      return w, lift, a, b
    end
    -- how deep a's bottom is in the lift whose top is at `top`
    local function depth(m, top) return top - (select(2, m:getPosition()) - 0.5) end

    for _, how in ipairs { "in a batch", "a call each" } do
      it("takes them up with it, out of a lift that rose into it (" .. how .. ")", function()
        local w, lift, a, b = stack_scene()
        local y = 0
        for f = 1, 60 do
          if f <= 20 then y = y + 0.1; lift:setTransform(0, y, 0) end
          if how == "in a batch" then
            w:collideAndSlideMany({ b, a }, { 0, 0, 0, 0, -0.01, 0, 0, 0, 0, 0, -0.01, 0 })
          else
            w:collideAndSlide(b, 0, 0, 0, 0, -0.01, 0)
            assert.is_true(dist(a, b) >= 1 - 1e-9, ("frame %d: overlap %g"):format(f, 1 - dist(a, b)))
            w:collideAndSlide(a, 0, 0, 0, 0, -0.01, 0)
          end
          assert.is_true(dist(a, b) >= 1 - 1e-9, ("frame %d: overlap %g"):format(f, 1 - dist(a, b)))
          assert.is_true(depth(a, y + 0.5) <= 1e-9, ("frame %d: a %g into the lift"):format(f, depth(a, y + 0.5)))
          assert.are.equal(f == 1, a:wasStuck(), ("frame %d"):format(f))   -- pushed out at once
          assert.is_true(depth(b, y + 0.5) < 0)
        end
        assert.are.equal(a, b:getGroundMover())
        assert.are.equal(lift, a:getGroundBody())
      end)
    end

    -- the stack_embed variants: calls a then b, the lift rising from frame 1
    -- (before any call: a is freed at its second call, once b stands on it),
    -- or from frame 2, turned by 1e-6 rad at frame 5 (a placement that takes
    -- none along)
    for _, case in ipairs { { "rising before the first call", 99, 0, 1 }, { "turned once", 5, 1, 0 } } do
      it("takes them up with it, out of a lift " .. case[1], function()
        local w, lift, a, b = stack_scene()
        local y, embedded = 0, 0
        for f = 1, 40 do
          if f > case[3] then y = y + 0.1 end
          if f == case[2] then
            lift:setTransform(0, y, 0, 0, math.sin(0.5e-6), 0, math.cos(0.5e-6))
          else
            lift:setTransform(0, y, 0)
          end
          w:collideAndSlide(a, 0, 0, 0, 0, -0.01, 0)
          w:collideAndSlide(b, 0, 0, 0, 0, -0.01, 0)
          assert.is_true(dist(a, b) >= 1 - 1e-9, ("frame %d: overlap %g"):format(f, 1 - dist(a, b)))
          if depth(a, y + 0.5) > 1e-9 then embedded = embedded + 1 end
        end
        assert.is_true(embedded <= case[4], ("%d calls ended with a in the lift"):format(embedded))
        assert.is_false(a:wasStuck())
      end)
    end

    -- b's way up is blocked (a ceiling 0.05 over it; a filter, which the
    -- sweep of its way does not ask): nothing is taken along, as before,
    -- and a stays stuck in the lift
    for _, what in ipairs { "a ceiling", "a filter" } do
      it("takes none along whose way is blocked (" .. what .. ")", function()
        local w, lift, a, b = stack_scene()
        if what == "a ceiling" then w:add(cs.newMesh(cs.box(-20, 2.55, -20, 20, 3, 20))) end
        if what == "a filter" then b.filter = function() return "slide" end end
        w:collideAndSlide(b, 0, 0, 0, 0, -0.01, 0)
        assert.are.equal(a, b:getGroundMover())
        local b0 = { b:getPosition() }
        lift:setTransform(0, 0.1, 0)
        w:collideAndSlide(a, 0, 0, 0, 0, -0.01, 0)
        assert.are.same(b0, { b:getPosition() })
        assert.is_true(a:wasStuck())
        assert.near(0.099, depth(a, 0.6), 1e-9)
      end)
    end
  end)

  describe("shapes", function()
    -- a cigar (radii 1, 0.25, 0.25) walks along x into a disc (radii 0.25, 1,
    -- 1) turned a quarter about y: the tip stops at the disc's rim
    it("meet by their true surfaces, any radii and orientation", function()
      local w = cs.newWorld()
      local a = cs.newMover { radius = { 1, 0.25, 0.25 }, position = { -5, 0, 0 } }
      local b = cs.newMover { radius = { 0.25, 1, 1 }, position = { 0, 0, 0 },
                              orientation = { 0, 0.70710678118654752, 0, 0.70710678118654752 } }
      w:addMover(a); w:addMover(b)
      local x = w:collideAndSlide(a, 10, 0, 0)
      local gap = -x - 2
      assert.is_true(gap >= 0 and gap <= 2 * a.skin, "gap " .. gap)
    end)
  end)

  describe("layers", function()
    it("let a mover through another whose layers its collidesWith does not meet", function()
      local w = cs.newWorld()
      local a = cs.newMover { radius = 0.5, position = { -2, 0, 0 }, collidesWith = 1 }
      local b = cs.newMover { radius = 0.5 }
      b.layers = 2
      assert.are.equal(2, b.layers)
      w:addMover(a); w:addMover(b)
      assert.are.equal(2, (w:collideAndSlide(a, 4, 0, 0)))
      a.collidesWith = 3
      assert.is_true(w:collideAndSlide(a, -4, 0, 0) > -1)   -- now it meets b
    end)

    it("make a mover that is not added solid to nobody", function()
      local w = cs.newWorld()
      local a = cs.newMover { radius = 0.5, position = { -2, 0, 0 } }
      local b = cs.newMover { radius = 0.5 }
      w:addMover(a)                                          -- b is not added
      assert.are.equal(2, (w:collideAndSlide(a, 4, 0, 0)))
      w:removeMover(a)
      assert.are.equal(0, w:moverCount())
    end)
  end)

  describe("filters", function()
    --   A o-->   o B (a ghost: "cross")   o C (a door sensor of sorts: "touch")
    it("are asked about other movers too, naming them, and their answer holds", function()
      local w = cs.newWorld()
      local b = cs.newMover { radius = 0.5, position = { 2, 0, 0 } }
      local c = cs.newMover { radius = 0.5, position = { 5, 0, 0 } }
      local asked = {}
      local a = cs.newMover { radius = 0.5, position = { 0, 0, 0 }, filter = function(self, other, tag)
        asked[#asked + 1] = other
        assert.are.equal(0, tag)
        return other == b and "cross" or "touch"
      end }
      w:addMover(a); w:addMover(b); w:addMover(c)
      local x = w:collideAndSlide(a, 10, 0, 0)
      assert.is_true(x > 3.9 and x < 4.0, "went through B, stopped at C: " .. x)
      assert.are.equal(c, select(8, a:getContact(1)))
      local seen = {}
      for _, o in ipairs(asked) do seen[o] = true end
      assert.is_true(seen[b] and seen[c])
      -- an error in the filter leaves the mover where it was
      a.filter = function() error("no") end
      assert.has_error(function() w:collideAndSlide(a, -1, 0, 0) end)
      assert.are.equal(x, (a:getPosition()))
    end)
  end)

  describe("overlapping movers", function()
    -- a mover teleported into another is pushed out by its next call
    it("are pushed apart by depenetration", function()
      local w = floor_world()
      local a = cs.newMover { radius = 0.5, position = { 0, 0.51, 0 } }
      local b = cs.newMover { radius = 0.5, position = { 0.3, 0.51, 0 } }
      w:addMover(a); w:addMover(b)
      w:collideAndSlide(b, 0, 0, 0, 0, -0.05, 0)
      assert.is_true(dist(a, b) >= 1 - 1e-6)
      assert.is_true(b:wasStuck())
      local _, y = b:getPosition()
      assert.is_true(y >= 0.5 - 1e-6)                      -- not into the floor
    end)

    -- side view: m (r 0.5) put on a closed slab's top face, under o (r 0.5,
    -- centre (0.2, 1.2)); the way out of o points down into the slab
    --         o
    --       m            slab top y = 0, bottom -0.6 or -1.5
    --   ===========
    it("never push a mover through a closed slab under them", function()
      for _, bottom in ipairs { -0.3, -0.6, -1.5 } do
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-20, bottom, -20, 20, 0, 20)))
        local o = cs.newMover { radius = 0.5, position = { 0.2, 1.2, 0 } }
        local m = cs.newMover { radius = 0.5, position = { 5, 0.5, 0 } }
        w:addMover(o); w:addMover(m)
        m:setPosition(0, 0.5, 0)
        local _, y = w:collideAndSlide(m, 1, 0, 0)
        assert.is_true(m:wasStuck())
        assert.is_true(y >= 0.5 - 1e-9, "slab bottom " .. bottom .. ": ended at y " .. y)
        assert.is_true(dist(m, o) >= 1 - 1e-9, "still overlapping: " .. dist(m, o))
      end
    end)

    -- side view: m (r 0.4) rests on a slab under o, then grows to 0.5: it
    -- overlaps the slab and o at once, and leaves both (up a little and
    -- sideways) by its next call
    it("push a grown mover out from between the floor and another", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-20, -0.6, -20, 20, 0, 20)))
      local o = cs.newMover { radius = 0.5, position = { 0.2, 1.3, 0 } }
      local m = cs.newMover { radius = 0.4, position = { 0, 0.404, 0 } }
      w:addMover(o); w:addMover(m)
      w:collideAndSlide(m, 0, 0, 0, 0, -0.1, 0)
      m:setRadius(0.5)
      local _, y = w:collideAndSlide(m, 0, 0, 0, 0, -0.1, 0)
      assert.is_true(m:wasStuck())
      assert.is_true(y >= 0.5 - 1e-9, "into the floor: y " .. y)
      assert.is_true(dist(m, o) >= 1 - 1e-9, "still overlapping: " .. dist(m, o))
      w:collideAndSlide(m, 0, 0, 0, 0, -0.1, 0)
      assert.is_false(m:wasStuck())
    end)

    -- side view: a door 0.2 thick slides onto a resting mover (r 0.5), whose
    -- centre ends inside it: the next call pushes it out of the door (the
    -- door came to it: its last safe place, where it still is, says nothing
    -- of the way out) on the way the door went, to its -x side (its centre
    -- at the door's middle went out the +x side, the first of two faces as
    -- near, before pushes took a body's motion), and a lift rising 0.5 in
    -- one frame under a mover on the floor lifts it on top (SAFE_MOVED_D2 in
    -- cs_slide.c)
    it("are pushed out of a body moved onto them, the way out of the body", function()
      local w = cs.newWorld()
      local door = w:add(cs.newMesh(cs.box(-0.1, -2, -3, 0.1, 2, 3)), 5, 0, 0)
      local m = cs.newMover { radius = 0.5, position = { 0, 0, 0 } }
      w:collideAndSlide(m, 0.1, 0, 0)
      door:setTransform(0.1, 0, 0)
      local x = w:collideAndSlide(m, 0, 0, 0)
      assert.is_true(m:wasStuck())
      assert.near(-0.5, x, 0.02)                  -- ahead of the door
      w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-20, -3, -20, 20, 0, 20)))
      local lift = w:add(cs.newMesh(cs.box(-2, -1, -2, 2, 0, 2)), 0, -0.1, 0)
      m = cs.newMover { radius = 0.25, position = { 0.5, 0.26, 0.5 } }
      w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0)
      lift:setTransform(0, 0.4, 0)
      local _, y = w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0)
      assert.is_true(y >= 0.4 + 0.25 - 1e-9, "under the lift's top: y " .. y)
      w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0)
      assert.are.equal(lift, m:getGroundBody())
    end)

    -- side view: a wall t thick placed r + t/2 or more into a resting mover
    -- a step (a fast pusher at a low frame rate) has the centre past its
    -- middle: the face nearest the centre was its far one, and the mover
    -- came out behind the wall (found by an independent tester: a 0.5 m wall
    -- at 20 m/s and 30 Hz against a character of radius 0.4). Pushed on the
    -- way the wall went, closed (cs.box) or open (each face its own
    -- vertices: no solid), for walls up to the mover's radius thick placed
    -- by less than the radius and the thickness (so that the centre is not
    -- yet behind the wall's back face: README, Limits), never behind it.
    it("are pushed on ahead of a wall placed far into them", function()
      local function open_box(x0, y0, z0, x1, y1, z1)
        local V, I = cs.box(x0, y0, z0, x1, y1, z1)
        local V2, I2 = {}, {}
        for k = 1, #I do               -- every triangle its own vertices
          local v = I[k]
          for c = 1, 3 do V2[#V2 + 1] = V[3 * (v - 1) + c] end
          I2[k] = k
        end
        return V2, I2
      end
      local rng = H.rng(H.seed(2811, "pushers"))
      for case = 1, 60 do
        local r = rng:range(0.2, 0.6)
        local t = rng:range(0.05, r)
        local step = rng:range(0.1, r + t - 0.02)
        local make = case % 2 == 0 and cs.box or open_box
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
        local wall = w:add(cs.newMesh(make(-t, 0, -3, 0, 4, 3)), -r - 0.01, 0, 0)   -- its +x face
        local m = cs.newMover { radius = r, position = { 0, r + 0.001, 0 } }
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        local face = -r - 0.01
        for f = 1, 4 do
          face = face + step
          wall:setTransform(face, 0, 0)
          local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
          assert.is_true(x >= face + r - 1e-9,
            ("case %d (r %g, t %g, step %g), step %d: x %.17g behind the wall's face at %g"):format(
              case, r, t, step, f, x, face))
        end
      end
    end)

    -- the push on with a body's motion, and what it must not do (found by
    -- an independent tester in its first form): go through another body
    -- (a block placed onto a mover resting against a wall quad that faces
    -- away pushed it through the quad), take a wall's last small move for
    -- its way (placed twice between two calls, back 0.01 the second time,
    -- it came out behind), or count an add's placement as a move from the
    -- origin (a crate added onto a mover pushed it out the far side)
    it("are pushed on with a body's motion only through that body, from where it was", function()
      for _, facing in ipairs { 1, -1 } do        -- crusher against a wall quad
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
        local q = facing > 0 and { 1, 0, -3, 1, 4, -3, 1, 4, 3, 1, 0, 3 } or { 1, 0, -3, 1, 0, 3, 1, 4, 3, 1, 4, -3 }
        w:add(cs.newMesh(q, { 1, 2, 3, 1, 3, 4 }))
        local block = w:add(cs.newMesh(cs.box(0, 0, -3, 0.4, 4, 3)), -3, 0, 0)
        local m = cs.newMover { radius = 0.4, position = { 0.597, 0.401, 0 } }
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        block:setTransform(0.3, 0, 0)
        local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        assert.is_true(x < 1, "the quad facing " .. facing .. ": x " .. x)
      end
      for _, other in ipairs { false, true } do   -- a wall placed twice, another
        local w = cs.newWorld()                   -- mover's call between or not
        w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
        local wall = w:add(cs.newMesh(cs.box(0, 0, -3, 0.3, 4, 3)), 3, 0, 0)
        local m = cs.newMover { radius = 0.4, position = { 0, 0.401, 0 } }
        local b = cs.newMover { radius = 0.4, position = { 0, 0.401, 20 } }
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        wall:setTransform(-0.11, 0, 0)
        if other then w:collideAndSlide(b, 0, 0, 0, 0, -0.01, 0) end
        wall:setTransform(-0.1, 0, 0)
        local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        assert.is_true(x <= -0.1 - 0.4 + 1e-9, "x " .. x)
      end
      do                                          -- crushed with no room ahead,
        local w = cs.newWorld()                   -- and the calls after
        w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
        w:add(cs.newMesh({ 1, 0, -3, 1, 4, -3, 1, 4, 3, 1, 0, 3 }, { 1, 2, 3, 1, 3, 4 }))   -- facing away
        local block = w:add(cs.newMesh(cs.box(0, 0, -3, 0.8, 4, 3)), -3, 0, 0)
        local m = cs.newMover { radius = 0.4, position = { 0.597, 0.401, 0 } }
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        block:setTransform(0.037, 0, 0)
        for call = 1, 3 do
          local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
          assert.is_true(x < 1, "call " .. call .. ": x " .. x)
        end
      end
      do                                          -- a block coming 0.2 a frame
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
        w:add(cs.newMesh({ 1, 0, -3, 1, 4, -3, 1, 4, 3, 1, 0, 3 }, { 1, 2, 3, 1, 3, 4 }))   -- facing away
        local front = -0.3
        local block = w:add(cs.newMesh(cs.box(-1, 0, -3, 0, 4, 3)), front, 0, 0)
        local m = cs.newMover { radius = 0.5, position = { 0.495, 0.501, 0 } }
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        for f = 1, 8 do
          front = math.min(front + 0.2, 0.975)
          block:setTransform(front, 0, 0)
          local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
          assert.is_true(x < 1, "frame " .. f .. ": x " .. x)
        end
      end
      for _, cx in ipairs { 10.1, 9.9 } do        -- a crate added onto a mover
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
        local m = cs.newMover { radius = 0.5, position = { 10, 0.501, 0 } }
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        w:add(cs.newMesh(cs.box(-0.3, 0, -0.3, 0.3, 2, 0.3)), cx, 0, 0)
        local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        assert.near(0.3 - math.abs(cx - 10) + 0.5, math.abs(x - 10), 0.01)   -- the shortest way
        assert.is_true((x - 10) * (10 - cx) > 0, "x " .. x)
      end
    end)

    -- and what the rule "no push through a surface that did not move" must
    -- leave (found by an independent tester in its first form): a mover
    -- held in a block by a wall gets out of the block once the wall goes
    -- (it stayed in for good), and a mover rising through a jump-through
    -- floor whose centre ends exactly on its plane ends on top (it was sent
    -- back below, 72 of 1,000)
    it("get out of a solid they were held in once there is room, and onto a jump-through floor", function()
      for _, how in ipairs { "remove", "disable", "move" } do
        local w = cs.newWorld()
        w:add(cs.newMesh(cs.box(-50, -1, -50, 50, 0, 50)))
        local wall = w:add(cs.newMesh(cs.box(1, 0, -3, 1.5, 4, 3)))
        local block = w:add(cs.newMesh(cs.box(-3, 0, -3, 0, 4, 3)), -0.2, 0, 0)
        local m = cs.newMover { radius = 0.4, position = { 0.59, 0.401, 0 } }
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        block:setTransform(0.7, 0, 0)              -- past the centre, no room ahead
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        assert.is_true(m:wasStuck())
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        if how == "remove" then w:remove(wall) elseif how == "disable" then wall:setEnabled(false)
        else wall:setTransform(5, 0, 0) end
        local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        assert.is_true(x >= 0.7 + 0.4, how .. ": x " .. x)
      end
      local w = cs.newWorld()
      w:add(cs.newMesh({ -5, 2, -5, -5, 2, 5, 5, 2, 5, 5, 2, -5 }, { 1, 2, 3, 1, 3, 4 }, { backfaces = "ignore" }))
      local m = cs.newMover { radius = 0.46875, position = { -1.328125, 2 - 2 * 0.359375, 1.78125 } }
      w:collideAndSlide(m, 0, 0, 0)
      w:collideAndSlide(m, 0, 0.359375, 0)
      w:collideAndSlide(m, 0, 0.359375, 0)        -- the centre ends on the plane, pushed out
      local x, y = m:getPosition()
      assert.is_true(y >= 2 + 0.46875 and x == -1.328125, ("x %.17g, y %.17g"):format(x, y))
    end)

    -- the same door slid onto a mover that rides a platform moving along z
    -- (its carry takes it from its last safe place, whose side of the door
    -- says nothing: the door moved since): pushed out, not left inside
    it("are pushed out of a door slid onto them while they ride", function()
      for _, added in ipairs { false, true } do
        local w = cs.newWorld()
        local plat = w:add(cs.newMesh(cs.box(-3, -0.5, -3, 3, 0, 3)))
        local door = w:add(cs.newMesh(cs.box(-0.1, 0, -3, 0.1, 4, 3)), 5, 0.1, 0)
        local m = cs.newMover { radius = 0.5, position = { 0, 0.51, 0 } }
        if added then w:addMover(m) end
        w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
        for f = 1, 4 do
          plat:setTransform(0, 0, 0.05 * f)
          if f == 2 then door:setTransform(0.02, 0.1, 0) end
          local x = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
          if f >= 2 then
            assert.is_true(math.abs(x - 0.02) >= 0.6 - 1e-9, "frame " .. f .. ": x " .. x)
            assert.is_true(f == 2 or not m:wasStuck(), "still stuck at frame " .. f)
          end
        end
      end
    end)

    -- side view: two movers (r 0.5) spawned at the same point, their centres
    -- on a thin slab's top face (y = 0): the second is pushed up, never
    -- down through the slab (a centre on a plane is on its front)
    it("put on a slab's face are never pushed through it", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-10, -0.2, -10, 10, 0, 10)))
      local ms = { cs.newMover { radius = 0.5 }, cs.newMover { radius = 0.5 } }
      w:addMover(ms[1]); w:addMover(ms[2])
      for _ = 1, 3 do
        for _, m in ipairs(ms) do
          local _, y = w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0)
          assert.is_true(y >= -1e-9, "below the slab's top: y " .. y)
        end
      end
    end)

    -- a teleport is taken as meant: from a place under a 0.1 slab to 0.45
    -- above its top (feet 0.05 in), the mover stays on top (0.05 up), not
    -- back down through the slab; teleported into the 0.3 gap under a closed
    -- block (r 0.45, its head in the block's underside), it is not pushed up
    -- into the block (the place it came from, beside the block, is above the
    -- underside's plane: no guide across a teleport)
    it("teleported into geometry are pushed out on the side they were put", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-10, -1, -10, 10, 0, 10)))
      w:add(cs.newMesh(cs.box(-3, 1.5, -3, 3, 1.6, 3)))
      local m = cs.newMover { radius = 0.5, position = { 0, 0.6, 0 } }
      w:collideAndSlide(m, 0, 0, 0, 0, -0.2, 0)
      m:setPosition(0, 2.05, 0)
      local _, y = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
      assert.is_true(m:wasStuck())
      assert.near(2.1 + m.skin, y, 1e-9)
      w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-10, -1, -10, 10, 0, 10)))
      w:add(cs.newMesh(cs.box(0, 0.3, -2, 4, 2, 2)))
      m = cs.newMover { radius = 0.45, position = { -0.6, 0.5, 0 } }
      for _ = 1, 3 do w:collideAndSlide(m, 0, 0, 0, 0, -0.2, 0) end
      m:setPosition(0.6, 0.2, 0)
      local x
      x, y = w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
      assert.is_false(x > 0 and x < 4 and y > 0.3 and y < 2, "centre inside the block: " .. x .. ", " .. y)
    end)

    -- front view: A (r 1) rests on a floor; B (r 0.3) is put d from A's
    -- centre (d < 0.7: wholly inside A) along a few ways, down too: its
    -- next call pushes it out of A (1.3 - d or more: past B's own two radii,
    -- the reach of a call standing still), never into the floor nor into C
    --        ___
    --       / B \  A    C
    --   ====\___/=======O===
    it("put wholly inside a larger one are pushed out by one call", function()
      for _, d in ipairs { 0, 0.3, 0.6 } do
        for _, u in ipairs { { 1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0.6, 0, 0.8 } } do
          local w = floor_world()
          local a = cs.newMover { radius = 1, position = { 0, 1.01, 0 } }
          local c = cs.newMover { radius = 0.5, position = { 2.7, 0.51, 0 } }
          local asked = {}
          local b = cs.newMover { radius = 0.3, position = { 10, 0.3, 0 }, filter = function(_, o)
            asked[o] = (asked[o] or 0) + 1
            return "slide"
          end }
          w:addMover(a); w:addMover(b); w:addMover(c)
          b:setPosition(d * u[1], 1.01 + d * u[2], d * u[3])
          local where = "d " .. d .. " along " .. table.concat(u, ", ")
          local _, y = w:collideAndSlide(b, 0, 0, 0)
          assert.is_true(b:wasStuck(), where)
          -- the filter, asked once about each mover the call meets: A and C
          -- (met in the wider reach only)
          assert.are.equal(1, asked[a], where)
          assert.are.equal(1, asked[c], where)
          assert.is_true(dist(a, b) >= 1.3 - 1e-9, where .. ": still in A, " .. dist(a, b) .. " apart")
          assert.is_true(y >= 0.3 - 1e-9, where .. ": into the floor, y " .. y)
          assert.is_true(dist(c, b) >= 0.8 - 1e-9, where .. ": into C, " .. dist(c, b) .. " apart")
          assert.are.same({ 0, 1.01, 0 }, { a:getPosition() })
          w:collideAndSlide(b, 0, 0, 0)
          assert.is_false(b:wasStuck(), where)
        end
      end
    end)

    -- front view: the same A with a wall 0.1 right of it and a ceiling 0.2
    -- over it; B (r 0.3) put 0.6 right of A's centre: the way out of A
    -- (right) and up are shut, B leaves by a free side (left, front, back)
    --   ==========
    --      ___  |
    --     / AB\ |
    --   ==\___/=|
    it("inside a larger one by a wall leave it by a free side", function()
      local w = floor_world()
      w:add(cs.newMesh(cs.box(1.11, 0, -50, 2, 2.21, 50)))
      w:add(cs.newMesh(cs.box(-50, 2.21, -50, 50, 3, 50)))
      local a = cs.newMover { radius = 1, position = { 0, 1.01, 0 } }
      local b = cs.newMover { radius = 0.3, position = { -10, 0.3, 0 } }
      w:addMover(a); w:addMover(b)
      b:setPosition(0.6, 1.01, 0)
      local x, y = w:collideAndSlide(b, 0, 0, 0)
      assert.is_true(b:wasStuck())
      assert.is_true(dist(a, b) >= 1.3 - 1e-9, "still in A: " .. dist(a, b) .. " apart")
      assert.is_true(x <= 1.11 - 0.3 + 1e-9, "into the wall: x " .. x)
      assert.is_true(y >= 0.3 - 1e-9 and y <= 2.21 - 0.3 + 1e-9, "into the floor or ceiling: y " .. y)
      w:collideAndSlide(b, 0, 0, 0)
      assert.is_false(b:wasStuck())
    end)

    -- the same for turned ellipsoids: B (radii 0.3, 0.15, 0.25) put at or
    -- near the centre of A (radii 1.5, 0.7, 1), both turned, A resting on
    -- the floor; the overlap is checked on 4,000 points of each surface
    it("of any shape put wholly inside a larger one are pushed out by one call", function()
      local qa = { 0.2 / 0.9695, 0.3 / 0.9695, 0.1 / 0.9695, 0 }
      qa[4] = math.sqrt(1 - qa[1] ^ 2 - qa[2] ^ 2 - qa[3] ^ 2)
      local qb = { 0.3, 0, 0.4, math.sqrt(0.75) }
      local ra, rb = { 1.5, 0.7, 1 }, { 0.3, 0.15, 0.25 }
      -- the world half extent along y of an ellipsoid (radii r, turned by q)
      local function half_y(r, q)
        local h = 0
        for j = 1, 3 do
          local e = { 0, 0, 0 }
          e[j] = r[j]
          h = h + select(2, H.rotate(q[1], q[2], q[3], q[4], e[1], e[2], e[3])) ^ 2
        end
        return math.sqrt(h)
      end
      -- the least scaled distance from E's centre (c, r, q) of n points on
      -- F's surface (1: touching; less: overlapping)
      local function least(c, r, q, fc, fr, fq, n)
        local m = math.huge
        for i = 0, n - 1 do
          local z = 1 - (2 * i + 1) / n
          local t, k = math.sqrt(1 - z * z), i * 2.399963229728653
          local px, py, pz = H.rotate(fq[1], fq[2], fq[3], fq[4],
                                      fr[1] * t * math.cos(k), fr[2] * t * math.sin(k), fr[3] * z)
          local ex, ey, ez = H.rotate(-q[1], -q[2], -q[3], q[4],
                                      fc[1] + px - c[1], fc[2] + py - c[2], fc[3] + pz - c[3])
          m = math.min(m, H.length(ex / r[1], ey / r[2], ez / r[3]))
        end
        return m
      end
      local ca = { 0, half_y(ra, qa) + 0.01, 0 }
      for _, off in ipairs { { 0, 0, 0 }, { 0.4, 0, 0 }, { 0, -0.3, 0.2 }, { -0.5, 0.2, -0.3 } } do
        local w = floor_world()
        local a = cs.newMover { radius = ra, position = ca, orientation = qa }
        local b = cs.newMover { radius = rb, position = { 10, 1, 0 }, orientation = qb }
        w:addMover(a); w:addMover(b)
        b:setPosition(ca[1] + off[1], ca[2] + off[2], ca[3] + off[3])
        local where = "put at " .. table.concat(off, ", ") .. " from A's centre"
        local x, y, z = w:collideAndSlide(b, 0, 0, 0)
        local cb = { x, y, z }
        assert.is_true(b:wasStuck(), where)
        local s = math.min(least(ca, ra, qa, cb, rb, qb, 4000), least(cb, rb, qb, ca, ra, qa, 4000))
        assert.is_true(s >= 1 - 1e-9, where .. ": still in A (" .. s .. ")")
        assert.is_true(y - half_y(rb, qb) >= -1e-9, where .. ": into the floor, y " .. y)
        w:collideAndSlide(b, 0, 0, 0)
        assert.is_false(b:wasStuck(), where)
      end
    end)

    -- 2 to 8 movers of random shapes in a closed room (its faces two-sided),
    -- moving at random toward each other and anywhere, some falling: none
    -- ever leaves the room, however they ride and push each other
    it("never leave a closed room", function()
      local rng = H.rng(H.seed(2611, "room"))
      local left = 0
      for _ = 1, H.count(40, 10) do
        local w, wd = cs.newWorld(), rng:range(2, 6)
        w:add(cs.newMesh(cs.box(-wd, -wd, -wd, wd, wd, wd)))
        local movers = {}
        for _ = 1, rng:int(2, 8) do
          local r = { rng:range(0.1, 1), rng:range(0.1, 1), rng:range(0.1, 1) }
          local m = cs.newMover { radius = r, position = { 0, 0, 0 } }
          for _ = 1, 50 do          -- a free place
            m:setPosition(rng:range(-wd + 1, wd - 1), rng:range(-wd + 1, wd - 1), rng:range(-wd + 1, wd - 1))
            if w:overlap(m, function() return false end) == 0 then
              w:addMover(m); movers[#movers + 1] = m
              break
            end
          end
        end
        for _ = 1, 30 do
          for _, m in ipairs(movers) do
            local x, y, z = m:getPosition()
            local dx, dy, dz
            if rng:range(0, 1) < 0.5 then
              local ox, oy, oz = movers[rng:int(1, #movers)]:getPosition()
              local k = rng:range(0.5, 3)
              dx, dy, dz = (ox - x) * k, (oy - y) * k, (oz - z) * k
            else
              dx, dy, dz = rng:range(-wd, wd), rng:range(-wd, wd), rng:range(-wd, wd)
            end
            w:collideAndSlide(m, dx, dy, dz, 0, rng:range(0, 1) < 0.3 and -rng:range(0, 1) or 0, 0)
            x, y, z = m:getPosition()
            if math.max(math.abs(x), math.abs(y), math.abs(z)) >= wd then left = left + 1 end
          end
        end
      end
      assert.are.equal(0, left)
    end)
  end)

  describe("queries", function()
    --   ray from x = -5 ---->  o npc (radius 0.5 at x = 0)   | wall x = 3
    it("find added movers: raycast, raycastAll, sweepEllipsoid, sweep", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(3, -5, -5, 4, 5, 5)))
      local npc = cs.newMover { radius = 0.5 }
      local player = cs.newMover { radius = 0.5, position = { -5, 0, 0 } }
      w:addMover(npc); w:addMover(player)
      -- from the player's centre: its own mover is not hit, the NPC is
      local t, px, _, _, nx, _, _, _, other = w:raycast(-5, 0, 0, 10, 0, 0)
      assert.near(0.45, t, 1e-12)
      assert.near(-0.5, px, 1e-12)
      assert.near(-1, nx, 1e-12)
      assert.are.equal(npc, other)
      local hits = {}
      w:raycastAll(-5, 0, 0, 10, 0, 0, function(ht, _, _, _, _, _, _, _, o) hits[#hits + 1] = { ht, o } end)
      assert.is_true(#hits >= 3)                   -- the NPC, then the wall's faces
      assert.are.equal(npc, hits[1][2])
      for i = 2, #hits do assert.is_true(hits[i][1] > hits[1][1] and hits[i][2] ~= npc) end
      -- a mask that leaves the NPC's layer out
      npc.layers = 4
      t, _, _, _, _, _, _, _, other = w:raycast(-5, 0, 0, 10, 0, 0, 3)
      assert.near(0.8, t, 1e-12)
      assert.are_not.equal(npc, other)
      npc.layers = 1
      -- a swept ellipsoid where the player stands overlaps it at once (t = 0,
      -- as with triangles); the player's own sweep never meets itself
      t, _, _, _, _, _, _, _, other = w:sweepEllipsoid(-5, 0, 0, 0.5, 0.5, 0.5, 10, 0, 0)
      assert.are.equal(0, t)
      assert.are.equal(player, other)
      t, _, _, _, _, _, _, _, other = w:sweepEllipsoid(-3, 0, 0, 0.5, 0.5, 0.5, 10, 0, 0)
      assert.near(0.2, t, 1e-9)
      assert.are.equal(npc, other)
      t, _, _, _, _, _, _, _, other = w:sweep(player, 10, 0, 0)
      assert.near(0.4, t, 1e-9)
      assert.are.equal(npc, other)
      for _, mask in ipairs { 1, 0xFFFFFFFF } do      -- with a mask too, never itself
        t, _, _, _, _, _, _, _, other = w:sweep(player, 10, 0, 0, mask)
        assert.near(0.4, t, 1e-9)
        assert.are.equal(npc, other)
      end
      assert.is_nil(w:sweep(player, -1, 0, 0, 0xFFFFFFFF))
      -- overlaps: a sphere of 0.5 at x = 0.8 overlaps the NPC by 0.2 (out +x);
      -- the player's own overlap never reports the player
      local seen = {}
      local n = w:overlapEllipsoid(0.8, 0, 0, 0.5, 0.5, 0.5, function(o, tri, depth, ox, oy, oz, tg)
        seen[#seen + 1] = { o, tri, depth, ox, oy, oz, tg }
      end)
      assert.are.equal(1, n)
      assert.are.equal(npc, seen[1][1])
      assert.are.same({ 1, 0 }, { seen[1][2], seen[1][7] })
      assert.near(0.2, seen[1][3], 1e-9)
      assert.near(1, seen[1][4], 1e-9)
      -- a callback that stops on the wall's first triangle is not asked
      -- about the NPC (counts include the call that stopped)
      local calls = 0
      assert.are.equal(1, w:overlapEllipsoid(2.5, 0, 0, 2.4, 2.4, 2.4, function(o)
        calls = calls + 1
        assert.are_not.equal(npc, o)
        return false
      end))
      assert.are.equal(1, calls)
      assert.is_true(w:overlapEllipsoid(2.5, 0, 0, 2.4, 2.4, 2.4, function() end) > 2)
      player:setPosition(0.6, 0, 0)
      seen = {}
      assert.are.equal(1, w:overlap(player, function(o) seen[#seen + 1] = o end))
      assert.are.same({ npc }, seen)
    end)

    -- an elongated query against an added mover: the depth is how far it
    -- must go along the normal to leave it (it was the tangent plane's
    -- distance, 2.795 here for 1.441: found by an independent tester)
    it("reports the depth along the normal for an elongated overlap", function()
      local w = cs.newWorld()
      w:addMover(cs.newMover { radius = { 0.6, 2.7, 1.9 } })
      local p, r = { 0.1, 0, -1.7 }, { 0.35, 0.8, 3 }
      local depth, nx, ny, nz
      assert.are.equal(1, w:overlapEllipsoid(p[1], p[2], p[3], r[1], r[2], r[3], function(_, _, d, x, y, z)
        depth, nx, ny, nz = d, x, y, z
      end))
      assert.is_true(depth > 1 and depth < 2, tostring(depth))
      local function count(k)
        return w:overlapEllipsoid(p[1] + k * nx, p[2] + k * ny, p[3] + k * nz, r[1], r[2], r[3], function() end)
      end
      assert.are.equal(0, count(depth * (1 + 1e-9)))
      assert.are.equal(1, count(depth * (1 - 1e-6)))
    end)
  end)

  describe("bad input", function()
    it("refuses adding twice, to two worlds, and removing an absent mover", function()
      local w, v = cs.newWorld(), cs.newWorld()
      local m = cs.newMover()
      w:addMover(m)
      local ok, e = pcall(w.addMover, w, m)
      assert.is_false(ok); assert.matches("in a world already", e)
      ok, e = pcall(v.addMover, v, m)
      assert.is_false(ok); assert.matches("in a world already", e)
      ok, e = pcall(v.removeMover, v, m)
      assert.is_false(ok); assert.matches("not in this world", e)
      assert.are.equal(1, w:moverCount())
      assert.are.equal(0, v:moverCount())
      assert.has_error(function() w:addMover({}) end)
      assert.has_error(function() m.layers = "all" end)
    end)
  end)

  describe("lifetimes", function()
    it("survive closing the world or collecting the movers", function()
      local w = cs.newWorld()
      local a = cs.newMover { radius = 0.5, position = { -2, 0, 0 } }
      w:addMover(a)
      w:addMover(cs.newMover { radius = 0.5 })              -- kept alive by the world
      collectgarbage("collect")
      w:collideAndSlide(a, 3, 0, 0)
      assert.are.equal(1, a:contactCount())
      local mt = getmetatable(w)
      if type(mt) == "table" and mt.__close then
        mt.__close(w)
        local v = cs.newWorld()
        v:addMover(a)                                      -- in no world any more
        assert.are.equal(1, v:moverCount())
      end
    end)
  end)

  describe("a random crowd on a floor", function()
    -- 120 movers of radii 0.3 to 0.6 walking to random goals in a walled
    -- yard: after every step no two overlap (centre distance against the
    -- radii sum) and none is below the floor
    it("never overlaps", function()
      local rng = H.rng(H.seed(1414, "crowd"))
      local w = floor_world()
      w:add(cs.newMesh(cs.box(-12, 0, -12, -11, 3, 12)))
      w:add(cs.newMesh(cs.box(11, 0, -12, 12, 3, 12)))
      w:add(cs.newMesh(cs.box(-11, 0, -12, 11, 3, -11)))
      w:add(cs.newMesh(cs.box(-11, 0, 11, 11, 3, 12)))
      local n, movers, goals, radius = H.count(120, 40), {}, {}, {}
      for i = 1, n do
        local r = rng:range(0.3, 0.6)
        movers[i] = cs.newMover { radius = r, position = { -10 + (i % 12) * 1.7, r + 0.01, -10 + math.floor(i / 12) * 1.7 } }
        radius[i] = r
        goals[i] = { rng:range(-10, 10), rng:range(-10, 10) }
        w:addMover(movers[i])
      end
      local overlaps, met = 0, 0
      for _ = 1, H.count(100, 30) do
        for i, m in ipairs(movers) do
          local x, _, z = m:getPosition()
          local dx, dz = goals[i][1] - x, goals[i][2] - z
          local l = math.sqrt(dx * dx + dz * dz)
          if l < 0.5 then goals[i] = { rng:range(-10, 10), rng:range(-10, 10) }; l = 1 end
          w:collideAndSlide(m, dx / l * 0.15, 0, dz / l * 0.15, 0, -0.05, 0)
          for c = 1, m:contactCount() do
            if select(8, m:getContact(c)) == nil or getmetatable(select(8, m:getContact(c))) == getmetatable(m) then
              met = met + 1
            end
          end
          local _, y = m:getPosition()
          assert.is_true(y >= radius[i] - 1e-6, "below the floor")
          for j, o in ipairs(movers) do
            if j ~= i and dist(m, o) < radius[i] + radius[j] - 1e-9 then overlaps = overlaps + 1 end
          end
        end
      end
      assert.are.equal(0, overlaps)
      assert.is_true(met > 0)
    end)
  end)
end)

-- found by an independent tester: a sweep whose centre starts inside an
-- added mover gave that mover's outward normal, pointing away from the swept
-- centre, where the docs say the normal points toward it
describe("a sweep starting with its centre inside an added mover", function()
  it("gives t = 0 and a normal from the contact toward the swept centre", function()
    local w = cs.newWorld()
    w:addMover(cs.newMover { radius = 1, position = { 0, 0, 0 } })
    for _, c in ipairs { { 0.5, 0.2, 0 }, { 0, 0, 0 }, { -0.3, 0.1, 0.4 } } do
      local t, px, py, pz, nx, ny, nz = w:sweepEllipsoid(c[1], c[2], c[3], 0.5, 0.5, 0.5, 1, 0, 0)
      assert.are.equal(0, t)
      local tx, ty, tz = c[1] - px, c[2] - py, c[3] - pz
      local l = math.sqrt(tx * tx + ty * ty + tz * tz)
      assert.near(1, math.sqrt(nx * nx + ny * ny + nz * nz), 1e-12)
      assert.is_true((nx * tx + ny * ty + nz * tz) / l > 0.999)
    end
    local b = cs.newMover { radius = 0.3, position = { 0.2, 0, 0 } }
    local t, _, _, _, nx = w:sweep(b, 1, 0, 0)
    assert.are.equal(0, t)
    assert.near(-1, nx, 1e-12)
  end)
end)
