-- collideslide/obj.lua: a fast Wavefront OBJ reader (positions and faces only).
-- One pass over the whole text, one anchored string.find per line: the common
-- forms ("v x y z", "f a b c") take a fast path; every other line (polygons,
-- i/t/n forms, negative indices, groups, materials, errors) takes the general one.

local find, match, gmatch, byte, sub, gsub = string.find, string.match, string.gmatch,
  string.byte, string.sub, string.gsub
local tonumber, type, floor, tostring, rawget = tonumber, type, math.floor, tostring, rawget
local check = require "collideslide.check"

local obj = {}

-- The fast patterns, anchored at the start of a line; each consumes its "\n".
-- A line they do not fit (or whose numbers fail) goes to the general parser,
-- which handles it in full or raises the precise error.
local V_FAST = "^v[ \t]+([^ \t\r\n]+)[ \t]+([^ \t\r\n]+)[ \t]+([^ \t\r\n]+)[^\n]*\n"
local F_FAST = "^f[ \t]+(%d+)[ \t]+(%d+)[ \t]+(%d+)[ \t\r]*\n"

-- LuaJIT's tonumber reads binary literals ("0b101" is 5) where Lua 5.1-5.4
-- refuse them: an OBJ file must read the same on every Lua (found by an
-- independent tester), so on LuaJIT a number token starting so is refused.
local BINARY = tonumber("0b1") ~= nil
local function binary(s) return BINARY and find(s, "^%s*[+-]?0[bB]") ~= nil end

-- A number that tonumber accepts and that is finite (x - x is NaN for inf and NaN).
local function finite(s)
  local x = tonumber(s)
  if x and x - x == 0 and not binary(s) then return x end
  return nil
end

-- The tag resolver for options.tags: a function(material, group, object) -> integer,
-- or a table looked up by material, then group, then object name (default 0).
-- Returns nil when no tags are wanted.
local function tagResolver(spec, fname, argn, level)
  if spec == nil then return nil end
  if check.tname(spec) == "table" then
    return function(material, group, object)
      return (material and spec[material]) or (group and spec[group])
        or (object and spec[object]) or 0
    end
  end
  if type(spec) == "function" then return spec end
  error(("bad argument #%d to '%s' (options.tags must be a function or a table, got %s)")
    :format(argn, fname, check.tname(spec)), level)
end

local OPTIONS = { tags = true, backfaces = true }

-- Checks options (a table or nil) as newMesh does, in its words: unknown keys
-- (the least, check.leastUnknown), backfaces, then tags (tagResolver), as
-- argument argn of fname (level: the caller to blame, seen from checkOptions'
-- caller). Returns the tag resolver.
local function checkOptions(options, fname, argn, level)
  if options == nil then return nil end
  local bad, msg = check.leastUnknown(options, OPTIONS), nil
  local bf = rawget(options, "backfaces")
  if bad ~= nil and type(bad) ~= "string" then
    msg = "unknown option (a " .. type(bad) .. " key)"
  elseif bad ~= nil then
    msg = "unknown option '" .. bad .. "' (options are tags, backfaces)"
  elseif bf ~= nil and bf ~= "collide" and bf ~= "ignore" then
    msg = 'options.backfaces must be "collide" or "ignore", got '
      .. (type(bf) == "string" and '"' .. bf .. '"' or check.tname(bf))
  end
  if msg then error(("bad argument #%d to '%s' (%s)"):format(argn, fname, msg), level + 1) end
  local resolve = tagResolver(options.tags, fname, argn, level + 2)   -- (no tail call: levels)
  return resolve
end

-- parseOBJ's and loadOBJ's parser, once their arguments are checked (resolve:
-- checkOptions' tag resolver, or nil).
local function parse(text, chunkname, resolve)
  local V, I, T = {}, {}, resolve and {} or nil
  local nv, ni, nt = 0, 0, 0           -- numbers stored in V, I, T
  local vcount = 0                     -- vertices so far (nv / 3, kept as integer)
  local material, group, object        -- current names (nil until set)
  local tag, tagDirty = 0, true        -- tag of new triangles; re-resolved lazily
  local line = 0

  local function fail(msg)
    error(chunkname .. ":" .. line .. ": " .. msg, 0)
  end

  local function currentTag()
    local t = resolve(material, group, object)
    -- (a 32-bit one, as newMesh takes tags: 2^31 passed here and failed
    -- there without a line; found by an independent tester)
    if type(t) ~= "number" or t ~= floor(t) or t - t ~= 0 or t < -2147483648 or t > 2147483647 then
      -- (a string named as one: "gave 3" for "3" read as the number it is
      -- not; found by an independent tester)
      local what = type(t) == "number" and check.num2str(t)
        or type(t) == "string" and string.format("string %q", t) or check.tname(t)
      fail("options.tags gave " .. what .. " for material "
        .. tostring(material) .. ", group " .. tostring(group) .. ", object " .. tostring(object)
        .. " (a 32-bit integer expected)")
    end
    tagDirty = false
    return t
  end

  -- A face vertex token (i, i/t, i//n, i/t/n; i < 0 counts back) -> vertex index.
  local function faceIndex(tok)
    local s, tail = match(tok, "^(-?%d+)(.*)$")
    if not s or (tail ~= "" and not find(tail, "^/%-?%d*/?%-?%d*$")) then
      fail("bad face vertex '" .. tok .. "'")
    end
    local i = tonumber(s)
    if i < 0 then i = vcount + 1 + i end
    if i < 1 or i > vcount then
      fail("face index " .. s .. " out of range (1.." .. vcount .. ")")
    end
    return i
  end

  -- A name's text (usemtl, g, o): up to a "#" after a blank (a comment; a
  -- "#" inside a name, Blender's "Material#1", is the name's), trailing
  -- blanks cut. (.*%S backtracks once from the end: linear, where a pattern
  -- ending in (.-)[ \t]*$ was quadratic in a run of blanks; found by an
  -- independent tester.)
  local function name(rest)
    if byte(rest) == 35 then return "" end            -- "usemtl # ...": no name
    local h = find(rest, "[ \t]#")
    if h then rest = sub(rest, 1, h) end
    return match(rest, "^.*%S") or ""
  end

  -- Any line the fast path did not take (s: the line without its "\n").
  local function general(s)
    local kw, p = match(s, "^[ \t]*(%S*)[ \t]*()")
    if kw == "" or byte(kw) == 35 then return end   -- blank line, "#" comment
    local rest = sub(s, p)
    if kw == "v" or kw == "f" or kw == "fo" then      -- no number holds a "#": it ends the line
      local h = find(rest, "#", 1, true)
      if h then rest = sub(rest, 1, h - 1) end
    end
    if kw == "v" then
      local n = 0
      for tok in gmatch(rest, "%S+") do
        n = n + 1
        if n > 3 then break end                      -- w (or colours): ignored
        local x = finite(tok)
        if not x then fail("bad number '" .. tok .. "' in vertex") end
        V[nv + n] = x
      end
      if n < 3 then fail("vertex with " .. n .. " coordinates (needs 3)") end
      nv, vcount = nv + 3, vcount + 1
    elseif kw == "f" or kw == "fo" then
      local first, prev, n = nil, nil, 0
      local toks = {}
      for tok in gmatch(rest, "%S+") do n = n + 1; toks[n] = tok end
      if n < 3 then fail("face with " .. n .. " vertices (needs at least 3)") end
      first, prev = faceIndex(toks[1]), faceIndex(toks[2])
      for k = 3, n do                                 -- the fan: 1, k-1, k
        local cur = faceIndex(toks[k])
        I[ni + 1], I[ni + 2], I[ni + 3] = first, prev, cur
        ni = ni + 3
        if T then
          if tagDirty then tag = currentTag() end
          nt = nt + 1; T[nt] = tag
        end
        prev = cur
      end
    elseif kw == "usemtl" then material, tagDirty = name(rest), true
    elseif kw == "g" then group, tagDirty = name(rest), true
    elseif kw == "o" then object, tagDirty = name(rest), true
    end                                               -- vt, vn, s, mtllib, l, ...: ignored
  end

  -- old Mac files end their lines with "\r" alone: read as 1 vertex and no
  -- face before (found by an independent tester)
  if find(text, "\r[^\n]") then text = gsub(text, "\r\n?", "\n") end
  local pos, len = 1, #text
  if sub(text, 1, 3) == "\239\187\191" then pos = 4 end   -- UTF-8 byte order mark
  if len > 0 and byte(text, len) ~= 10 then text = text .. "\n"; len = len + 1 end
  while pos <= len do
    line = line + 1
    local c, e, a, b, d = byte(text, pos), nil, nil, nil, nil
    if c == 118 then                                  -- "v"
      c, e, a, b, d = find(text, V_FAST, pos)
      if e and BINARY and (binary(a) or binary(b) or binary(d)) then e = nil end   -- (general() refuses it)
      if e then
        a, b, d = tonumber(a), tonumber(b), tonumber(d)
        if a and b and d and (a - a) + (b - b) + (d - d) == 0 then  -- all finite
          V[nv + 1], V[nv + 2], V[nv + 3] = a, b, d
          nv, vcount = nv + 3, vcount + 1
        else
          e = nil
        end
      end
    elseif c == 102 then                              -- "f"
      c, e, a, b, d = find(text, F_FAST, pos)
      if e then
        a, b, d = tonumber(a), tonumber(b), tonumber(d)
        if a > vcount or b > vcount or d > vcount or a < 1 or b < 1 or d < 1 then
          e = nil                                     -- let general() raise the error
        else
          I[ni + 1], I[ni + 2], I[ni + 3] = a, b, d
          ni = ni + 3
          if T then
            if tagDirty then tag = currentTag() end
            nt = nt + 1; T[nt] = tag
          end
        end
      end
    end
    if not e then
      e = find(text, "\n", pos, true)
      general(sub(text, pos, e - 1))
    end
    pos = e + 1
  end
  return V, I, T
end

--[[
Parses OBJ text. Returns vertices (flat x, y, z, ...), indices (flat, 1-based,
three per triangle: polygons are fanned a b c d -> a b c, a c d) and tags (one
integer per triangle, or nil when options.tags is not given). chunkname names the
text in errors ("model.obj:12: ..."), default "(obj)". options are newMesh's
(tags, backfaces), checked as it checks them.
]]
function obj.parse(text, chunkname, options)
  if type(text) ~= "string" then
    check.notModule(text, "parseOBJ")
    error("bad argument #1 to 'parseOBJ' (string expected, got " .. check.argType(text, 1) .. ")", 2)
  end
  if chunkname ~= nil and type(chunkname) ~= "string" then
    error("bad argument #2 to 'parseOBJ' (string expected, got " .. check.tname(chunkname) .. ")", 2)
  end
  if options ~= nil and check.tname(options) ~= "table" then
    error("bad argument #3 to 'parseOBJ' (table expected, got " .. check.tname(options) .. ")", 2)
  end
  local V, I, T = parse(text, chunkname or "(obj)", checkOptions(options, "parseOBJ", 3, 2))
  return V, I, T
end

-- Reads a whole file; errors name the path (level: the caller to blame).
function obj.read(path, level)
  local f, err = io.open(path, "rb")
  if not f then error("cannot open OBJ file: " .. tostring(err), level) end
  local text, rerr = f:read("*a")
  f:close()
  -- (the reason kept: a directory said only "cannot read"; found by an
  -- independent tester)
  if not text then error("cannot read OBJ file '" .. path .. "': " .. tostring(rerr), level) end
  return text
end

--[[
Loads an OBJ file as a mesh: newMesh(vertices, indices, options), with
options.tags (a function or a table, see obj.parse) turned into the per-triangle
tags; the other options (backfaces) go to newMesh as they are.
]]
function obj.load(newMesh, path, options)
  if type(path) ~= "string" then
    check.notModule(path, "loadOBJ", 2)
    error("bad argument #1 to 'loadOBJ' (string expected, got " .. check.argType(path, 1, 2) .. ")", 3)
  end
  if options ~= nil and check.tname(options) ~= "table" then
    error("bad argument #2 to 'loadOBJ' (table expected, got " .. check.tname(options) .. ")", 3)
  end
  -- OBJ text where the path goes (found by an independent tester: "cannot
  -- open OBJ file: v 0 0 0 ...: No such file or directory")
  if path:find("\n", 1, true) and path:find("^%s*[#vfgosu]") then
    error("bad argument #1 to 'loadOBJ' (a path expected, got OBJ text: for text, use "
      .. "cs.parseOBJ(text) and cs.newMesh(vertices, indices))", 3)
  end
  local resolve = checkOptions(options, "loadOBJ", 2, 3)  -- checked before reading
  local V, I, T = parse(obj.read(path, 4), path, resolve)
  local meshOptions = {}
  for k, v in pairs(options or {}) do meshOptions[k] = v end
  meshOptions.tags = T
  local ok, mesh = pcall(newMesh, V, I, meshOptions)
  if not ok then error(path .. ": " .. tostring(mesh), 3) end
  return mesh
end

return obj
