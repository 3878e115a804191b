-- Leaving a moving platform (character.keepPlatformVelocity): a jump from a
-- platform, or a walk off its edge, goes on with the platform's velocity at
-- the character's centre; a still ground, a teleport or the setting false
-- add nothing, to the bit.
local cs = require "collideslide"
local H = require "helper"

local DT = 1 / 60
local TAKEOFF = 30          -- the frame of the jump

--   side view: a 6 m platform at y = 0 over a floor 20 m below
--   ======  platform (moves)
--
--   ------------------------------ floor y = -20
local function quad(s)
  return cs.newMesh({ -s, 0, -s, s, 0, -s, s, 0, s, -s, 0, s }, { 1, 3, 2, 1, 4, 3 })
end

local function level()
  local world = cs.newWorld()
  world:add(quad(200)):setTransform(0, -20, 0)
  return world, world:add(quad(3))
end

-- Runs frames 1..n; place(plat, frame) moves the platform before each update.
-- Returns the character.
local function ride(settings, place, n, input)
  local world, plat = level()
  settings.position = settings.position or { 0, 0.9 + 1e-3, 0 }
  local ch = cs.newCharacter(settings)
  for f = 1, n do
    place(plat, f)
    ch:update(world, DT, input and input(f) or { jump = f == TAKEOFF })
  end
  return ch
end

local function sliding(plat, f) plat:setTransform(3 * f * DT, 0, 0) end    -- 3 m/s along x

describe("Character leaving a moving platform", function()
  it("jumps off with the platform's velocity (setTransform each frame)", function()
    local ch = ride({}, sliding, TAKEOFF + 10)
    assert.is_false(ch.onGround)
    assert.is_true(H.near(ch.velocity[1], 3, 1e-9), tostring(ch.velocity[1]))
    assert.is_true(H.near(ch.velocity[3], 0, 1e-12))
    -- and not without the setting: the walk's velocity, none
    local off = ride({ keepPlatformVelocity = false }, sliding, TAKEOFF + 10)
    assert.is_true(H.near(off.velocity[1], 0, 1e-12), tostring(off.velocity[1]))
    -- the same jump, one platform speed apart for its 10 frames in the air
    assert.is_true(H.near(ch.position[1] - off.position[1], 3 * 10 * DT, 1e-9))
  end)

  -- a jump in place on a moving platform comes down where it left (a train's
  -- roof), and stays there: the velocity kept in the air is gone on landing
  it("comes down on the spot of the platform it left, and stays there", function()
    local world, plat = level()
    local ch = cs.newCharacter { position = { 0, 0.9 + 1e-3, 0 } }
    local landed, rel, start
    for f = 1, TAKEOFF + 120 do
      sliding(plat, f)
      ch:update(world, DT, { jump = f == TAKEOFF })
      if f == TAKEOFF then start = ch.position[1] - 3 * f * DT end    -- on the platform
      if f > TAKEOFF and ch.onGround and not landed then landed, rel = f, ch.position[1] - 3 * f * DT end
    end
    assert.is_truthy(landed, "lands")
    assert.is_true(landed > TAKEOFF + 30)         -- (a jump of 5 m/s: about a second)
    assert.are.equal(plat, ch.mover:getGroundBody())
    -- where it stood at take-off, to the rounding of a second's frames
    assert.is_true(H.near(rel, start, 1e-9), rel .. " against " .. start)
    assert.is_true(H.near(ch.position[1] - 3 * (TAKEOFF + 120) * DT, rel, 1e-9))
    -- without the setting the platform goes on from under it: it comes down
    -- near its edge, 3 m back (or off it)
    local off = ride({ keepPlatformVelocity = false }, sliding, TAKEOFF + 120)
    assert.is_true(math.abs(off.position[1] - 3 * (TAKEOFF + 120) * DT - start) > 2.5)
  end)

  it("takes cs.setPlatformVelocity's velocity", function()
    local ch = ride({}, function(plat, f)
      if f == 1 then cs.setPlatformVelocity(plat, 0, 0, -2) end
      plat:setTransform(0, 0, -2 * f * DT)
    end, TAKEOFF + 5)
    assert.is_true(H.near(ch.velocity[3], -2, 1e-9), tostring(ch.velocity[3]))
    assert.is_true(H.near(ch.velocity[1], 0, 1e-12))
  end)

  it("takes a turning platform's velocity at its centre (omega x r)", function()
    local w = 1.0                               -- rad/s about y; the character 2 m out
    local ch = ride({ position = { 2, 0.9 + 1e-3, 0 } }, function(plat, f)
      local a = w * f * DT
      plat:setTransform(0, 0, 0, 0, math.sin(a / 2), 0, math.cos(a / 2))
    end, TAKEOFF + 1)
    -- at take-off (frame TAKEOFF) the centre is at angle a, 2 m out: velocity
    -- 2 w along the tangent, (-sin a, 0, -cos a) for a turn about +y
    local vx, vz = ch.velocity[1], ch.velocity[3]
    assert.is_true(H.near(math.sqrt(vx * vx + vz * vz), 2 * w, 2e-3), vx .. ", " .. vz)
    local x, z = ch.position[1], ch.position[3]
    assert.is_true(math.abs(vx * x + vz * z) < 0.05 * 2 * math.sqrt(x * x + z * z),
      "along the tangent")
  end)

  it("adds a rising lift's speed to the jump", function()
    local ch = ride({}, function(plat, f) plat:setTransform(0, 2 * f * DT, 0) end, TAKEOFF)
    assert.is_true(ch.jumped)
    assert.is_true(H.near(ch.fallVelocity[2], 5 + 2 - 9.81 * DT, 1e-9), tostring(ch.fallVelocity[2]))
  end)

  it("walking off its edge too", function()
    local ch = ride({}, sliding, 90, function() return { z = 1 } end)    -- walks off at z = 3
    assert.is_false(ch.onGround)
    assert.is_true(H.near(ch.velocity[1], 3, 1e-9), tostring(ch.velocity[1]))
  end)

  it("adds nothing from a still ground, turned or not: the same bits", function()
    local function still(plat) plat:setTransform(0.5, 0, 0, 0, math.sin(0.3), 0, math.cos(0.3)) end
    local input = function(f) return { x = 1, jump = f == TAKEOFF } end
    local a = ride({}, still, TAKEOFF + 20, input)
    local b = ride({ keepPlatformVelocity = false }, still, TAKEOFF + 20, input)
    assert.is_false(a.onGround)
    for i = 1, 3 do
      assert.are.equal(b.position[i], a.position[i])
      assert.are.equal(b.velocity[i], a.velocity[i])
    end
  end)

  it("forgets the platform when teleported", function()
    local world, plat = level()
    local ch = cs.newCharacter { position = { 0, 0.9 + 1e-3, 0 } }
    for f = 1, 20 do sliding(plat, f); ch:update(world, DT) end
    assert.is_true(ch.onGround)
    ch:setPosition(50, 5, 50)
    sliding(plat, 21)
    ch:update(world, DT)
    assert.is_true(H.near(ch.velocity[1], 0, 1e-12), tostring(ch.velocity[1]))
  end)

  it("adds nothing once the platform is removed", function()
    local world, plat = level()
    local ch = cs.newCharacter { position = { 0, 0.9 + 1e-3, 0 } }
    for f = 1, 20 do sliding(plat, f); ch:update(world, DT) end
    world:remove(plat)
    ch:update(world, DT)
    assert.is_false(ch.onGround)
    assert.is_true(H.near(ch.velocity[1], 0, 1e-12), tostring(ch.velocity[1]))
  end)

  -- independent testers, round 26: what the core carries by, and what it
  -- does not carry, the character keeps alike
  it("takes the velocity of the point it stands on, not of its centre", function()
    -- a slab pitching about the line through the point under the feet (z
    -- axis): that point stands still, so does the rider, and so does its jump
    for _, dt in ipairs { 1 / 30, 1 / 144 } do
      local world = cs.newWorld()
      world:add(quad(200)):setTransform(0, -30, 0)
      local slab = world:add(cs.newMesh(cs.box(-2, -0.25, -2, 2, 0, 2)))
      local t, ch = 0, cs.newCharacter { position = { 0, 0.9 + 1e-3, 0 } }
      local vair
      for f = 1, math.floor(0.6 / dt) do
        t = t + dt
        slab:setTransform(0, 0, 0, 0, 0, math.sin(t / 2), math.cos(t / 2))    -- 1 rad/s
        ch:update(world, dt, { jump = f == math.floor(0.5 / dt) })
        if ch.jumped then vair = true elseif vair then break end
      end
      -- (at the centre, 0.9 m over the axis, it was 0.9 m/s)
      assert.is_true(math.abs(ch.velocity[1]) < 0.06, tostring(ch.velocity[1]))
    end
  end)

  it("adds nothing from a platform disabled, removed or on layers it no longer meets", function()
    for _, how in ipairs { "disable", "remove", "layers" } do
      for _, spv in ipairs { false, true } do
        local world, plat = level()
        local ch = cs.newCharacter { position = { 0, 0.9 + 1e-3, 0 } }
        if spv then cs.setPlatformVelocity(plat, 3, 0, 0) end
        for f = 1, 20 do sliding(plat, f); ch:update(world, DT) end
        assert.is_true(ch.onGround)
        if how == "disable" then plat:setEnabled(false)
        elseif how == "remove" then world:remove(plat)
        else plat.layers = 2; ch.mover.collidesWith = 1 end
        -- (a removed one with a platform velocity raised at every update, for good)
        for _ = 1, 3 do ch:update(world, DT) end
        assert.is_false(ch.onGround)
        assert.is_true(H.near(ch.velocity[1], 0, 1e-12), how .. " " .. tostring(spv) .. ": " .. ch.velocity[1])
      end
    end
  end)

  it("loses it wedged in a steep V, as it does landing", function()
    -- a trough of 70-degree faces along z, below a platform moving +z at 3 m/s
    local world = cs.newWorld()
    local s, h = math.tan(math.rad(70)), 4
    world:add(cs.newMesh({ 6 - h / s, 1, -500, 6, -3, -500, 6, -3, 500, 6 - h / s, 1, 500,
      6 + h / s, 1, -500, 6 + h / s, 1, 500 }, { 1, 3, 2, 1, 4, 3, 2, 6, 5, 2, 3, 6 }))
    local plat = world:add(cs.newMesh(cs.box(-2, -0.5, -2, 2, 0, 2)))
    local ch = cs.newCharacter { position = { 0, 3.9 + 1e-3, 0 } }
    local t, z4
    for f = 1, 60 * 6 do
      t = f * DT
      plat:setTransform(0, 3, 3 * t)
      ch:update(world, DT, { x = t < 1.2 and 1 or 0 })
      if f == 60 * 4 then z4 = ch.position[3] end
    end
    assert.are.equal("steep", ch.groundState)
    assert.is_true(H.near(ch.position[3], z4, 1e-9), ("glides on: %g then %g"):format(z4, ch.position[3]))
  end)

  it("drops it once the setting is false", function()
    local world, plat = level()
    local ch = cs.newCharacter { position = { 0, 0.9 + 1e-3, 0 } }
    for f = 1, TAKEOFF + 5 do sliding(plat, f); ch:update(world, DT, { jump = f == TAKEOFF }) end
    assert.is_true(H.near(ch.velocity[1], 3, 1e-9))
    ch.keepPlatformVelocity = false
    ch:update(world, DT)
    assert.is_true(H.near(ch.velocity[1], 0, 1e-12), tostring(ch.velocity[1]))
  end)

  it("takes the platform's speed when updated twice a frame it is placed in", function()
    -- a platform placed once a frame (1/60 s), the character updated twice
    -- (1/120 s): the placement's change took the frame, not the update
    -- (the jump took 6 m/s on the first update, none on the second)
    for _, sub in ipairs { 1, 2 } do
      local world, plat = level()
      local ch = cs.newCharacter { position = { 0, 0.9 + 1e-3, 0 } }
      local vair
      for frame = 1, TAKEOFF + 3 do
        sliding(plat, frame)
        for k = 1, 2 do
          ch:update(world, DT / 2, { jump = frame == TAKEOFF and k == sub })
          if frame == TAKEOFF + 2 then vair = ch.velocity[1] end
        end
      end
      assert.is_true(H.near(vair, 3, 1e-9), ("substep %d: %.17g"):format(sub, vair))
    end
  end)

  it("leaves a turning platform along its tangent at the point stood on, not a chord", function()
    -- a carousel at 1.2 rad/s about y, the character 3 m out, at 20 updates
    -- a second: the velocity on leaving is at right angles to the radius
    local world = cs.newWorld()
    world:add(quad(200)):setTransform(0, -30, 0)
    local disc = world:add(cs.newMesh(cs.box(-5, -0.5, -5, 5, 0, 5)))
    local dt, ch = 1 / 20, cs.newCharacter { position = { 3, 0.9 + 1e-3, 0 } }
    local a = 0
    for f = 1, 12 do
      a = a + 1.2 * dt
      disc:setTransform(0, 0, 0, 0, math.sin(a / 2), 0, math.cos(a / 2))
      ch:update(world, dt, { jump = f == 10 })
      if f == 10 then break end
    end
    local x, z, vx, vz = ch.position[1], ch.position[3], ch.velocity[1], ch.velocity[3]
    ch:update(world, dt)                              -- (in the air: its own velocity)
    vx, vz = ch.velocity[1], ch.velocity[3]
    local along = (vx * x + vz * z) / math.sqrt((vx * vx + vz * vz) * (x * x + z * z))
    -- (along the last turn's chord: sin(0.03) = 0.03 off the tangent)
    assert.is_true(math.abs(along) < 0.005, tostring(along))
    assert.is_true(H.near(math.sqrt(vx * vx + vz * vz), 3.6, 0.01))
  end)

  it("refuses a setting that is not a boolean", function()
    local ok, err = pcall(cs.newCharacter, { keepPlatformVelocity = 1 })
    assert.is_false(ok)
    assert.matches("keepPlatformVelocity must be a boolean, got number", err, 1, true)
    local ch = cs.newCharacter {}
    ch.keepPlatformVelocity = "yes"
    ok, err = pcall(ch.update, ch, cs.newWorld(), DT)
    assert.is_false(ok)
    assert.matches("keepPlatformVelocity must be a boolean, got string", err, 1, true)
  end)
end)
