-- examples/love/scenarios.lua: the scenario picker's scenarios (keys 1 to 4).
-- Each is a place to start in the benchmark arena or in the built-in level, and
-- what it adds to the world there:
--   stairs    in front of a staircase (16 steps of 0.25 m); sensor zones on the
--             top step and where a jump off the top lands
--   ramps     in front of the ramps (20, 35 and 50 degrees)
--   platform  a lift (a moving body, placed every frame) beside a ledge 3 m up,
--             with a sensor zone on the ledge
--   crowd     a pillar hall with NPCs: characters driven by scripts, walking in
--             circles, solid to the player and to each other (their movers and
--             the player's are added to the world: world:addMover), and a
--             sensor zone that lights while anyone is in it
-- Everything that moves is a function of the frame number since the run started
-- (scenarios.step), so that a replay meets the lift and the NPCs where the
-- recorded run met them. Sensors use world:addSensor when the module has it;
-- without it the zones are drawn but never lit.

local scenarios = {}

scenarios.names = { "stairs", "ramps", "platform", "crowd" }

local LIFT_HALF, LIFT_THICK = 1.5, 0.3
local LIFT_LOW, LIFT_HIGH = 0.2, 3.0         -- the lift's top, at rest below and above
local LIFT_PERIOD = 8                        -- s: wait, up, wait, down (2 s each)

--[[ The layouts: start {x, y, z}; boxes (static, added as bodies) and sensors
{name, minx, miny, minz, maxx, maxy, maxz}; lift {x, z} (its centre); npcs
{ {cx, cz, r, phase, dir}, ... } (circles walked at NPC_SPEED); view {top,
side, sideScale} (the cameras). ]]
local LAYOUTS = {
  arena = {
    stairs = { start = { -38, 1.5, -43 }, view = { top = 14, side = "z", sideScale = 26 },
      sensors = { { "top step", -40, 3.75, -34.4, -36, 6, -33.6 },
                  { "landing", -40, 0, -29, -36, 2.5, -25 } } },
    ramps = { start = { 11, 1.5, -43 }, view = { top = 14, side = "z", sideScale = 22 } },
    platform = { start = { 35, 1.5, -10 }, view = { top = 20, side = "x", sideScale = 30 },
      lift = { 40, -10 },
      boxes = { { "ledge", 41.5, 0, -11.5, 45.5, 3, -8.5 } },
      sensors = { { "ledge", 43, 3, -11.5, 45.5, 5, -8.5 } } },
    crowd = { start = { -35, 1.5, 6 }, view = { top = 12, side = "x", sideScale = 24 },
      npcs = { { -44, 16, 3, 0, 1 }, { -38, 16, 3, 2, -1 }, { -32, 22, 3, 4, 1 },
               { -44, 28, 3, 1, -1 }, { -38, 28, 3, 3, 1 }, { -26, 16, 3, 5, -1 },
               { -32, 34, 3, 0.5, 1 }, { -26, 28, 3, 2.5, -1 } },
      sensors = { { "hall", -42, 0, 14, -34, 3, 24 } } },
  },
  builtin = {
    stairs = { start = { -12, 1.5, -14 }, view = { top = 18, side = "z", sideScale = 30 },
      sensors = { { "top step", -14, 2.75, -8, -10, 5, -7.2 } } },
    ramps = { start = { 1.5, 1.5, -14 }, view = { top = 18, side = "z", sideScale = 30 } },
    platform = { start = { 5, 1.5, 0 }, view = { top = 20, side = "x", sideScale = 30 },
      lift = { 10, 0 },
      boxes = { { "ledge", 11.5, 0, -1.5, 15.5, 3, 1.5 } },
      sensors = { { "ledge", 13, 3, -1.5, 15.5, 5, 1.5 } } },
    crowd = { start = { 10, 1.5, 3 }, view = { top = 18, side = "x", sideScale = 30 },
      npcs = { { 6.4, 8.4, 1.5, 0, 1 }, { 9.4, 8.4, 1.5, 2, -1 }, { 12.4, 8.4, 1.5, 4, 1 },
               { 15.4, 8.4, 1.5, 1, -1 } },
      sensors = { { "hall", 6, 0, 10, 16, 3, 13 } } },
  },
}

local NPC_SPEED = 2.5                        -- m/s

function scenarios.available(L)
  return LAYOUTS[L.arena and "arena" or L.builtin and "builtin" or ""] ~= nil
end

-- The lift's top at time t (s): smooth up and down with rests.
local function liftHeight(t)
  local p = (t % LIFT_PERIOD) / (LIFT_PERIOD / 4)     -- 0..4
  local k
  if p < 1 then k = 0
  elseif p < 2 then k = p - 1
  elseif p < 3 then k = 1
  else k = 4 - p end
  k = k * k * (3 - 2 * k)
  return LIFT_LOW + (LIFT_HIGH - LIFT_LOW) * k
end

local function npcInput(n, t)
  local a = n[4] + n[5] * NPC_SPEED / n[3] * t         -- the angle on its circle
  return { x = -math.sin(a) * n[5], z = math.cos(a) * n[5] }
end

local function npcStart(n)
  return { n[1] + n[3] * math.cos(n[4]), 1.2, n[2] + n[3] * math.sin(n[4]) }
end

--[[ scenarios.setup(cs, L, name) -> X, the scenario in the world: X.name,
X.start, X.view, X.boxes { {name, box {6}, body, moving} }, X.sensors { {name,
box {6}, sensor (nil without world:addSensor)} }, X.npcs { {ch, def} }.
On a level that is neither the arena nor the built-in one: the level's start,
nothing added. ]]
function scenarios.setup(cs, L, name)
  local kind = L.arena and "arena" or L.builtin and "builtin" or nil
  local lay = kind and LAYOUTS[kind][name]
  local X = { name = name, boxes = {}, sensors = {}, npcs = {}, cs = cs, L = L }
  if not lay then
    X.start, X.name = L.start, "level"
    return X
  end
  X.start, X.view = lay.start, lay.view
  local w = L.world
  for _, b in ipairs(lay.boxes or {}) do
    local body = w:add(cs.newMesh(cs.box(b[2], b[3], b[4], b[5], b[6], b[7])))
    X.boxes[#X.boxes + 1] = { name = b[1], box = { b[2], b[3], b[4], b[5], b[6], b[7] }, body = body }
  end
  if lay.lift then
    local cx, cz = lay.lift[1], lay.lift[2]
    local h, t = LIFT_HALF, LIFT_THICK
    local body = w:add(cs.newMesh(cs.box(-h, -t, -h, h, 0, h)), cx, LIFT_LOW, cz)
    X.lift = { name = "lift", body = body, cx = cx, cz = cz, box = {}, moving = true }
    X.boxes[#X.boxes + 1] = X.lift
  end
  for _, s in ipairs(lay.sensors or {}) do
    local zone = { name = s[1], box = { s[2], s[3], s[4], s[5], s[6], s[7] } }
    if w.addSensor then
      -- a closed box around its centre, placed like a body
      local hx, hy, hz = (s[5] - s[2]) / 2, (s[6] - s[3]) / 2, (s[7] - s[4]) / 2
      zone.sensor = w:addSensor(cs.newMesh(cs.box(-hx, -hy, -hz, hx, hy, hz)),
        s[2] + hx, s[3] + hy, s[4] + hz)
      zone.sensor.userdata = s[1]
    end
    X.sensors[#X.sensors + 1] = zone
  end
  for _, n in ipairs(lay.npcs or {}) do
    X.npcs[#X.npcs + 1] = { def = n }
  end
  scenarios.reset(X)
  return X
end

-- Movers that meet: the NPCs' and the player's movers are added to the world
-- while the scenario has NPCs (when the module has world:addMover).
local function leave(X, mover)
  local w = X.L.world
  if mover and w.removeMover then pcall(w.removeMover, w, mover) end
end

local function join(X, mover)
  local w = X.L.world
  if w.addMover then pcall(w.addMover, w, mover) end
end

-- Takes the scenario out of the world.
function scenarios.teardown(X)
  local w = X.L.world
  for _, n in ipairs(X.npcs) do if n.ch then leave(X, n.ch.mover) end end
  leave(X, X.player)
  X.player = nil
  for _, b in ipairs(X.boxes) do w:remove(b.body) end
  for _, z in ipairs(X.sensors) do
    if z.sensor and w.removeSensor then w:removeSensor(z.sensor) end
  end
  X.boxes, X.sensors, X.npcs = {}, {}, {}
end

-- Puts the lift at time t.
local function placeLift(X, t)
  local l = X.lift
  local y = liftHeight(t)
  l.body:setTransform(l.cx, y, l.cz)
  local b = l.box
  b[1], b[2], b[3], b[4], b[5], b[6] = l.cx - LIFT_HALF, y - LIFT_THICK, l.cz - LIFT_HALF,
    l.cx + LIFT_HALF, y, l.cz + LIFT_HALF
end

-- Back to time 0: the lift at rest below, fresh NPCs at their starts.
function scenarios.reset(X)
  if X.lift then
    placeLift(X, 0)
    placeLift(X, 0)               -- twice: the last placement moved nothing, carries nothing
  end
  for _, n in ipairs(X.npcs) do
    if n.ch then leave(X, n.ch.mover) end
    n.ch = X.cs.newCharacter { position = npcStart(n.def), walkSpeed = NPC_SPEED }
    join(X, n.ch.mover)
  end
end

-- Frame f (1-based since the run started) at dt: the lift moves, the NPCs walk.
-- Runs before the player's update of the same frame.
function scenarios.step(X, f, dt, playerMover)
  local t = f * dt
  if #X.npcs > 0 and playerMover and X.player ~= playerMover then   -- a new character
    leave(X, X.player)
    join(X, playerMover)
    X.player = playerMover
  end
  if X.lift then placeLift(X, t) end
  for _, n in ipairs(X.npcs) do
    n.ch:update(X.L.world, dt, npcInput(n.def, t))
  end
end

-- How many of the movers (the player's and the NPCs') are inside zone z (0
-- without the sensor API), and whether the player is.
function scenarios.inside(X, z, playerMover)
  if not (z.sensor and playerMover.isInside) then return 0, false end
  local player = playerMover:isInside(z.sensor)
  local count = player and 1 or 0
  for _, n in ipairs(X.npcs) do
    if n.ch.mover:isInside(z.sensor) then count = count + 1 end
  end
  return count, player
end

return scenarios
