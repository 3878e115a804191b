-- collideslide/character.lua: a character controller in per-second units on top of
-- a mover: walk, run, jump, gravity and air control. Stairs, slopes and ground
-- snapping come from the mover's tunables, which the character sets game-style.
--[[
    local ch = cs.newCharacter{ radius = {0.4, 0.9, 0.4}, position = {0, 2, 0} }
    ch:update(world, dt, { x = 1, z = 0, jump = false, run = false, yaw = 0 })
    ch:push(0, 12, 0)                     -- once: a jump pad (or knockback across up)
    local list, n = ch:contacts()         -- also ch:contactCount(), ch:getContact(i)

Input keys: x, z (-1..1, the move direction), jump, run (true, false or nil:
0 is true in Lua, so a number is refused), yaw (radians: x and z turned about
up, for camera-relative input); any other key is an error.

Settings: plain fields, checked and applied at the next update (so changing one
between frames takes effect on the next frame). A bad value raises an error
(of several, the first in alphabetical order).
  radius          {rx, ry, rz} or r, world units (m)     default {0.4, 0.9, 0.4}
  position        {x, y, z}, the ellipsoid's centre      default {0, 0, 0}
                  (read it after update; writing new numbers into it teleports)
  walkSpeed       m/s on the ground                      default 4
  runSpeed        m/s when input.run is true             default 7
  gravity         m/s^2 along -up, or a vector {x, y, z} default 9.81
  jumpSpeed       m/s upward at take-off                 default 5
  airControl      0..1: share of the gap between the horizontal velocity and the
                  input's that closes every 0.1 s in the air (0: none, keeps
                  the take-off velocity; 1: full control, as on the ground)
                                                         default 0.3
  slopeLimit      degrees; steeper ground is not ground  default 45
  stepHeight      m; ledges up to this are stepped onto  default 0.3
  snapDistance    m; keeps the feet on stairs and slopes going down (0: off)
                                                         default 0.2
  blockSteepSlopes  true: slopes steeper than slopeLimit stop the walk like walls
                                                         default true
  maxIterations, skin, collidesWith, filter: as the mover's (default: the mover's)
  up              {x, y, z}                              default {0, 1, 0}
  pushDrag        1/s; how fast a push (character:push) dies away on the ground
                                                         default 5
  keepPlatformVelocity  true: leaving a moving body (a jump, a walk off its edge)
                  keeps its velocity at the feet, in the air    default true
  userdata        anything the game keeps with the character  default nil
Any other field name is refused (a typo such as ch.walkspeed = 5 is an error).
State, read after each update:
  position {x, y, z}; velocity {x, y, z} (m/s, actual: the position change / dt;
  below dt = 1e-6 s the update's asked-for walk + push + fall (+ platform) velocity);
  fallVelocity {x, y, z} (m/s, the gravity pass's velocity: the papers' vy along
  up); onGround (walkable ground under the feet and not rising); groundState
  ("ground" | "steep" | "unsupported" | "air"); jumped (this update took off);
  mover (the cs mover); contacts via character:contactCount(), getContact(i),
  contacts(); sensorEvents (the crossings of this update, in path order: a list
  of { sensor = s, event = "enter" | "exit", t = fraction of the update's path }).
Moving platforms: move their body with body:setTransform every frame; that alone
carries the characters standing on them. body:setVelocity is a displacement per
collideAndSlide call (per update), not per second: cs.setPlatformVelocity(body,
vx, vy, vz) gives a body a velocity in m/s that characters standing on it ride.
]]

-- The core (collideslide.core, or collideslide.ffi's) is given to bind(core); `new`
-- uses collideslide.core, required on its first call.

local sqrt, floor, abs, type, tostring = math.sqrt, math.floor, math.abs, type, tostring
local cos, sin, exp, log = math.cos, math.sin, math.exp, math.log
local format, byte = string.format, string.byte
local check = require "collideslide.check"

local Character = {}                            -- (its __index: with the checks below)
local unknownField, stateError                  -- defined with the checks below

-- Writes the ground state (onGround, groundState, jumped) and what stateError
-- holds it to; nil keeps a field. (_writing: see stateError.)
local function setGround(self, on, state, jumped)
  local g = self._ground
  self._writing = true
  if on ~= nil then self.onGround, g[1] = on, on end
  if state ~= nil then self.groundState, g[2] = state, state end
  if jumped ~= nil then self.jumped, g[3] = jumped, jumped end
  self._writing = false
end
Character.__name = "collideslide.Character"
Character.__tostring = check.objectString

-- A contact normal whose dot with up is below this points down: a ceiling
-- (within 60 degrees of straight down) that stops a rise.
local CEILING_DOT = -0.5

local DEFAULTS = {
  walkSpeed = 4, runSpeed = 7, gravity = 9.81, jumpSpeed = 5, airControl = 0.3,
  slopeLimit = 45, stepHeight = 0.3, snapDistance = 0.2, blockSteepSlopes = true,
  pushDrag = 5, keepPlatformVelocity = true,
}

-- {======================================================================
-- Checks: each returns an error text, or nil when the value is good
-- =======================================================================

local function isFinite(v) return type(v) == "number" and v - v == 0 end

-- The core holds coordinates, lengths and displacements to +-1e30 (docs/API.md,
-- Conventions); the character refuses what the core would, in its own words.
local MAX_COORD = 1e30
local function inRange(v) return isFinite(v) and v <= MAX_COORD and v >= -MAX_COORD end

-- A value as the messages show it: a number as the core words it (NaN, inf,
-- %.14g: 2, not 2.0, on every Lua), else its type.
local function describe(v)
  return type(v) == "number" and check.num2str(v) or check.tname(v)
end

local function vec3(v, what)
  if check.tname(v) ~= "table" then return what .. " must be a table {x, y, z}, got " .. check.tname(v) end
  for i = 1, 3 do
    if not isFinite(v[i]) then
      return format("%s[%d] must be a finite number, got %s%s", what, i, describe(v[i]),
        v[i] == nil and check.namedHint(v) or "")
    end
    if not inRange(v[i]) then
      return format("%s[%d] is out of range (|%s[%d]| > 1e30), got %s", what, i, what, i, describe(v[i]))
    end
  end
end

-- The smallest normal double: the core refuses a direction whose squared
-- length is below it (its normalisation would lose the direction).
local DBL_MIN = 2.2250738585072014e-308

-- x^2 + y^2 + z^2 of {x, y, z} in floats: an integer component (Lua 5.3+) would
-- wrap in the squares (math.maxinteger^2, 2^32^2); an integer must act as the
-- float of the same value.
local function squaredLength(v)
  local x, y, z = v[1] * 1.0, v[2] * 1.0, v[3] * 1.0
  return x * x + y * y + z * z
end

-- up as a unit vector (floats, as squaredLength).
local function unitUp(u)
  local l = sqrt(squaredLength(u))
  return u[1] / l, u[2] / l, u[3] / l
end

local function atLeast(lo)
  return function(v, name)
    if not isFinite(v) or v < lo then
      return format("%s must be a number >= %s, got %s", name, lo, describe(v))
    end
    if v > MAX_COORD then return format("%s is out of range (> 1e30), got %s", name, describe(v)) end
  end
end

local function between(lo, hi)
  return function(v, name)
    if not isFinite(v) or v < lo or v > hi then
      return format("%s must be a number in [%s, %s], got %s", name, lo, hi, describe(v))
    end
  end
end

local CHECKS = {
  radius = function(v, name)
    if type(v) == "number" then
      if not (isFinite(v) and v > 0) then return name .. " must be > 0, got " .. describe(v) end
      if v > MAX_COORD then return format("%s is out of range (> 1e30), got %s", name, describe(v)) end
      if v < 1e-20 then return format("%s is too small (< 1e-20), got %s", name, describe(v)) end
      return
    end
    if check.tname(v) ~= "table" then   -- (both forms named, as the mover's message does)
      return name .. " must be a number or a table {rx, ry, rz}, got " .. check.tname(v)
    end
    local err = vec3(v, name)
    if err then return err end
    for i = 1, 3 do
      if v[i] <= 0 then return format("%s[%d] must be > 0, got %s", name, i, describe(v[i])) end
      if v[i] < 1e-20 then return format("%s[%d] is too small (< 1e-20), got %s", name, i, describe(v[i])) end
    end
  end,
  position = vec3,
  walkSpeed = atLeast(0), runSpeed = atLeast(0), jumpSpeed = atLeast(0),
  gravity = function(v, name)
    if check.tname(v) == "table" then return vec3(v, name) end
    if not isFinite(v) then
      return name .. " must be a number or a table {x, y, z}, got " .. describe(v)
    end
    if not inRange(v) then return format("%s is out of range (|%s| > 1e30), got %s", name, name, describe(v)) end
  end,
  airControl = between(0, 1),
  slopeLimit = between(0, 90),
  stepHeight = atLeast(0), snapDistance = atLeast(0), pushDrag = atLeast(0),
  blockSteepSlopes = function(v, name)
    if type(v) ~= "boolean" then return name .. " must be a boolean, got " .. check.tname(v) end
  end,
  keepPlatformVelocity = function(v, name)
    if type(v) ~= "boolean" then return name .. " must be a boolean, got " .. check.tname(v) end
  end,
  maxIterations = function(v, name)
    if v ~= nil and not (isFinite(v) and v >= 1 and v <= 1000 and v == floor(v)) then
      return name .. " must be an integer in [1, 1000], got " .. describe(v)
    end
  end,
  skin = function(v, name)
    if v ~= nil then return atLeast(0)(v, name) end
  end,
  collidesWith = function(v, name)
    -- (a mask as every mask of docs/API.md: negative ones are two's
    -- complement, -1 all bits, as mover.collidesWith takes them)
    if v ~= nil and not (isFinite(v) and v >= -2147483648 and v <= 4294967295 and v == floor(v)) then
      return name .. " must be a bitmask (an integer in [-2^31, 2^32 - 1]), got " .. describe(v)
    end
  end,
  filter = function(v, name)
    if v ~= nil and type(v) ~= "function" then
      return name .. " must be a function or nil, got " .. check.tname(v)
    end
  end,
  up = function(v, name)
    local err = vec3(v, name)
    if err then return err end
    if v[1] == 0 and v[2] == 0 and v[3] == 0 then return name .. " must not be zero" end
    if not (squaredLength(v) >= DBL_MIN) then           -- the core's test (cs_check_dir)
      return format("%s is too short (x^2 + y^2 + z^2 < 2.2250738585072e-308, the smallest normal "
        .. "double), got {%s, %s, %s}", name, describe(v[1]), describe(v[2]), describe(v[3]))
    end
  end,
  userdata = function() end,
}

-- The mover tunables the character forwards when they change.
local FORWARDED = { "slopeLimit", "stepHeight", "snapDistance", "blockSteepSlopes",
  "maxIterations", "skin", "collidesWith", "filter" }
local UNSENT = {}                               -- marks a tunable not yet forwarded
local NO_INPUT = {}                             -- update(world, dt, nil): stand still

-- The settings' names, sorted, for the messages.
local SETTING_NAMES = {}
for name in pairs(CHECKS) do SETTING_NAMES[#SETTING_NAMES + 1] = name end
table.sort(SETTING_NAMES)

-- The radius as three numbers.
local function radii(self)
  local r = self.radius
  if type(r) == "number" then return r, r, r end
  return r[1], r[2], r[3]
end

-- The snap's reach as the core has it (cs_mover_snap_reach): snapDistance,
-- and the descent of the steepest walkable slope (tangent held to 75
-- degrees') along the walk's part across up, of length across.
local SNAP_TAN_MAX = 3.7320508075688772
local function snapReach(self, across)
  if not (self.snapDistance > 0) then return 0.0 end
  local c = cos(self.slopeLimit * (math.pi / 180.0))
  local t = c > 0 and sqrt(1 - c * c) / c or SNAP_TAN_MAX
  if not (t < SNAP_TAN_MAX) then t = SNAP_TAN_MAX end
  return self.snapDistance + t * across
end

-- A call's reach as the core sums it (cs_world_check_move): the moves'
-- lengths (moveLength), then a step up and down again, the snap (across: the
-- walk's length across up) and the ground probe down; skin nil is the
-- mover's own, 1% of the smallest radius. Returns the reach and the
-- smallest radius (floats: 2 * an integer stepHeight could wrap).
local function reachOf(self, moveLength, across)
  local rx, ry, rz = radii(self)
  local rmin = math.min(rx, ry, rz) * 1.0
  local skin = self.skin or 0.01 * rmin
  return moveLength + 2.0 * self.stepHeight + snapReach(self, across or 0.0) + 4.0 * skin + 1e-9, rmin
end

-- stepHeight, snapDistance and skin, each within 1e30, may still reach past
-- 1e30 (or 1e30 radii) together: the core would refuse every move, after the
-- mover took them. Refused here, naming the largest share (of equal ones the
-- first in alphabetical order).
local function reachError(self)
  local reach, rmin = reachOf(self, 0)
  if reach <= MAX_COORD and reach / rmin <= MAX_COORD then return end
  local share = { skin = 4.0 * (self.skin or 0.01 * rmin), snapDistance = self.snapDistance * 1.0,
    stepHeight = 2.0 * self.stepHeight }
  local name = "skin"
  for _, k in ipairs { "snapDistance", "stepHeight" } do
    if share[k] > share[name] then name = k end
  end
  return format("%s is out of range (2 * stepHeight + snapDistance + 4 * skin, added to every move's "
    .. "reach, is %s: %s radii, past 1e30), got %s", name, describe(reach), describe(reach / rmin),
    describe(self[name]))
end

-- A gravity vector more than 60 degrees off -up, when the character is made:
-- ground, slopes, jumps and the snap all go by up, so such a character never
-- stands anywhere (found by an independent tester: a z-up level given
-- gravity = {0, 0, -9.81} without up rested on its floor, "air" for good,
-- and never jumped). A wind in the gravity (a few degrees) is taken; a zero
-- one (space) too. Not asked at the updates: a game that walks on walls
-- switches gravity and eases up toward it over a few frames (the next
-- tester found this check refused it there).
local function gravityError(self)
  local g = self.gravity
  if type(g) ~= "table" then return end
  local gg = squaredLength(g)
  if not (gg >= DBL_MIN) then return end
  local ux, uy, uz = unitUp(self.up)
  local down = -(g[1] * ux + g[2] * uy + g[3] * uz) / sqrt(gg)
  if down >= 0.5 then return end
  local u = self.up
  return format("gravity {%s, %s, %s} points %.0f degrees away from down (-up, up = {%s, %s, %s}): "
    .. "ground and jumps go by up, so set up = {0, 0, 1} for a z-up world (or up = minus the "
    .. "gravity's way), or give gravity as a number, m/s^2 along -up", describe(g[1]), describe(g[2]),
    describe(g[3]), math.deg(math.acos(math.max(-1, down))), describe(u[1]), describe(u[2]), describe(u[3]))
end

-- The first bad setting's error text, in SETTING_NAMES' order (pairs() takes
-- another on each Lua, and on 5.4 on each run), or nil when all are good; then
-- what is wrong with them together.
local function checkAll(self)
  for _, name in ipairs(SETTING_NAMES) do
    local err = CHECKS[name](self[name], name)
    if err then return err end
  end
  return reachError(self)
end

-- }======================================================================

-- The message for an unknown field name k (a key holding a NUL byte named
-- by its kind, as the core's messages name it: the byte cut them).
function unknownField(k)
  if check.keyKind(k) == "NUL-holding string" then return "unknown field (a NUL-holding string key)" end
  local hint = check.suggest(k, SETTING_NAMES)
  return "unknown field '" .. tostring(k) .. "'" .. (hint and
    (" (did you mean '" .. hint .. "'?)") or (" (settings: " .. table.concat(SETTING_NAMES, ", ")
    .. "; game data goes in character.userdata)"))
end

-- Writing a field the character does not have is an error (settings that
-- default to nil, such as filter or skin, can be written).
function Character.__newindex(self, k, v)
  if CHECKS[k] == nil then
    error("bad argument #2 to '__newindex' (" .. unknownField(k) .. ")", 2)
  end
  rawset(self, k, v)
end

-- Where the character keeps what some of its mover's methods read or set
-- (state fields: read, not called; settings: written, and its next update
-- gives them to the mover).
local KEPT_IN = { isOnGround = "character.onGround", getGroundState = "character.groundState",
  sensorEventCount = "character.sensorEvents", getSensorEvent = "character.sensorEvents",
  getRadius = "character.radius", getUp = "character.up", setRadius = "character.radius",
  setUp = "character.up" }

-- A mover's method looked for on its character (name k), named with where
-- it is; nil for any other name. Every method of the mover, asked of the
-- mover itself (the C module's or the FFI binding's), on this error path
-- only: a hand list hinted getRadius but left setRadius, setOrientation and
-- the others "unknown field" (found by an independent tester).
local function moverMethodHint(self, k)
  local mover = rawget(self, "mover")
  if check.tname(mover) ~= "collideslide.Mover" or type(mover[k]) ~= "function" then return nil end
  local kept = KEPT_IN[k]
  return format("a character has no method '%s': its mover has (character.mover:%s())%s", k, k,
    not kept and "" or k:sub(1, 3) == "set" and ("; the character keeps it in " .. kept
    .. ": write that instead (its next update gives it to the mover)")
    or ("; the character keeps it in " .. kept))
end
-- The names a character has (its state besides its settings), for the hints.
local READ_NAMES = { "fallVelocity", "groundState", "jumped", "mover", "onGround", "position",
  "sensorEvents", "velocity" }
for _, name in ipairs(SETTING_NAMES) do READ_NAMES[#READ_NAMES + 1] = name end

-- The character's methods, for the hints: ch:Update(...) said "unknown field
-- 'Update'" with no hint, where a misspelt field got one (found by an
-- independent tester). Filled once the methods are defined (below).
local METHOD_NAMES = {}

-- Reading a name the character does not know is an error too: a misspelt
-- read (ch.onground) was nil without a word, and ch:isOnGround() "attempt to
-- call a nil value" (found by an independent tester). Settings that default
-- to nil read nil.
function Character.__index(self, k)
  local v = Character[k]
  if v ~= nil or CHECKS[k] ~= nil or type(k) ~= "string" or byte(k) == 95 then return v end
  local m = moverMethodHint(self, k)
  if m then error(m, 2) end
  local hint, kind = check.suggest(k, READ_NAMES), "field"
  if not hint then                              -- (no name is both)
    hint = check.suggest(k, METHOD_NAMES)
    if hint then kind = "method" end
  end
  error(format("unknown %s '%s'%s", kind, check.keyKind(k) == "string" and k or "(a NUL-holding string key)",
    hint and (" (did you mean '" .. hint .. "'?)") or ""), 2)
end

-- newCharacter's body for a core's newMover; errors blame level 3, the caller
-- of the function bind(core) returns.
local function construct(newMover, settings)
  check.notModule(settings, "newCharacter", 2)
  if not rawequal(settings, nil) and check.tname(settings) ~= "table" then   -- (NULL cdata == nil)
    error("bad argument #1 to 'newCharacter' (table expected, got " .. check.tname(settings) .. ")", 3)
  end
  local self = {}
  for k, v in pairs(DEFAULTS) do self[k] = v end
  self.radius, self.up = { 0.4, 0.9, 0.4 }, { 0, 1, 0 }
  self.position = { 0, 0, 0 }
  local bad = check.leastUnknown(settings or {}, CHECKS)
  if bad ~= nil then error("bad argument #1 to 'newCharacter' (" .. unknownField(bad) .. ")", 3) end
  for k, v in pairs(settings or {}) do self[k] = v end
  local err = checkAll(self) or gravityError(self)
  if err then error("bad argument #1 to 'newCharacter' (" .. err .. ")", 3) end
  local p = self.position
  self.position = { p[1], p[2], p[3] }          -- ours, updated in place
  self.mover = newMover { radius = self.radius, position = self.position, up = self.up }
  self.velocity = { 0.0, 0.0, 0.0 }            -- (floats, as updates leave them on 5.3+)
  self.fallVelocity = { 0.0, 0.0, 0.0 }
  self._ground = {}                             -- the ground state as written: see setGround
  setGround(self, false, "air", false)
  self._fresh = true                            -- never moved: settle probes the ground
  self._updating = false                        -- its move is under way: see moveOne
  self._reground = false                        -- a teleport took its ground: see settle
  self._writing = false                         -- writing its own state: see stateError
  self.sensorEvents = {}
  self._hx, self._hy, self._hz = 0.0, 0.0, 0.0  -- horizontal velocity (m/s)
  self._sent = {}                               -- what the mover was last given
  for _, name in ipairs(FORWARDED) do self._sent[name] = UNSENT end
  self._moverDefaults = { maxIterations = self.mover.maxIterations,
    collidesWith = self.mover.collidesWith }    -- skin and filter: nil is the default
  self._placed = { p[1], p[2], p[3] }           -- the position the mover was last at
  self._px, self._py, self._pz = 0, 0, 0        -- push velocity across up (m/s)
  self._pushedUp = false                        -- a push up waits for the next update
  self._rideBody = false                        -- the body under it at its last update's end
  self._lx, self._ly, self._lz = 0.0, 0.0, 0.0  -- the velocity of the ground it left (m/s)
  self._ride = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }  -- its placement: the last change,
  self._rideB = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } -- the one before,
  self._rideNow = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } -- (scratch: now)
  self._rideDt, self._rideT = 0.0, 0.0          -- the time between them, and since the last
  self._rideP = { 0, 0, 0 }                     -- the point stood on
  self._v, self._f = self.velocity, self.fallVelocity   -- to catch a script replacing them
  self._vf = { 0, 0, 0, 0, 0, 0 }               -- or writing into them: what they held
  self._next = {}                               -- an update's state before its move
  self._undo = {}                               -- what _apply changed, while its move runs
  Character._sync(self)                         -- the mover gets the settings now
  return setmetatable(self, Character)          -- from now on unknown fields are refused
end

--- bind(core) -> newCharacter(settings) over that core (collideslide.core or the
-- core of collideslide.ffi): cs.newCharacter (the settings are described above).
local function bind(core)
  return function(settings)
    local ch = construct(core.newMover, settings)   -- no tail call: error levels
    return ch
  end
end

--- newCharacter(settings) over collideslide.core.
local function newCharacter(settings)
  local ch = construct(require("collideslide.core").newMover, settings)
  return ch
end

-- What is wrong with the settings and state the script may have written, or nil.
-- Is obj, a world or a mover of either binding, closed or collected? Its
-- cheap getter fails then; asked before a character's calls, so that update
-- words the error rather than failing inside one of its own calls.
local function isClosed(obj, getter) return not pcall(obj[getter], obj) end

-- What is wrong with the state a script may have written into (velocity and
-- fallVelocity: replaced, or their numbers changed), or nil.
function stateError(self)
  local v, f, held = rawget(self, "velocity"), rawget(self, "fallVelocity"), self._vf
  if rawget(self, "_writing") then
    -- the character's own write of its state was cut short (a debug hook
    -- that raised between velocity and what it held, on LuaJIT, left the
    -- character refusing every update for good: found by an independent
    -- tester): what the tables hold is taken as written
    if v == self._v and f == self._f then
      held[1], held[2], held[3], held[4], held[5], held[6] = v[1], v[2], v[3], f[1], f[2], f[3]
    end
    local g = self._ground
    g[1], g[2], g[3] = rawget(self, "onGround"), rawget(self, "groundState"), rawget(self, "jumped")
    self._writing = false
  end
  if v ~= self._v or f ~= self._f or v[1] ~= held[1] or v[2] ~= held[2] or v[3] ~= held[3]
    or f[1] ~= held[4] or f[2] ~= held[5] or f[3] ~= held[6] then
    return "velocity and fallVelocity are state, not settings: to push the character, "
      .. "call character:push(vx, vy, vz)"
  end
  -- (written true in mid-air, it let the character jump there: found by an
  -- independent tester)
  local g = self._ground
  if rawget(self, "onGround") ~= g[1] or rawget(self, "groundState") ~= g[2]
    or rawget(self, "jumped") ~= g[3] then
    return "onGround, groundState and jumped are state, not settings: the updates find the "
      .. "ground (to move the character, write position or call character:push)"
  end
end

function Character:_check()
  local err = checkAll(self)
  if err then return err end
  if check.tname(self.mover) ~= "collideslide.Mover" then
    return "character.mover must be a collideslide.Mover, got " .. check.tname(self.mover)
  end
  if isClosed(self.mover, "getPosition") then return "its mover (character.mover) was closed" end
  return stateError(self)
end

-- Has the script moved or resized the character since its mover last heard
-- (what other movers meet)?
local function reshaped(self)
  local p, q, sent = self.position, self._placed, self._sent
  local rx, ry, rz = radii(self)
  return p[1] ~= q[1] or p[2] ~= q[2] or p[3] ~= q[3] or sent.rx ~= rx or sent.ry ~= ry
    or sent.rz ~= rz
end

-- Checks the settings and state (returns an error text), then applies them to
-- the mover (only what changed since the last time) and teleports it when the
-- script wrote a new position.
function Character:_sync()                       -- (before the metatable too)
  local err = Character._check(self)
  if err then return err end
  Character._apply(self)
end

-- undo (a table, or nil): takes what the mover had of each setting _apply
-- changes, as sent held it (NONE for nil), for undoApply.
local NONE = {}
local function remember(undo, key, old)
  if undo and undo[key] == nil then undo[key] = old == nil and NONE or old end
end

function Character:_apply(undo)
  local m, sent, defaults = self.mover, self._sent, self._moverDefaults
  for _, name in ipairs(FORWARDED) do
    local v = self[name]
    if v == nil then v = defaults[name] end    -- nil: back to the mover's default
    if sent[name] ~= v then                   -- UNSENT differs from any value
      remember(undo, name, sent[name])
      m[name] = v
      sent[name] = v
    end
  end
  local u = self.up
  local rx, ry, rz = radii(self)
  if sent.rx ~= rx or sent.ry ~= ry or sent.rz ~= rz then
    remember(undo, "rx", sent.rx); remember(undo, "ry", sent.ry); remember(undo, "rz", sent.rz)
    m:setRadius(rx, ry, rz)
    sent.rx, sent.ry, sent.rz = rx, ry, rz
  end
  if sent.ux ~= u[1] or sent.uy ~= u[2] or sent.uz ~= u[3] then
    remember(undo, "ux", sent.ux); remember(undo, "uy", sent.uy); remember(undo, "uz", sent.uz)
    m:setUp(u[1], u[2], u[3])
    sent.ux, sent.uy, sent.uz = u[1], u[2], u[3]
  end
  local p, q = self.position, self._placed
  if p[1] ~= q[1] or p[2] ~= q[2] or p[3] ~= q[3] then
    m:setPosition(p[1], p[2], p[3])
    q[1], q[2], q[3] = p[1], p[2], p[3]
    -- a teleport: the ground it stood on is not under it (it jumped in mid
    -- air 10 m above, and walked at air control once put on a floor: found
    -- by an independent tester); settle probes the ground as for a new one
    self._fresh = true
    self._rideBody = false                      -- (nor does it leave that ground moving)
    if self.onGround then
      setGround(self, false, "air")
      self._reground = true
    end
  end
end

-- Gives the mover back what _apply(undo) changed (a teleport stays: it took
-- away the ground whose carry the core can refuse) and empties undo.
local function undoApply(self, undo)
  local m, sent = self.mover, self._sent
  local function old(key)
    local v = undo[key]
    undo[key] = nil
    if v == NONE then return nil end
    return v
  end
  for _, name in ipairs(FORWARDED) do
    if undo[name] ~= nil then
      local v = old(name)
      sent[name] = v
      if v == UNSENT then v = self._moverDefaults[name] end
      m[name] = v
    end
  end
  if undo.rx ~= nil then
    local rx, ry, rz = old("rx"), old("ry"), old("rz")
    sent.rx, sent.ry, sent.rz = rx, ry, rz
    m:setRadius(rx, ry, rz)
  end
  if undo.ux ~= nil then
    local ux, uy, uz = old("ux"), old("uy"), old("uz")
    sent.ux, sent.uy, sent.uz = ux, uy, uz
    m:setUp(ux, uy, uz)
  end
end

-- Empties t (what a raised filter left in an undo list); returns it.
local function clear(t)
  for k in next, t do t[k] = nil end
  return t
end

-- err without a leading place in this very file (a script's own
-- character.lua is another chunk: its place stays; found by an independent
-- tester, a filter in game/character.lua was taken for the core's refusal).
local HERE = debug.getinfo(1, "S").short_src
local function withoutOwnPlace(err)
  local src, rest = err:match("^(.-):%d+: (.*)$")
  if src == HERE then return rest end
  return err
end

-- Is err fname's own refusal of a move out of the core's range (nothing
-- moved), not a filter's error that says the same (a filter's call in
-- another world, raised on with its own place: found by an independent
-- tester)? Its words start with fname's, and a batch's name a mover.
local function rangeError(err, fname)
  if type(err) ~= "string" then return false end
  local msg = withoutOwnPlace(err)
  local rest = msg:sub(1, #fname + 2) == fname .. ": " and msg:sub(#fname + 3)
    or msg:match("^bad argument #%d+ to '" .. fname .. "' %((.*)")
  if not rest or (fname == "collideAndSlideMany" and not rest:find("^mover %d+: ")) then return false end
  return (rest:find("the move out of range (it reaches", 1, true)
    or rest:find("the move is out of range", 1, true)) ~= nil
end

-- The core's words for a refused move, without their place, call and mover
-- ("f.lua:3: collideAndSlideMany: mover 2: ...", "bad argument #2 to
-- 'collideAndSlide' (...)").
local function rangeWords(err)
  err = err:gsub("^.-:%d+: ", ""):gsub("^bad argument #%d+ to '[^']*' %((.*)%)$", "%1")
  return (err:gsub("^collideAndSlide%a*: ", ""):gsub("^mover %d+: ", ""))
end

-- The core's refusal of this very move, asked from inside one of the
-- world's filters (the world busy, or the mover in its own move), in words
-- without call, or nil. Called from a filter, character:update raised
-- "collideAndSlide: the world is busy" without a place (found by an
-- independent tester). The refusal has no place (the call is pcall's) or
-- one in this file; a filter's own error carries the filter's place, or
-- the batch's "the filter of mover i raised", and is not one (the next
-- tester: a filter's refused call was taken for the update's).
local function busyWords(err)
  if type(err) ~= "string" then return nil end
  err = withoutOwnPlace(err)
  return err:match("^collideAndSlide%a*: (the world is busy %(.*%))$")
    or err:match("^collideAndSlide: (the mover is busy %(.*%))$")
    or err:match("^collideAndSlideMany: (mover %d+ is busy %(.*%))$")
end

-- self:_apply(undo), for an update from the character's own filter: its
-- busy mover refuses the first setting given, so nothing was written, and
-- the refusal's words are returned ("__newindex: the mover is busy" was
-- raised at a line of this file, and a batch had given the characters
-- before it their settings: found by an independent tester). Other errors
-- are raised as they are.
local function applyOrBusy(self, undo)
  local ok, err = pcall(self._apply, self, undo)
  if ok then return nil end
  local busy = type(err) == "string" and err:match("(the mover is busy %(.*%))$")
  if not busy then error(err, 0) end
  clear(undo)
  return busy
end

-- The update's move, one collideAndSlide: (x, y, z, onGround), or nil and the
-- error. A move the core refuses as out of range (the carry of a platform's
-- velocity or placement is not counted by beginUpdate: the core has it)
-- gives the mover back the settings this update gave it, so that the failed
-- update changes nothing (found by an independent tester); other errors (a
-- filter's) are raised again as they are.
local function moveOne(self, world, undo, wx, wy, wz, gx, gy, gz)
  self._updating = true                         -- (push and setPosition refuse)
  local ok, x, y, z, on = pcall(world.collideAndSlide, world, self.mover, wx, wy, wz, gx, gy, gz)
  self._updating = false
  if ok then return x, y, z, on end
  local busy = busyWords(x)
  if not (busy or rangeError(x, "collideAndSlide")) then error(x, 0) end
  undoApply(self, undo)
  return nil, busy or rangeWords(x)
end

local XYZ = { "x", "y", "z" }

-- A character's update writes its velocities and position after its move, so
-- a push or teleport made from a filter during it (its own filter, or any
-- filter of a cs.updateCharacters batch that lists it) was lost, in the batch
-- for good where the loop of updates kept it (found by an independent
-- tester): refused in these words.
local IN_UPDATE = "the character is in its update (called from a filter during its update, or during "
  .. "a cs.updateCharacters call that lists it), which writes its velocities and position after its "
  .. "move: %s it after the update"

-- check.num's number, also within +-1e30 (the core's range), as the core words it.
local rangedNum = check.coord

-- self must be a character: a dot for a colon (ch.update(world, dt)) is named.
local function checkSelf(self, fname, usage)
  check.self(self, Character, fname, "collideslide.Character", "character:" .. fname .. usage, 2)
end

-- Is p a position: a table of three finite numbers within the core's range?
local function isPosition(p)
  return check.tname(p) == "table" and isFinite(p[1]) and isFinite(p[2]) and isFinite(p[3])
    and inRange(p[1]) and inRange(p[2]) and inRange(p[3])
end

--- character:setPosition(x, y, z): teleports (velocities are kept).
function Character:setPosition(x, y, z)
  checkSelf(self, "setPosition", "(x, y, z)")
  local v = { x, y, z }
  for i = 1, 3 do
    if not isFinite(v[i]) then
      check.argerror(i + 1, "setPosition", format("a finite number expected, got %s",
        type(v[i]) == "number" and describe(v[i]) or check.argType(v[i], i + 1)))
    end
    if not inRange(v[i]) then
      check.argerror(i + 1, "setPosition", format("%s is out of range (|%s| > 1e30), got %s",
        XYZ[i], XYZ[i], describe(v[i])))
    end
  end
  if rawget(self, "_updating") then error("character:setPosition: " .. format(IN_UPDATE, "teleport"), 2) end
  local p = rawget(self, "position")
  if check.tname(p) ~= "table" then            -- (the script wrote something else there)
    p = { 0, 0, 0 }
    rawset(self, "position", p)
  end
  p[1], p[2], p[3] = x, y, z
end

--- character:getPosition() -> x, y, z: the centre. Unless the script wrote a
-- new position (the next update teleports there), the mover's: a placement of
-- the body an added character (world:addMover) stands on takes it along at
-- once, and `position` shows that after the next update.
function Character:getPosition()
  checkSelf(self, "getPosition", "()")
  local p, q = rawget(self, "position"), self._placed
  local good = isPosition(p)                    -- (a bad one: the next update says so)
  if not good or (p[1] == q[1] and p[2] == q[2] and p[3] == q[3]) then
    local ok, x, y, z = pcall(self.mover.getPosition, self.mover)
    if ok then return x, y, z end              -- (a closed mover: the table's)
  end
  if not good then
    error("character:getPosition: position must be a table {x, y, z} of finite numbers, got "
      .. check.tname(p), 2)
  end
  return p[1], p[2], p[3]
end

--- character:push(vx, vy, vz): adds this velocity (m/s) once, for knockback and
-- jump pads. The part along up goes to the fall velocity (a push up takes off as
-- a jump does); the rest is a push velocity added to the walk, kept in the air and
-- dying away at pushDrag per second on the ground; walls take it.
function Character:push(vx, vy, vz)
  checkSelf(self, "push", "(vx, vy, vz)")
  local v = { vx, vy, vz }
  local names = { "vx", "vy", "vz" }
  for i = 1, 3 do rangedNum(v[i], i + 1, "push", names[i]) end
  -- what it uses of the settings and state, checked as update checks them
  -- (found by independent testers: a bad up wrote NaN into fallVelocity for
  -- good, and a number written into fallVelocity was copied into what update
  -- compares it with, so the write went through)
  if rawget(self, "_updating") then error("character:push: " .. format(IN_UPDATE, "push"), 2) end
  local err = CHECKS.up(self.up, "up") or stateError(self)
  if err then error("character:push: " .. err, 2) end
  local ux, uy, uz = unitUp(self.up)
  local d = vx * ux + vy * uy + vz * uz
  -- an up part within rounding of the push is none: a sideways push in a
  -- turned frame has one of 1e-16, and took the character off the ground
  -- (its jump on the next update ignored: found by an independent tester)
  local m = math.max(math.abs(vx), math.abs(vy), math.abs(vz))   -- (scaled: no underflow)
  if m > 0 and math.abs(d) <= 1e-12 * m * sqrt((vx / m) ^ 2 + (vy / m) ^ 2 + (vz / m) ^ 2) then d = 0 end
  local f = self.fallVelocity
  self._writing = true                          -- (see stateError)
  f[1], f[2], f[3] = f[1] + d * ux, f[2] + d * uy, f[3] + d * uz
  local held = self._vf
  held[4], held[5], held[6] = f[1], f[2], f[3]
  self._writing = false
  self._px, self._py, self._pz = self._px + vx - d * ux, self._py + vy - d * uy, self._pz + vz - d * uz
  -- a push that leaves the fall velocity rising takes a character off the
  -- ground at the next update; one that brings it back down (two pushes of
  -- no sum) leaves it on the ground, its jump and walk as they were (found by
  -- an independent tester)
  local rising = f[1] * ux + f[2] * uy + f[3] * uz > 0
  if self.onGround and rising then
    setGround(self, false)
    self._pushedUp = true
  elseif self._pushedUp and not rising then
    setGround(self, true)
    self._pushedUp = false
  end
end

--- character:contactCount() -> the last update's contacts (its mover's).
function Character:contactCount()
  checkSelf(self, "contactCount", "()")
  local n = check.alive(self.mover, "contactCount", 1, "contactCount")   -- (a closed mover)
  return n
end

--- character:getContact(i) -> px, py, pz, nx, ny, nz, triangle, body, tag, pass
function Character:getContact(i)
  checkSelf(self, "getContact", "(i)")
  local m = self.mover
  local n = check.alive(m, "contactCount", 1, "getContact")
  if type(i) ~= "number" or i ~= floor(i) or i - i ~= 0 then
    check.argerror(2, "getContact", "contact index must be an integer, got "
      .. (type(i) == "number" and describe(i) or check.argType(i, 2)))
  end
  if i < 1 or i > n then                        -- (%s: i may be past any integer)
    check.argerror(2, "getContact", format("contact %s out of range %s", check.num2str(i),
      n == 0 and "(there are none)" or "1.." .. n))
  end
  return m:getContact(i)
end

-- Fills list with the mover's contacts as tables {x, y, z, nx, ny, nz, triangle,
-- body, tag}, reusing the tables already in it; returns list, count.
local function contactList(m, list)
  local n = m:contactCount()
  for i = 1, n do
    local c = list[i]
    if check.tname(c) ~= "table" then c = {}; list[i] = c end
    c.x, c.y, c.z, c.nx, c.ny, c.nz, c.triangle, c.body, c.tag, c.pass = m:getContact(i)
  end
  for i = #list, n + 1, -1 do list[i] = nil end
  return list, n
end

--- character:contacts([list]) -> list, count: the last update's contacts as
-- tables { x, y, z, nx, ny, nz, triangle, body, tag, pass } (a given list is refilled).
function Character:contacts(list)
  checkSelf(self, "contacts", "([list])")
  check.alive(self.mover, "getPosition", 1, "contacts")
  if not rawequal(list, nil) and check.tname(list) ~= "table" then
    check.argerror(2, "contacts", "table or nil expected, got " .. check.tname(list))
  end
  local l, n = contactList(self.mover, list or {})
  return l, n
end

-- Per-second platform velocities: body -> {vx, vy, vz} (m/s). A character standing
-- on such a body gives it vx * dt (the core's per-call displacement) right before
-- its move.
local PLATFORMS = setmetatable({}, { __mode = "k" })

--- setPlatformVelocity(body, vx, vy, vz): cs.setPlatformVelocity.
local function setPlatformVelocity(body, vx, vy, vz)
  local t = type(body)
  if (t ~= "userdata" and t ~= "table") or check.tname(body) ~= "collideslide.Body" then
    check.notModule(body, "setPlatformVelocity")
    error("bad argument #1 to 'setPlatformVelocity' (collideslide.Body expected, got "
      .. check.argType(body, 1) .. ")", 2)
  end
  -- a removed body, or one of a closed world: body:setVelocity's error, as ours
  check.alive(body, "getVelocity", 1, "setPlatformVelocity")
  local v = { vx, vy, vz }
  local names = { "vx", "vy", "vz" }
  for i = 1, 3 do rangedNum(v[i], i + 1, "setPlatformVelocity", names[i]) end
  if vx == 0 and vy == 0 and vz == 0 then
    PLATFORMS[body] = nil
    body:setVelocity(0, 0, 0)
  else
    PLATFORMS[body] = { vx, vy, vz }
  end
end

local INPUT_ORDER = { "x", "z", "jump", "run", "yaw" }    -- (the messages' order)
local INPUT_KEYS = {}
for _, k in ipairs(INPUT_ORDER) do INPUT_KEYS[k] = true end

-- The input as a horizontal direction (length <= 1, in the plane across up),
-- turned by input.yaw about up.
local function inputDirection(input, ux, uy, uz)
  local x, z = (input.x or 0) * 1.0, (input.z or 0) * 1.0   -- floats: -math.mininteger wraps
  local big = math.max(x < 0 and -x or x, z < 0 and -z or z)
  if big > 1 then x, z = x / big, z / big end     -- (x * x would overflow past 1e154)
  local len = sqrt(x * x + z * z)
  if len == 0 then return 0, 0, 0 end
  if len > 1 then x, z, len = x / len, z / len, 1 end
  local vx, vy, vz = x, 0, z
  local yaw = input.yaw
  if yaw and yaw ~= 0 then                      -- Rodrigues: (vx, vy, vz) about up by yaw
    local c, s = cos(yaw), sin(yaw)
    local d = vx * ux + vy * uy + vz * uz
    local cx, cy, cz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    vx, vy, vz = vx * c + cx * s + ux * d * (1 - c), vy * c + cy * s + uy * d * (1 - c),
      vz * c + cz * s + uz * d * (1 - c)
  end
  local d = vx * ux + vy * uy + vz * uz         -- remove the part along up
  local hx, hy, hz = vx - d * ux, vy - d * uy, vz - d * uz
  local hl = sqrt(hx * hx + hy * hy + hz * hz)
  if hl == 0 then return 0, 0, 0 end            -- input straight along up
  return hx * len / hl, hy * len / hl, hz * len / hl
end

-- True when one of the last call's contacts is a ceiling (its normal points down).
local function hitCeiling(m, ux, uy, uz)
  for i = 1, m:contactCount() do
    local _, _, _, nx, ny, nz = m:getContact(i)
    if nx * ux + ny * uy + nz * uz < CEILING_DOT then return true end
  end
  return false
end

-- The input keys that are flags: true, false or nil only. Any value but nil
-- and false is true in Lua, so jump = 0 (a C habit: isDown and 1 or 0)
-- jumped every time it could (found by an independent tester).
local BOOLEAN_INPUTS = { jump = true, run = true }
local function flagError(name, v)
  return format("input.%s must be true or false, got %s%s%s", name, check.tname(v),
    type(v) == "number" and " " .. describe(v) or "", v == 0 and " (0 is true in Lua)" or "")
end

-- The input table's error text, or nil when it is good.
local function checkInput(input)
  local k = check.leastUnknown(input, INPUT_KEYS)
  if k ~= nil and check.keyKind(k) == "NUL-holding string" then
    return "unknown input key (a NUL-holding string key) (keys: x, z, jump, run, yaw)"
  end
  if k ~= nil then
    local hint = check.suggest(k, { "x", "z", "jump", "run", "yaw" })
    return "unknown input key '" .. tostring(k) .. "' (" .. (hint and ("did you mean '"
      .. hint .. "'? ") or "") .. "keys: x, z, jump, run, yaw" .. (k == "y" and
      "; to jump set jump = true, to push use character:push" or "") .. ")"
  end
  for _, name in ipairs(INPUT_ORDER) do               -- (in this order, whatever pairs() takes)
    local v = rawget(input, name)
    if v ~= nil and BOOLEAN_INPUTS[name] then
      if type(v) ~= "boolean" then return flagError(name, v) end
    elseif v ~= nil and not isFinite(v) then
      return "input." .. name .. " must be a finite number, got " .. describe(v)
    end
  end
end

-- Where the next move starts: the position the script wrote (the update
-- teleports there first), else the mover's (a placement of its platform may
-- have taken it along).
local function startPosition(self)
  local p, q = self.position, self._placed
  if p[1] ~= q[1] or p[2] ~= q[2] or p[3] ~= q[3] then return p[1], p[2], p[3] end
  return self.mover:getPosition()
end

-- nil when dt (argument arg of the API function that called this one) is a
-- finite number >= 0, else what is wrong with it.
local function checkDt(dt, arg)
  if not isFinite(dt) or dt < 0 then
    return "dt must be a finite number >= 0, got " .. (type(dt) == "number" and describe(dt) or check.argType(dt, arg, 2))
  end
end

-- The integral over [0, dt] of e^(-rate t), a velocity's share that decays
-- at rate (per second) over the update; k = 1 - e^(-rate dt), as the caller
-- computed it for the velocity's end. Below x = rate dt = 1e-4, where 1 - k
-- loses k's digits (a pushDrag of 1e-20 gave 0: no push at all), its series.
local function decayIntegral(rate, dt, k)
  if not (rate < math.huge) then return 0.0 end   -- (airControl 1: at once)
  local x = rate * dt
  if x > 1e-4 then return k / rate end
  return dt * (1 - x * (0.5 - x / 6))
end

-- The first half of an update, before its move: the new velocities, kept in
-- self._next until the move is done (so that an error changes nothing), and
-- the move. Returns the walk and gravity displacements, or nil and what is
-- wrong with them (out of the core's range: nothing has changed then). dry:
-- only that check (true when the moves are good), nothing written.
local function beginUpdate(self, dt, input, dry)
  dt = dt + 0.0         -- a float: an integer dt (Lua 5.3+) would wrap in the products below
  input = input or NO_INPUT
  local ux, uy, uz = unitUp(self.up)

  -- horizontal velocity: the input's on the ground, approached in the air
  local speed = input.run and self.runSpeed or self.walkSpeed
  local dx, dy, dz = inputDirection(input, ux, uy, uz)
  dx, dy, dz = dx * speed, dy * speed, dz * speed
  -- The horizontal and push velocities change over the update as
  -- exponentials; their displacements (ex, ey, ez) are the integrals over dt,
  -- so that a path is the same at any frame rate (found by an independent
  -- tester: the end velocity times dt put an air-steered jump 0.13 m off at
  -- 30 Hz, 0.48 m after a 0.25 s hitch, and a push went 0.96 m of its 1).
  local hx, hy, hz = self._hx, self._hy, self._hz
  local ex, ey, ez
  if self.onGround then
    hx, hy, hz = dx, dy, dz
    ex, ey, ez = dx * dt, dy * dt, dz * dt
  else
    -- the gap to the input's velocity shrinks by a = 1 - airControl every
    -- 0.1 s: by a^(10 t) = e^(-rate t) after t, rate = -10 ln a
    local a = 1 - self.airControl
    local k = 1 - a ^ (dt * 10)
    local m = decayIntegral(a > 0 and -10 * log(a) or math.huge, dt, k)
    ex, ey, ez = dx * dt + (hx - dx) * m, dy * dt + (hy - dy) * m, dz * dt + (hz - dz) * m
    hx, hy, hz = hx + (dx - hx) * k, hy + (dy - hy) * k, hz + (dz - hz) * k
  end

  -- the push velocity: kept in the air, dying away on the ground as
  -- e^(-pushDrag t), which takes it (1 - e^(-pushDrag dt)) / pushDrag of dt
  local px, py, pz = self._px, self._py, self._pz
  if self.onGround and (px ~= 0 or py ~= 0 or pz ~= 0) then
    local c = self.pushDrag
    local k = exp(-c * dt)
    local pm = decayIntegral(c, dt, 1 - k)
    ex, ey, ez = ex + px * pm, ey + py * pm, ez + pz * pm
    px, py, pz = px * k, py * k, pz * k
    if px * px + py * py + pz * pz < 1e-6 then px, py, pz = 0, 0, 0 end
  else
    ex, ey, ez = ex + px * dt, ey + py * dt, ez + pz * dt
  end

  -- gravity (the papers' vy, as a vector), from the fall velocity or a jump's.
  -- A push up from the ground takes off as a jump does (_pushedUp: push keeps
  -- it only while the fall velocity it left rises), from the velocity it set:
  -- both start the update at their speed, so a pad reaches a jump's height at
  -- any frame rate (found by an independent tester: a pad's speed lost g dt to
  -- the first frame's gravity, so at 30 Hz it went 22% lower than a jump of
  -- that speed); pushes in the air add to the fall as they are.
  local f, g = self.fallVelocity, self.gravity
  local fx, fy, fz = f[1], f[2], f[3]
  local jumped = input.jump and self.onGround or false
  if jumped then
    local j = self.jumpSpeed
    fx, fy, fz = ux * j, uy * j, uz * j
  end
  local accx, accy, accz
  -- (g * 1.0: on Lua 5.3+ -math.mininteger is math.mininteger, an integer
  -- gravity's sign flipped back; found by an independent tester)
  if type(g) == "number" then g = -(g * 1.0); accx, accy, accz = g * ux, g * uy, g * uz
  else accx, accy, accz = g[1], g[2], g[3] end
  -- (on the ground, not jumping, the fall is a press that finds the ground:
  -- a whole gravity * dt^2, as before the parabola, or the reach the snap
  -- and stairs were made for shrank, and a character at 20 Hz flew off
  -- 0.25 m stairs: found by an independent tester)
  local h = (self.onGround and not jumped) and dt or 0.5 * dt
  local gx, gy, gz = (fx + accx * h) * dt, (fy + accy * h) * dt, (fz + accz * h) * dt
  fx, fy, fz = fx + accx * dt, fy + accy * dt, fz + accz * dt

  -- the velocity of the moving ground it left (keepPlatformVelocity), across
  -- up: kept in the air, gone on landing
  local lx, ly, lz = self._lx, self._ly, self._lz
  if self.onGround or not self.keepPlatformVelocity then lx, ly, lz = 0.0, 0.0, 0.0 end
  local wx, wy, wz = ex + lx * dt, ey + ly * dt, ez + lz * dt
  local gb = self.mover:getGroundBody()         -- a per-second platform velocity
  -- (not of a body removed since, which its setVelocity refuses: a character
  -- on a removed platform raised at every update, for good; found by an
  -- independent tester)
  local pv = gb and PLATFORMS[gb]
  if pv and gb:isRemoved() then pv = nil end
  local bx, by, bz = 0, 0, 0
  if pv then bx, by, bz = pv[1] * dt, pv[2] * dt, pv[3] * dt end
  local wu = wx * ux + wy * uy + wz * uz       -- (the walk's part along up, for the snap)
  local ax, ay, az = wx - wu * ux, wy - wu * uy, wz - wu * uz
  local reach, rmin = reachOf(self, sqrt(wx * wx + wy * wy + wz * wz)
    + sqrt(gx * gx + gy * gy + gz * gz) + sqrt(bx * bx + by * by + bz * bz), sqrt(ax * ax + ay * ay + az * az))
  -- nor may it end past 1e30 (the core's test, from where the mover starts)
  local sx, sy, sz = startPosition(self)
  local within = abs(sx) + reach <= MAX_COORD and abs(sy) + reach <= MAX_COORD
    and abs(sz) + reach <= MAX_COORD
  if not (inRange(wx) and inRange(wy) and inRange(wz) and inRange(gx) and inRange(gy)
          and inRange(gz) and inRange(bx) and inRange(by) and inRange(bz)
          and reach <= MAX_COORD and reach / rmin <= MAX_COORD and within) then
    return nil, format("the move is out of range (past 1e30, or 1e30 radii): walk (%s, %s, %s), fall (%s, %s, %s)"
      .. "%s%s; dt, the speeds, gravity, a push or a platform's velocity is too large",
      describe(wx), describe(wy), describe(wz), describe(gx), describe(gy), describe(gz),
      pv and format(", platform (%s, %s, %s)", describe(bx), describe(by), describe(bz)) or "",
      (within or reach > MAX_COORD) and "" or format(", from (%s, %s, %s)", describe(sx), describe(sy),
        describe(sz)))
  end
  if dry then return true end
  if pv then gb:setVelocity(bx, by, bz) end
  local n, p = self._next, self.position
  n[1], n[2], n[3], n[4], n[5], n[6] = ux, uy, uz, hx, hy, hz
  n[7], n[8], n[9], n[10], n[11], n[12] = px, py, pz, fx, fy, fz
  n[13], n[14], n[15], n[16], n[17] = jumped, dt, p[1], p[2], p[3]
  local bvx, bvy, bvz = 0, 0, 0                 -- the velocity asked for (see movedVelocity)
  if pv then bvx, bvy, bvz = pv[1], pv[2], pv[3] end
  n[18], n[19], n[20] = (hx + px + lx + fx + bvx) * 1.0, (hy + py + ly + fy + bvy) * 1.0,
    (hz + pz + lz + fz + bvz) * 1.0
  n[21], n[22], n[23] = lx, ly, lz
  return wx, wy, wz, gx, gy, gz
end

-- The velocity of an update's move (n: its self._next) that ended at (x, y, z):
-- the position change / dt, the actual velocity. But a displacement that does
-- not scale with dt (a push out of an overlap, a snap, a platform's carry) over
-- a dt far below any frame's is no velocity, and over a subnormal dt overflows
-- (0.1 m / 5e-324 s: inf): below MIN_DT, or should the quotient not be finite,
-- the velocity the update asked for (walk + push + fall + platform).
local MIN_DT = 1e-6
local function movedVelocity(n, x, y, z)
  local dt = n[14]
  if dt >= MIN_DT then
    local vx, vy, vz = (x - n[15]) / dt, (y - n[16]) / dt, (z - n[17]) / dt
    if isFinite(vx) and isFinite(vy) and isFinite(vz) then return vx, vy, vz end
  end
  return n[18], n[19], n[20]
end

-- Did the surfaces the gravity pass met take the fall (f, the fall velocity,
-- going down) whole? The fall clipped by the planes of that pass's contacts
-- as the slide clips a move (cs_slide.c, clip_to_planes: one plane that
-- leaves it clear of the others, else the crease of two) keeps less than
-- FALL_HELD of it: wedged off the ground in a steep V, or where a steep slope
-- runs down into a wall ("steep"). Walls take the momentum going into them,
-- so such a fall ends: it no longer builds up while held, to drop the
-- character at that speed once let go (found by an independent tester: held
-- 3 s in a 60-degree V, it fell at 29 m/s when the V was taken away). Down a
-- single steep slope, or a crease that falls, the fall goes on as before; the
-- planes, not the motion, decide, so a walk or a moving platform does not,
-- and only the gravity pass's count: a walk's contact with an edge the
-- gravity pass met a little farther round made a crease along the edge (the
-- next testers).
local FALL_HELD = 1e-3
local CLIP_EPS = 1e-9                           -- (cs_slide.c's CLIP_REL_EPS, of the clipped move)
local NORMALS = {}                              -- (reused: no garbage)
local function clearOfOthers(N, nc, i, j, x, y, z)
  local tol = CLIP_EPS * sqrt(x * x + y * y + z * z)
  for k = 1, nc do
    if k ~= i and k ~= j and x * N[3 * k - 2] + y * N[3 * k - 1] + z * N[3 * k] < -tol then
      return false
    end
  end
  return true
end
local function fallHeld(m, fx, fy, fz)
  local N, nc = NORMALS, 0
  for i = 1, m:contactCount() do
    local _, _, _, nx, ny, nz, _, _, _, pass = m:getContact(i)
    if pass == "gravity" then
      N[3 * nc + 1], N[3 * nc + 2], N[3 * nc + 3] = nx, ny, nz
      nc = nc + 1
    end
  end
  if nc == 0 then return false end
  local keep = FALL_HELD * sqrt(fx * fx + fy * fy + fz * fz)
  for i = 1, nc do                              -- one plane
    local nx, ny, nz = N[3 * i - 2], N[3 * i - 1], N[3 * i]
    local d = fx * nx + fy * ny + fz * nz
    local x, y, z = fx, fy, fz
    if d < 0 then x, y, z = x - d * nx, y - d * ny, z - d * nz end
    if clearOfOthers(N, nc, i, 0, x, y, z) then return x * x + y * y + z * z <= keep * keep end
  end
  for i = 1, nc do                              -- the crease of two
    for j = i + 1, nc do
      local ax, ay, az, bx, by, bz = N[3 * i - 2], N[3 * i - 1], N[3 * i], N[3 * j - 2], N[3 * j - 1], N[3 * j]
      local cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
      local l = sqrt(cx * cx + cy * cy + cz * cz)
      if l > CLIP_EPS then
        local t = (fx * cx + fy * cy + fz * cz) / (l * l)
        if clearOfOthers(N, nc, i, j, cx * t, cy * t, cz * t) then return abs(t) * l <= keep end
      end
    end
  end
  return true                                   -- boxed in
end

-- The velocity (x, y, z) across up (u) less what goes into the walls of the
-- last call's contacts: each takes the part along the across-up part of its
-- normal, made unit, so a surface takes the momentum into it at once, at any
-- frame rate, and what is left stays across up. (Clipped by the normal
-- itself and then made horizontal again, a slope took a share cos^2 of its
-- angle each update, so an uphill jump that touched the slope rising went
-- 25% farther at 30 Hz than at 240: found by an independent tester.)
-- Walkable ground (a slope touched while still rising) takes none: the slide
-- runs along it. A ceiling (hitCeiling's) takes the part along its own
-- normal, on the update the rise stops (bonk) only.
local CEILINGS = {}                             -- the ceiling normals one clip took (no garbage)
local function clipAcross(self, x, y, z, ux, uy, uz, bonk)
  local m = self.mover
  local walkable = cos(self.slopeLimit * (math.pi / 180.0))
  local C, nceil = CEILINGS, 0
  for i = 1, m:contactCount() do
    local _, _, _, nx, ny, nz = m:getContact(i)
    local nu = nx * ux + ny * uy + nz * uz
    if nu < CEILING_DOT then
      -- A ceiling takes what goes into it along its own normal, on the update
      -- the rise stops only, once a normal. (Made unit across up, a ceiling
      -- tilted by rounding took all; taken at every update and every contact
      -- that touched it, a tilted one took more at 480 Hz than at 20, and
      -- twice at 30 Hz when the walk and the fall both met it: found by
      -- independent testers.)
      local d = x * nx + y * ny + z * nz
      for k = 1, nceil do
        if C[3 * k - 2] * nx + C[3 * k - 1] * ny + C[3 * k] * nz > 1 - CLIP_EPS then d = 0 end
      end
      if bonk and d < 0 then
        nceil = nceil + 1
        C[3 * nceil - 2], C[3 * nceil - 1], C[3 * nceil] = nx, ny, nz
        x, y, z = x - d * nx, y - d * ny, z - d * nz
        d = x * ux + y * uy + z * uz
        x, y, z = x - d * ux, y - d * uy, z - d * uz
      end
    elseif nu < walkable then
      local ax, ay, az = nx - nu * ux, ny - nu * uy, nz - nu * uz
      local l = sqrt(ax * ax + ay * ay + az * az)
      if l > CLIP_EPS then
        ax, ay, az = ax / l, ay / l, az / l
        local d = x * ax + y * ay + z * az
        if d < 0 then x, y, z = x - d * ax, y - d * ay, z - d * az end
      end
    end
  end
  local d = x * ux + y * uy + z * uz            -- (rounding: it stays across up)
  return x - d * ux, y - d * uy, z - d * uz
end

-- {== Leaving a moving platform (keepPlatformVelocity)
-- While on a body, each update watches its placement (body:getTransform):
-- the last change seen (self._ride, 16 numbers; the one before it,
-- self._rideB, and the time between them, self._rideDt) and the time since
-- (self._rideT), and the point stood on (self._rideP). The update that
-- leaves that ground (a jump, a walk off its edge) adds the body's velocity
-- at that point, from that last change while it is no older than the time
-- the change took (a platform placed once a frame under a character updated
-- twice a frame moves at that speed, not twice it on the first update and
-- not at all on the second: found by an independent tester); along up to the
-- fall, across up to a velocity of its own (_lx, _ly, _lz) added to the walk
-- in the air, taken by walls as the walk's is, and gone on landing or wedged
-- (the new ground's own motion carries it then, and a jump on a moving
-- platform comes down on the spot it left).

local function storeTransform(t, b)
  t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14],
    t[15], t[16] = b:getTransform()
end

-- Where the transform now (16 numbers) puts the point that the transform r
-- (16 numbers, column-major, affine) put at (x, y, z): r's inverse by
-- Cramer's rule, then now.
local function movedPoint(r, now, x, y, z)
  local dx, dy, dz = x - r[13], y - r[14], z - r[15]
  local ax, ay, az, bx, by, bz, cx, cy, cz = r[1], r[2], r[3], r[5], r[6], r[7], r[9], r[10], r[11]
  local ux, uy, uz = by * cz - bz * cy, bz * cx - bx * cz, bx * cy - by * cx    -- b x c
  local det = ax * ux + ay * uy + az * uz
  local qx = (dx * ux + dy * uy + dz * uz) / det
  local qy = (ax * (dy * cz - dz * cy) + ay * (dz * cx - dx * cz) + az * (dx * cy - dy * cx)) / det
  local qz = (ax * (by * dz - bz * dy) + ay * (bz * dx - bx * dz) + az * (bx * dy - by * dx)) / det
  return now[1] * qx + now[5] * qy + now[9] * qz + now[13], now[2] * qx + now[6] * qy + now[10] * qz
    + now[14], now[3] * qx + now[7] * qy + now[11] * qz + now[15]
end

-- Do the masks a and b (integers, negative ones as two's complement) share a
-- bit? (Lua 5.1 has no bitwise operators.)
local function masksMeet(a, b)
  a, b = a % 4294967296, b % 4294967296
  while a > 0 and b > 0 do
    if a % 2 == 1 and b % 2 == 1 then return true end
    a, b = (a - a % 2) / 2, (b - b % 2) / 2
  end
  return false
end

-- An update of dt s on (or leaving) the body b, watched since an earlier
-- one: a new placement is its last change, after the time since the one
-- before. Returns true when b was placed anew.
local function watch(self, b, dt)
  local r, now = self._ride, self._rideNow
  storeTransform(now, b)
  local same = true
  for i = 1, 16 do same = same and now[i] == r[i] end
  if same then
    self._rideT = self._rideT + dt
    return false
  end
  local before = self._rideB
  for i = 1, 16 do before[i], r[i] = r[i], now[i] end
  self._rideDt, self._rideT = self._rideT + dt, 0.0
  return true
end

-- The velocity (m/s) of the body self stood on at its last update's end, at
-- the point it stood on, as the core carries riders: its
-- cs.setPlatformVelocity, else its body:setVelocity (per update of dt s),
-- else from its last change of placement (the central difference of that
-- motion at the point: a turning platform throws along the tangent there, not
-- along the chord of its last turn; found by an independent tester), none
-- once that change is older than the time it took. nil: none (removed,
-- disabled, on layers the mover no longer meets, a tiny dt), as the core
-- carries none then (found by an independent tester: a disabled platform
-- with a cs.setPlatformVelocity still threw its rider).
local function platformVelocity(self, dt)
  local b = self._rideBody
  if b:isRemoved() or not b:isEnabled() or not masksMeet(b.layers, self.mover.collidesWith) then
    return nil
  end
  local pv = PLATFORMS[b]
  if pv then return pv[1], pv[2], pv[3] end
  if not (dt >= MIN_DT) then return nil end
  local vx, vy, vz = b:getVelocity()
  if vx ~= 0 or vy ~= 0 or vz ~= 0 then return vx / dt, vy / dt, vz / dt end
  local p, r, before = self._rideP, self._ride, self._rideB
  local x, y, z = p[1], p[2], p[3]
  if watch(self, b, dt) then x, y, z = movedPoint(before, r, x, y, z) end   -- (it carried the point)
  local span = self._rideDt
  if not (span > 0 and self._rideT < span) then return 0, 0, 0 end   -- (still: exactly none)
  local fx, fy, fz = movedPoint(before, r, x, y, z)        -- the motion, and back
  local bx, by, bz = movedPoint(r, before, x, y, z)
  vx, vy, vz = (fx - bx) / (2 * span), (fy - by) / (2 * span), (fz - bz) / (2 * span)
  if isFinite(vx) and isFinite(vy) and isFinite(vz) then return vx, vy, vz end
end

-- Keeps the body an update of dt s that ended on the ground at (x, y, z)
-- stood on (the mover's ground: a live body), watching its placement, and
-- the point it stood on: where its ellipsoid's surface faces the ground
-- normal's opposite (the core carries a rider by that point: a plank
-- pitching about the point under the feet threw its rider at the centre's
-- speed, 0.9 m/s at 1 rad/s; found by an independent tester).
local function keepRide(self, onGround, x, y, z, dt)
  local m = self.mover
  local gb = onGround and m:getGroundBody() or false
  if gb then
    if rawequal(gb, self._rideBody) then
      watch(self, gb, dt)
    else                                          -- a new ground: watched from now
      storeTransform(self._ride, gb)
      self._rideDt, self._rideT = 0.0, 0.0
    end
    local nx, ny, nz = m:getGroundNormal()
    local rx, ry, rz = radii(self)
    if nx then
      local l = sqrt(rx * rx * nx * nx + ry * ry * ny * ny + rz * rz * nz * nz)
      if l > 0 then x, y, z = x - rx * rx * nx / l, y - ry * ry * ny / l, z - rz * rz * nz / l end
    end
    local p = self._rideP
    p[1], p[2], p[3] = x, y, z
  end
  self._rideBody = gb
end
-- }==

-- The second half, once the mover moved to (x, y, z) (on: its isOnGround(),
-- nil to ask it): landing, ceilings, walls, and the new state.
local function endUpdate(self, x, y, z, on)
  local m, n = self.mover, self._next
  local ux, uy, uz, hx, hy, hz = n[1], n[2], n[3], n[4], n[5], n[6]
  local px, py, pz, fx, fy, fz = n[7], n[8], n[9], n[10], n[11], n[12]
  local jumped = n[13]
  local fu = fx * ux + fy * uy + fz * uz
  local rising = fu > 0
  if on == nil then on = m:isOnGround() end
  local onGround = on and not rising
  local bonk = rising and hitCeiling(m, ux, uy, uz)
  local held = not onGround and not bonk and fu < 0 and fallHeld(m, fx, fy, fz)
  if onGround or bonk or held then
    fx, fy, fz = 0.0, 0.0, 0.0                  -- (floats: integer zeros on landing, found
  end                                           -- by an independent tester)
  local lx, ly, lz = n[21], n[22], n[23]
  if onGround or held then                      -- (wedged in a steep V, it glided along
    lx, ly, lz = 0.0, 0.0, 0.0                  -- it for good: an independent tester)
  elseif self._rideBody and self.keepPlatformVelocity then
    local vx, vy, vz = platformVelocity(self, n[14])   -- it leaves a moving ground
    if vx then
      local vu = vx * ux + vy * uy + vz * uz
      if not bonk then fx, fy, fz = fx + vu * ux, fy + vu * uy, fz + vu * uz end
      lx, ly, lz = lx + vx - vu * ux, ly + vy - vu * uy, lz + vz - vu * uz
    end
  end
  if lx ~= 0 or ly ~= 0 or lz ~= 0 then         -- walls take it as they take the walk's
    lx, ly, lz = clipAcross(self, lx, ly, lz, ux, uy, uz, bonk)
  end
  if not onGround then                          -- in the air walls take momentum
    hx, hy, hz = clipAcross(self, hx, hy, hz, ux, uy, uz, bonk)
  end
  if px ~= 0 or py ~= 0 or pz ~= 0 then         -- walls take the push too
    px, py, pz = clipAcross(self, px, py, pz, ux, uy, uz, bonk)
  end

  -- the new state
  local f, p = self.fallVelocity, self.position
  setGround(self, onGround, m:getGroundState(), jumped)
  self._writing = true                          -- (see stateError)
  self._fresh = false
  f[1], f[2], f[3] = fx, fy, fz
  self._hx, self._hy, self._hz = hx, hy, hz
  self._px, self._py, self._pz = px, py, pz
  self._lx, self._ly, self._lz = lx, ly, lz
  self._pushedUp = false
  local v, q = self.velocity, self._placed
  v[1], v[2], v[3] = movedVelocity(n, x, y, z)
  local held = self._vf
  held[1], held[2], held[3], held[4], held[5], held[6] = v[1], v[2], v[3], f[1], f[2], f[3]
  -- new numbers written into position during the move (from a filter)
  -- teleport at the next update, as position's own rule says: written over
  -- here, they were lost (an independent tester)
  if p[1] == q[1] and p[2] == q[2] and p[3] == q[3] then p[1], p[2], p[3] = x, y, z end
  q[1], q[2], q[3] = x, y, z
  self._writing = false
  keepRide(self, onGround, x, y, z, n[14])
  local ne = m:sensorEventCount()
  if ne > 0 or #self.sensorEvents > 0 then    -- a new list (no garbage when none)
    local ev = {}
    for i = 1, ne do
      local sensor, event, t = m:getSensorEvent(i)
      ev[i] = { sensor = sensor, event = event, t = t }
    end
    self.sensorEvents = ev
  end
end

-- A new character has no ground state until its first move, so one placed
-- standing on a floor took its first update in the air: air control, 0.23
-- m/s of walkSpeed 4 at 60 Hz (found by an independent tester). Before the
-- first move (the mover placed and sized: after _apply), a probe down of
-- two skins, as the core's own for a mover placed on a floor
-- (cs_slide.c, ground_below), finds walkable ground below: the character
-- then stands on it. Returns true when it set onGround (the update's
-- velocities are to be taken anew), and false when the probe was not asked
-- for or found none. A probe the world refuses (called from a filter)
-- finds none: the move then says why.
local function settle(self, world)
  local changed = rawget(self, "_reground")   -- (a teleport took its ground away)
  self._reground = false
  if not rawget(self, "_fresh") or self.onGround then return changed end
  local ux, uy, uz = unitUp(self.up)
  local f = self.fallVelocity
  if f[1] * ux + f[2] * uy + f[3] * uz > 0 then return changed end   -- rising (a push up)
  local m = self.mover
  local d = -2.0 * m.skin
  local ok, t, _, _, _, nx, ny, nz = pcall(world.sweep, world, m, d * ux, d * uy, d * uz)
  if not (ok and t) then return changed end
  local nu = nx * ux + ny * uy + nz * uz
  if not (nu > 1e-9 and nu >= cos(self.slopeLimit * (math.pi / 180.0)) - 1e-12) then return changed end
  setGround(self, true, "ground")
  return true
end

-- settle undone (an update that is refused after it changes nothing).
local function unsettle(self)
  setGround(self, false, "air")
end

-- An update with dt = 0 moves nothing and crosses no sensor: its list is
-- empty (a new one, when the last update had any).
local function noEvents(self)
  if #self.sensorEvents > 0 then self.sensorEvents = {} end
end

--[[
character:update(world, dt, input): one frame of dt seconds. input: { x, z in
-1..1 (the move direction, normalised when longer than 1; turned by yaw about up),
jump, run, yaw (radians, a camera's yaw) }, or nil for none. One
world:collideAndSlide call with the walk displacement ((horizontal velocity +
push velocity) * dt) and the gravity displacement (fallVelocity * dt).
]]
-- A world of the other binding than the character's mover (the C module's
-- objects are userdata, collideslide.ffi's tables): refused before the
-- settings reach the mover, in the words of the C module's type checks
-- (found by an independent tester: the inner collideAndSlide raised it, at
-- this file's line, after the mover took the settings).
local MIXED = "(the C module's objects and collideslide.ffi's do not mix)"
local function otherBinding(c, world)
  local m = rawget(c, "mover")
  return check.tname(m) == "collideslide.Mover" and type(m) ~= type(world)
end

function Character:update(world, dt, input)
  checkSelf(self, "update", "(world, dt, input)")
  if check.tname(world) ~= "collideslide.World" then   -- (either binding's)
    check.argerror(2, "update", "world expected, got " .. check.argType(world, 2))
  end
  if isClosed(world, "getThreads") then
    check.argerror(2, "update", "attempt to use a closed/collected World")
  end
  if otherBinding(self, world) then
    check.argerror(2, "update", "world expected, got collideslide.World from the other binding " .. MIXED)
  end
  local derr = checkDt(dt, 3)
  if derr then check.argerror(3, "update", derr) end
  if not rawequal(input, nil) and check.tname(input) ~= "table" then   -- (NULL cdata == nil)
    check.argerror(4, "update", "table or nil expected, got " .. check.tname(input))
  end
  local ierr = checkInput(input or NO_INPUT)
  if ierr then check.argerror(4, "update", ierr) end
  -- the settings and the move are checked before the mover takes any of them:
  -- an error changes nothing (beginUpdate reads no setting from the mover,
  -- and refuses a move before it changes anything)
  local err = self:_check()
  if err then error("character:update: " .. err, 2) end
  local undo = clear(self._undo)
  if dt == 0 then
    local busy = applyOrBusy(self, undo)
    if busy then error("character:update: " .. busy, 2) end
    noEvents(self)
    return
  end
  local wx, wy, wz, gx, gy, gz = beginUpdate(self, dt, input)
  if not wx then error("character:update: " .. wy, 2) end
  local busy = applyOrBusy(self, undo)
  if busy then error("character:update: " .. busy, 2) end
  if settle(self, world) then
    wx, wy, wz, gx, gy, gz = beginUpdate(self, dt, input)
    if not wx then
      unsettle(self)
      undoApply(self, undo)
      error("character:update: " .. wy, 2)
    end
  end
  local x, y, z, on = moveOne(self, world, undo, wx, wy, wz, gx, gy, gz)
  if not x then error("character:update: " .. y, 2) end
  endUpdate(self, x, y, z, on)
end

-- Per list of characters, the lists updateMany reuses (no garbage per frame).
local MANY = setmetatable({}, { __mode = "k" })
-- Each character's last updateMany call (its number): listed twice?
local LISTED = setmetatable({}, { __mode = "k" })
local calls = 0

-- The list's first hole, whichever border # found, blamed on updateMany's
-- caller (level 3).
local function holeError(chars, n)
  local msg = check.holeMessage(chars, n, "list of characters")
  if msg then error(format("bad argument #2 to 'updateCharacters' (%s)", msg), 3) end
end

-- Is (x, y, z) not where c's move in this update began (its mover moved)?
local function movedFrom(c, x, y, z)
  local q = c._next
  return x ~= q[15] or y ~= q[16] or z ~= q[17]
end

--[[
updateMany(world, characters, dt [, inputs]): character:update for each
character of the list, with inputs[i] (a list of input tables or nils; nil:
none for all), by one world:collideAndSlideMany: the same bits as the loop of
updates in list order, on every core the world is given (world:setThreads).
Every argument is checked before any character moves.
]]
local function updateMany(world, chars, dt, inputs)
  if check.tname(world) ~= "collideslide.World" then
    check.notModule(world, "updateCharacters")
    error("bad argument #1 to 'updateCharacters' (world expected, got " .. check.argType(world, 1) .. ")", 2)
  end
  if isClosed(world, "getThreads") then
    error("bad argument #1 to 'updateCharacters' (attempt to use a closed/collected World)", 2)
  end
  if check.tname(chars) ~= "table" then
    error("bad argument #2 to 'updateCharacters' (list of characters expected, got " .. check.argType(chars, 2)
      .. ")", 2)
  end
  if not rawequal(inputs, nil) and check.tname(inputs) ~= "table" then
    error("bad argument #4 to 'updateCharacters' (list of inputs or nil expected, got " .. check.tname(inputs) .. ")", 2)
  end
  -- one input table for the list (its fields went unread: found by an
  -- independent tester): it holds an input key (a list may hold other keys,
  -- table.pack's n; the next tester)
  if inputs ~= nil then
    for _, k in ipairs(INPUT_ORDER) do
      if rawget(inputs, k) ~= nil then
        error(format("bad argument #4 to 'updateCharacters' (list of inputs expected, got an input table"
          .. " (key '%s'): one input table per character, {input} for one)", k), 2)
      end
    end
  end
  local n = check.len(chars)
  for k in pairs(chars) do                      -- a hole would hide the characters after it
    if type(k) == "number" and k > n and k == floor(k) and k - k == 0 then holeError(chars, n) end
  end
  for i = 1, n do
    local c = chars[i]
    if c == nil then holeError(chars, n) end
    if getmetatable(c) ~= Character then
      error(format("bad argument #2 to 'updateCharacters' (character %d: collideslide.Character expected, got %s)",
        i, check.tname(c)), 2)
    end
    if otherBinding(c, world) then
      error(format("bad argument #2 to 'updateCharacters' (character %d: its mover is from the other binding "
        .. "than the world %s)", i, MIXED), 2)
    end
    local input = inputs and inputs[i]
    if not rawequal(input, nil) and check.tname(input) ~= "table" then
      error(format("bad argument #4 to 'updateCharacters' (input %d: table or nil expected, got %s)",
        i, check.tname(input)), 2)
    end
    local ierr = checkInput(input or NO_INPUT)
    if ierr then error(format("bad argument #4 to 'updateCharacters' (input %d: %s)", i, ierr), 2) end
  end
  local derr = checkDt(dt, 3)
  if derr then error("bad argument #3 to 'updateCharacters' (" .. derr .. ")", 2) end
  calls = calls + 1
  local loop, stamp, added = false, calls, world:moverCount() > 0
  for i = 1, n do
    local c = chars[i]
    local err = c:_check()
    if err then error(format("updateCharacters: character %d: %s", i, err), 2) end
    local ok, merr = beginUpdate(c, dt, inputs and inputs[i], true)
    if dt > 0 and not ok then error(format("updateCharacters: character %d: %s", i, merr), 2) end
    -- the loop's bits need the loop when a character is listed twice, or when
    -- one after the first was moved or resized by the script: the loop's
    -- earlier updates meet it where it was, one batch where it goes
    -- (a new one after the first likewise, when the world holds added
    -- movers: its ground probe meets those listed before it where the loop
    -- has moved them; no mover's move changes the bodies it meets else)
    loop = loop or LISTED[c] == stamp or (i > 1 and (reshaped(c) or (rawget(c, "_fresh") and added)))
    LISTED[c] = stamp
  end
  if loop and dt > 0 then
    for i = 1, n do
      local c = chars[i]
      local undo = clear(c._undo)
      local busy = applyOrBusy(c, undo)
      if busy then error(format("updateCharacters: character %d: %s", i, busy), 2) end
      local settled = settle(c, world)
      local wx, wy, wz, gx, gy, gz = beginUpdate(c, dt, inputs and inputs[i])
      if not wx then                            -- (only a settled one's can fail here)
        if settled then unsettle(c) end
        undoApply(c, undo)
        error(format("updateCharacters: character %d: %s", i, wy), 2)
      end
      local x, y, z, on = moveOne(c, world, undo, wx, wy, wz, gx, gy, gz)
      if not x then   -- (a busy world refuses the first: nothing moved)
        error(y:find("^the world is busy") and "updateCharacters: " .. y
          or format("updateCharacters: character %d: %s", i, y), 2)
      end
      endUpdate(c, x, y, z, on)
    end
    return
  end
  for i = 1, n do        -- the settings (all or none: a busy mover refuses them)
    local busy = applyOrBusy(chars[i], clear(chars[i]._undo))
    if busy then
      for j = 1, i - 1 do undoApply(chars[j], chars[j]._undo) end
      error(format("updateCharacters: character %d: %s", i, busy), 2)
    end
  end
  if dt == 0 or n == 0 then
    for i = 1, n do noEvents(chars[i]) end
    return
  end
  local L = MANY[chars]
  if not L then L = { movers = {}, moves = {}, out = {}, grounded = {} }; MANY[chars] = L end
  local movers, moves, out, grounded = L.movers, L.moves, L.out, L.grounded
  for i = #movers, n + 1, -1 do movers[i] = nil end
  for i = #moves, 6 * n + 1, -1 do moves[i] = nil end
  for i = 1, n do
    local c, j = chars[i], 6 * i
    local settled = settle(c, world)
    movers[i] = c.mover
    moves[j - 5], moves[j - 4], moves[j - 3], moves[j - 2], moves[j - 1], moves[j] =
      beginUpdate(c, dt, inputs and inputs[i])
    if not moves[j - 5] then                    -- (only a settled one's can fail here)
      if settled then unsettle(c) end
      for k = 1, n do undoApply(chars[k], chars[k]._undo) end
      error(format("updateCharacters: character %d: %s", i, moves[j - 4]), 2)
    end
  end
  for i = 1, n do chars[i]._updating = true end  -- (push and setPosition refuse)
  local ok, err = pcall(world.collideAndSlideMany, world, movers, moves, out, grounded)
  for i = 1, n do chars[i]._updating = false end
  local busy = not ok and busyWords(err)
  if not ok and (busy or rangeError(err, "collideAndSlideMany")) then
    -- refused before any mover moved (the carry of a platform, which
    -- beginUpdate does not count; a call from a filter): the settings go back
    -- too. A carry by a ground mover listed before, which only its move
    -- decides, is refused at its rider's turn instead (the error's summary
    -- says who moved): the characters listed before the rider take their
    -- move, and so do later ones whose movers moved (other threads', in the
    -- rider's wave); a character whose mover moved kept stale tables (found
    -- by an independent tester)
    local i = not busy and tonumber(err:match("mover (%d+): ")) or 0
    local some = not busy and err:find("moved, mover %d+ [%w ]*did not$")
      and not err:find("; no mover moved, ", 1, true)
    for k = 1, n do
      local c = chars[k]
      local x, y, z = c.mover:getPosition()
      if some and (k < i or (k > i and movedFrom(c, x, y, z))) then
        endUpdate(c, x, y, z)
      else
        undoApply(c, c._undo)
      end
    end
    if busy then   -- (in the words applyOrBusy's refusals take)
      error("updateCharacters: " .. busy:gsub("^mover (%d+) is busy", "character %1: the mover is busy"), 2)
    end
    error(format("updateCharacters: character %d: %s", i, rangeWords(err)), 2)
  end
  if not ok then
    -- the characters whose movers moved take their move; then the error.
    -- A filter's error names its mover, and the ones listed before it moved
    -- (API.md): a mover that moved and ended where it began (a zone placed
    -- over it gave it an enter) takes its move too; it did not when moving
    -- was told by a change of position (found by an independent tester).
    -- The ones after it get back the settings the batch gave them: the loop
    -- had not reached them (another tester). An error that is no string
    -- names none: then a character takes its move when its mover's position
    -- changed, and the settings stay (a guess at the raising one undid the
    -- move of a character after one with a filter that stood still: the
    -- third tester).
    local failed = type(err) == "string" and tonumber(err:match("collideAndSlideMany: the filter of mover (%d+) "))
    for i = 1, n do
      local c = chars[i]
      local x, y, z = c.mover:getPosition()
      if (failed and i < failed) or (not failed and movedFrom(c, x, y, z)) then
        endUpdate(c, x, y, z)
      elseif failed and i > failed then
        undoApply(c, c._undo)
      end
    end
    -- the batch's words for its own arguments, in the caller's: its characters
    if type(err) == "string" then
      err = err:gsub("^bad argument #%d+ to '[^']*' %((.*)%)$", "updateCharacters: %1")
        :gsub("^(updateCharacters: )mover (%d+)", "%1character %2")
        :gsub(" %(moves%[%d+%]%)$", "")
    end
    error(err, 2)
  end
  for i = 1, n do
    local j = 3 * i
    endUpdate(chars[i], out[j - 2], out[j - 1], out[j], grounded[i])
  end
end

for name, v in pairs(Character) do
  if type(v) == "function" and name:sub(1, 1) ~= "_" then METHOD_NAMES[#METHOD_NAMES + 1] = name end
end
table.sort(METHOD_NAMES)

return { new = newCharacter, bind = bind, Character = Character, updateMany = updateMany,
  contactList = contactList, setPlatformVelocity = setPlatformVelocity }
