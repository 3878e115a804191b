-- Mover: collideAndSlide in small scenes with answers known in advance
-- (Fauerby 2003, section 4: the slide, the skin, two-pass gravity).
local cs = require "collideslide"
local H = require "helper"

local G = 9.81
local DT = 1 / 60

-- A wall in the plane x = wx facing -x, 10 wide and 10 high.
local function wall(wx)
  return { vertices = { wx, -5, -5, wx, 5, -5, wx, 5, 5, wx, -5, 5 }, indices = { 1, 2, 3, 1, 3, 4 } }
end

-- Runs frames of walking (per frame displacement wx, wz) with gravity,
-- zeroing the fall speed on ground as a game does. Returns the last y.
local function walk(world, m, frames, wx, wz)
  local vy = 0
  for _ = 1, frames do
    vy = vy - G * DT
    world:collideAndSlide(m, wx, 0, wz, 0, vy * DT, 0)
    if m:isOnGround() then vy = 0 end
  end
  return select(2, m:getPosition())
end

describe("Mover", function()
  describe(":collideAndSlide", function()
    --   (1) straight into a wall: stops the skin short of it
    --        o-->|      centre stops at x = 2 - 0.5 - skin
    it("stops the skin short of a wall it walks straight into", function()
      local w = H.world(wall(2))
      local m = cs.newMover { radius = 0.5, position = { 0, 0, 0 } }
      local x, y, z = w:collideAndSlide(m, 3, 0, 0)
      assert.is_true(H.near(x, 1.5 - m.skin, H.TIGHT), "x = " .. x)
      assert.is_true(H.near(y, 0, H.TIGHT) and H.near(z, 0, H.TIGHT))
      assert.are.equal(1, m:contactCount())
      local px, py, pz, nx, ny, nz = m:getContact(1)
      assert.is_true(H.near3(px, py, pz, 2, 0, 0, H.TIGHT))
      assert.is_true(H.near3(nx, ny, nz, -1, 0, 0, H.TIGHT))
      assert.are.same({ x, y, z }, { m:getPosition() })
    end)

    --   (2) into a wall at 45 degrees: the part of the move into the wall is
    --   dropped and the rest slides along it, so z arrives whole:
    --        o         travel to the skin, then (remaining) projected on the wall
    --         \  |
    --          \ |     x = 1.5 - skin, z = 3
    it("slides along a wall it walks into at 45 degrees", function()
      local w = H.world(wall(2))
      local m = cs.newMover { radius = 0.5, position = { 0, 0, 0 } }
      local x, _, z = w:collideAndSlide(m, 3, 0, 3)
      assert.is_true(H.near(x, 1.5 - m.skin, H.TIGHT), "x = " .. x)
      assert.is_true(H.near(z, 3, H.TIGHT), "z = " .. z)
    end)

    it("moves the whole displacement when nothing is in the way", function()
      local w = H.world(wall(20))
      local m = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = { 1, 2, 3 } }
      local x, y, z = w:collideAndSlide(m, 0.5, -0.25, 2)
      assert.are.same({ 1.5, 1.75, 5 }, { x, y, z })
      assert.are.equal(0, m:contactCount())
      assert.is_false(m:isOnGround())
    end)

    --   (3) on flat ground under gravity: rests at ground height (within the
    --   skin above it) and reports ground
    it("rests on flat ground under gravity and reports ground", function()
      local w = H.world(H.floor { size = 20, n = 4 })
      local m = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = { 0.3, 0.95, 0.2 } }
      for _ = 1, 120 do w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0) end
      local x, y, z = m:getPosition()
      assert.is_true(y >= 0.9 and y <= 0.9 + m.skin + H.TIGHT, "y = " .. y)
      assert.are.same({ 0.3, 0.2 }, { x, z })
      assert.is_true(m:isOnGround())
      assert.are.equal("ground", m:getGroundState())
      local nx, ny, nz = m:getGroundNormal()
      assert.is_true(H.near3(nx, ny, nz, 0, 1, 0, H.TIGHT))
    end)

    it("falls from 10 m and lands on the floor", function()
      local w = H.world(H.floor { size = 20 })
      local m = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = { 0, 10, 0 } }
      local frames, landed = 0, nil
      local vy = 0
      while frames < 300 do
        frames = frames + 1
        vy = vy - G * DT
        w:collideAndSlide(m, 0, 0, 0, 0, vy * DT, 0)
        if m:isOnGround() then landed = frames; break end
      end
      -- free fall from y = 10 to 0.9 takes sqrt(2 * 9.1 / g) = 1.36 s = 82 frames
      assert.is_number(landed)
      assert.is_true(landed >= 80 and landed <= 84, "landed after " .. tostring(landed))
      local _, y = m:getPosition()
      assert.is_true(y >= 0.9 and y <= 0.9 + m.skin + H.TIGHT, "y = " .. y)
    end)

    --   (4) on a 60 degree slope, gravity slides the mover down
    it("slides down a 60 degree slope", function()
      local w = H.world(H.ramp { angle = 60, length = 4, width = 4 })
      local m = cs.newMover { radius = 0.5, position = { 2, 2 * math.tan(math.rad(60)) + 0.6 / math.cos(math.rad(60)), 0 } }
      local x0, y0 = m:getPosition()
      for _ = 1, 30 do w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0) end
      local x1, y1 = m:getPosition()
      assert.is_true(y1 < y0 - 0.5 and x1 < x0, ("from %g,%g to %g,%g"):format(x0, y0, x1, y1))
      assert.are.equal("steep", m:getGroundState())
      assert.is_false(m:isOnGround())
      -- never below the slope's surface: distance to its plane >= radius
      local d = -math.sin(math.rad(60)) * x1 + math.cos(math.rad(60)) * y1
      assert.is_true(d >= 0.5 - H.TIGHT, "d = " .. d)
    end)

    it("stays still on a 30 degree slope under gravity", function()
      local w = H.world(H.ramp { angle = 30, length = 8, width = 4 })
      local a = math.rad(30)
      local m = cs.newMover { radius = 0.5, position = { 4, 4 * math.tan(a) + 0.505 / math.cos(a), 0 } }
      w:collideAndSlide(m, 0, 0, 0, 0, -0.05, 0)
      local x0, y0, z0 = m:getPosition()
      for _ = 1, 1000 do w:collideAndSlide(m, 0, 0, 0, 0, -G * DT * DT, 0) end
      local x1, y1, z1 = m:getPosition()
      assert.is_true(H.length(x1 - x0, y1 - y0, z1 - z0) < 1e-9 * 1000)
      assert.is_true(m:isOnGround())
    end)

    --   (5) a 0.2 m step, climbed by an ellipsoid of height 1.8 pushed into it
    --   (the papers' behaviour: its round bottom slides up the step's edge)
    --
    --          o              _________
    --        ( | )  -->      |  0.2 m
    --   _____(___)___________|
    it("climbs a 0.2 m step when pushed into it", function()
      local s = H.merge(H.floor { size = 20 }, H.box { min = { 1, -1, -5 }, max = { 8, 0.2, 5 } })
      local w = H.world(s)
      local m = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = { -1, 0.91, 0 } }
      local y = walk(w, m, 90, 0.05, 0)
      local x = m:getPosition()
      assert.is_true(x > 1.5, "x = " .. x)
      assert.is_true(y >= 1.1 and y <= 1.1 + 2 * m.skin, "y = " .. y)
      assert.is_true(m:isOnGround())
    end)

    it("reports contacts in order, with triangle, body and tag", function()
      local w = cs.newWorld()
      local s = wall(2)
      local body = w:add(cs.newMesh(s.vertices, s.indices, { tags = { 7, 7 } }))
      local m = cs.newMover { radius = 0.5, position = { 0, 0, 0.2 } }
      w:collideAndSlide(m, 3, 0, 0)
      local _, _, _, _, _, _, tri, b, tag = m:getContact(1)
      assert.is_true(tri == 1 or tri == 2)
      assert.are.equal(body, b)
      assert.are.equal(7, tag)
    end)

    it("names each contact's body, frame after frame, as the contacts come and go", function()
      -- a floor (4 x 4 cells, many triangles) and two boxes: walking into
      -- the corner between them, then away, then along the first box, meets
      -- 1 to 6 contacts a frame
      local w, floor, boxA, boxB = H.world(H.floor { size = 20, n = 8 },
        H.box { min = { 1, 0, -3 }, max = { 2, 2, 3 } }, H.box { min = { -3, 0, 1 }, max = { 3, 2, 2 } })
      local m = cs.newMover { radius = 0.5, position = { -1, 0.52, -1 } }
      local counts, met = {}, {}
      for f = 1, 120 do
        local d = f <= 30 and 0.1 or -0.1
        if f <= 60 then w:collideAndSlide(m, d, 0, d, 0, -0.05, 0)
        else w:collideAndSlide(m, 0.1, 0, 0.03, 0, -0.05, 0) end
        counts[m:contactCount()] = true
        for i = 1, m:contactCount() do
          local px, py, pz, nx, ny, nz, _, b = m:getContact(i)
          local want = ny > 0.7 and floor or nx < -0.7 and boxA or nz < -0.7 and boxB or nil
          assert.is_not_nil(want, ("frame %d, contact %d: normal (%g, %g, %g)"):format(f, i, nx, ny, nz))
          assert.are.equal(want, b, ("frame %d, contact %d at (%g, %g, %g)"):format(f, i, px, py, pz))
          met[b] = true
        end
      end
      assert.is_true(met[floor] and met[boxA] and met[boxB], "not every body met")
      local n = 0
      for _ in pairs(counts) do n = n + 1 end
      assert.is_true(n >= 3, "the contact count never changed")
    end)
  end)
end)

-- A teleport (an independent tester's round 24): the next call starts as a
-- new mover's would, and putting a mover back where it is changes nothing.
describe("mover:setPosition and the next call", function()
  -- a floor at y = 0 for x < 0 and one 0.2 lower for x > 0
  local function ledge()
    local w = cs.newWorld()
    w:add(cs.newMesh(cs.box(-20, -1, -20, 0, 0, 20)))
    w:add(cs.newMesh(cs.box(0, -1.2, -20, 20, -0.2, 20)))
    return w
  end
  local function stander(w, x)
    local m = cs.newMover { radius = 0.5, position = { x, 0.5, 0 } }
    m.snapDistance = 0.3
    m.stepHeight = 0.3
    w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
    assert.are.equal("ground", m:getGroundState())
    return m
  end

  it("does not snap a teleported mover down from the ground it left", function()
    local w = ledge()
    local a = stander(w, -5)
    a:setPosition(5, 0.45, 0)                     -- 0.15 above the lower floor
    local fresh = cs.newMover { radius = 0.5, position = { 5, 0.45, 0 } }
    fresh.snapDistance, fresh.stepHeight = 0.3, 0.3
    local ax, ay, az, ag = w:collideAndSlide(a, 0.1, 0, 0, 0, -0.01, 0)
    local fx, fy, fz, fg = w:collideAndSlide(fresh, 0.1, 0, 0, 0, -0.01, 0)
    assert.are.same({ fx, fy, fz, fg }, { ax, ay, az, ag })
    assert.is_true(ay > 0.4, "fell 0.01 as a new mover does, got y = " .. ay)
    assert.are.equal("air", a:getGroundState())
  end)

  it("put back where it is, leaves the next call as it was (snapping off the ledge)", function()
    local w = ledge()
    local a, b = stander(w, -0.05), stander(w, -0.05)
    b:setPosition(b:getPosition())
    local ax, ay, az = w:collideAndSlide(a, 0.6, 0, 0, 0, -0.01, 0)
    local bx, by, bz = w:collideAndSlide(b, 0.6, 0, 0, 0, -0.01, 0)
    assert.is_true(ay < 0.31, "the grounded mover snapped down to the lower floor, y = " .. ay)
    assert.are.same({ ax, ay, az }, { bx, by, bz })
    assert.are.equal(a:getGroundState(), b:getGroundState())
  end)
end)
