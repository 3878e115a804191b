-- examples/queries.lua: asking a world questions without moving anything:
-- raycast, raycastAll, sweepEllipsoid, sweep, closestPoint, queryBox,
-- overlapEllipsoid and overlap, with layers and masks. Bodies carry a name in
-- body.userdata so that the results read well.
--
--   lua5.4 examples/queries.lua

local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
local root = here .. "/.."
local build = type(jit) == "table" and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/" .. build .. "/?.so;" .. package.cpath

local cs = require "collideslide"

local function say(fmt, ...) print(string.format(fmt, ...)) end

-- The scene: a floor, two crates (one mesh, two bodies) and a glass pane on
-- layer 2, which rays of mask 1 do not see.
local world = cs.newWorld()
local floorMesh = cs.newMesh({ -10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10 }, { 1, 2, 3, 1, 3, 4 })
local crateMesh = cs.newMesh(cs.box(-0.5, 0, -0.5, 0.5, 1, 0.5))
local floor = world:add(floorMesh)
local crateA = world:add(crateMesh, 2, 0, 0)                      -- at x = 2
local crateB = world:add(crateMesh, 4, 0, 0, 0, 0.3826834, 0, 0.9238795)  -- x = 4, turned 45 degrees
local glass = world:add(cs.newMesh(cs.box(-0.05, 0, -2, 0.05, 2, 2)), 6, 0, 0)
floor.userdata, crateA.userdata, crateB.userdata, glass.userdata = "floor", "crate A", "crate B", "glass"
glass.layers = 2                                                  -- the others: layer 1 (default)

local function name(body) return body and body.userdata or "-" end

-- 1. raycast: the first hit of the segment from o to o + d.
say("raycast from (0, 0.5, 0.2) along +x, 10 m:")
local t, px, py, pz, nx, ny, nz, tri, body, tag = world:raycast(0, 0.5, 0.2, 10, 0, 0)
say("  t = %.3f (%.2f m): %s, triangle %d (tag %d) at (%.2f, %.2f, %.2f), normal (%.2f, %.2f, %.2f)",
  t, t * 10, name(body), tri, tag, px, py, pz, nx, ny, nz)
t, px, _, _, _, _, _, _, body = world:raycast(0, 0.5, 0.2, 10, 0, 0, 2)   -- mask 2: the glass only
say("  with mask 2 (layer 2 only): %s at x = %.2f", name(body), px)
say("  straight up from (0, 0.5, 0): %s", tostring(world:raycast(0, 0.5, 0, 0, 10, 0)))

-- 2. raycastAll: every hit, nearest first; the callback may return false to stop.
say("raycastAll from (0, 0.5, 0.2) along +x, 10 m:")
local count = world:raycastAll(0, 0.5, 0.2, 10, 0, 0, function(ht, hx, _, _, _, _, _, _, b)
  say("  t = %.3f  x = %.2f  %s", ht, hx, name(b))
end)
say("  %d hits", count)
count = world:raycastAll(0, 0.5, 0.2, 10, 0, 0, function() return false end)
say("  a callback returning false stops at the first: %d", count)

-- 3. sweepEllipsoid: an ellipsoid moved along a displacement, the first contact.
say("sweepEllipsoid: radii (0.4, 0.9, 0.4) from (0, 1, 0) along +x, 10 m:")
t, px, py, pz, nx, ny, nz, tri, body = world:sweepEllipsoid(0, 1, 0, 0.4, 0.9, 0.4, 10, 0, 0)
say("  t = %.4f: the centre stops at x = %.3f, touching %s at (%.2f, %.2f, %.2f), normal (%.2f, %.2f, %.2f)",
  t, t * 10, name(body), px, py, pz, nx, ny, nz)
t, px, py, pz = world:sweepEllipsoid(0, 2, 0, 0.4, 0.9, 0.4, 0, -5, 0)
say("  dropped from y = 2: t = %.4f, lands with its centre at y = %.3f (touching the floor at y = %.1f)",
  t, 2 - 5 * t, py)

-- world:sweep is the same for a mover (its radii, orientation and collidesWith).
local mover = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = { 0, 0.91, 0 }, collidesWith = 1 }
t, _, _, _, _, _, _, _, body = world:sweep(mover, 10, 0, 0)
say("  world:sweep(mover, 10, 0, 0): t = %.4f, %s", t, name(body))

-- 4. closestPoint: the nearest point of any triangle (within a distance).
say("closestPoint:")
local cx, cy, cz, dist, ctri, cbody, cnx, cny, cnz = world:closestPoint(3, 0.5, 0.2)
say("  to (3, 0.5, 0.2): (%.2f, %.2f, %.2f) on %s, triangle %d, %.3f m away, direction (%.2f, %.2f, %.2f)",
  cx, cy, cz, name(cbody), ctri, dist, cnx, cny, cnz)
say("  to (0, 5, 0) within 1 m: %s", tostring(world:closestPoint(0, 5, 0, 1)))

-- 5. queryBox: every triangle that meets a box.
say("queryBox (1, 0.5, -1) .. (5, 1.5, 1):")
local perBody = {}
count = world:queryBox(1, 0.5, -1, 5, 1.5, 1, function(b, triangle, ttag)
  perBody[name(b)] = (perBody[name(b)] or 0) + 1
end)
say("  %d triangles: crate A %d, crate B %d", count, perBody["crate A"] or 0, perBody["crate B"] or 0)
say("  counting only (fn = nil), the box (-10, -1, -10) .. (10, 0.1, 10): %d (the floor's 2, and the "
  .. "crates' and the glass's triangles that reach below y = 0.1)", world:queryBox(-10, -1, -10, 10, 0.1, 10, nil))

-- 6. overlapEllipsoid / overlap: the triangles an ellipsoid intersects now.
say("overlapEllipsoid: radii (0.4, 0.9, 0.4) at (2.7, 0.85, 0), 0.2 m into crate A and 0.05 m into the floor:")
count = world:overlapEllipsoid(2.7, 0.85, 0, 0.4, 0.9, 0.4, function(b, triangle, depth, ox, oy, oz)
  say("  %s triangle %d: %.3f m deep, pushed out along (%.2f, %.2f, %.2f)", name(b), triangle, depth, ox, oy, oz)
end)
say("  %d triangles", count)
mover:setPosition(0, 0.91, 0)
say("  overlap(mover) for a mover standing clear on the floor: %d", world:overlap(mover, nil))
