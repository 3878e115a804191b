-- collideslide/layer.lua: the Lua layer (see API.md, "The Lua layer") around a
-- core: every function of the core, the OBJ loader, a mesh builder for boxes and
-- quads, and the character controller. The same for both cores:
--   require "collideslide"      = layer(require "collideslide.core")   (init.lua)
--   require "collideslide.ffi"  = layer(the LuaJIT FFI core)           (ffi.lua)
-- build(core) -> the module table; cs.core is the core it was built on.

local obj = require "collideslide.obj"
local character = require "collideslide.character"

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

  --- cs.newBuilder() -> a builder that collects triangles into flat arrays
  -- (builder.vertices, builder.indices, builder.tags) for newMesh; builder.nv and
  -- builder.nt count its vertices and triangles.
  function cs.newBuilder()
    return setmetatable({ vertices = {}, indices = {}, tags = {}, hasTags = false,
      nv = 0, nt = 0 }, Builder)
  end

  -- Appends a vertex; returns its 1-based index.
  function Builder:vertex(x, y, z)
    local v, n = self.vertices, self.nv
    v[3 * n + 1], v[3 * n + 2], v[3 * n + 3] = x, y, z
    self.nv = n + 1
    return n + 1
  end

  -- Appends the triangle a b c (vertex indices) with a tag (default 0).
  function Builder:face(a, b, c, tag)
    local ix, n = self.indices, self.nt
    ix[3 * n + 1], ix[3 * n + 2], ix[3 * n + 3] = a, b, c
    self.tags[n + 1] = tag or 0
    self.nt = n + 1
    if tag and tag ~= 0 then self.hasTags = true end
    return self
  end

  --- builder:triangle(ax, ay, az, bx, by, bz, cx, cy, cz [, tag]): its front face is
  -- the side from which a b c is counter-clockwise.
  function Builder:triangle(ax, ay, az, bx, by, bz, cx, cy, cz, tag)
    return self:face(self:vertex(ax, ay, az), self:vertex(bx, by, bz),
      self:vertex(cx, cy, cz), tag)
  end

  --- builder:quad(12 numbers: corners p1 p2 p3 p4 [, tag]): counter-clockwise seen
  -- from the front; two triangles p1 p2 p3 and p1 p3 p4. The corners should be
  -- coplanar.
  function Builder:quad(x1, y1, z1, x2, y2, z2, x3, y3, z3, x4, y4, z4, tag)
    local a, b = self:vertex(x1, y1, z1), self:vertex(x2, y2, z2)
    local c, d = self:vertex(x3, y3, z3), self:vertex(x4, y4, z4)
    return self:face(a, b, c, tag):face(a, c, d, tag)
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

  --- builder:box(minx, miny, minz, maxx, maxy, maxz [, tag]): a closed box, 8
  -- vertices and 12 triangles facing outward.
  function Builder:box(minx, miny, minz, maxx, maxy, maxz, tag)
    local first = self.nv + 1
    for i = 0, 7 do
      self:vertex(i % 2 == 0 and minx or maxx,
        i % 4 < 2 and miny or maxy,
        i < 4 and minz or maxz)
    end
    for _, f in ipairs(BOX_FACES) do
      local a, b, c, d = first + f[1] - 1, first + f[2] - 1, first + f[3] - 1, first + f[4] - 1
      self:face(a, b, c, tag):face(a, c, d, tag)
    end
    return self
  end

  --- builder:add(vertices, indices [, tags]): appends flat arrays (indices 1-based
  -- into vertices, as newMesh takes them).
  function Builder:add(vertices, indices, tags)
    local first = self.nv
    for i = 1, #vertices, 3 do self:vertex(vertices[i], vertices[i + 1], vertices[i + 2]) end
    for t = 1, math.floor(#indices / 3) do
      local i = 3 * t - 2
      self:face(first + indices[i], first + indices[i + 1], first + indices[i + 2],
        tags and tags[t])
    end
    return self
  end

  --- builder:triangleCount() -> how many triangles it holds.
  function Builder:triangleCount()
    return self.nt
  end

  --- builder:mesh([options]) -> cs.newMesh(vertices, indices, options), with the
  -- builder's tags when any is not 0.
  function Builder:mesh(options)
    local o = {}
    for k, v in pairs(options or {}) do o[k] = v end
    if self.hasTags and o.tags == nil then o.tags = self.tags end
    return core.newMesh(self.vertices, self.indices, o)
  end

  --- cs.box(minx, miny, minz, maxx, maxy, maxz) -> vertices, indices: a closed box
  -- (8 vertices, 12 outward-facing triangles) for newMesh.
  function cs.box(minx, miny, minz, maxx, maxy, maxz)
    local b = cs.newBuilder():box(minx, miny, minz, maxx, maxy, maxz)
    return b.vertices, b.indices
  end

  -- }======================================================================

  --- cs.newCharacter{...} -> a character controller (see collideslide/character.lua).
  cs.newCharacter = character.bind(core)

  return cs
end

return build
