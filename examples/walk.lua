-- examples/walk.lua: the collideslide demo. It builds a small level, drops an
-- ellipsoid into it and walks it up stairs, down a ramp and along a wall with
-- world:collideAndSlide (Fauerby 2003: a walk displacement, then a gravity one),
-- says what happened, and draws it to examples/out/walk.svg.
--
--   lua5.4 examples/walk.lua        (or: make demo)

-- Find ./lua and the built module next to this script, so that a plain run works
-- from any directory (LUA_PATH / LUA_CPATH, when set, still come after these).
local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"
local svg = require "collideslide.svg"

local function say(fmt, ...) print(string.format(fmt, ...)) end

--[[ 1. The level, seen from above (x to the right, z down the page):

      z = -10 +-------------------------------------------+
              |                                           |
       z = -8 |  start   [stairs][ platform ][ramp down]  |
       z = -5 |    *      8 x 0.2 m  y = 1.6   20 deg     |
              |                                           |  east wall, x = 10:
              |                                           |  walked into at 45
              |                                           |  degrees, slid along
      z = 10  +-------------------------------------------+
           x = -10       -4      -0.8       3      7.4    x = 10
]]
local level = cs.newBuilder()
local H = 3                                    -- wall height (m)

level:quad(-10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10)     -- floor, facing up

-- A wall standing on the floor from (x1, z1) to (x2, z2), facing to the left of
-- that direction seen from above (so the four below face inward).
local function wall(x1, z1, x2, z2)
  level:quad(x1, 0, z1, x2, 0, z2, x2, H, z2, x1, H, z1)
end
wall(10, -10, 10, 10); wall(10, 10, -10, 10); wall(-10, 10, -10, -10); wall(-10, -10, 10, -10)

local STEP_RISE, STEP_RUN, STEPS = 0.2, 0.4, 8
for k = 0, STEPS - 1 do                         -- stairs rising along +x
  level:box(-4 + STEP_RUN * k, 0, -8, -4 + STEP_RUN * (k + 1), STEP_RISE * (k + 1), -5)
end
local TOP = STEP_RISE * STEPS                  -- 1.6 m
level:box(-0.8, 0, -8, 3, TOP, -5)             -- the platform at the top
local RAMP_DEG = 20
local rampEnd = 3 + TOP / math.tan(math.rad(RAMP_DEG))
level:quad(3, TOP, -8, 3, TOP, -5, rampEnd, 0, -5, rampEnd, 0, -8)   -- ramp down along +x

local world = cs.newWorld()
world:add(level:mesh())
say("level: %d triangles (floor, 4 walls, %d steps of %.1f m, a platform, a %d degree ramp)",
  level:triangleCount(), STEPS, STEP_RISE, RAMP_DEG)

--[[ 2. The mover: an upright ellipsoid about the size of a person, with the
core's defaults (the papers' behaviour: no explicit step height, no ground
snapping; small steps are climbed by sliding up their edges). ]]
local RX, RY = 0.4, 0.9
local mover = cs.newMover { radius = { RX, RY, RX }, position = { -8, 3, -6.5 } }

--[[ 3. One frame of 1/60 s: walk at SPEED m/s along (dx, dz), fall under
gravity (the papers' two-pass gravity: vy grows while in the air, and is reset
once the gravity pass finds walkable ground). ]]
local DT, SPEED, G = 1 / 60, 4, 9.81
local vy = 0
local path = {}                                 -- the centre after every frame
local frame = 0

local function step(dx, dz)
  frame = frame + 1
  vy = vy - G * DT
  local x, y, z = world:collideAndSlide(mover, dx * SPEED * DT, 0, dz * SPEED * DT,
                                        0, vy * DT, 0)
  local onGround = mover:isOnGround()
  if onGround then vy = 0 end
  path[#path + 1] = { x, y, z }
  return x, y, z, onGround
end

-- Frames along (dx, dz) until done(x, y, z, onGround) or maxFrames. Returns the
-- frames it took and how many of them ended on the ground.
local function walk(dx, dz, maxFrames, done)
  local frames, grounded = 0, 0
  repeat
    local x, y, z, onGround = step(dx, dz)
    frames = frames + 1
    if onGround then grounded = grounded + 1 end
  until done(x, y, z, onGround) or frames >= maxFrames
  return frames, grounded
end

local marks = {}                               -- labelled points for the picture
local function mark(label)
  local x, y, z = mover:getPosition()
  marks[#marks + 1] = { label = label, x = x, y = y, z = z }
  return x, y, z
end

-- 4. The walk, leg by leg.
local x0, y0, z0 = mark("start")
say("start: an ellipsoid of radii (%.1f, %.1f, %.1f) at (%.2f, %.2f, %.2f), %.2f m above the floor",
  RX, RY, RX, x0, y0, z0, y0 - RY)

-- (a) fall onto the floor (no walking yet)
local n = walk(0, 0, 240, function(_, _, _, onGround) return onGround end)
local _, y = mark("landed")
say("landed on the floor at y = %.3f after %d frames (%.2f s): the centre rests %.1f m (ry) + %.3f m (skin) up",
  y, n, n * DT, RY, y - RY)

-- (b) walk east to the stairs, then up them to the platform
walk(1, 0, 300, function(x) return x + RX > -4 - 0.05 end)
local xs = mark("foot of the stairs")
n = walk(1, 0, 300, function(x) return x - RX > -0.8 end)
local x1, y1 = mark("top of the stairs")
say("climbed the stairs to y = %.3f (feet at %.2f m: %d steps of %.1f m) in %d frames, at %.2f m/s",
  y1, y1 - RY - mover.skin, STEPS, STEP_RISE, n, (x1 - xs) / (n * DT))
say("  forward instead of %.1f: part of each move went up the step edges (the papers' slide,", SPEED)
say("  the core's default stepHeight = 0)")

-- (c) cross the platform, then go down the ramp
walk(1, 0, 300, function(x) return x > 3 end)
local grounded
n, grounded = walk(1, 0, 300, function(x) return x > rampEnd + RX end)
local xr, yr = mark("foot of the ramp")
say("went down the %d degree ramp to y = %.3f (x = %.2f) in %d frames, %d of them on the ground:",
  RAMP_DEG, yr, xr, n, grounded)
say("  going down, the papers' gravity pass does not hold a mover on ground that falls")
say("  away, so it leaves the edge and comes down in hops (mover.snapDistance keeps it on)")

-- (d) walk at 45 degrees into the east wall and slide along it
local c = 1 / math.sqrt(2)
n = walk(c, c, 600, function(x) return x >= 10 - RX - 0.05 end)
local _, _, za = mark("meets the wall")
local slideFrames = 90
walk(c, c, slideFrames, function() return false end)
local xb, yb, zb = mark("end")
say("slid along the wall x = 10: reached it at z = %.2f after %d frames; in the next %d frames",
  za, n, slideFrames)
say("  z went from %.2f to %.2f (%.2f m/s, the part of %.1f m/s along the wall) while x stayed at %.3f",
  za, zb, (zb - za) / (slideFrames * DT), SPEED, xb)
say("  (= 10 - rx %.1f - skin %.3f)", RX, 10 - RX - xb)
say("final position (%.3f, %.3f, %.3f) after %d frames (%.2f s), ground state '%s'",
  xb, yb, zb, frame, frame * DT, mover:getGroundState())

--[[ 5. The picture: the level from above and from the side (orthographic), each
triangle outlined, the path of the centre in orange, the marks with the mover's
outline (a circle from above, an ellipse from the side). ]]
local W = 900                                  -- page width (pixels)
local LEVEL = { fill = "#8aa4c8", ["fill-opacity"] = 0.12, stroke = "#34495e",
                ["stroke-width"] = 0.6 }
local PATH = { fill = "none", stroke = "#d35400", ["stroke-width"] = 2 }
local panels = {
  { title = "from above (x to the right, z down the page)", outline = "circle",
    project = function(px, _, pz) return px, -pz end, box = { -10.5, -10.5, 10.5, 10.5 } },
  { title = "from the side (x to the right, y up; seen from +z)", outline = "ellipse",
    project = function(px, py) return px, py end, box = { -10.5, -0.5, 10.5, 4.5 } },
}

-- Panel heights follow the proportions of what they show.
local top, scale = 40, (W - 40) / 21
for _, p in ipairs(panels) do
  p.y, p.h = top, math.min(420, (p.box[4] - p.box[2]) * scale)
  top = top + p.h + 50
end
local doc = svg.new(W, top)

-- A label near (x, y), moved down until it overlaps none placed before.
local placed = {}
local function label(x, y, text, colour)
  local w = 6.5 * #text
  if x + w > W - 4 then x = x - w - 12 end     -- keep it on the page
  local function free()
    for _, r in ipairs(placed) do
      if x < r[1] + r[3] and r[1] < x + w and y - 13 < r[2] and r[2] - 13 < y then return false end
    end
    return true
  end
  while not free() do y = y + 14 end
  placed[#placed + 1] = { x, y, w }
  doc:text(x, y, text, { fill = colour })
end

for _, p in ipairs(panels) do
  local b = p.box
  local view = svg.view(20, p.y, W - 40, p.h, b[1], b[2], b[3], b[4])
  doc:text(20, p.y - 10, p.title, { ["font-size"] = 14, ["font-weight"] = "bold" })
  doc:mesh(view, level.vertices, level.indices, p.project, LEVEL)
  local line = {}
  for i, q in ipairs(path) do
    line[2 * i - 1], line[2 * i] = view(p.project(q[1], q[2], q[3]))
  end
  doc:polyline(line, PATH)
  for i, m in ipairs(marks) do
    local sx, sy = view(p.project(m.x, m.y, m.z))
    local colour = (i == 1 and "#27ae60") or (i == #marks and "#c0392b") or "#2c3e50"
    local r = RX * view.scale
    if p.outline == "circle" then
      doc:circle(sx, sy, r, { fill = "none", stroke = colour })
    else
      doc:ellipse(sx, sy, r, RY * view.scale, { fill = "none", stroke = colour })
    end
    doc:circle(sx, sy, 3, { fill = colour })
    label(sx + 6, sy - 6, m.label, colour)
  end
  local bx, by = view(b[1] + 0.5, b[2])        -- a 1 m scale bar, bottom left
  doc:line(bx, by - 6, bx + view.scale, by - 6, { stroke = "black", ["stroke-width"] = 2 })
  doc:text(bx + view.scale + 4, by - 2, "1 m", { ["font-size"] = 11 })
end

local out = here .. "/out"
local probe = io.open(out .. "/.probe", "w")   -- does examples/out exist?
if probe then probe:close(); os.remove(out .. "/.probe")
else os.execute('mkdir "' .. out .. '"') end
doc:save(out .. "/walk.svg")
say("wrote %s/walk.svg", out)
