-- examples/love/views.lua: the two orthographic views of the playground, drawn
-- with LÖVE's 2D API. From above: the whole level as one static mesh (painter's
-- order: lower triangles first), recoloured when the slope limit changes. From
-- the side: the triangles in a slab around the character, found each frame with
-- world:queryBox, farthest first. Both show the character's ellipsoid, its path,
-- the last update's contacts with their normals and the ground normal, the
-- recorded path as a ghost when a recording is replayed, and the scenario's
-- additions: boxes and the lift, sensor zones (lit while the character is
-- inside) and NPCs.

local ffi = require "ffi"
local draw = require "collideslide.draw"      -- contacts as segments (cs.draw)

local views = {}

local floor, max, min, abs, sqrt = math.floor, math.max, math.min, math.abs, math.sqrt

-- Colours (r, g, b in 0..1).
local C = {
  background = { 0.97, 0.96, 0.93 },
  floorLow = { 0.88, 0.87, 0.83 }, floorHigh = { 0.56, 0.67, 0.82 },
  steep = { 0.95, 0.60, 0.38 },   -- steeper than the slope limit
  wall = { 0.25, 0.30, 0.37 },
  wallFace = { 0.78, 0.81, 0.86 }, -- a wall facing the side view
  grid = { 0.2, 0.25, 0.3 },
  pathGround = { 0.85, 0.33, 0.0 }, pathAir = { 0.16, 0.50, 0.73 },
  body = { 0.16, 0.50, 0.73 },
  contact = { 0.75, 0.10, 0.55 },
  ground = { 0.10, 0.60, 0.25 },
  velocity = { 0.1, 0.1, 0.1 },
  text = { 0.12, 0.14, 0.17 },
  ghost = { 0.55, 0.35, 0.75 },   -- the recorded path a replay is compared with
  extra = { 0.62, 0.58, 0.52 },   -- the scenario's boxes and lift
  sensor = { 0.20, 0.65, 0.45 }, sensorLit = { 1.0, 0.80, 0.10 },
  npc = { 0.45, 0.45, 0.45 },
}
views.colours = C

local WALL_NY = 0.12          -- |normal.y| below this: a wall (seen edge-on from above)
local WALL_WIDTH = 0.12       -- m: how thick walls are drawn from above

-- |normal.y| of triangle t, its top height, whether it is degenerate, and
-- |normal.x| (alongX) or |normal.z|: how much it faces a side view.
local function triInfo(L, t, corners, alongX)
  local ax, ay, az, bx, by, bz, cx, cy, cz = corners(L, t)
  local ux, uy, uz = bx - ax, by - ay, bz - az
  local vx, vy, vz = cx - ax, cy - ay, cz - az
  local nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
  local len = sqrt(nx * nx + ny * ny + nz * nz)
  if len == 0 then return 1, max(ay, by, cy), true, 0 end
  return abs(ny) / len, max(ay, by, cy), false, abs(alongX and nx or nz) / len
end

local function lerp3(a, b, t)
  return a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t, a[3] + (b[3] - a[3]) * t
end

-- The colour of a surface: walkable ground shaded by height, steep ground, walls.
local function surfaceColour(ny, y, cosLimit, hmin, hmax)
  if ny < WALL_NY then return C.wall[1], C.wall[2], C.wall[3] end
  if ny < cosLimit - 1e-9 then
    local k = 1 - 0.35 * min(1, max(0, (y - hmin) / (hmax - hmin + 1e-9)))
    return C.steep[1] * k, C.steep[2] * k, C.steep[3] * k
  end
  return lerp3(C.floorLow, C.floorHigh, min(1, max(0, (y - hmin) / (hmax - hmin + 1e-9))))
end
views.surfaceColour = surfaceColour

ffi.cdef [[ typedef struct { float x, y; unsigned char r, g, b, a; } cs_pg_vertex; ]]
local FORMAT = { { "VertexPosition", "float", 2 }, { "VertexColor", "byte", 4 } }

--[[ The view from above: one love Mesh of the whole level. Flat and sloped
triangles are drawn as they are (x, z); walls, which have no area seen from
above, as thin quads along their longest edge. ]]
function views.newTop(L, corners)
  local nt = #L.indices / 3
  local items = {}
  for t = 1, nt do
    local ny, top, degenerate = triInfo(L, t, corners)
    if not degenerate then
      items[#items + 1] = { t = t, ny = ny, key = top + (ny < WALL_NY and 1e-3 or 0) }
    end
  end
  table.sort(items, function(a, b) return a.key < b.key end)
  local nv = 0
  for _, it in ipairs(items) do nv = nv + (it.ny < WALL_NY and 6 or 3) end
  local data = love.data.newByteData(nv * ffi.sizeof("cs_pg_vertex"))
  local v = ffi.cast("cs_pg_vertex *", data:getFFIPointer())
  local k = 0
  local function put(x, z) v[k].x, v[k].y, v[k].a = x, z, 255; k = k + 1 end
  for _, it in ipairs(items) do
    local ax, _, az, bx, _, bz, cx, _, cz = corners(L, it.t)
    it.first = k
    if it.ny >= WALL_NY then
      put(ax, az); put(bx, bz); put(cx, cz)
    else                                          -- the longest edge, thickened
      local px, pz, qx, qz = ax, az, bx, bz
      local function len2(x1, z1, x2, z2) return (x2 - x1) ^ 2 + (z2 - z1) ^ 2 end
      if len2(bx, bz, cx, cz) > len2(px, pz, qx, qz) then px, pz, qx, qz = bx, bz, cx, cz end
      if len2(cx, cz, ax, az) > len2(px, pz, qx, qz) then px, pz, qx, qz = cx, cz, ax, az end
      local l = sqrt(len2(px, pz, qx, qz))
      local ox, oz = 0, 0
      if l > 0 then ox, oz = -(qz - pz) / l * WALL_WIDTH / 2, (qx - px) / l * WALL_WIDTH / 2 end
      put(px + ox, pz + oz); put(qx + ox, qz + oz); put(qx - ox, qz - oz)
      put(px + ox, pz + oz); put(qx - ox, qz - oz); put(px - ox, pz - oz)
    end
  end
  local top = { items = items, data = data, v = v, nv = nv, L = L, corners = corners }
  top.mesh = love.graphics.newMesh(FORMAT, nv, "triangles", "static")
  top.maxTexture = love.graphics.getSystemLimits().texturesize
  return top
end

--[[ The level seen from above is drawn once into a canvas (at the view's scale,
or less when the level would not fit in a texture), and the canvas each frame:
redrawing 78,000 triangles every frame is slow on software renderers (Xvfb). ]]
local function topCanvas(top, scale)
  local b = top.L.bounds
  local w, h = b[4] - b[1] + 2, b[6] - b[3] + 2
  local res = math.min(scale, (top.maxTexture - 2) / w, (top.maxTexture - 2) / h, 8192 / w, 8192 / h)
  if top.canvas and top.canvasRes == res and top.canvasSlope == top.slopeLimit then
    return top.canvas, res
  end
  if res < scale * 0.7 then return nil end   -- zoomed in too far: draw the mesh
  if top.canvas then top.canvas:release() end
  local cw, ch = math.ceil(w * res), math.ceil(h * res)
  local ok, canvas = pcall(love.graphics.newCanvas, cw, ch, { msaa = 0 })
  if not ok then ok, canvas = pcall(love.graphics.newCanvas, cw, ch) end
  if not ok then return nil end
  local lg = love.graphics
  lg.push("all")
  lg.setCanvas(canvas)
  lg.clear(C.background[1], C.background[2], C.background[3], 1)
  lg.origin()
  lg.scale(res)
  lg.translate(-(b[1] - 1), -(b[3] - 1))
  lg.setColor(1, 1, 1, 1)
  lg.draw(top.mesh)
  lg.pop()
  canvas:setFilter("linear", "linear")
  top.canvas, top.canvasRes, top.canvasSlope = canvas, res, top.slopeLimit
  return canvas, res
end

-- Colours the top mesh for a slope limit (degrees).
function views.colourTop(top, slopeLimit)
  local cosLimit = math.cos(math.rad(slopeLimit))
  local b = top.L.bounds
  local v = top.v
  for _, it in ipairs(top.items) do
    local r, g, bl = surfaceColour(it.ny, it.key, cosLimit, b[2], b[5])
    r, g, bl = floor(r * 255 + 0.5), floor(g * 255 + 0.5), floor(bl * 255 + 0.5)
    for i = it.first, it.first + (it.ny < WALL_NY and 5 or 2) do
      v[i].r, v[i].g, v[i].b = r, g, bl
    end
  end
  top.mesh:setVertices(top.data)
  top.slopeLimit = slopeLimit
end

-- {======================================================================
-- Shared drawing helpers
-- =======================================================================

local lg

local function setColour(c, a) lg.setColor(c[1], c[2], c[3], a or 1) end

-- An arrow from (x1, y1) to (x2, y2) in screen pixels.
local function arrow(x1, y1, x2, y2, head)
  lg.line(x1, y1, x2, y2)
  local dx, dy = x2 - x1, y2 - y1
  local l = sqrt(dx * dx + dy * dy)
  if l < 1 then return end
  dx, dy = dx / l, dy / l
  head = head or 7
  lg.polygon("fill", x2, y2, x2 - head * dx + head * 0.45 * dy, y2 - head * dy - head * 0.45 * dx,
    x2 - head * dx - head * 0.45 * dy, y2 - head * dy + head * 0.45 * dx)
end
views.arrow = arrow

-- Faint lines every metre and darker ones every 5 m, in world units u (across)
-- and w (down the screen), for a view of (u0..u1) x (w0..w1).
local function grid(project, u0, u1, w0, w1, scale)
  local stepMinor = scale >= 8 and 1 or 5
  for u = floor(u0), floor(u1) + 1 do
    if u % stepMinor == 0 then
      setColour(C.grid, u % 5 == 0 and 0.18 or 0.07)
      local x1, y1 = project(u, w0)
      local x2, y2 = project(u, w1)
      lg.line(x1, y1, x2, y2)
    end
  end
  for w = floor(w0), floor(w1) + 1 do
    if w % stepMinor == 0 then
      setColour(C.grid, w % 5 == 0 and 0.18 or 0.07)
      local x1, y1 = project(u0, w)
      local x2, y2 = project(u1, w)
      lg.line(x1, y1, x2, y2)
    end
  end
end

-- The path as polylines, orange on the ground and blue in the air; a ghost (a
-- recorded path) wide, translucent and of one colour. path: a ring {first, n,
-- size, entries...} of {x, y, z, onGround, ...}; a ghost: a plain list of them.
local function drawPath(path, project, ghost)
  local n = ghost and #path or path.n
  if n < 2 then return end
  lg.setLineWidth(ghost and 5 or 2)
  local pts, state = {}, nil
  local function flush()
    if #pts >= 4 then
      if ghost then setColour(C.ghost, state and 0.45 or 0.3)
      else setColour(state and C.pathGround or C.pathAir) end
      lg.line(pts)
    end
  end
  for i = 1, n do
    local p = ghost and path[i] or path[(path.first + i - 2) % path.size + 1]
    local x, y = project(p[1], p[2], p[3])
    if p[4] ~= state then
      local lx, ly = pts[#pts - 1], pts[#pts]
      flush()
      pts, state = {}, p[4]
      if lx then pts[1], pts[2] = lx, ly end
    end
    pts[#pts + 1], pts[#pts + 2] = x, y
  end
  flush()
  lg.setLineWidth(1)
end

-- The ghost: the recorded path, and where the recorded run was at the replay's
-- frame (S.ghostFrame) as a dashed ellipse.
local function drawGhost(S, project, scale, ru, rv)
  local g = S.ghost
  if not g or #g < 2 then return end
  drawPath(g, project, true)
  local p = g[math.max(1, math.min(#g, S.ghostFrame or #g))]
  local sx, sy = project(p[1], p[2], p[3])
  setColour(C.ghost, 0.9)
  lg.setLineWidth(2)
  local k = 24
  for i = 0, k - 1, 2 do
    local a0, a1 = i / k * 2 * math.pi, (i + 1) / k * 2 * math.pi
    lg.line(sx + ru * scale * math.cos(a0), sy + rv * scale * math.sin(a0),
      sx + ru * scale * math.cos(a1), sy + rv * scale * math.sin(a1))
  end
  lg.setLineWidth(1)
end

--[[ The scenario's additions (S.X): boxes and the lift, sensor zones, NPCs. box
{minx, miny, minz, maxx, maxy, maxz} -> a screen rectangle: rect(box) gives x,
y, w, h or nil (not in the view). ]]
local function drawScenario(S, rect, project, scale, npcRadii, font, inSlab)
  local X = S.X
  if not X then return end
  for _, b in ipairs(X.boxes) do
    local x, y, w, h = rect(b.box)
    if x then
      setColour(C.extra, b.moving and 0.85 or 0.6)
      lg.rectangle("fill", x, y, w, h)
      setColour(C.wall)
      lg.rectangle("line", x, y, w, h)
    end
  end
  lg.setFont(font)
  for _, z in ipairs(X.sensors) do
    local x, y, w, h = rect(z.box)
    if x then
      local lit = z.count and z.count > 0
      local c = lit and C.sensorLit or C.sensor
      setColour(c, lit and 0.45 or 0.16)
      lg.rectangle("fill", x, y, w, h)
      setColour(c, 0.9)
      lg.setLineWidth(lit and 2.5 or 1.5)
      lg.rectangle("line", x, y, w, h)
      lg.setLineWidth(1)
      setColour(C.text, 0.85)
      local label = z.name
      if not z.sensor then label = label .. " (no world:addSensor)"
      elseif lit then label = label .. (z.player and " (inside)" or "") .. "  " .. z.count end
      lg.print(label, x + 3, y + 2)
    end
  end
  for _, n in ipairs(X.npcs) do
    local px, py, pz = n.ch:getPosition()
    local sx, sy = project(px, py, pz)
    if not inSlab or inSlab(px, pz) then             -- the side view: within its slab
      setColour(C.npc, 0.3)
      lg.ellipse("fill", sx, sy, npcRadii[1] * scale, npcRadii[2] * scale, 24)
      setColour(C.npc)
      lg.ellipse("line", sx, sy, npcRadii[1] * scale, npcRadii[2] * scale, 24)
    end
  end
end

-- The character, its contacts, the ground normal and its velocity.
local function drawCharacter(ch, project, scale, ru, rv)
  local m = ch.mover
  local px, py, pz = m:getPosition()
  local sx, sy = project(px, py, pz)
  setColour(C.body, 0.25)
  lg.ellipse("fill", sx, sy, ru * scale, rv * scale, 48)
  setColour(C.body)
  lg.setLineWidth(2)
  lg.ellipse("line", sx, sy, ru * scale, rv * scale, 48)
  lg.setLineWidth(1)
  -- velocity (m/s, drawn 0.25 s ahead)
  local v = ch.velocity
  setColour(C.velocity, 0.8)
  local ex, ey = project(px + v[1] * 0.25, py + v[2] * 0.25, pz + v[3] * 0.25)
  arrow(sx, sy, ex, ey, 6)
  -- contacts: the point and its normal (0.5 m), as segments from cs.draw
  for _, c in ipairs(draw.contacts(ch, 0.5)) do
    local ax, ay = project(c[1], c[2], c[3])
    local bx, by = project(c[4], c[5], c[6])
    setColour(C.contact)
    arrow(ax, ay, bx, by, 6)
    lg.circle("fill", ax, ay, 3.5)
  end
  -- the ground normal (1 m), from the feet
  local gx, gy, gz = m:getGroundNormal()
  if gx then
    local _, ry = m:getRadius()
    local fx, fy = project(px, py - ry, pz)
    local tx, ty = project(px + gx, py - ry + gy, pz + gz)
    setColour(C.ground)
    lg.setLineWidth(3)
    arrow(fx, fy, tx, ty, 9)
    lg.setLineWidth(1)
  end
end

-- A 1 m (or 5 m) scale bar at the bottom left of a view.
local function scaleBar(x, y, scale)
  local m = scale >= 12 and 1 or 5
  setColour(C.text)
  lg.setLineWidth(2)
  lg.line(x, y, x + m * scale, y)
  lg.line(x, y - 4, x, y + 4)
  lg.line(x + m * scale, y - 4, x + m * scale, y + 4)
  lg.setLineWidth(1)
  lg.print(m .. " m", x + m * scale + 6, y - 8)
end

local function frame(x, y, w, h, title, font)
  setColour(C.wall)
  lg.rectangle("line", x + 0.5, y + 0.5, w - 1, h - 1)
  lg.setFont(font)
  local tw = font:getWidth(title) + 14
  lg.setColor(1, 1, 1, 0.85)
  lg.rectangle("fill", x + 8, y + 6, tw, font:getHeight() + 4, 3)
  setColour(C.text)
  lg.print(title, x + 14, y + 8)
end

-- }======================================================================

--[[ views.drawTop(top, S, rect): S holds the character, the path and the camera
(S.cam = {x, z, scale}); rect = {x, y, w, h} in pixels. x is to the right, z
down the screen. ]]
function views.drawTop(top, S, r, font)
  lg = love.graphics
  local cam = S.camTop
  local s = cam.scale
  local ox, oy = r.x + r.w / 2 - cam.x * s, r.y + r.h / 2 - cam.z * s
  local function project(x, _, z) return ox + x * s, oy + z * s end
  local canvas, res = topCanvas(top, s)
  lg.setScissor(r.x, r.y, r.w, r.h)
  setColour(C.background)
  lg.rectangle("fill", r.x, r.y, r.w, r.h)
  lg.setColor(1, 1, 1, 1)
  if canvas then
    local b = top.L.bounds
    lg.draw(canvas, ox + (b[1] - 1) * s, oy + (b[3] - 1) * s, 0, s / res, s / res)
  else
    lg.push()
    lg.translate(ox, oy)
    lg.scale(s)
    lg.draw(top.mesh)
    lg.pop()
  end
  local u0, w0 = cam.x - r.w / 2 / s, cam.z - r.h / 2 / s
  grid(function(u, w) return project(u, 0, w) end, u0, u0 + r.w / s, w0, w0 + r.h / s, s)
  local rx, _, rz = S.ch.mover:getRadius()
  drawScenario(S, function(b)
    return ox + b[1] * s, oy + b[3] * s, (b[4] - b[1]) * s, (b[6] - b[3]) * s
  end, project, s, { 0.4, 0.4 }, font)
  drawGhost(S, project, s, rx, rz)
  drawPath(S.path, project)
  drawCharacter(S.ch, project, s, rx, rz)
  scaleBar(r.x + 16, r.y + r.h - 18, s)
  lg.setScissor()
  frame(r.x, r.y, r.w, r.h, "from above: x to the right, z down   (wheel: zoom, M: whole level)", font)
end

-- Clips a convex polygon (flat u, y, d triples) to lo <= d <= hi.
local function clipSlab(poly, lo, hi)
  for pass = 1, 2 do
    local out, n = {}, #poly / 3
    local function inside(d) if pass == 1 then return d >= lo end return d <= hi end
    local lim = pass == 1 and lo or hi
    for i = 1, n do
      local j = i % n + 1
      local au, ay, ad = poly[3 * i - 2], poly[3 * i - 1], poly[3 * i]
      local bu, by, bd = poly[3 * j - 2], poly[3 * j - 1], poly[3 * j]
      local ain, bin = inside(ad), inside(bd)
      if ain then out[#out + 1], out[#out + 2], out[#out + 3] = au, ay, ad end
      if ain ~= bin then
        local t = (lim - ad) / (bd - ad)
        out[#out + 1], out[#out + 2], out[#out + 3] = au + t * (bu - au), ay + t * (by - ay), lim
      end
    end
    poly = out
    if #poly == 0 then break end
  end
  return poly
end

-- Twice the area of a polygon given as flat screen points.
local function area2(p)
  local a, n = 0, #p / 2
  for i = 1, n do
    local j = i % n + 1
    a = a + p[2 * i - 1] * p[2 * j] - p[2 * j - 1] * p[2 * i]
  end
  return abs(a)
end

--[[ views.drawSide(L, S, rect): the triangles within S.slab m of the character
across the view, projected along the view axis: S.sideAxis "z" (z to the right,
seen from -x) or "x" (x to the right, seen from +z). y is up. ]]
function views.drawSide(L, S, r, font, corners)
  lg = love.graphics
  local cam, axis = S.camSide, S.sideAxis
  local s = cam.scale
  local cx, cy, cz = S.ch.mover:getPosition()
  local h = cam.u                              -- the camera's horizontal centre
  local ox, oy = r.x + r.w / 2 - h * s, r.y + r.h / 2 + cam.y * s
  local alongZ = axis == "z"
  local function project(x, y, z) return ox + (alongZ and z or x) * s, oy - y * s end
  lg.setScissor(r.x, r.y, r.w, r.h)
  setColour(C.background)
  lg.rectangle("fill", r.x, r.y, r.w, r.h)
  local u0, u1 = h - r.w / 2 / s, h + r.w / 2 / s
  local y0, y1 = cam.y - r.h / 2 / s, cam.y + r.h / 2 / s
  grid(function(u, w) return ox + u * s, oy - w * s end, u0, u1, y0, y1, s)
  -- the slab: across the view within S.slab of the character
  local slab = S.slab
  local minx, maxx, minz, maxz
  if alongZ then minx, maxx, minz, maxz = cx - slab, cx + slab, u0, u1
  else minx, maxx, minz, maxz = u0, u1, cz - slab, cz + slab end
  local tris = {}
  L.world:queryBox(minx, y0 - 1, minz, maxx, y1 + 1, maxz, function(body, t)
    if body == L.body then tris[#tris + 1] = t end   -- the scenario's bodies: drawScenario
  end)
  -- farthest first: seen from -x (axis z) the far side is +x; from +z it is -z
  local depth = {}
  for _, t in ipairs(tris) do
    local ax, _, az, bx, _, bz, qx, _, qz = corners(L, t)
    depth[t] = alongZ and -(ax + bx + qx) / 3 or (az + bz + qz) / 3
  end
  table.sort(tris, function(a, b) return depth[a] < depth[b] end)
  local cosLimit = math.cos(math.rad(S.ch.slopeLimit))
  local b = L.bounds
  local centre = alongZ and -cx or cz
  local slabLo, slabHi
  if alongZ then slabLo, slabHi = cx - slab, cx + slab else slabLo, slabHi = cz - slab, cz + slab end
  lg.setLineJoin("bevel")
  lg.setLineWidth(1.5)
  for _, t in ipairs(tris) do
    local ax, ay, az, bx, by, bz, qx, qy, qz = corners(L, t)
    local ny, top, _, nview = triInfo(L, t, corners, alongZ)
    local red, green, blue
    if ny < WALL_NY and nview > 0.5 then       -- a wall seen face-on
      red, green, blue = C.wallFace[1], C.wallFace[2], C.wallFace[3]
    else
      red, green, blue = surfaceColour(ny, top, cosLimit, b[2], b[5])
    end
    local fade = min(1, abs(depth[t] - centre) / slab) * 0.55   -- farther: paler
    red, green, blue = red + (1 - red) * fade, green + (1 - green) * fade, blue + (1 - blue) * fade
    -- the part of the triangle inside the slab, as (u across, y, d depth) corners
    local poly
    if alongZ then poly = { az, ay, ax, bz, by, bx, qz, qy, qx }
    else poly = { ax, ay, az, bx, by, bz, qx, qy, qz } end
    poly = clipSlab(poly, slabLo, slabHi)
    local n = #poly / 3
    if n >= 2 then
      local pts = {}
      for i = 1, n do
        pts[2 * i - 1], pts[2 * i] = ox + poly[3 * i - 2] * s, oy - poly[3 * i - 1] * s
      end
      if n >= 3 and area2(pts) > 1 then
        lg.setColor(red, green, blue, 1)
        lg.polygon("fill", pts)
      end
      lg.setColor(red * 0.55, green * 0.55, blue * 0.55, 1)
      if n >= 3 then lg.polygon("line", pts) else lg.line(pts) end
    end
  end
  lg.setLineWidth(1)
  -- where a ray straight down from the centre meets the level
  local t, hx, hy, hz = L.world:raycast(cx, cy, cz, 0, -50, 0)
  if t then
    local sx, sy = project(hx, hy, hz)
    setColour(C.text, 0.6)
    lg.line(sx - 8, sy, sx + 8, sy)
  end
  local rx, ry, rz = S.ch.mover:getRadius()
  drawScenario(S, function(bx)
    local lo, hi = alongZ and bx[1] or bx[3], alongZ and bx[4] or bx[6]
    if hi < slabLo or lo > slabHi then return nil end          -- outside the slab
    local a, c = alongZ and bx[3] or bx[1], alongZ and bx[6] or bx[4]
    return ox + a * s, oy - bx[5] * s, (c - a) * s, (bx[5] - bx[2]) * s
  end, project, s, { 0.4, 0.9 }, font, function(x, z)
    local d = alongZ and x or z
    return d >= slabLo and d <= slabHi
  end)
  drawGhost(S, project, s, alongZ and rz or rx, ry)
  drawPath(S.path, project)
  drawCharacter(S.ch, project, s, alongZ and rz or rx, ry)
  scaleBar(r.x + 16, r.y + r.h - 18, s)
  lg.setScissor()
  frame(r.x, r.y, r.w, r.h, string.format("from the side: %s to the right, y up; triangles within %.0f m of the "
    .. "character (%d)   (V: turn)", alongZ and "z" or "x", slab, #tris), font)
end

return views
