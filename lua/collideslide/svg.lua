-- collideslide/svg.lua: a small SVG writer for pictures of levels and paths
-- (used by examples/walk.lua). Shapes go into a document in pixels; a view maps
-- world coordinates (u right, v up) into a rectangle of it, keeping proportions.

local format, concat = string.format, table.concat
local check = require "collideslide.check"

local svg = {}

local Doc = {}
Doc.__index = Doc
Doc.__tostring = check.objectString
Doc.__name = "collideslide.svg.Doc"

-- Argument checks (the binding's messages; a dot for a colon is named).
local function checkDoc(self, fname, usage)
  check.self(self, Doc, fname, "an SVG document", "doc:" .. fname .. usage, 2)
end
local function checkStyle(style, arg, fname)
  if style == nil then return end
  if check.tname(style) ~= "table" then
    check.argerror(arg, fname, "style must be a table of SVG attributes or nil, got " .. check.tname(style), 2)
  end
  for k, v in pairs(style) do
    if type(k) ~= "string" then
      check.argerror(arg, fname, "style keys must be attribute names (strings), got a " .. check.tname(k), 2)
    end
    if type(v) ~= "string" and type(v) ~= "number" then
      check.argerror(arg, fname, format("style.%s must be a string or a number, got %s", k, check.tname(v)), 2)
    end
  end
end
local function checkPoints(p, arg, fname)
  if check.tname(p) ~= "table" then
    check.argerror(arg, fname, "points must be a flat array {x1, y1, x2, y2, ...}, got " .. check.argType(p, arg, 2), 2)
  end
  check.hole(p, arg, fname, "points", 2)
  local n = check.len(p)
  if n % 2 ~= 0 then
    check.argerror(arg, fname, format("points has %d numbers, not an even count", n), 2)
  end
  for i = 1, n do check.num(p[i], arg, fname, format("points[%d]", i), 2) end   -- (no NaN, no inf)
end

-- The most pixels across: the page size goes through %d.
local MAX_SIZE = 2147483647

--- svg.new(width, height) -> an empty document of that many pixels.
function svg.new(width, height)
  check.nums(1, "new", { "width", "height" }, width, height)
  if width <= 0 or height <= 0 then
    check.argerror(width <= 0 and 1 or 2, "new", "width and height must be > 0")
  end
  if width > MAX_SIZE or height > MAX_SIZE then
    local name = width > MAX_SIZE and "width" or "height"
    check.argerror(name == "width" and 1 or 2, "new", format("%s is out of range (> %d), got %s",
      name, MAX_SIZE, check.num2str(name == "width" and width or height)))
  end
  return setmetatable({ width = width, height = height, items = {} }, Doc)
end

local function esc(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;" }))
end

-- Attributes from a table, sorted by name so that output is stable.
local function attrs(style)
  local keys, out = {}, {}
  for k in pairs(style or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  for i, k in ipairs(keys) do
    local v = style[k]
    if type(v) == "number" then v = format("%.6g", v) end
    out[i] = format(' %s="%s"', k, esc(v))
  end
  return concat(out)
end

-- "x1,y1 x2,y2 ..." from a flat array of pixel coordinates.
local function points(p)
  local out = {}
  for i = 1, check.len(p), 2 do out[#out + 1] = format("%.2f,%.2f", p[i], p[i + 1]) end
  return concat(out, " ")
end

function Doc:add(s)
  checkDoc(self, "add", "(s)")
  if type(s) ~= "string" then check.argerror(2, "add", "string expected, got " .. check.argType(s, 2)) end
  self.items[#self.items + 1] = s
  return self
end

--- doc:polygon(p, style), doc:polyline(p, style): p = {x1, y1, x2, y2, ...} pixels.
function Doc:polygon(p, style)
  checkDoc(self, "polygon", "(points [, style])")
  checkPoints(p, 2, "polygon")
  checkStyle(style, 3, "polygon")
  return self:add(format('<polygon points="%s"%s/>', points(p), attrs(style)))
end
function Doc:polyline(p, style)
  checkDoc(self, "polyline", "(points [, style])")
  checkPoints(p, 2, "polyline")
  checkStyle(style, 3, "polyline")
  return self:add(format('<polyline points="%s"%s/>', points(p), attrs(style)))
end

--- doc:line(x1, y1, x2, y2, style), doc:rect(x, y, w, h, style),
-- doc:circle(x, y, r, style), doc:ellipse(x, y, rx, ry, style).
function Doc:line(x1, y1, x2, y2, style)
  checkDoc(self, "line", "(x1, y1, x2, y2 [, style])")
  check.nums(2, "line", { "x1", "y1", "x2", "y2" }, x1, y1, x2, y2)
  checkStyle(style, 6, "line")
  return self:add(format('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"%s/>', x1, y1, x2, y2, attrs(style)))
end
function Doc:rect(x, y, w, h, style)
  checkDoc(self, "rect", "(x, y, w, h [, style])")
  check.nums(2, "rect", { "x", "y", "w", "h" }, x, y, w, h)
  checkStyle(style, 6, "rect")
  return self:add(format('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"%s/>', x, y, w, h, attrs(style)))
end
function Doc:circle(x, y, r, style)
  checkDoc(self, "circle", "(x, y, r [, style])")
  check.nums(2, "circle", { "x", "y", "r" }, x, y, r)
  checkStyle(style, 5, "circle")
  return self:add(format('<circle cx="%.2f" cy="%.2f" r="%.2f"%s/>', x, y, r, attrs(style)))
end
function Doc:ellipse(x, y, rx, ry, style)
  checkDoc(self, "ellipse", "(x, y, rx, ry [, style])")
  check.nums(2, "ellipse", { "x", "y", "rx", "ry" }, x, y, rx, ry)
  checkStyle(style, 6, "ellipse")
  return self:add(format('<ellipse cx="%.2f" cy="%.2f" rx="%.2f" ry="%.2f"%s/>', x, y, rx, ry, attrs(style)))
end

--- doc:text(x, y, s, style): style defaults to 12 px sans-serif.
function Doc:text(x, y, s, style)
  checkDoc(self, "text", "(x, y, s [, style])")
  check.nums(2, "text", { "x", "y" }, x, y)
  if type(s) ~= "string" and type(s) ~= "number" then
    check.argerror(4, "text", "string expected, got " .. check.argType(s, 4))
  end
  checkStyle(style, 5, "text")
  style = style or {}
  local st = { ["font-family"] = "sans-serif", ["font-size"] = 12 }
  for k, v in pairs(style) do st[k] = v end
  if type(s) == "number" then s = check.num2str(s) end   -- (tostring's differs between Luas)
  return self:add(format('<text x="%.2f" y="%.2f"%s>%s</text>', x, y, attrs(st), esc(s)))
end

--- doc:tostring() -> the SVG text; doc:save(path) writes it (raises on failure).
function Doc:tostring()
  checkDoc(self, "tostring", "()")
  local w, h = math.ceil(self.width), math.ceil(self.height)
  return format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">\n'
    .. '<rect width="100%%" height="100%%" fill="white"/>\n%s\n</svg>\n',
    w, h, w, h, concat(self.items, "\n"))
end
function Doc:save(path)
  checkDoc(self, "save", "(path)")
  if type(path) ~= "string" then check.argerror(2, "save", "string expected, got " .. check.argType(path, 2)) end
  local f, err = io.open(path, "w")
  if not f then error("cannot write " .. tostring(err), 2) end
  f:write(self:tostring())
  f:close()
end

--[[
svg.view(x, y, w, h, umin, vmin, umax, vmax) -> a view: the world rectangle
[umin, umax] x [vmin, vmax] fitted (same scale on both axes, centred) into the
pixel rectangle at (x, y) of size w x h. v grows upward on screen.
view(u, v) -> px, py; view.scale is pixels per world unit.
]]
function svg.view(x, y, w, h, umin, vmin, umax, vmax)
  check.nums(1, "view", { "x", "y", "w", "h", "umin", "vmin", "umax", "vmax" },
    x, y, w, h, umin, vmin, umax, vmax)
  if umax <= umin then check.argerror(7, "view", "umax must be greater than umin") end
  if vmax <= vmin then check.argerror(8, "view", "vmax must be greater than vmin") end
  if w <= 0 or h <= 0 then check.argerror(w <= 0 and 3 or 4, "view", "w and h must be > 0") end
  -- (in floats: integer bounds on Lua 5.3+ wrapped around in the
  -- differences; found by an independent tester)
  x, y, w, h, umin, vmin, umax, vmax = x * 1.0, y * 1.0, w * 1.0, h * 1.0, umin * 1.0, vmin * 1.0,
    umax * 1.0, vmax * 1.0
  local scale = math.min(w / (umax - umin), h / (vmax - vmin))
  local ox = x + (w - (umax - umin) * scale) / 2
  local oy = y + (h - (vmax - vmin) * scale) / 2
  return setmetatable({ scale = scale }, { __call = function(_, u, v)
    return ox + (u * 1.0 - umin) * scale, oy + (vmax - v * 1.0) * scale
  end })
end

--[[
doc:mesh(view, vertices, indices, project, style): each triangle (flat 1-based
arrays, as newMesh takes them) drawn as an outlined polygon; project(x, y, z)
-> u, v is the orthographic projection (for example: from above, u = x, v = -z).
]]
function Doc:mesh(view, vertices, indices, project, style)
  checkDoc(self, "mesh", "(view, vertices, indices, project [, style])")
  local mt = getmetatable(view)
  if type(view) ~= "function" and not (type(mt) == "table" and mt.__call) then
    check.argerror(2, "mesh", "view expected (svg.view's result), got " .. check.tname(view))
  end
  check.flatMesh("mesh", vertices, indices, 3, 4)
  if type(project) ~= "function" then
    check.argerror(5, "mesh", "project: function(x, y, z) -> u, v expected, got " .. check.tname(project))
  end
  checkStyle(style, 6, "mesh")
  for t = 1, check.len(indices) - 2, 3 do
    local p = {}
    for k = 0, 2 do
      local i = 3 * indices[t + k] - 2
      local u, v = project(vertices[i], vertices[i + 1], vertices[i + 2])
      if type(u) ~= "number" or type(v) ~= "number" then
        check.argerror(5, "mesh", format("project must return two numbers u, v, got %s, %s",
          check.tname(u), check.tname(v)))
      end
      if u - u ~= 0 or v - v ~= 0 then
        check.argerror(5, "mesh", format("project must return finite numbers u, v, got %s, %s (vertex %d)",
          check.num2str(u), check.num2str(v), indices[t + k]))
      end
      local px, py = view(u, v)
      if type(px) ~= "number" or type(py) ~= "number" or px - px ~= 0 or py - py ~= 0 then
        check.argerror(2, "mesh", format("view must return finite numbers x, y, got %s, %s (vertex %d)",
          type(px) == "number" and check.num2str(px) or check.tname(px),
          type(py) == "number" and check.num2str(py) or check.tname(py), indices[t + k]))
      end
      p[2 * k + 1], p[2 * k + 2] = px, py
    end
    self:polygon(p, style)
  end
  return self
end

return svg
