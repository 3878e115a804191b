-- spec/magnitudes_spec.lua: finite numbers of every size through every call
-- that takes numbers (issue 11). Each call either succeeds with finite
-- results, or fails with "bad argument #n to 'name' (...)" and leaves the
-- objects as they were. Then a move of the mover in the same world must do
-- the same: no call may leave a state that a later move turns into NaN.
-- The core refuses coordinates, moves and radii past 1e30 (CS_MAX_COORD in
-- collideslide.h) and moves longer than 1e30 radii; below that everything is
-- computed without overflow.

local cs = require "collideslide"

local MAGNITUDES = { 1, 1e15, 1e30, 1.0000000000000002e30, 1e31, 1e100, 1e200, 1e300, 1e308,
                     1.7e308, 1.7976931348623157e308, 5e-324, 1e-300 }
local VALUES = {}
for _, m in ipairs(MAGNITUDES) do VALUES[#VALUES + 1] = m; VALUES[#VALUES + 1] = -m end

local function finite(x) return type(x) ~= "number" or (x == x and x > -math.huge and x < math.huge) end

local function all_finite(t)
  for i = 1, t.n do
    if not finite(t[i]) then return false, i end
  end
  return true
end

local function pack(...) return { n = select("#", ...), ... } end

-- Everything a mover shows, as one comparable table.
local function mover_state(m)
  local s = { m:getPosition() }
  for _, v in ipairs { m:getRadius() } do s[#s + 1] = v end
  for _, v in ipairs { m:getOrientation() } do s[#s + 1] = v end
  for _, v in ipairs { m:getUp() } do s[#s + 1] = v end
  for _, k in ipairs { "skin", "slopeLimit", "stepHeight", "snapDistance", "maxIterations" } do
    s[#s + 1] = m[k]
  end
  s[#s + 1] = m:getGroundState()
  s[#s + 1] = m:contactCount()
  return s
end

local function same(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i] ~= b[i] and not (a[i] ~= a[i] and b[i] ~= b[i]) then return false end
  end
  return true
end

-- A floor of two triangles, a box on it as a body, a sphere mover resting
-- on the floor next to the box.
local function scene()
  local floor = cs.newMesh({ -10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10 }, { 1, 2, 3, 1, 3, 4 })
  local w = cs.newWorld()
  w:add(floor)
  local box = w:add(cs.newMesh(cs.box(-0.5, 0, -0.5, 0.5, 1, 0.5)), 3, 0, 0)
  local m = cs.newMover { radius = 0.5, position = { 0, 0.505, 0 } }
  w:collideAndSlide(m, 0, 0, 0, 0, -0.01, 0)
  return w, m, box
end

-- Runs call(value) in a fresh scene: a success must give finite results and
-- leave a mover that still moves to a finite place (or refuses the move
-- cleanly); a failure must name the function and leave the mover as it was.
local function sweep_values(name, call)
  for _, v in ipairs(VALUES) do
    local w, m, box = scene()
    local before = mover_state(m)
    local r = pack(pcall(call, w, m, box, v))
    local where = ("%s with %.17g"):format(name, v)
    if r[1] then
      local ok, i = all_finite(r)
      assert(ok, where .. ": result " .. tostring(i and i - 1) .. " is not finite")
      local after = mover_state(m)
      for k = 1, #after do assert(finite(after[k]), where .. ": a mover value is not finite") end
      local ok2, e = pcall(function()
        local x, y, z = w:collideAndSlide(m, 0.1, 0, 0.05, 0, -0.1, 0)
        return x, y, z
      end)
      local p = pack(m:getPosition())
      assert(all_finite(p), where .. ": the next move left the mover at a non-finite place")
      if not ok2 then
        assert(tostring(e):find("collideAndSlide", 1, true), where .. ": " .. tostring(e))
      end
    else
      local msg = tostring(r[2])
      -- (the wrappers here make tail calls: some Lua versions cannot name the
      -- function then, and say '?')
      assert(msg:find("bad argument #%d+ to '[^']+' %(.+%)") or msg:find("^[%w_]+: "),
        where .. ": unclear error: " .. msg)
      assert(same(before, mover_state(m)), where .. ": the error changed the mover")
    end
  end
end

-- Each call, with the value in each numeric slot in turn (the others sane).
local function slots(name, sane, call)
  for k = 1, #sane do
    it(("%s, argument %d"):format(name, k), function()
      sweep_values(name, function(w, m, box, v)
        local args = { unpack(sane) }
        args[k] = v
        return call(w, m, box, unpack(args, 1, #sane))
      end)
    end)
  end
end

unpack = unpack or table.unpack

describe("Every number of every size", function()
  slots("collideAndSlide", { 0.1, 0, 0, 0, -0.1, 0 }, function(w, m, _, ...) return w:collideAndSlide(m, ...) end)
  slots("sweep", { 0.5, -1, 0 }, function(w, m, _, ...) return w:sweep(m, ...) end)
  slots("sweepEllipsoid", { 0, 2, 0, 0.5, 0.5, 0.5, 0, -3, 0 },
    function(w, _, _, ...) return w:sweepEllipsoid(...) end)
  slots("raycast", { 0, 5, 0, 0, -10, 0 }, function(w, _, _, ...) return w:raycast(...) end)
  slots("raycastAll", { 0, 5, 0, 0, -10, 0 }, function(w, _, _, ...)
    return w:raycastAll(select(1, ...), select(2, ...), select(3, ...), select(4, ...), select(5, ...),
      select(6, ...), function() end)
  end)
  slots("closestPoint", { 0, 3, 0, 10 }, function(w, _, _, ...) return w:closestPoint(...) end)
  slots("queryBox", { -1, -1, -1, 1, 1, 1 }, function(w, _, _, a, b, c, d, e, f)
    return w:queryBox(a, b, c, d, e, f, function() end)
  end)
  slots("overlapEllipsoid", { 0, 0.3, 0, 0.5, 0.5, 0.5 }, function(w, _, _, a, b, c, d, e, f)
    return w:overlapEllipsoid(a, b, c, d, e, f, function() end)
  end)
  slots("setPosition", { 1, 2, 3 }, function(_, m, _, ...) return m:setPosition(...) end)
  slots("setRadius", { 0.5, 0.4, 0.3 }, function(_, m, _, ...) return m:setRadius(...) end)
  slots("setOrientation", { 0, 0, 0, 1 }, function(_, m, _, ...) return m:setOrientation(...) end)
  slots("setUp", { 0, 1, 0 }, function(_, m, _, ...) return m:setUp(...) end)
  for _, field in ipairs { "skin", "slopeLimit", "stepHeight", "snapDistance", "maxIterations" } do
    slots("mover." .. field, { 1 }, function(_, m, _, v) m[field] = v end)
  end
  slots("setFriction", { 0.5 }, function(w, _, _, c) return w:setFriction(0, c) end)
  slots("body:setVelocity", { 0.1, 0, 0 }, function(_, _, box, ...) return box:setVelocity(...) end)
  slots("body:setTransform", { 3, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
    function(_, _, box, ...) return box:setTransform(...) end)
  slots("body:setTransform (matrix)", { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, 0, 1 },
    function(_, _, box, ...) return box:setTransform(...) end)
  slots("world:add", { 3, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
    function(w, _, _, ...) return w:add(cs.newMesh(cs.box(0, 0, 0, 1, 1, 1)), ...) end)
  slots("mesh:setVertex", { 0.5, 1, 0.5 }, function(_, _, box, ...) return box:getMesh():setVertex(1, ...) end)
  local function sensor(w) return w:addSensor(cs.newMesh(cs.box(5, 0, 5, 6, 1, 6))) end
  slots("sensor:setTransform", { 3, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
    function(w, _, _, ...) return sensor(w):setTransform(...) end)
  slots("sensor:contains", { 5.5, 0.5, 5.5 }, function(w, _, _, ...) return sensor(w):contains(...) end)
  slots("world:addSensor", { 3, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
    function(w, _, _, ...) return w:addSensor(cs.newMesh(cs.box(0, 0, 0, 1, 1, 1)), ...) end)
  slots("newMover", { 0.5, 1, 2, 3 }, function(_, _, _, r, x, y, z)
    return cs.newMover { radius = r, position = { x, y, z } }
  end)

  it("moves 1e308 are refused with the mover left where it was", function()
    local w, m = scene()
    local x, y, z = m:getPosition()
    local ok, e = pcall(function() local x1 = w:collideAndSlide(m, 1e308, 0, 0); return x1 end)
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'collideAndSlide' %(vx is out of range %(|vx| > 1e30%), got 1e%+308%)", e)
    assert.are.same({ x, y, z }, { m:getPosition() })
  end)

  it("a mover with a filter gets the same words for a refused move", function()
    -- (the FFI binding gave the status's words, "index out of range", once)
    local w, m = scene()
    m.filter = function() return "slide" end
    local ok, e = pcall(function() local x1 = w:collideAndSlide(m, 1e308, 0, 0); return x1 end)
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'collideAndSlide' %(vx is out of range %(|vx| > 1e30%), got 1e%+308%)", e)
    ok, e = pcall(function() local x1 = w:collideAndSlide(m, 0, 0 / 0, 0); return x1 end)
    assert.is_false(ok)
    assert.matches("bad argument #3 to 'collideAndSlide' %(vy is NaN%)", e)
  end)

  -- vertices are held to 1e30 as well (past it a triangle would not be met:
  -- a floor with corners at 1e80 let movers fall through, silently)
  it("vertices past 1e30 are refused, in every way of giving them", function()
    local q = { -1e31, 0, -1, -1, 0, 1, 1, 0, 1 }
    local ok, e = pcall(cs.newMesh, q)
    assert.is_false(ok)
    assert.matches("vertex 1: x is out of range %(|x| > 1e30%), got %-1e%+31", e)
    ok, e = pcall(cs.newMesh, { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1e300, 1 } })
    assert.is_false(ok)
    assert.matches("vertex 3: y is out of range %(|y| > 1e30%), got 1e%+300", e)
    local mesh = cs.newMesh({ -1e30, 0, -1e30, -1e30, 0, 1e30, 1e30, 0, 1e30 })   -- 1e30 itself is in
    ok, e = pcall(mesh.setVertex, mesh, 2, 0, 0, 1e31)
    assert.is_false(ok)
    assert.matches("z is out of range %(|z| > 1e30%), got 1e%+31", e)
    ok, e = pcall(mesh.setVertices, mesh, { 0, 0, 0, 1, 0, 0, 0, 0, 2e30 })
    assert.is_false(ok)
    assert.matches("vertex 3: z is out of range", e)
    assert.are.same({ -1e30, 0, 1e30 }, { mesh:getVertex(2) })
  end)

  -- radii below 1e-20 are refused (at 1e-40 every move failed: the call's
  -- fixed slack of 1e-9 is past 1e30 radii)
  it("radii below 1e-20 are refused; 1e-20 moves", function()
    local ok, e = pcall(cs.newMover, { radius = 1e-40 })
    assert.is_false(ok)
    assert.matches("rx is too small %(< 1e%-20%), got 1e%-40", e)
    local w, m = scene()
    ok, e = pcall(m.setRadius, m, 1, 1e-21, 1)
    assert.is_false(ok)
    assert.matches("ry is too small", e)
    ok, e = pcall(w.overlapEllipsoid, w, 0, 0, 0, 1e-30, 1, 1, function() end)
    assert.is_false(ok)
    assert.matches("rx is too small", e)
    m:setRadius(1e-20)
    m:setPosition(0, 5, 0)
    local x = w:collideAndSlide(m, 1e-12, 0, 0)
    assert.are.equal(1e-12, x)
  end)

  it("moves of 1e30 radii are refused, shorter ones give finite results", function()
    local w, m = scene()
    m:setRadius(1e-20)
    m:setPosition(0, 5, 0)
    local ok, e = pcall(function() local x1 = w:collideAndSlide(m, 1e12, 0, 0); return x1 end)
    assert.is_false(ok)
    assert.matches("the move is out of range", e)
    assert.are.same({ 0, 5, 0 }, { m:getPosition() })
    m:setRadius(0.5)
    local x, y, z = w:collideAndSlide(m, 1e29, 0, 0)
    assert.is_true(finite(x) and finite(y) and finite(z))
    assert.are.equal(1e29, x)
  end)

  -- a stepHeight of 1e30 is a length its setter takes, and then every move
  -- is out of range: the error says the settings are why (a move of 1
  -- reaching 2e30 named nothing of the kind)
  it("a move out of range for the mover's settings names them", function()
    local w, m = scene()
    m:setPosition(0, 5, 0)
    m.stepHeight = 1e30
    local ok, e = pcall(function() local x1 = w:collideAndSlide(m, 1, 0, 0); return x1 end)
    assert.is_false(ok)
    assert.matches("collideAndSlide: stepHeight, snapDistance and skin put the move out of range "
                   .. "%(it reaches 2e%+30, 4e%+30 radii%)$", e)
    assert.are.same({ 0, 5, 0 }, { m:getPosition() })
    -- a walk too long by itself is blamed on the walk, without the settings
    m.stepHeight = 0
    ok, e = pcall(function() local x1 = w:collideAndSlide(m, 2e30, 0, 0); return x1 end)
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'collideAndSlide'", e)
    assert.is_nil(e:find("stepHeight", 1, true))
  end)
end)

describe("A call near the origin after one from far away", function()
  -- one call from 4e10 back to the origin, then calls there: each works
  -- relative to the mover, as every call does (its gather's frame stayed
  -- 4e10 away, and the next calls ended on a grid of 2^-16: found by an
  -- independent tester)
  it("ends where free space puts it, to the rounding of its own position", function()
    local w = cs.newWorld()
    w:addSensor(cs.newMesh(cs.box(-0.5, 0.5, 0, 1, 2, 2)))          -- (no solid)
    w:add(cs.newMesh(cs.box(-3, -60, -3, 3, -59, 3)))                 -- a slab far below the path
    local m = cs.newMover { radius = 0.12, position = { 42895975181.406654, 11937453001.930937, 13384591068.398346 } }
    w:collideAndSlide(m, -42895975183.124794, -11937453002.706823, -13384591068.72403, 0, -0.39738904889551413, 0)
    local x, y, z = m:getPosition()
    local wx, wy, wz, gy = 0.71651843994867015, 3.3258276269674667, 3.3706487932797904, -1.0315334214975747
    local x2, y2, z2 = w:collideAndSlide(m, wx, wy, wz, 0, gy, 0)
    assert.is_true(math.abs(x2 - (x + wx)) <= 1e-14 and math.abs(y2 - (y + wy + gy)) <= 1e-14
      and math.abs(z2 - (z + wz)) <= 1e-14, ("%.17g %.17g %.17g"):format(x2, y2, z2))
  end)
end)
