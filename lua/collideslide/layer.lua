-- collideslide/layer.lua: the Lua layer (see API.md, "The Lua layer") around a
-- core: every function of the core, the OBJ loader, a mesh builder for boxes and
-- quads, and the character controller. The same for both cores:
--   require "collideslide"      = layer(require "collideslide.core")   (init.lua)
--   require "collideslide.ffi"  = layer(the LuaJIT FFI core)           (ffi.lua)
-- build(core) -> the module table; cs.core is the core it was built on.

local obj = require "collideslide.obj"
local character = require "collideslide.character"
local check = require "collideslide.check"

local type, ipairs, pairs, rawget, setmetatable = type, ipairs, pairs, rawget, setmetatable
local floor, format = math.floor, string.format

local function build(core)
  local cs = {}
  for k, v in pairs(core) do cs[k] = v end
  cs.core = core

  -- {======================================================================
  -- OBJ files
  -- =======================================================================

  --- cs.loadOBJ(path [, options]) -> mesh. options.tags: function(material, group,
  -- object) -> integer, or a table from those names to integers; the other options
  -- go to newMesh (backfaces). Errors name the file and line.
  function cs.loadOBJ(path, options)
    local mesh = obj.load(core.newMesh, path, options)   -- no tail call: error levels
    return mesh
  end

  --- cs.parseOBJ(text [, chunkname [, options]]) -> vertices, indices, tags:
  -- flat arrays ready for newMesh; tags is nil unless options.tags is given.
  cs.parseOBJ = obj.parse

  -- }======================================================================

  -- {======================================================================
  -- Building meshes from boxes, quads and triangles
  -- =======================================================================

  local Builder = {}
  Builder.__index = Builder
  Builder.__tostring = check.objectString
  Builder.__name = "collideslide.Builder"

  local XYZ = { "x", "y", "z" }
  local TRI = { "ax", "ay", "az", "bx", "by", "bz", "cx", "cy", "cz" }
  local QUAD = { "x1", "y1", "z1", "x2", "y2", "z2", "x3", "y3", "z3", "x4", "y4", "z4" }
  local BOX = { "minx", "miny", "minz", "maxx", "maxy", "maxz" }

  -- self must be a builder (a dot for a colon is named).
  local function checkBuilder(self, fname, usage)
    check.self(self, Builder, fname, "collideslide.Builder", "builder:" .. fname .. usage, 2)
  end

  -- A tag: nil (0) or a 32-bit integer, as newMesh's options.tags take them.
  local function checkTag(tag, arg, fname)
    if tag == nil then return 0 end
    if type(tag) ~= "number" or tag ~= floor(tag) then
      check.argerror(arg, fname, "tag must be an integer, got "
        .. (type(tag) == "number" and check.num2str(tag) or check.tname(tag)), 2)
    end
    if tag < -2147483648 or tag > 2147483647 then
      check.argerror(arg, fname, "tag must be a 32-bit integer, got " .. check.num2str(tag), 2)
    end
    return tag
  end

  -- min < max on each axis of a box given from argument arg on. A box of no
  -- thickness is a closed mesh of two faces on each other, which bounds no
  -- solid: a mover that sank into one stayed stuck in it (found by an
  -- independent tester), so it is refused.
  local function checkBox(arg, fname, minx, miny, minz, maxx, maxy, maxz)
    local v = { minx, miny, minz, maxx, maxy, maxz }
    for i = 1, 6 do check.coord(v[i], arg + i - 1, fname, BOX[i], 2) end
    local lo, hi = { minx, miny, minz }, { maxx, maxy, maxz }
    for i = 1, 3 do
      if hi[i] < lo[i] then
        check.argerror(arg + 2 + i, fname, format("%s is less than %s (%s < %s): min corner first, then max",
          BOX[3 + i], BOX[i], check.num2str(hi[i]), check.num2str(lo[i])), 2)
      end
      if hi[i] == lo[i] then
        check.argerror(arg + 2 + i, fname, format("%s equals %s (%s): a closed box needs a thickness "
          .. "(a floor: a box below its top, or a quad)", BOX[3 + i], BOX[i], check.num2str(hi[i])), 2)
      end
    end
  end

  --- cs.newBuilder() -> a builder that collects triangles into flat arrays
  -- (builder.vertices, builder.indices, builder.tags) for newMesh; builder.nv and
  -- builder.nt count its vertices and triangles. Every method checks its
  -- arguments at the call and changes nothing when they are bad.
  function cs.newBuilder(...)
    -- cs:newBuilder() gave a builder (found by an independent tester)
    check.notModule((...), "newBuilder", 1, cs.newBuilder)
    return setmetatable({ vertices = {}, indices = {}, tags = {}, hasTags = false,
      nv = 0, nt = 0 }, Builder)
  end

  -- The unchecked appends.
  local function addVertex(self, x, y, z)
    local v, n = self.vertices, self.nv
    v[3 * n + 1], v[3 * n + 2], v[3 * n + 3] = x, y, z
    self.nv = n + 1
    return n + 1
  end

  local function addFace(self, a, b, c, tag)
    local ix, n = self.indices, self.nt
    ix[3 * n + 1], ix[3 * n + 2], ix[3 * n + 3] = a, b, c
    self.tags[n + 1] = tag
    self.nt = n + 1
    if tag ~= 0 then self.hasTags = true end
  end

  --- builder:vertex(x, y, z) -> the new vertex's 1-based index.
  function Builder:vertex(x, y, z)
    checkBuilder(self, "vertex", "(x, y, z)")
    check.coords(2, "vertex", XYZ, x, y, z)
    local i = addVertex(self, x, y, z)
    return i
  end

  --- builder:face(a, b, c [, tag]): the triangle a b c (vertex indices, 1..nv) with
  -- a tag (default 0). Returns the builder.
  function Builder:face(a, b, c, tag)
    checkBuilder(self, "face", "(a, b, c [, tag])")
    local n, abc = self.nv, { a, b, c }
    for i = 1, 3 do                               -- (not ipairs: it stops at a nil)
      local v, name = abc[i], ({ "a", "b", "c" })[i]
      check.int(v, i + 1, "face", name)
      if v < 1 or v > n then
        check.argerror(i + 1, "face", format("vertex index %s out of range 1..%d%s", check.num2str(v), n,
          n == 0 and " (no vertices yet: add them with builder:vertex)" or ""))
      end
    end
    addFace(self, a, b, c, checkTag(tag, 5, "face"))
    return self
  end

  --- builder:triangle(ax, ay, az, bx, by, bz, cx, cy, cz [, tag]): its front face is
  -- the side from which a b c is counter-clockwise. Returns the builder.
  function Builder:triangle(ax, ay, az, bx, by, bz, cx, cy, cz, tag)
    checkBuilder(self, "triangle", "(ax, ay, az, bx, by, bz, cx, cy, cz [, tag])")
    check.coords(2, "triangle", TRI, ax, ay, az, bx, by, bz, cx, cy, cz)
    tag = checkTag(tag, 11, "triangle")
    addFace(self, addVertex(self, ax, ay, az), addVertex(self, bx, by, bz),
      addVertex(self, cx, cy, cz), tag)
    return self
  end

  --- builder:quad(12 numbers: corners p1 p2 p3 p4 [, tag]): counter-clockwise seen
  -- from the front; two triangles p1 p2 p3 and p1 p3 p4. The corners should be
  -- coplanar. Returns the builder.
  function Builder:quad(x1, y1, z1, x2, y2, z2, x3, y3, z3, x4, y4, z4, tag)
    checkBuilder(self, "quad", "(x1, y1, z1, ... x4, y4, z4 [, tag])")
    check.coords(2, "quad", QUAD, x1, y1, z1, x2, y2, z2, x3, y3, z3, x4, y4, z4)
    tag = checkTag(tag, 14, "quad")
    local a, b = addVertex(self, x1, y1, z1), addVertex(self, x2, y2, z2)
    local c, d = addVertex(self, x3, y3, z3), addVertex(self, x4, y4, z4)
    addFace(self, a, b, c, tag)
    addFace(self, a, c, d, tag)
    return self
  end

  -- The six faces of a box as corner numbers 1..8 (bit 1: x, bit 2: y, bit 4: z
  -- at the max side), each counter-clockwise seen from outside.
  local BOX_FACES = {
    { 1, 5, 7, 3 },   -- -x
    { 2, 4, 8, 6 },   -- +x
    { 1, 2, 6, 5 },   -- -y
    { 3, 7, 8, 4 },   -- +y
    { 1, 3, 4, 2 },   -- -z
    { 5, 6, 8, 7 },   -- +z
  }

  local function addBox(self, minx, miny, minz, maxx, maxy, maxz, tag)
    local first = self.nv + 1
    for i = 0, 7 do
      addVertex(self, i % 2 == 0 and minx or maxx,
        i % 4 < 2 and miny or maxy,
        i < 4 and minz or maxz)
    end
    for _, f in ipairs(BOX_FACES) do
      local a, b, c, d = first + f[1] - 1, first + f[2] - 1, first + f[3] - 1, first + f[4] - 1
      addFace(self, a, b, c, tag)
      addFace(self, a, c, d, tag)
    end
  end

  --- builder:box(minx, miny, minz, maxx, maxy, maxz [, tag]): a closed box, 8
  -- vertices and 12 triangles facing outward. Returns the builder.
  function Builder:box(minx, miny, minz, maxx, maxy, maxz, tag)
    checkBuilder(self, "box", "(minx, miny, minz, maxx, maxy, maxz [, tag])")
    checkBox(2, "box", minx, miny, minz, maxx, maxy, maxz)
    addBox(self, minx, miny, minz, maxx, maxy, maxz, checkTag(tag, 8, "box"))
    return self
  end

  -- An array's element i: a finite number, or an error naming what it is.
  local function element(t, i, arg, fname, what)
    local v = rawget(t, i)
    if type(v) ~= "number" then
      check.argerror(arg, fname, format("%s: element %d must be a number, got %s", what, i,
        v == nil and "nil" or check.tname(v)), 2)
    end
    if v - v ~= 0 then
      check.argerror(arg, fname, format("%s: element %d is %s", what, i, check.num2str(v)), 2)
    end
    return v
  end

  --- builder:add(vertices, indices [, tags]): appends flat arrays (indices 1-based
  -- into vertices, as newMesh takes them). Returns the builder.
  function Builder:add(vertices, indices, tags)
    checkBuilder(self, "add", "(vertices, indices [, tags])")
    local arrays = { vertices, indices }
    for i = 1, 2 do                               -- (not ipairs: it stops at a nil)
      if check.tname(arrays[i]) ~= "table" then
        check.argerror(i + 1, "add", "table expected, got " .. check.argType(arrays[i], i + 1))
      end
    end
    if tags ~= nil and check.tname(tags) ~= "table" then
      check.argerror(4, "add", "table or nil expected, got " .. check.tname(tags))
    end
    check.hole(vertices, 2, "add", "vertex array")
    check.hole(indices, 3, "add", "index array")
    local nv, ni = check.len(vertices), check.len(indices)
    if nv % 3 ~= 0 then
      check.argerror(2, "add", format("flat vertex array has %d numbers, not a multiple of 3", nv))
    end
    if ni % 3 ~= 0 then
      check.argerror(3, "add", format("index count %d is not a multiple of 3", ni))
    end
    for i = 1, nv do
      local v = element(vertices, i, 2, "add", "vertices")
      if v > 1e30 or v < -1e30 then                -- (newMesh's words)
        local c = XYZ[(i - 1) % 3 + 1]
        check.argerror(2, "add", format("vertex %d: %s is out of range (|%s| > 1e30), got %s",
          floor((i + 2) / 3), c, c, check.num2str(v)))
      end
    end
    for i = 1, ni do
      local v = element(indices, i, 3, "add", "indices")
      if v ~= floor(v) then                        -- (newMesh's words)
        check.argerror(3, "add", format("triangle %d: index %s is not an integer",
          floor((i + 2) / 3), check.num2str(v)))
      elseif v < 1 or v > nv / 3 then
        check.argerror(3, "add", format("triangle %d: index %s out of range 1..%d",
          floor((i + 2) / 3), check.num2str(v), nv / 3))
      end
    end
    if tags then
      for t = 1, ni / 3 do
        local g = rawget(tags, t)                  -- (read raw, as newMesh reads them)
        if g ~= nil and (type(g) ~= "number" or g ~= floor(g) or g < -2147483648 or g > 2147483647) then
          check.argerror(4, "add", format("tag %d must be a 32-bit integer, got %s", t,
            type(g) == "number" and check.num2str(g) or check.tname(g)))
        end
      end
    end
    local first = self.nv
    for i = 1, nv, 3 do addVertex(self, vertices[i], vertices[i + 1], vertices[i + 2]) end
    for t = 1, ni / 3 do
      local i = 3 * t - 2
      addFace(self, first + indices[i], first + indices[i + 1], first + indices[i + 2],
        tags and rawget(tags, t) or 0)
    end
    return self
  end

  --- builder:triangleCount() -> how many triangles it holds.
  function Builder:triangleCount()
    checkBuilder(self, "triangleCount", "()")
    return self.nt
  end

  --- builder:mesh([options]) -> cs.newMesh(vertices, indices, options), with the
  -- builder's tags when any is not 0.
  function Builder:mesh(options)
    checkBuilder(self, "mesh", "([options])")
    if options ~= nil and check.tname(options) ~= "table" then
      check.argerror(2, "mesh", "table or nil expected, got " .. check.tname(options))
    end
    if self.nt == 0 then
      error("mesh: the builder is empty (add a box, quad or triangle first)", 2)
    end
    local o = {}
    for k, v in pairs(options or {}) do o[k] = v end
    if self.hasTags and o.tags == nil then o.tags = self.tags end
    -- the options' errors in mesh's own words (its argument #2)
    local ok, mesh = pcall(core.newMesh, self.vertices, self.indices, o)
    if not ok then
      local inner = tostring(mesh):match("bad argument #3 to '[^']*' %((.*)%)$")
      if inner then check.argerror(2, "mesh", inner) end
      error(mesh, 0)
    end
    return mesh
  end

  --- cs.box(minx, miny, minz, maxx, maxy, maxz) -> vertices, indices: a closed box
  -- (8 vertices, 12 outward-facing triangles) for newMesh.
  function cs.box(minx, miny, minz, maxx, maxy, maxz)
    check.notModule(minx, "box")
    checkBox(1, "box", minx, miny, minz, maxx, maxy, maxz)
    local b = cs.newBuilder()
    addBox(b, minx, miny, minz, maxx, maxy, maxz, 0)
    return b.vertices, b.indices
  end

  -- }======================================================================

  --- cs.newCharacter{...} -> a character controller (see collideslide/character.lua).
  cs.newCharacter = character.bind(core)

  --- cs.setPlatformVelocity(body, vx, vy, vz): a body's velocity in m/s, which
  -- the characters standing on it ride (body:setVelocity's is per call).
  cs.setPlatformVelocity = character.setPlatformVelocity
  --- cs.updateCharacters(world, characters, dt [, inputs]): character:update
  -- for each, by one world:collideAndSlideMany (the same bits as the loop).
  cs.updateCharacters = character.updateMany

  -- {======================================================================
  -- Contacts as a list; a ray with a direction and a distance
  -- =======================================================================

  local Character = character.Character

  --- cs.contacts(mover [, list]) -> list, count: the last call's contacts as
  -- tables { x, y, z, nx, ny, nz, triangle, body, tag } (list is refilled when
  -- given, so that a game loop makes no garbage). A character gives its mover's.
  function cs.contacts(m, list)
    if getmetatable(m) == Character then m = rawget(m, "mover") end
    if check.tname(m) ~= "collideslide.Mover" then
      check.notModule(m, "contacts")
      check.argerror(1, "contacts", "collideslide.Mover or collideslide.Character expected, got "
        .. check.argType(m, 1))
    end
    check.alive(m, "getPosition", 1, "contacts")   -- closed: in contacts' words
    if not rawequal(list, nil) and check.tname(list) ~= "table" then   -- (NULL cdata == nil)
      check.argerror(2, "contacts", "table or nil expected, got " .. check.tname(list))
    end
    local l, n = character.contactList(m, list or {})
    return l, n
  end

  -- The world's methods (the same table for every world of this core): the layer
  -- adds its own there, so that both cores' worlds have them.
  local World = getmetatable(core.newWorld()).__index
  local ORIGIN = { "ox", "oy", "oz" }
  local DIR = { "dx", "dy", "dz" }

  --- world:raycastDir(ox, oy, oz, dx, dy, dz, maxDistance [, mask]) -> distance,
  -- px, py, pz, nx, ny, nz, triangle, body, tag, or nil: the first triangle hit by
  -- the ray from o along the direction d (any length but 0) within maxDistance.
  -- world:raycast takes a segment and returns a fraction of it; this takes a
  -- direction and returns a distance along it.
  function World:raycastDir(ox, oy, oz, dx, dy, dz, maxDistance, mask)
    if check.tname(self) ~= "collideslide.World" then
      error("bad argument #1 to 'raycastDir' (collideslide.World expected, got " .. check.argType(self, 1)
        .. ": call it with a colon, world:raycastDir(ox, oy, oz, dx, dy, dz, maxDistance [, mask]))", 2)
    end
    -- Every check here, in raycastDir's words: raycast, called with the
    -- scaled direction, would name itself and numbers the caller never gave.
    check.nums(2, "raycastDir", ORIGIN, ox, oy, oz)
    check.nums(5, "raycastDir", DIR, dx, dy, dz)
    check.num(maxDistance, 8, "raycastDir", "maxDistance")
    check.coords(2, "raycastDir", ORIGIN, ox, oy, oz)     -- (the core's 1e30)
    if maxDistance < 0 or maxDistance > 1e30 then
      check.argerror(8, "raycastDir", (maxDistance < 0 and "maxDistance must be >= 0, got "
        or "maxDistance is out of range (> 1e30), got ") .. check.num2str(maxDistance))
    end
    if not rawequal(mask, nil) and type(mask) ~= "number" then   -- (the other queries' words)
      check.argerror(9, "raycastDir", "mask must be an integer bitmask, got " .. check.tname(mask))
    end
    if mask ~= nil and (mask ~= math.floor(mask) or mask < -2147483648 or mask > 4294967295) then
      check.argerror(9, "raycastDir", "mask must be a 32-bit integer bitmask, got " .. check.num2str(mask))
    end
    -- the length without overflow or underflow (1e200, 1e-200, and Lua 5.3
    -- integers, whose squares wrap): in floats (math.abs(math.mininteger) is
    -- math.mininteger), scaled by the largest component
    dx, dy, dz = dx + 0.0, dy + 0.0, dz + 0.0
    local big = math.max(math.abs(dx), math.abs(dy), math.abs(dz))
    if big == 0 then
      check.argerror(5, "raycastDir", "direction is zero (dx, dy, dz give the ray's direction)")
    end
    local ux, uy, uz = dx / big, dy / big, dz / big
    local len = math.sqrt(ux * ux + uy * uy + uz * uz)
    dx, dy, dz = ux / len, uy / len, uz / len
    local s = maxDistance
    -- raycast's own refusals (a closed world, one busy in a filter), in
    -- raycastDir's words at its caller's line (they named raycast, at a line
    -- of this file: found by an independent tester)
    local ok, t, px, py, pz, nx, ny, nz, tri, body, tag =
      pcall(self.raycast, self, ox, oy, oz, dx * s, dy * s, dz * s, mask)
    if not ok then
      local msg = tostring(t):gsub("^.-:%d+: ", "", 1)
      local bad = msg:match("^bad argument #1 to 'raycast' %((.*)%)$")
      if bad then check.argerror(1, "raycastDir", bad) end
      error((msg:gsub("^raycast: ", "raycastDir: ", 1)), 2)
    end
    if t == nil then return nil end
    return t * maxDistance, px, py, pz, nx, ny, nz, tri, body, tag
  end

  -- }======================================================================

  --- cs.draw: plain arrays for drawing (see collideslide/draw.lua).
  cs.draw = require "collideslide.draw"

  return cs
end

return build
