-- spec/sensor_spec.lua: sensor volumes (world:addSensor) and the crossings a
-- mover's centre makes along the path of each call (issue 16). Exact cases
-- first, then random straight paths against inside-ness sampled densely
-- with sensor:contains, then bad input and lifetimes.

local cs = require "collideslide"
local H = require "helper"

local EXACT = 1e-12

-- A box sensor mesh [lo, hi] (closed, shared vertices).
local function box(x0, y0, z0, x1, y1, z1) return cs.newMesh(cs.box(x0, y0, z0, x1, y1, z1)) end

-- Asserts that the mover's events are `want` ({ sensor, kind, t } each),
-- t within EXACT.
local function assert_events(m, want)
  assert.are.equal(#want, m:sensorEventCount())
  for i, w in ipairs(want) do
    local s, kind, t = m:getSensorEvent(i)
    assert.are.equal(w[1], s)
    assert.are.equal(w[2], kind)
    assert.near(w[3], t, EXACT)
  end
end

-- The mover's events as a list of { sensor, kind, t }.
local function events(m)
  local out = {}
  for i = 1, m:sensorEventCount() do
    local s, kind, t = m:getSensorEvent(i)
    out[i] = { s, kind, t }
  end
  return out
end

describe("Sensor", function()
  describe("crossings along a call", function()
    --   o ------------------------|-------------------->   10 m in one call
    --                          x = 5 .. 5.01 (the sensor, 0.01 thick)
    it("catches a 0.01 m sensor crossed at 10 m per call, enter then exit", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(5, -5, -5, 5.01, 5, 5))
      local m = cs.newMover { radius = 0.5 }
      w:collideAndSlide(m, 10, 0, 0)
      local e = events(m)
      assert.are.equal(2, #e)
      assert.are.equal(s, e[1][1]); assert.are.equal("enter", e[1][2]); assert.near(0.5, e[1][3], EXACT)
      assert.are.equal(s, e[2][1]); assert.are.equal("exit", e[2][2]); assert.near(0.501, e[2][3], EXACT)
      assert.is_false(m:isInside(s))
    end)

    it("gives an enter at t = 0 when a call starts inside, and nothing while it stays", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(-1, -1, -1, 1, 1, 1))
      local m = cs.newMover { radius = 0.5 }
      w:collideAndSlide(m, 0.2, 0, 0)
      local e = events(m)
      assert.are.equal(1, #e)
      assert.are.same({ s, "enter", 0 }, e[1])
      assert.is_true(m:isInside(s))
      w:collideAndSlide(m, -0.4, 0, 0)
      assert.are.equal(0, m:sensorEventCount())
      assert.is_true(m:isInside(s))
    end)

    it("gives the start's enter and exit at exactly t = 0 on a call pressing into a floor", function()
      -- the call's path begins with a sweep of rounding length into the floor
      -- it rests on; the events came at t = 1e-17..1e-16 (found by an
      -- independent tester: 114 of 400)
      local w = cs.newWorld()
      w:add(box(-30, -1, -30, 30, 0, 30))
      local s = w:addSensor(box(-1, -1, -1, 1, 1, 1), 100, 0, 0)
      local m = cs.newMover { radius = 0.4, position = { 0, 0.404, 0 } }
      for f = 1, 60 do
        local x, y, z = m:getPosition()
        s:setTransform(x, y, z)                       -- moved onto the still mover
        w:collideAndSlide(m, 0.3 * math.cos(f), -0.05, 0.3 * math.sin(f))
        assert.are.same({ { s, "enter", 0 } }, events(m))
        s:setTransform(100, 0, 0)                     -- and away again
        w:collideAndSlide(m, 0, -0.05, 0)
        assert.are.same({ { s, "exit", 0 } }, events(m))
      end
    end)

    --          wall (box x in [1, 2])
    --   o -->  |        the walk (4, 0, 4) meets the wall at once and slides
    --    \     |        along +z; the zone spans z in [2, 3] left of the wall
    --     zone z = 2..3
    it("places the events where the slide's centre crossed", function()
      local w = cs.newWorld()
      w:add(box(1, -5, -5, 2, 5, 5))
      local s = w:addSensor(box(-5, -5, 2, 0.8, 5, 3))
      local m = cs.newMover { radius = 0.5 }
      local x, _, z = w:collideAndSlide(m, 4, 0, 4)
      assert.is_true(z > 3)
      -- the path: (0, 0, 0) to (x, 0, x) on the diagonal, then along the wall
      local leg = math.sqrt(2) * x
      local total = leg + (z - x)
      local e = events(m)
      assert.are.equal(2, #e)
      assert.are.same({ s, "enter" }, { e[1][1], e[1][2] })
      assert.near((leg + 2 - x) / total, e[1][3], 1e-9)
      assert.are.same({ s, "exit" }, { e[2][1], e[2][2] })
      assert.near((leg + 3 - x) / total, e[2][3], 1e-9)
    end)

    --   o      falling 3 m in one call's gravity pass
    --  ---     a zone y in [-1, -0.9]
    --  ===     the floor at y = -2.5
    it("follows the gravity pass", function()
      local w = cs.newWorld()
      w:add(box(-5, -3.5, -5, 5, -2.5, 5))
      local s = w:addSensor(box(-5, -1, -5, 5, -0.9, 5))
      local m = cs.newMover { radius = 0.5 }
      local _, y = w:collideAndSlide(m, 0, 0, 0, 0, -3, 0)
      assert.near(-2.0, y, 0.01)
      local e = events(m)
      assert.are.equal(2, #e)
      assert.are.same({ s, "enter" }, { e[1][1], e[1][2] })
      assert.near(0.9 / -y, e[1][3], 1e-9)
      assert.are.same({ s, "exit" }, { e[2][1], e[2][2] })
      assert.near(1.0 / -y, e[2][3], 1e-9)
    end)

    it("orders the events of several sensors along the path", function()
      local w = cs.newWorld()
      local a = w:addSensor(box(2, -1, -1, 4, 1, 1))
      local b = w:addSensor(box(3, -1, -1, 6, 1, 1))   -- overlaps a
      local m = cs.newMover { radius = 0.5 }
      w:collideAndSlide(m, 10, 0, 0)
      assert_events(m, { { a, "enter", 0.2 }, { b, "enter", 0.3 }, { a, "exit", 0.4 }, { b, "exit", 0.6 } })
    end)

    it("tests a moved sensor where the script placed it for the call", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5))
      local m = cs.newMover { radius = 0.5 }
      s:setTransform(3, 0, 0)
      w:collideAndSlide(m, 4, 0, 0)
      assert_events(m, { { s, "enter", 0.625 }, { s, "exit", 0.875 } })
      s:setTransform(4, 0, 0, 0, 0, 0, 1, 2, 2, 2)      -- over the mover now
      w:collideAndSlide(m, 0, 0, 0)
      assert_events(m, { { s, "enter", 0 } })
      assert.is_true(m:isInside(s))
    end)

    -- a platform carries its rider through a gate 1 cm thick: the events
    -- come with the rider's next call, added to the world or not
    it("sees a rider carried through it by its platform", function()
      for _, added in ipairs { false, true } do
        local w = cs.newWorld()
        local plat = w:add(box(-5, -0.5, -5, 5, 0, 5))
        local gate = w:addSensor(box(3.5, 0, -1, 3.51, 2, 1))
        local m = cs.newMover { radius = 0.5, position = { 3, 0.6, 0 } }
        if added then w:addMover(m) end
        w:collideAndSlide(m, 0, 0, 0, 0, -0.2, 0)
        plat:setTransform(1, 0, 0)
        assert.are.equal(4, (w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)))
        assert_events(m, { { gate, "enter", 0.5 }, { gate, "exit", 0.51 } })
      end
    end)

    it("tracks only sensors whose layers meet the mover's collidesWith", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(2, -1, -1, 4, 1, 1))
      s.layers = 4
      local m = cs.newMover { radius = 0.5, collidesWith = 3 }
      w:collideAndSlide(m, 5, 0, 0)
      assert.are.equal(0, m:sensorEventCount())
      m.collidesWith = 4
      w:collideAndSlide(m, -2, 0, 0)
      assert_events(m, { { s, "enter", 0.5 } })
    end)

    -- found by an independent tester: a box 1e-13 thick (its sides flagged
    -- degenerate in mesh space) placed with a scale of 1e13 is a 1 x 2 x 2
    -- box, and every crossing of it was missed
    it("sees crossings of a mesh whose slivers its placement scales up", function()
      local w = cs.newWorld()
      local s = w:addSensor(cs.newMesh(cs.box(0, -1, -1, 1e-13, 1, 1)), 0, 0, 0, 0, 0, 0, 1, 1e13, 1, 1)
      local m = cs.newMover { radius = 0.1, position = { 0.5, -3, 0 } }
      w:collideAndSlide(m, 0, 0, 0)
      w:collideAndSlide(m, 0, 6, 0)
      assert_events(m, { { s, "enter", 1 / 3 }, { s, "exit", 2 / 3 } })
      w:collideAndSlide(m, 0, -3, 0)
      assert_events(m, { { s, "enter", 2 / 3 } })
      assert.is_true(m:isInside(s))
    end)

    -- found by an independent tester: a call that ended exactly on a turned
    -- sensor's face left the state of one side of it, the next call's start
    -- read the other side, and a passage gave exit, enter, exit (3 of 1,000
    -- passages here); a call that did not move flipped it in 4 of 10
    it("pairs one enter with one exit for calls that stop exactly on a turned face", function()
      local w = cs.newWorld()
      local rng = H.rng(20)
      local extra = 0
      for _ = 1, 1000 do
        local s = w:addSensor(box(-1, -1, -1, 1, 1, 1))
        local qx, qy, qz, qw = rng:range(-1, 1), rng:range(-1, 1), rng:range(-1, 1), rng:range(-1, 1)
        local l = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
        s:setTransform(rng:range(-50, 50), rng:range(-50, 50), rng:range(-50, 50), qx / l, qy / l, qz / l, qw / l,
                       rng:range(0.2, 3), rng:range(0.2, 3), rng:range(0.2, 3))
        local placed = H.placer(s)
        local u, v = rng:range(-0.8, 0.8), rng:range(-0.8, 0.8)
        local fx, fy, fz = placed(-1, u, v)          -- on the face x = -1
        local bx, by, bz = placed(1, u, v)           -- across, on x = 1
        local dx, dy, dz = bx - fx, by - fy, bz - fz
        local m = cs.newMover { radius = 0.1, position = { fx - dx, fy - dy, fz - dz } }
        local kinds = {}
        local function call(x, y, z)
          w:collideAndSlide(m, x, y, z)
          for i = 1, m:sensorEventCount() do kinds[#kinds + 1] = select(2, m:getSensorEvent(i)) end
        end
        local sx, sy, sz = m:getPosition()
        call(fx - sx, fy - sy, fz - sz)              -- ends on the face
        call(0, 0, 0)
        call(2 * dx, 2 * dy, 2 * dz)                 -- through, and out
        if table.concat(kinds, " ") ~= "enter exit" then extra = extra + 1 end
        assert.is_false(m:isInside(s))
        w:removeSensor(s)
      end
      assert.are.equal(0, extra)
    end)

    -- found by an independent tester: a tolerance for rounding 1e-12 of the
    -- coordinates dropped these slabs' insides (the first form of the fix above)
    it("catches slabs 1e-8 and 1e-9 thick at 1e5 and 1e3 from the origin", function()
      for _, c in ipairs { { 1e5, 1e-8 }, { 1e5, 1e-9 }, { 1e3, 1e-9 }, { 0, 5e-13 } } do
        local at, h = c[1], c[2]
        for _, placed in ipairs { false, true } do
          local w = cs.newWorld()
          local s = placed and w:addSensor(box(0, -1, -1, h, 1, 1), at, 0, 0)
            or w:addSensor(box(at, -1, -1, at + h, 1, 1))
          local m = cs.newMover { radius = 0.1, position = { at - 0.5, 0.3, 0.2 } }
          w:collideAndSlide(m, 1, 0, 0)
          local ev = events(m)
          assert.are.equal(2, #ev)
          assert.are.equal("enter", ev[1][2])
          assert.are.equal("exit", ev[2][2])
          assert.near(0.5, ev[1][3], 1e-9)
        end
      end
    end)

    -- found by an independent tester: the path lies in the face's plane, meets
    -- none of its triangles, and passes a hair outside the next face's edge,
    -- so it had no hit where it left; its middle, on the face, read inside
    it("leaves a turned box along the plane of a face and out past its edge", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(-1, -1, -1, 1, 1, 1))
      local h = math.sqrt(0.5)                       -- 90 degrees about z
      s:setTransform(-19.631356086145235, 12.904183476762284, 9.3242475584323223, 0, 0, h, h,
                     1.1020450749769839, 2.5425938007251152, 1.2492978461097293)
      local m = cs.newMover { radius = 0.05, position = { -22.17394988687035, 12.098230076735918, 9.9481813165494124 } }
      w:collideAndSlide(m, 0, 0, 0)                  -- on the face local y = +1
      w:collideAndSlide(m, 0, -0.080581662342666505, 1.0001534418255584)   -- in its plane, out past z = 1
      local x, y, z = m:getPosition()
      assert.is_true(z > 9.3242475584323223 + 1.2492978461097293 + 0.3)   -- well above the box
      assert.is_false(s:contains(x, y, z))
      assert.is_false(m:isInside(s))
      local ev = events(m)
      if #ev > 0 then assert.are.equal("exit", ev[#ev][2]) end
    end)

    -- found by an independent tester: isInside still said true after the
    -- layers stopped meeting, and the next call dropped the sensor with no
    -- exit, so a script pairing enters with exits got out of step
    it("leaves a sensor it no longer tracks: isInside false at once, an exit at t = 0 on the next call", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(-1, -1, -1, 1, 1, 1))
      local m = cs.newMover { radius = 0.2, collidesWith = 1 }
      w:collideAndSlide(m, 0, 0, 0)
      assert_events(m, { { s, "enter", 0 } })
      assert.is_true(m:isInside(s))
      s.layers = 2
      assert.is_false(m:isInside(s))
      w:collideAndSlide(m, 0.1, 0, 0)
      assert_events(m, { { s, "exit", 0 } })
      w:collideAndSlide(m, 0.1, 0, 0)
      assert.are.equal(0, m:sensorEventCount())
      m.collidesWith = 3
      assert.is_false(m:isInside(s))      -- not known inside until a call says so
      w:collideAndSlide(m, 0.1, 0, 0)
      assert_events(m, { { s, "enter", 0 } })
      assert.is_true(m:isInside(s))
      m.collidesWith = 1
      assert.is_false(m:isInside(s))
    end)

    -- as docs/API.md says (an independent tester asked): tracking switched
    -- off and on again between two calls leaves the mover inside as it was
    it("keeps a mover inside when tracking stops and resumes between two calls", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(-1, -1, -1, 1, 1, 1))
      local m = cs.newMover { radius = 0.2, collidesWith = 1 }
      w:collideAndSlide(m, 0, 0, 0)
      assert_events(m, { { s, "enter", 0 } })
      s.layers = 2
      assert.is_false(m:isInside(s))
      s.layers = 1
      assert.is_true(m:isInside(s))
      w:collideAndSlide(m, 0.1, 0, 0)
      assert.are.equal(0, m:sensorEventCount())
      assert.is_true(m:isInside(s))
      m.collidesWith = 2
      m.collidesWith = 1
      w:collideAndSlide(m, 0.1, 0, 0)
      assert.are.equal(0, m:sensorEventCount())
      assert.is_true(m:isInside(s))
    end)
  end)

  describe("with the character controller", function()
    -- a character walking +x at 4 m/s through a zone x in [1, 1.5]: its
    -- updates list the enter and the exit in sensorEvents, once each
    it("lists the crossings of each update in character.sensorEvents", function()
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-10, -1, -10, 10, 0, 10)))
      local zone = w:addSensor(box(1, 0, -5, 1.5, 3, 5))
      local ch = cs.newCharacter { position = { 0, 0.9, 0 } }
      local seen = {}
      for _ = 1, 60 do
        ch:update(w, 1 / 60, { x = 1 })
        for _, e in ipairs(ch.sensorEvents) do
          seen[#seen + 1] = e.event
          assert.are.equal(zone, e.sensor)
          assert.is_true(e.t >= 0 and e.t <= 1)
          local x = ch.position[1]
          if e.event == "enter" then assert.is_true(x >= 1 and x < 1.2) end
          if e.event == "exit" then assert.is_true(x >= 1.5 and x < 1.7) end
        end
      end
      assert.are.same({ "enter", "exit" }, seen)
    end)
  end)

  describe("as a volume", function()
    it("never blocks a mover and is not seen by queries", function()
      local w = cs.newWorld()
      w:addSensor(box(1, -1, -1, 2, 1, 1))
      local m = cs.newMover { radius = 0.5 }
      assert.are.equal(3, (w:collideAndSlide(m, 3, 0, 0)))
      assert.are.equal(0, m:contactCount())
      assert.is_nil(w:raycast(0, 0, 0, 5, 0, 0))
      assert.is_nil(w:sweepEllipsoid(0, 0, 0, 0.5, 0.5, 0.5, 5, 0, 0))
      assert.is_nil(w:closestPoint(1.5, 0, 0))
      local n = 0
      w:queryBox(-10, -10, -10, 10, 10, 10, function() n = n + 1 end)
      assert.are.equal(0, n)
    end)

    it("contains a point when the mesh winds around it, in any placement", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(0, 0, 0, 1, 1, 1), 10, 0, 0, 0, 0.3826834, 0, 0.9238795, 2, 1, 1)
      local M = { s:getTransform() }
      local function placed(x, y, z)
        return M[1] * x + M[5] * y + M[9] * z + M[13], M[2] * x + M[6] * y + M[10] * z + M[14],
               M[3] * x + M[7] * y + M[11] * z + M[15]
      end
      assert.is_true(s:contains(placed(0.5, 0.5, 0.5)))      -- the placed box's middle
      assert.is_true(s:contains(placed(0.99, 0.01, 0.5)))
      assert.is_false(s:contains(placed(1.01, 0.5, 0.5)))
      assert.is_false(s:contains(placed(0.5, -0.01, 0.5)))
      assert.is_false(s:contains(0.5, 0.5, 0.5))
    end)

    it("has layers, userdata, its mesh and its transform", function()
      local w = cs.newWorld()
      local mesh = box(0, 0, 0, 1, 1, 1)
      local s = w:addSensor(mesh, 1, 2, 3)
      assert.are.equal(1, s.layers)
      s.layers = 6
      assert.are.equal(6, s.layers)
      s.userdata = { name = "hall" }
      assert.are.equal("hall", s.userdata.name)
      assert.are.equal(mesh, s:getMesh())
      local t = { s:getTransform() }
      assert.are.same({ 1, 2, 3 }, { t[13], t[14], t[15] })
      assert.are.equal(1, w:sensorCount())
      assert.matches("collideslide.Sensor %(mesh of 12 triangles%)", tostring(s))
    end)
  end)

  describe("bad input", function()
    it("refuses a mesh that is not closed, naming the open edge", function()
      local w = cs.newWorld()
      local open = cs.newMesh({ 0, 0, 0, 1, 0, 0, 1, 0, 1 }, { 1, 2, 3 })
      local ok, e = pcall(w.addSensor, w, open)
      assert.is_false(ok)
      assert.matches("mesh is not closed: the edge from vertex %d to vertex %d has 1 triangle", e)
      assert.are.equal(0, w:sensorCount())
      -- a triangle soup (no shared vertices) is open too
      local soup = H.box()
      local vs, is = {}, {}
      for i = 1, #soup.indices do
        local k = soup.indices[i]
        vs[#vs + 1], vs[#vs + 2], vs[#vs + 3] = soup.vertices[3 * k - 2], soup.vertices[3 * k - 1], soup.vertices[3 * k]
        is[i] = i
      end
      assert.has_error(function() w:addSensor(cs.newMesh(vs, is)) end)
      assert.are.equal(0, w:sensorCount())
    end)

    it("refuses NaN and singular transforms, leaving the sensor where it was", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(0, 0, 0, 1, 1, 1), 1, 0, 0)
      assert.has_error(function() s:setTransform(0 / 0, 0, 0) end, nil)
      assert.has_error(function() s:setTransform(0, 0, 0, 0, 0, 0, 1, 0, 1, 1) end)
      assert.has_error(function() w:addSensor(box(0, 0, 0, 1, 1, 1), 0, 1 / 0, 0) end)
      assert.are.equal(1, w:sensorCount())
      assert.are.equal(1, (select(13, s:getTransform())))
      assert.has_error(function() s:contains(0 / 0, 0, 0) end)
      assert.has_error(function() s.layers = "all" end)
      assert.has_error(function() s.colour = 1 end, nil)
    end)

    it("refuses a removed sensor, or one of another world", function()
      local w, v = cs.newWorld(), cs.newWorld()
      local s = w:addSensor(box(0, 0, 0, 1, 1, 1))
      local m = cs.newMover()
      assert.has_error(function() v:removeSensor(s) end)
      w:removeSensor(s)
      assert.is_true(s:isRemoved())
      assert.are.equal(0, w:sensorCount())
      for _, f in ipairs { function() s:contains(0, 0, 0) end, function() s:setTransform(1, 2, 3) end,
                           function() m:isInside(s) end, function() w:removeSensor(s) end } do
        local ok, e = pcall(f)
        assert.is_false(ok)
        assert.matches("sensor was removed from its world", e)
      end
      assert.has_error(function() w:addSensor({}) end)
      assert.has_error(function() m:isInside(m) end)
      assert.has_error(function() m:getSensorEvent(1) end)
    end)
  end)

  describe("lifetimes", function()
    it("keeps the handles of a call's events; a closed world's sensors are dead", function()
      local w = cs.newWorld()
      local s = w:addSensor(box(2, -1, -1, 3, 1, 1))
      s = nil
      collectgarbage("collect")
      local m = cs.newMover()
      w:collideAndSlide(m, 5, 0, 0)
      local got = m:getSensorEvent(1)
      collectgarbage("collect")
      assert.are.equal(got, (m:getSensorEvent(1)))
      local mt = getmetatable(w)
      if type(mt) == "table" and mt.__close then
        mt.__close(w)
        assert.is_true(got:isRemoved())
        assert.has_error(function() got:contains(0, 0, 0) end)
      end
    end)
  end)

  describe("against dense sampling", function()
    -- Straight calls in an empty world: the path is the segment from the
    -- start to the end; every change of sensor:contains between samples must
    -- be one event, in order, within a sample of where it was sampled.
    it("misses no crossing of random sensors along random paths", function()
      local rng = H.rng(H.seed(1616, "sensors"))
      local w = cs.newWorld()
      local sensors = {}
      for k = 1, 4 do
        local x, y, z = rng:range(-4, 4), rng:range(-4, 4), rng:range(-4, 4)
        local s = w:addSensor(box(x, y, z, x + rng:range(0.05, 3), y + rng:range(0.05, 3), z + rng:range(0.05, 3)))
        local qx, qy, qz, qw = rng:range(-0.5, 0.5), rng:range(-0.5, 0.5), rng:range(-0.5, 0.5), rng:range(0.1, 1)
        local l = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
        s:setTransform(rng:range(-0.5, 0.5), rng:range(-0.5, 0.5), rng:range(-0.5, 0.5),
                       qx / l, qy / l, qz / l, qw / l, rng:range(0.5, 1.5), rng:range(0.5, 1.5), rng:range(0.5, 1.5))
        sensors[k] = s
      end
      local m = cs.newMover()
      local SAMPLES, crossings, calls = 1500, 0, H.count(300, 150)
      for _ = 1, calls do
        local ax, ay, az = m:getPosition()
        if math.abs(ax) > 8 or math.abs(ay) > 8 or math.abs(az) > 8 then
          m:setPosition(rng:range(-2, 2), rng:range(-2, 2), rng:range(-2, 2))
          w:collideAndSlide(m, 0, 0, 0)
          ax, ay, az = m:getPosition()
        end
        local state = {}
        for k, s in ipairs(sensors) do state[k] = m:isInside(s) end
        -- to a random point of the region the sensors are in
        local tx, ty, tz = rng:range(-5, 5), rng:range(-5, 5), rng:range(-5, 5)
        local bx, by, bz = w:collideAndSlide(m, tx - ax, ty - ay, tz - az)
        local e, nxt = events(m), 1
        for i = 1, SAMPLES do
          local t = i / SAMPLES
          for k, s in ipairs(sensors) do
            local now = s:contains(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t)
            if now ~= state[k] then
              crossings = crossings + 1
              local ev = e[nxt]
              assert.is_truthy(ev, "a crossing with no event")
              assert.are.equal(s, ev[1])
              assert.are.equal(now and "enter" or "exit", ev[2])
              assert.is_true(ev[3] <= t + 1e-9 and ev[3] >= t - 1 / SAMPLES - 1e-9)
              nxt, state[k] = nxt + 1, now
            end
          end
        end
        assert.are.equal(#e, nxt - 1)
        for k, s in ipairs(sensors) do assert.are.equal(state[k], m:isInside(s)) end
      end
      assert.is_true(crossings > calls / 10, ("only %d crossings in %d calls"):format(crossings, calls))
    end)
  end)
end)

-- found by an independent tester: a crossing at the joint of two parts of
-- one call's path (the walk ending on a face, the gravity pass going in) was
-- a hit of neither within rounding, and the first stretch after it was not
-- sampled: no enter, isInside false deep inside (1.6% of such paths)
describe("Sensor crossings at the joint of the walk and the gravity pass", function()
  it("are recorded when the walk ends on a face", function()
    local w = cs.newWorld()
    local s = w:addSensor(box(2, 0, 0, 3, 1, 1))
    for _, z0 in ipairs { 4.4408920985006262e-16, 0, -4.4408920985006262e-16 } do
      local m = cs.newMover { radius = 0.3, position = { 2.5, 0, z0 } }
      w:collideAndSlide(m, 0, 0, 0)
      w:collideAndSlide(m, 0, 0.5, 0, 0, 0, 0.5)      -- along the face z = 0, then in
      assert.is_true(m:isInside(s))
      assert.are.equal(1, m:sensorEventCount())
      assert.are.equal("enter", select(2, m:getSensorEvent(1)))
    end
  end)

  it("are recorded on turned, scaled boxes, the walk ending anywhere on a face", function()
    local rng = H.rng(H.seed(2323, "sensor joints"))
    local w = cs.newWorld()
    local s = w:addSensor(box(-1, -1, -1, 1, 1, 1))
    local misses, trials = 0, 0
    for _ = 1, 1500 do
      local q = { rng:range(-1, 1), rng:range(-1, 1), rng:range(-1, 1), rng:range(-1, 1) }
      local l = math.sqrt(q[1] ^ 2 + q[2] ^ 2 + q[3] ^ 2 + q[4] ^ 2)
      for k = 1, 4 do q[k] = q[k] / l end
      local tr = { rng:range(-3, 3), rng:range(-3, 3), rng:range(-3, 3), q[1], q[2], q[3], q[4],
        rng:range(0.5, 2), rng:range(0.5, 2), rng:range(0.5, 2) }
      s:setTransform(tr)
      -- a mesh point placed: T + R(q) (S p)
      local function place(px, py, pz)
        px, py, pz = px * tr[8], py * tr[9], pz * tr[10]
        local x, y, z, ww = q[1], q[2], q[3], q[4]
        local tx, ty, tz = 2 * (y * pz - z * py), 2 * (z * px - x * pz), 2 * (x * py - y * px)
        return tr[1] + px + ww * tx + (y * tz - z * ty), tr[2] + py + ww * ty + (z * tx - x * tz),
          tr[3] + pz + ww * tz + (x * ty - y * tx)
      end
      local u, v = rng:range(-0.9, 0.9), rng:range(-0.9, 0.9)
      local fx, fy, fz = place(1, u, v)                 -- on face +x
      local cx, cy, cz = place(0, u, v)                 -- the way in
      local ix, iy, iz = cx - fx, cy - fy, cz - fz
      local dx, dy, dz
      repeat
        dx, dy, dz = rng:range(-1, 1), rng:range(-1, 1), rng:range(-1, 1)
      until dx * ix + dy * iy + dz * iz > 0.2 * math.sqrt(ix * ix + iy * iy + iz * iz)
      local L = rng:range(0.3, 1.5)
      local m = cs.newMover { radius = 0.2, position = { fx - dx * L, fy - dy * L, fz - dz * L } }
      w:collideAndSlide(m, 0, 0, 0)
      if not m:isInside(s) then
        trials = trials + 1
        local ex, ey, ez = w:collideAndSlide(m, dx * L, dy * L, dz * L, ix / 2, iy / 2, iz / 2)
        if s:contains(ex, ey, ez) ~= m:isInside(s) or m:sensorEventCount() ~= 1 then misses = misses + 1 end
      end
    end
    assert.is_true(trials > 1000)
    assert.are.equal(0, misses)
  end)
end)

-- found by an independent tester: a path in the plane of an L-shaped
-- sensor's inner face, passing into the solid at the inner corner's edge,
-- had no hit there (the ray test meets no triangle it lies in, and the other
-- triangle's hit on its edge fell to rounding): 160 of 249 such passages gave
-- no enter and no exit
describe("Sensor crossings along a face's plane", function()
  it("are recorded where the path passes from the face into the solid", function()
    local P = { { 0, 0 }, { 2, 0 }, { 2, 1 }, { 1, 1 }, { 1, 2 }, { 0, 2 } }   -- an L, extruded in z
    local v, ix = {}, {}
    for _, z in ipairs { 0, 1 } do
      for _, p in ipairs(P) do v[#v + 1] = p[1]; v[#v + 1] = p[2]; v[#v + 1] = z end
    end
    local function tri(a, b, c) ix[#ix + 1] = a; ix[#ix + 1] = b; ix[#ix + 1] = c end
    for _, t in ipairs { { 1, 2, 3 }, { 1, 3, 4 }, { 1, 4, 5 }, { 1, 5, 6 } } do
      tri(t[1] + 6, t[2] + 6, t[3] + 6)
      tri(t[1], t[3], t[2])
    end
    for i = 1, 6 do
      local j = i % 6 + 1
      tri(i, j, j + 6)
      tri(i, j + 6, i + 6)
    end
    local L = cs.newMesh(v, ix)
    local rng = H.rng(H.seed(2324, "sensor planes"))
    local QS = { { 0, 0, 0, 1 }, { 0, 0, math.sqrt(0.5), math.sqrt(0.5) }, { 0, 0.3826834323650898, 0, 0.9238795325112867 } }
    local wrong = 0
    for trial = 1, 300 do
      local w = cs.newWorld()
      local q = QS[trial % 3 + 1]
      local d = { rng:range(0.05, 0.55), rng:range(0.05, 0.55), rng:range(0.05, 0.55) }
      local T = { rng:range(-2, 2), rng:range(0, 2), rng:range(-2, 2) }
      local s = w:addSensor(L, T[1], T[2], T[3], q[1], q[2], q[3], q[4], d[1], d[2], d[3])
      local function place(px, py, pz)                     -- T + R(q) (S p)
        px, py, pz = px * d[1], py * d[2], pz * d[3]
        local x, y, z, ww = q[1], q[2], q[3], q[4]
        local tx, ty, tz = 2 * (y * pz - z * py), 2 * (z * px - x * pz), 2 * (x * py - y * px)
        return { T[1] + px + ww * tx + (y * tz - z * ty), T[2] + py + ww * ty + (z * tx - x * tz),
          T[3] + pz + ww * tz + (x * ty - y * tx) }
      end
      -- on the upper arm's inner face x = 1, down into the lower arm at y = 1,
      -- out through its cap z = 1
      local z0 = rng:range(0.2, 0.4)
      local a, b = place(1, 1.6, z0), place(1, 0.4, 1.5)
      local m = cs.newMover { radius = 0.01, position = a }
      w:collideAndSlide(m, b[1] - a[1], b[2] - a[2], b[3] - a[3])
      local exit_t = (1 - z0) / (1.5 - z0)
      local ok = m:sensorEventCount() == 2 and not m:isInside(s)
      if ok then
        local _, k1, t1 = m:getSensorEvent(1)
        local _, k2, t2 = m:getSensorEvent(2)
        ok = k1 == "enter" and t1 <= 0.5 + 1e-9 and k2 == "exit" and math.abs(t2 - exit_t) <= 1e-9
      end
      if not ok then wrong = wrong + 1 end
    end
    assert.are.equal(0, wrong)
  end)
end)

-- found by an independent tester: a sensor built of two overlapping closed
-- boxes has a face of one inside the other (winding number 1 on one side, 2
-- on the other); every point near a triangle counted as unknown, so a path
-- along that face, a call stopping on it and a teleport onto it gave no enter
-- (7 of 5,000 random sensors of overlapping boxes). Two boxes whose faces
-- coincide (winding number 1 on both sides) are alike; the real boundary
-- stays as it was: a path along it changes nothing.
describe("Sensors of overlapping parts", function()
  -- A = [0, 2]^3 and B = [b0, 3] x [0, 2] x [0, 2] in one mesh, placed by pl
  -- (none, or far away and scaled per axis); P maps a mesh point to the world.
  local PLACES = { {}, { 1e5, -3, 7, 0, 0, 0, 1, 2, 0.5, 3 } }
  local function setup(b0, pl)
    local b = cs.newBuilder():box(0, 0, 0, 2, 2, 2)
    b:box(b0, 0, 0, 3, 2, 2)
    local w = cs.newWorld()
    local s = w:addSensor(b:mesh(), table.unpack(pl))
    local function P(x, y, z)
      if not pl[1] then return { x, y, z } end
      return { pl[1] + x * pl[8], pl[2] + y * pl[9], pl[3] + z * pl[10] }
    end
    return w, s, P
  end
  -- a new mover at a (mesh space) moved to e in one call
  local function go(w, P, a, e)
    local A, E = P(a[1], a[2], a[3]), P(e[1], e[2], e[3])
    local m = cs.newMover { radius = 0.01, position = A }
    w:collideAndSlide(m, E[1] - A[1], E[2] - A[2], E[3] - A[3])
    return m
  end

  for _, b0 in ipairs { 1, 2 } do
    for pi, pl in ipairs(PLACES) do
      local what = (b0 == 1 and "a face inside the other part" or "coincident faces") ..
        (pi == 2 and ", placed far away and scaled" or "")
      it("enter and leave along " .. what, function()
        local w, s, P = setup(b0, pl)
        local m = go(w, P, { b0, 1, -1 }, { b0, 1, 3 })
        assert_events(m, { { s, "enter", 0.25 }, { s, "exit", 0.75 } })
        assert.is_false(m:isInside(s))
      end)
      it("hold a call stopping on, or a mover standing on, " .. what, function()
        local w, s, P = setup(b0, pl)
        local m = go(w, P, { b0, 1, -1 }, { b0, 1, 1 })
        assert_events(m, { { s, "enter", 0.5 } })
        assert.is_true(m:isInside(s))
        m = go(w, P, { b0, 1, 1 }, { b0, 1, 1 })
        assert_events(m, { { s, "enter", 0 } })
        assert.is_true(m:isInside(s))
        local c = P(b0, 1, 1)
        assert.is_true(s:contains(c[1], c[2], c[3]))
      end)
      it("change nothing along the real boundary" .. (pi == 2 and ", placed far away and scaled" or ""), function()
        local w, s, P = setup(b0, pl)
        local m = go(w, P, { 0, 1, -1 }, { 0, 1, 3 })     -- along A's face x = 0, from outside
        assert_events(m, {})
        assert.is_false(m:isInside(s))
        m = go(w, P, { 0.5, 1, 1 }, { 0, 1, 1 })          -- from inside onto that face
        assert_events(m, { { s, "enter", 0 } })
        local A, E = P(0, 1, 1), P(0, 1, 1.5)             -- and along it: still inside
        w:collideAndSlide(m, E[1] - A[1], E[2] - A[2], E[3] - A[3])
        assert_events(m, {})
        assert.is_true(m:isInside(s))
      end)
    end
  end

  -- a part [1, 3]^3 inside [0, 4]^3: a mover put on its corner, edge or
  -- face, or moved along them, is inside (at a corner the sides of the
  -- found face's plane lay in the planes of the corner's other faces, and
  -- the new mover on it got no enter: found by an independent tester)
  it("hold a mover put on a corner, an edge or a face of a part inside another", function()
    local b = cs.newBuilder():box(0, 0, 0, 4, 4, 4)
    b:box(1, 1, 1, 3, 3, 3)
    local w = cs.newWorld()
    local s = w:addSensor(b:mesh())
    for _, c in ipairs {
      { { 1, 1, 1 }, { 1, 1, 1 } }, { { 1, 1, 2 }, { 1, 1, 2 } }, { { 1, 2, 2 }, { 1, 2, 2 } },
      { { 1, 1, 1 }, { 1, 1, 3 } }, { { 1, 1.5, 1.5 }, { 1, 2.5, 2.5 } },
    } do
      local a, e = c[1], c[2]
      local m = cs.newMover { radius = 0.01, position = a }
      w:collideAndSlide(m, e[1] - a[1], e[2] - a[2], e[3] - a[3])
      assert_events(m, { { s, "enter", 0 } })
      assert.is_true(m:isInside(s))
      assert.is_true(s:contains(e[1], e[2], e[3]))
    end
  end)
end)

describe("A mover moved in two worlds", function()
  -- API.md's pattern: a level world with a zone, a world of props, one call
  -- in each a frame. A call in the props world kept nothing of the level's:
  -- the zone gave an enter at every frame and one exit (found by an
  -- independent tester)
  it("enters and leaves the level's zone once, and isInside holds through the other world's calls", function()
    local level, props = cs.newWorld(), cs.newWorld()
    level:add(cs.newMesh(cs.box(-20, -1, -20, 20, 0, 20)))
    local zone = level:addSensor(cs.newMesh(cs.box(2, -1, -2, 4, 3, 2)))
    local m = cs.newMover { radius = 0.5, position = { 0, 0.5, 0 } }
    level:addMover(m)
    local seq = {}
    for frame = 1, 20 do
      local vx = (frame <= 5 or frame > 15) and 0.6 or 0
      level:collideAndSlide(m, vx, 0, 0, 0, -0.1, 0)
      for i = 1, m:sensorEventCount() do
        local s, kind = m:getSensorEvent(i)
        assert.are.equal(zone, s)
        seq[#seq + 1] = frame .. kind
      end
      props:collideAndSlide(m, 0, 0, 0)
      assert.are.equal(frame >= 4 and frame < 17, m:isInside(zone), "frame " .. frame)
    end
    assert.are.same({ "4enter", "17exit" }, seq)
  end)
end)
