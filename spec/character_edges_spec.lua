-- Character controller edges (lua/collideslide/character.lua), each found by an
-- independent tester: integer up components (Lua 5.3+), a dt far below any
-- frame's, and settings the core refuses but the character took, reported in
-- the words of the character's inner calls after the mover had taken them.
-- Scene: a 20 m floor at y = 0.
local cs = require "collideslide"

local DT = 1 / 60
local FILE = "character_edges_spec%.lua:%d+: "   -- errors blame the caller's line

local function scene()
  local world = cs.newWorld()
  world:add(cs.newMesh({ -10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10 }, { 1, 2, 3, 1, 3, 4 }))
  return world
end

local errorOf = require("helper").errorOf

local function finite(v) return v - v == 0 end

-- What an erroring call must leave as it was: the character's state and its
-- mover's (place, up and the tunables the character forwards).
local function snapshot(ch)
  local m = ch.mover
  local x, y, z = m:getPosition()
  local ux, uy, uz = m:getUp()
  return { ch.position[1], ch.position[2], ch.position[3], ch.velocity[1], ch.velocity[2],
    ch.fallVelocity[2], ch.onGround, x, y, z, ux, uy, uz, m.stepHeight, m.snapDistance, m.skin,
    m.slopeLimit }
end

describe("Character edges", function()
  -- Lua 5.3+: the up's length was summed in integer arithmetic, whose squares
  -- wrap: {0, 2^32, 0} was refused as a NaN move, {0, math.mininteger, 0} too
  -- (after the mover took it), and {0, math.maxinteger, 0} jumped to 7.7e17
  -- README and API.md's z-up words (an independent tester found the default
  -- radius lying on its side and input.z doing nothing with up = {0, 0, 1})
  describe("in a z-up world, as the docs say", function()
    it("stands on radius {0.4, 0.4, 0.9} and walks the xy plane with x and yaw", function()
      local w = cs.newWorld()
      w:add(cs.newBuilder():box(-10, -10, -1, 10, 10, 0):mesh())
      local ch = cs.newCharacter { position = { 0, 0, 0.904 }, up = { 0, 0, 1 }, radius = { 0.4, 0.4, 0.9 } }
      for _ = 1, 30 do ch:update(w, 1 / 60, { x = 1, yaw = math.pi / 2 }) end
      assert.near(0, ch.position[1], 1e-9)
      assert.near(2, ch.position[2], 1e-6)
      assert.near(0.904, ch.position[3], 1e-6)
      assert.is_true(ch.onGround)
      ch:update(w, 1 / 60, { z = -1 })                 -- along up: no walk
      assert.near(0, ch.velocity[1], 1e-9)
      assert.near(0, ch.velocity[2], 1e-9)
    end)
  end)

  describe("with integer up components", function()
    it("moves as with the floats of the same value", function()
      if not math.tointeger then return end       -- (5.1, LuaJIT: no integers)
      local world = scene()
      for _, y in ipairs { math.tointeger(2 ^ 32), math.maxinteger, math.mininteger, 3 } do
        local a = cs.newCharacter { position = { 0, 0.905, 0 } }
        local b = cs.newCharacter { position = { 0, 0.905, 0 } }
        a:update(world, DT, nil)
        b:update(world, DT, nil)
        a.up, b.up = { 0, y, 0 }, { 0, y + 0.0, 0 }
        for _, input in ipairs { { x = 1 }, { jump = true }, { x = 1 } } do
          a:update(world, DT, input)
          b:update(world, DT, input)
          assert.are.same({ b:getPosition() }, { a:getPosition() })
          assert.are.same(b.velocity, a.velocity)
          assert.are.same(b.fallVelocity, a.fallVelocity)
        end
        a:push(1, 2, 3)
        b:push(1, 2, 3)
        assert.are.same(b.fallVelocity, a.fallVelocity)
        if y > 0 then                             -- up the y axis: a 5 m/s jump
          local c = cs.newCharacter { position = { 0, 0.905, 0 }, up = { 0, y, 0 } }
          c:update(world, DT, nil)
          c:update(world, DT, { jump = true })
          assert.is_true(math.abs(c.fallVelocity[2] - (5 - 9.81 * DT)) <= 1e-12)
          assert.is_true(c.position[2] < 1)
        end
      end
    end)
  end)

  -- velocity = position change / dt divided a push out of an overlap (which
  -- does not scale with dt) by dt = 5e-324: inf; by 1e-300: 1.04e299
  describe("with a dt far below a frame's", function()
    it("keeps its velocity finite: the one the update asked for", function()
      local world = scene()
      for _, dt in ipairs { 5e-324, 1e-300, 1e-7 } do
        local ch = cs.newCharacter { position = { 0, 0.8, 0 } }   -- 0.1 into the floor
        ch:update(world, dt, { x = 1 })
        assert.is_true(ch.position[2] > 0.9)                      -- pushed out
        for i = 1, 3 do
          assert.is_true(finite(ch.velocity[i]) and finite(ch.fallVelocity[i]), tostring(ch.velocity[i]))
        end
        assert.near(0, ch.velocity[2], 1e-3)                      -- not 0.1 / dt
        -- and the crowd's way
        local c = cs.newCharacter { position = { 0, 0.8, 3 } }
        cs.updateCharacters(world, { c }, dt, { { x = 1 } })
        assert.are.same(ch.velocity, c.velocity)
      end
    end)

    it("still gives the actual velocity at a frame's dt", function()
      local world = scene()
      local ch = cs.newCharacter { position = { 0, 0.8, 0 } }
      ch:update(world, DT, nil)
      assert.is_true(ch.velocity[2] > 5)                          -- 0.1 m out in 1/60 s
    end)
  end)

  -- up too short for the core, and stepHeight, snapDistance and skin that the
  -- core counts into every move's reach: refused in newMover's, setUp's or
  -- collideAndSlide's words at character.lua's lines, after the mover took them
  describe("with settings the core would refuse", function()
    it("refuses an up too short to normalise, in its own words", function()
      local e = errorOf(function() local c = cs.newCharacter { up = { 0, 1e-300, 0 } }; return c end)
      assert.matches(FILE .. "bad argument #1 to 'newCharacter' %(up is too short %(x%^2 %+ y%^2 %+ z%^2 < "
        .. "2%.2250738585072e%-308, the smallest normal double%), got {0, 1e%-300, 0}%)$", e)
      local world = scene()
      local ch = cs.newCharacter { position = { 0, 0.905, 0 } }
      ch:update(world, DT, nil)
      local before = snapshot(ch)
      ch.up = { 0, 1e-300, 0 }
      e = errorOf(function() ch:update(world, DT, nil) end)
      assert.matches(FILE .. "character:update: up is too short", e)
      assert.are.same(before, snapshot(ch))
      ch.up = { 1e-154, 1e-154, 0 }                -- squared: 2e-308, under the least normal
      assert.matches("up is too short", errorOf(ch.update, ch, world, DT))
      ch.up = { 0, 1e-150, 0 }                     -- far enough
      ch:update(world, DT, nil)
      assert.near(1, select(2, ch.mover:getUp()), 1e-12)
    end)

    it("refuses stepHeight, snapDistance and skin past the core's reach, naming the setting", function()
      local world = scene()
      for _, k in ipairs { "stepHeight", "snapDistance", "skin" } do
        local e = errorOf(function() local c = cs.newCharacter { [k] = 1e30 }; return c end)
        assert.matches(FILE .. "bad argument #1 to 'newCharacter' %(" .. k .. " is out of range %(2 %* "
          .. "stepHeight %+ snapDistance %+ 4 %* skin, added to every move's reach, is .*, past 1e30%), "
          .. "got 1e%+30%)$", e)
        local ch = cs.newCharacter { position = { 0, 0.905, 0 } }
        ch:update(world, DT, nil)
        local before, old = snapshot(ch), ch[k]
        ch[k] = 1e30
        e = errorOf(function() ch:update(world, DT, { x = 1 }) end)
        assert.matches(FILE .. "character:update: " .. k .. " is out of range %(2 %* stepHeight", e)
        assert.are.same(before, snapshot(ch))
        assert.matches(FILE .. "updateCharacters: character 1: " .. k .. " is out of range",
          errorOf(function() cs.updateCharacters(world, { ch }, DT) end))
        assert.are.same(before, snapshot(ch))
        ch[k] = old
        ch:update(world, DT, { x = 1 })
      end
      -- of the shares the largest is named (radius 1: 1e30 radii is 1e30 m)
      assert.matches("%(snapDistance is out of range", errorOf(cs.newCharacter,
        { radius = 1, stepHeight = 3e29, snapDistance = 7e29, skin = 1e28 }))
      -- small radii: 1e30 radii comes first
      assert.matches("%(stepHeight is out of range .*: 2%.0*%d*e%+30 radii", errorOf(cs.newCharacter,
        { radius = 1e-20, stepHeight = 1e10 }))
    end)

    it("accepts the settings exactly when a mover with them can move", function()
      local world = cs.newWorld()
      local cases = {}
      for _, r in ipairs { 1, 0.25, 1e-20 } do
        local top = 1e30 * math.min(r, 1)        -- the reach that stays inside
        for _, f in ipairs { 1 - 1e-15, 1, 1 + 1e-15, 1 + 1e-9 } do
          cases[#cases + 1] = { radius = r, stepHeight = top / 2 * f }
          cases[#cases + 1] = { radius = r, snapDistance = top * f, stepHeight = 0 }
          cases[#cases + 1] = { radius = r, skin = top / 4 * f, stepHeight = 0, snapDistance = 0 }
          cases[#cases + 1] = { radius = r, stepHeight = top / 4 * f, snapDistance = top / 4, skin = top / 8 }
        end
      end
      local accepted, refused = 0, 0
      for _, c in ipairs(cases) do
        local m = cs.newMover { radius = c.radius }
        local moves = pcall(function()              -- (the mover's setter refuses past 1e30)
          m.stepHeight, m.snapDistance = c.stepHeight or 0.3, c.snapDistance or 0.2
          if c.skin then m.skin = c.skin end
        end) and pcall(world.collideAndSlide, world, m, 0, 0, 0)
        local ok = pcall(cs.newCharacter, c)
        assert.are.equal(moves, ok, string.format("radius %.17g stepHeight %.17g snapDistance %.17g "
          .. "skin %.17g", c.radius, c.stepHeight or 0.3, c.snapDistance or 0.2, c.skin or -1))
        if ok then accepted = accepted + 1 else refused = refused + 1 end
      end
      assert.is_true(accepted > 0 and refused > 0)
    end)

    it("refuses a move that reaches past 1e30 with them, in its own words", function()
      local world = scene()
      -- each within range alone: walk 6e29, 2 * stepHeight 4.8e29
      local ch = cs.newCharacter { position = { 0, 1.01, 0 }, radius = 1, gravity = 0, airControl = 1 }
      ch:update(world, DT, nil)
      local before = snapshot(ch)
      ch.walkSpeed, ch.stepHeight, ch.up = 6e29, 2.4e29, { 1, 1, 0 }
      local e = errorOf(function() ch:update(world, 1, { z = 1 }) end)
      assert.matches(FILE .. "character:update: the move is out of range %(past 1e30, or 1e30 radii%)", e)
      assert.are.same(before, snapshot(ch))        -- the mover took neither stepHeight nor up
      -- from near 1e30 a move within range ends past it
      ch.walkSpeed, ch.stepHeight, ch.up = 2e29, 0.3, { 0, 1, 0 }
      ch.position[1] = 9e29
      e = errorOf(function() ch:update(world, 1, { x = 1 }) end)
      assert.matches(FILE .. "character:update: the move is out of range .*, from %(9e%+29, [%d.]+, 0%); ", e)
      assert.are.same({ before[8], before[9], before[10] }, { ch.mover:getPosition() })
      ch.position[1] = 0
      ch:update(world, DT, { x = 1 })              -- and walks on
    end)

    -- The carry of a platform (its velocity or placement) is not counted by
    -- the character's own check; the core refused the move after the mover
    -- had taken the update's settings, in its own words at character.lua's
    -- line.
    local function onPlatform()
      local world = cs.newWorld()
      local plat = world:add(cs.newMesh({ -3, 0.5, -3, -3, 0.5, 3, 3, 0.5, 3, 3, 0.5, -3 },
        { 1, 2, 3, 1, 3, 4 }))
      local a = cs.newCharacter { position = { 0, 1.404, 0 } }
      local b = cs.newCharacter { position = { 1, 1.404, 0 } }
      for _ = 1, 10 do cs.updateCharacters(world, { a, b }, DT) end
      assert.are.equal(plat, a.mover:getGroundBody())
      return world, plat, a, b
    end

    -- found by an independent tester: a list with a key math.huge raised
    -- string.format's "bad argument #2 to 'format'" (an inf key is no hole:
    -- collideAndSlideMany takes such a list)
    it("takes a list with keys past its end that are no indices", function()
      local world = cs.newWorld()
      world:add(cs.newMesh(cs.box(-5, -1, -5, 5, 0, 5)))
      local a = cs.newCharacter { position = { 0, 1, 0 } }
      cs.updateCharacters(world, { a, [math.huge] = true, [2.5] = true, n = 1 }, DT)
      assert.are.equal(1, a.mover:getPosition() and 1)
      local e = errorOf(function() cs.updateCharacters(world, { a, [3] = a }, DT) end)
      assert.truthy(e:find("list of characters has a hole at 2 (element 3 is set)", 1, true), e)
    end)

    it("refuses a platform's carry past 1e30, the settings back as they were", function()
      local world, plat, ch = onPlatform()
      local before = snapshot(ch)
      plat:setVelocity(9e29, 0, 0)               -- 2.25e30 radii of 0.4
      ch.stepHeight, ch.skin, ch.up = 0.25, 0.02, { 0, 1, 1 }
      local e = errorOf(function() ch:update(world, DT, { x = 1 }) end)
      assert.matches(FILE .. "character:update: its ground's carry %(platform%) puts the move out of "
        .. "range %(it reaches 9e%+29, 2%.25e%+30 radii%)$", e)
      assert.are.same(before, snapshot(ch))
      -- placed far instead: the same
      plat:setVelocity(0, 0, 0)
      plat:setTransform(9e29, 0, 0)
      e = errorOf(function() ch:update(world, DT, { x = 1 }) end)
      assert.matches(FILE .. "character:update: its ground's carry %(platform%) puts the move out of range", e)
      assert.are.same(before, snapshot(ch))
      -- back in range, the update takes the settings
      plat:setTransform(0, 0, 0)
      ch:update(world, DT)
      assert.are.same({ 0.25, 0.02 }, { ch.mover.stepHeight, ch.mover.skin })
    end)

    it("updateCharacters refuses it too, naming the character, every one as it was", function()
      local world, plat, a, b = onPlatform()
      local ba, bb = snapshot(a), snapshot(b)
      plat:setVelocity(0, 9e29, 0)
      a.stepHeight, b.snapDistance = 0.1, 0.05
      local e = errorOf(function() cs.updateCharacters(world, { a, b }, DT) end)
      assert.matches(FILE .. "updateCharacters: character 1: its ground's carry %(platform%) puts the move "
        .. "out of range", e)
      assert.are.same(ba, snapshot(a))
      assert.are.same(bb, snapshot(b))
      -- the loop the list takes when a character after the first was teleported
      b.position[1] = 1.5
      e = errorOf(function() cs.updateCharacters(world, { b, a }, DT) end)
      assert.matches(FILE .. "updateCharacters: character 2: its ground's carry %(platform%) puts the move "
        .. "out of range", e)
      assert.are.same(ba, snapshot(a))
    end)

    -- a filter's error that holds the same words (its own call in another
    -- world refused) was taken for the core's refusal: rewritten, the
    -- settings taken back, and in a batch the characters moved before it did
    -- not take their move (found by an independent tester)
    it("raises a filter's error that reads like a refusal as it is", function()
      local world, other = scene(), cs.newWorld()
      local probe = cs.newMover { radius = 0.5 }
      local a = cs.newCharacter { position = { -5, 0.91, 0 } }
      local b = cs.newCharacter { position = { 5, 0.91, 0 } }
      for _ = 1, 10 do cs.updateCharacters(world, { a, b }, DT) end
      b.filter = function() local x = other:collideAndSlide(probe, 1e30, 0, 0); return x and "slide" end
      b.stepHeight = 0.123
      local e = errorOf(function() b:update(world, DT, { z = 1 }) end)
      assert.matches("^[^\n]-character_edges_spec%.lua:%d+: bad argument #2 to 'collideAndSlide' %(the move is "
        .. "out of range", e)
      assert.are.equal(0.123, b.mover.stepHeight)             -- taken, as for any filter's error
      local az = a.position[3]
      e = errorOf(function() cs.updateCharacters(world, { a, b }, DT, { { z = 1 }, { z = 1 } }) end)
      assert.matches("collideAndSlideMany: the filter of mover 2 raised an error: .*out of range", e)
      assert.is_true(a.position[3] > az)                       -- character 1 took its move
      assert.are.same({ a.mover:getPosition() }, { a.position[1], a.position[2], a.position[3] })
    end)
  end)

  -- Found by an independent tester's fuzz: push used a bad up written into
  -- the character (NaN in fallVelocity for good, or an error inside this
  -- file), getPosition and setPosition indexed a bad position, and keys
  -- holding a NUL byte were copied into messages that Lua then cut there
  describe("with state the script broke", function()
    it("push refuses a bad up in its own words and changes nothing", function()
      local world = scene()
      local ch = cs.newCharacter { position = { 0, 1, 0 } }
      ch:update(world, DT)
      for _, up in ipairs { { 0, 0, 0 }, { 0, 1e-300, 0 }, "x", { 1, "a", 0 } } do
        ch.up = up
        local before = snapshot(ch)
        assert.matches("character:push: up", errorOf(function() ch:push(1, 2, 3) end))
        assert.are.same(before, snapshot(ch))
      end
      ch.up = { 0, 1, 0 }
      -- a number written into the state is refused too (push took it over, and
      -- the next update let it through: the next tester)
      local fy = ch.fallVelocity[2]
      ch.fallVelocity[2] = 50
      assert.matches("character:push: velocity and fallVelocity are state", errorOf(function() ch:push(0, 0, 0) end))
      ch.fallVelocity[2] = fy
      ch:push(1, 2, 3)
      ch:update(world, DT)
      assert.is_true(finite(ch.fallVelocity[2]) and finite(ch.velocity[1]))
    end)

    it("getPosition gives the mover's centre and setPosition mends a bad position", function()
      local world = scene()
      local ch = cs.newCharacter { position = { 0, 1, 0 } }
      ch:update(world, DT)
      local x, y, z = ch.mover:getPosition()
      for _, p in ipairs { "x", { 1, 2 }, { 0 / 0, 1, 0 }, { 1e300, 0, 0 } } do
        ch.position = p
        assert.are.same({ x, y, z }, { ch:getPosition() })
        ch:setPosition(0, 2, 0)
        assert.are.same({ 0, 2, 0 }, { ch.position[1], ch.position[2], ch.position[3] })
      end
      ch.position = nil
      assert.are.same({ x, y, z }, { ch:getPosition() })
      ch:setPosition(0, 2, 0)
      ch:update(world, DT)
      assert.are.equal(0, ch.position[1])
    end)

    it("names a key holding a NUL byte by its kind", function()
      local world = scene()
      assert.matches("unknown field %(a NUL%-holding string key%)",
        errorOf(cs.newCharacter, { ["skin\0junk"] = 1 }))
      local ch = cs.newCharacter()
      assert.matches("unknown field %(a NUL%-holding string key%)",
        errorOf(function() ch["walkSpeed\0"] = 1 end))
      assert.matches("unknown input key %(a NUL%-holding string key%)",
        errorOf(function() ch:update(world, DT, { ["x\0"] = 1 }) end))
    end)
  end)

  -- reads of names the character does not have were nil without a word, and
  -- a mover's method looked for on the character "attempt to call a nil
  -- value" (found by an independent tester reading the README as a newcomer)
  describe("read by a name it does not have", function()
    it("says so, and where the mover's methods are", function()
      local ch = cs.newCharacter()
      assert.matches(FILE .. "unknown field 'onground' %(did you mean 'onGround'%?%)$",
        errorOf(function() return ch.onground end))
      assert.matches(FILE .. "a character has no method 'isOnGround': its mover has %(character%.mover:"
        .. "isOnGround%(%)%); the character keeps it in character%.onGround$",
        errorOf(function() return ch:isOnGround() end))
      assert.matches("its mover has %(character%.mover:wasStuck%(%)%)$", errorOf(function() return ch:wasStuck() end))
      -- every method of the mover, setters too (a hand list hinted getRadius
      -- and left setRadius "unknown field 'setRadius'": found by an
      -- independent tester)
      assert.matches(FILE .. "a character has no method 'setRadius': its mover has %(character%.mover:setRadius%(%)%); "
        .. "the character keeps it in character%.radius: write that instead %(its next update gives it to the mover%)$",
        errorOf(function() return ch:setRadius(1) end))
      assert.matches("'setUp': its mover has %(character%.mover:setUp%(%)%); the character keeps it in character%.up: "
        .. "write that instead", errorOf(function() return ch:setUp(0, 1, 0) end))
      for _, name in ipairs { "setOrientation", "getOrientation", "getGroundTag", "isInside", "getGroundNormal" } do
        assert.matches(FILE .. "a character has no method '" .. name .. "': its mover has %(character%.mover:"
          .. name .. "%(%)%)$", errorOf(function() return ch[name](ch) end))
      end
      -- a method misspelt in case is named as one, as a misspelt field is
      -- (it said "unknown field 'Update'" without a hint: found by an
      -- independent tester)
      local w = cs.newWorld()
      assert.matches(FILE .. "unknown method 'Update' %(did you mean 'update'%?%)$",
        errorOf(function() ch:Update(w, 1 / 60) end))
      assert.matches(FILE .. "unknown method 'getposition' %(did you mean 'getPosition'%?%)$",
        errorOf(function() return ch:getposition() end))
      assert.matches(FILE .. "unknown method 'contactcount' %(did you mean 'contactCount'%?%)$",
        errorOf(function() return ch:contactcount() end))
      assert.matches(FILE .. "unknown field 'nosuchname'$", errorOf(function() return ch.nosuchname end))
      -- settings that default to nil read nil
      assert.is_nil(ch.skin)
      assert.is_nil(ch.filter)
      assert.is_nil(ch.userdata)
      assert.is_false(ch.onGround)
    end)
  end)

  -- found by an independent tester (round nineteen)
  describe("in a game's corners", function()
    -- a V trough of two 60-degree faces 2 m over the floor: "steep", held
    local function trough_world()
      local world = scene()
      local h = math.tan(math.rad(60))
      local trough = world:add(cs.newMesh({ -1, 2 + h, -3, -1, 2 + h, 3, 0, 2, 3, 0, 2, -3,
                                            1, 2 + h, 3, 1, 2 + h, -3 }, { 1, 2, 3, 1, 3, 4, 4, 3, 5, 4, 5, 6 }))
      return world, trough
    end

    it("does not build up a fall while wedged off the ground, and falls from rest once let go", function()
      local world, trough = trough_world()
      local ch = cs.newCharacter { position = { 0, 3.3, 0 } }
      for _ = 1, 180 do ch:update(world, DT) end               -- 3 s in the trough
      assert.are.equal("steep", ch.groundState)
      assert.is_true(ch.fallVelocity[2] > -9.81 * 2 * DT, "fall velocity " .. ch.fallVelocity[2])
      local held = ch.position[2]
      trough:setEnabled(false)                                 -- a trapdoor
      local frames = 0
      repeat ch:update(world, DT); frames = frames + 1 until ch.onGround or frames > 300
      local drop, t = held - ch.position[2], frames * DT
      local from_rest = math.sqrt(2 * drop / 9.81)
      assert.is_true(drop > 2 and t >= from_rest - 2 * DT,
        ("fell %.3f m in %.3f s, from rest %.3f s"):format(drop, t, from_rest))
    end)

    -- the first form of the rule above judged by the motion: a walk up a
    -- steep slope (blockSteepSlopes false) or a ramp rising under the
    -- character held its fall, which then climbed or stuck to the face
    -- (found by the next tester)
    it("goes on falling down a single steep face, walked up or rising", function()
      local h, w = 40, 40 / math.tan(math.rad(60))
      local function face(start_y)
        local world = cs.newWorld()
        local body = world:add(cs.newMesh({ 0, 0, -10, 0, 0, 10, w, h, 10, w, h, -10 }, { 1, 3, 2, 1, 4, 3 }))
        local nx, ny = -math.sin(math.rad(60)), math.cos(math.rad(60))
        local x0 = start_y / math.tan(math.rad(60))
        return world, body, { x0 + nx * 0.501, start_y + ny * 0.501, 0 }
      end
      local world, _, p = face(10)
      local ch = cs.newCharacter { position = p, radius = 0.5, blockSteepSlopes = false, airControl = 1 }
      for _ = 1, 60 do ch:update(world, DT, { x = 1 }) end
      assert.is_true(ch.fallVelocity[2] < -9, "walked up: fall velocity " .. ch.fallVelocity[2])
      local world2, ramp, p2 = face(20)
      local ch2 = cs.newCharacter { position = p2, radius = 0.5 }
      for i = 1, 60 do
        ramp:setTransform(0, i * DT, 0)                        -- rising at 1 m/s
        ch2:update(world2, DT)
      end
      assert.is_true(ch2.fallVelocity[2] < -9, "rising ramp: fall velocity " .. ch2.fallVelocity[2])
    end)

    -- only the gravity pass's contacts count: a walk's contact with a
    -- falling crease's edge, met by the gravity pass a little farther round,
    -- made a crease along the edge and held the fall (the third tester)
    it("goes on falling down a crease that falls while it walks along", function()
      local T = {
        { 2.2717292618911142, 3.9184479854230192, 5.6529260541046149, -0.26890896552568089, 0.18869817772640229,
          0.28821776093159279, -0.96150730052016975, 0.18869817772640229, 5.1967097082708991 },
        { -0.52475019729051176, 0.85286032968875936, -1.7413370614140806, 1.6343008259060408, -4.4357712214482587,
          6.6220461492435572, 4.0267917444435861, -4.4357712214482587, -0.12811229860745632 },
        { -0.52475019729051176, 0.85286032968875936, -1.7413370614140806, -2.9172411158280571, 0.85286032968875936,
          5.0088213864369333, 1.6343008259060408, -4.4357712214482587, 6.6220461492435572 } }
      local v = {}
      for _, t in ipairs(T) do for k = 1, 9 do v[#v + 1] = t[k] end end
      local fall = {}
      for k, input in ipairs { { x = 0, z = 0 }, { x = 0.078, z = 0.54 } } do
        local world = cs.newWorld()
        world:add(cs.newMesh(v, { 1, 2, 3, 4, 5, 6, 7, 8, 9 }))
        local ch = cs.newCharacter { position = { -0.5, 0.75, 1.5 }, radius = 0.42, blockSteepSlopes = false }
        for _ = 1, 36 do ch:update(world, 1 / 30, input) end
        fall[k] = ch.fallVelocity[2]
      end
      assert.is_true(fall[1] < -11 and fall[2] < -11, ("still %g, walking %g"):format(fall[1], fall[2]))
    end)

    it("takes off from a push up as from a jump of its speed, at every frame rate", function()
      local world = scene()
      for _, hz in ipairs { 30, 60, 144 } do
        local apex = {}
        for k, how in ipairs { "jump", "pad" } do
          local ch = cs.newCharacter { position = { 0, 0.905, 0 }, jumpSpeed = 8, gravity = 30 }
          for _ = 1, 30 do ch:update(world, 1 / hz) end
          local y0, top = ch.position[2], ch.position[2]
          if how == "pad" then ch:push(0, 8, 0) end
          for i = 1, 2 * hz do
            ch:update(world, 1 / hz, { jump = how == "jump" and i == 1 })
            top = math.max(top, ch.position[2])
          end
          apex[k] = top - y0
        end
        assert.are.equal(apex[1], apex[2])
        assert.is_true(math.abs(apex[1] - 64 / 60) <= 8 / hz, hz .. " Hz: apex " .. apex[1])
      end
    end)

    -- a sideways push in a turned frame has an up part of rounding (1e-16):
    -- it took the character off the ground, and the next jump was lost
    -- (found by an independent tester)
    it("keeps a character on the ground after a push across up with an up part of rounding", function()
      local world = scene()
      for _, push in ipairs { { 3, 1e-15, 0 }, { 3, 0, 0 }, { -2, 3e-16, 1 } } do
        local a = cs.newCharacter { position = { 0, 0.905, 0 } }
        for _ = 1, 10 do a:update(world, DT) end
        a:push(push[1], push[2], push[3])
        assert.is_true(a.onGround)
        a:update(world, DT)
        assert.is_true(a.onGround, "after the push's update")
        assert.are.equal("ground", a.groundState)
        a:update(world, DT, { jump = true })
        assert.is_true(a.jumped, "the jump after it")
      end
    end)

    -- and so does a push of a character in the air: a jetpack weaker than
    -- gravity rose when each push skipped the update's gravity (the next
    -- tester); two pushes are one of their sum
    it("adds a push in the air to the fall as it is", function()
      local world = scene()
      local ch = cs.newCharacter { position = { 0, 10, 0 } }
      local v = 0
      for _ = 1, 60 do
        ch:push(0, 5 * DT, 0)
        ch:update(world, DT)
        v = v + 5 * DT - 9.81 * DT
      end
      assert.is_true(math.abs(ch.fallVelocity[2] - v) < 1e-9, ("%.17g, want %.17g"):format(ch.fallVelocity[2], v))
      local a, b = cs.newCharacter { position = { 0, 10, 0 } }, cs.newCharacter { position = { 0, 10, 0 } }
      a:push(0, 12, 0); a:push(0, -20, 0)
      b:push(0, -8, 0)
      a:update(world, DT); b:update(world, DT)
      assert.are.same(b.position, a.position)
      assert.are.same(b.fallVelocity, a.fallVelocity)
      -- on the ground too: pushes of no sum up leave it on the ground, its
      -- jump and walk as they were (the third tester: the jump was lost)
      local c, d = cs.newCharacter { position = { 0, 0.905, 0 } }, cs.newCharacter { position = { 0, 0.905, 0 } }
      for _ = 1, 10 do c:update(world, DT); d:update(world, DT) end
      c:push(0, 12, 0); c:push(0, -12, 0)
      assert.is_true(c.onGround)
      c:update(world, DT, { x = 1, jump = true }); d:update(world, DT, { x = 1, jump = true })
      assert.is_true(c.jumped)
      assert.are.same(d.position, c.position)
    end)

    -- an error that is no string names no character: those that moved take
    -- their move (a guess at the raising one undid a move: the third tester)
    it("takes the moves of the characters that moved when a filter raises an error that is no string", function()
      local world = scene()
      local armed = false
      local A = cs.newCharacter { position = { -8, 0.905, 0 }, filter = function() return "slide" end }
      local B = cs.newCharacter { position = { 0, 0.905, 0 } }
      local C = cs.newCharacter { position = { 8, 0.905, 0 },
                                  filter = function() if armed then error({ "not a string" }) end return "slide" end }
      local chars, inputs = { A, B, C }, { nil, { x = 1 }, nil }
      for _ = 1, 20 do cs.updateCharacters(world, chars, DT, inputs) end
      armed = true
      assert.is_false(pcall(cs.updateCharacters, world, chars, DT, inputs))
      armed = false
      assert.are.equal((B.mover:getPosition()), B.position[1])
      cs.updateCharacters(world, chars, DT, inputs)
      assert.is_true(math.abs(B.velocity[1] - 4) < 1e-9, "B's velocity " .. B.velocity[1])
    end)

    it("leaves the settings of the characters after a raising filter's as the loop does", function()
      for _, raised in ipairs { "boom" } do
        local results = {}
        for _, form in ipairs { "batch", "loop" } do
          local world = scene()
          local armed = false
          local A = cs.newCharacter { position = { -5, 0.905, 0 } }
          local B = cs.newCharacter { position = { 0, 0.905, 0 },
                                      filter = function() if armed then error(raised) end return "slide" end }
          local C = cs.newCharacter { position = { 5, 0.905, 0 } }
          world:addMover(C.mover)
          for _ = 1, 30 do cs.updateCharacters(world, { A, B, C }, DT) end   -- A stands still
          armed = true
          C.stepHeight, B.stepHeight = 0.123, 0.25   -- for their next update
          local ok = pcall(function()
            if form == "batch" then cs.updateCharacters(world, { A, B, C }, DT)
            else for _, c in ipairs { A, B, C } do c:update(world, DT) end end
          end)
          assert.is_false(ok)
          results[form] = { B.mover.stepHeight, C.mover.stepHeight }
        end
        assert.are.same(results.loop, results.batch)
        assert.are.same({ 0.25, 0.3 }, results.batch)
      end
    end)
  end)
end)

-- A count hook raising from the n-th instruction on (a sandbox's time limit)
-- during a batch of characters, in a child state: a raise between the character's velocity and
-- what it keeps of it left it refusing every update for good, 'velocity and
-- fallVelocity are state' (an independent tester: 13 of 1,500 counts on
-- LuaJIT, both bindings)
describe("a character under a raising debug hook", function()
  local H = require "helper"
  it("updates again once the hook is gone", function()
    local code = H.RAISING_HOOK .. [[
      local cs = require(os.getenv("CS_BACKEND") == "ffi" and "collideslide.ffi" or "collideslide")
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-20, -1, -20, 20, 0, 20)))
      local broken = 0
      for n = 1, 1500 do
        local ch = cs.newCharacter { position = { -3, 0.9, 0 } }
        under_raising_hook(n, function() cs.updateCharacters(w, { ch }, 1 / 60, { { x = 1 } }) end)
        if not pcall(function() ch:update(w, 1 / 60, { x = 1 }); ch:push(1, 0, 0) end) then
          broken = broken + 1
        end
      end
      io.write("broken ", broken, "\n")
    ]]
    local out = H.child(code)
    assert.are.equal("broken 0\n", out)
  end)
end)
