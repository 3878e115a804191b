-- spec/docs_spec.lua: docs/API.md against the module, both ways. Every name that
-- docs/API.md documents (a heading or a table row that starts with a code name:
-- "### `world:collideAndSlide(...)`", "| `mover.skin` | ... |") must exist on the
-- real objects, and every function, method and field the module exports must be
-- documented there: adding a function without documenting it fails here.
--
-- Prefixes: cs (the module table), mesh, world, body, mover (the C module's
-- objects), character, builder (the Lua layer's), svg, doc, view (the SVG
-- helper). "a:b" documents a method, "a.b" a field (or a module function).
-- What cannot be listed at run time is read from the sources: the mover's
-- fields (mover_fields in csrc/cs_lua_mover.c), newMover's keys, and the character's
-- settings that default to nil (CHECKS in lua/collideslide/character.lua).

local cs = require "collideslide"
local svg = require "collideslide.svg"

local DOC = "docs/API.md"

local function read(path)
  local f = assert(io.open(path, "rb"), "cannot open " .. path .. " (run the specs from the repository root)")
  local s = f:read("*a")
  f:close()
  return s
end

-- {======================================================================
-- What docs/API.md documents
-- =======================================================================

local NAME = "`([%a_][%w_]*)([%.:])([%a_][%w_]*)"

-- { ["mesh:bounds"] = line, ... } and the same split by prefix and separator.
local function documented(text)
  local names, list = {}, {}
  local n = 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    local scope
    if line:match("^#+%s+`") then
      scope = line
    elseif line:match("^|%s*`") then
      scope = line:match("^|([^|]*)|")               -- the first cell only
    end
    if scope then
      for prefix, sep, name in scope:gmatch(NAME) do
        local key = prefix .. sep .. name
        if not names[key] then
          names[key] = n
          list[#list + 1] = { key = key, prefix = prefix, sep = sep, name = name, line = n }
        end
      end
    end
  end
  return names, list
end

local docText = read(DOC)
local docNames, docList = documented(docText)

-- }======================================================================

-- {======================================================================
-- What the module exports
-- =======================================================================

local mesh = cs.newMesh(cs.box(0, 0, 0, 1, 1, 1))
local world = cs.newWorld()
local body = world:add(mesh)
local mover = cs.newMover()
local sensor = world:addSensor(mesh)
local character = cs.newCharacter()
local builder = cs.newBuilder()
local doc = svg.new(10, 10)
local view = svg.view(0, 0, 10, 10, 0, 0, 1, 1)

local OBJECTS = {
  cs = cs, mesh = mesh, world = world, body = body, mover = mover, sensor = sensor,
  character = character, builder = builder, svg = svg, doc = doc, view = view,
  draw = cs.draw,
}

local function public(name) return type(name) == "string" and name:sub(1, 1) ~= "_" end

-- the Lua binding's sources, one text (csrc/cs_lua*.c, split by object)
local csrc = table.concat({ read("csrc/cs_lua.c"), read("csrc/cs_lua_mesh.c"), read("csrc/cs_lua_world.c"),
  read("csrc/cs_lua_mover.c"), read("csrc/cs_lua_query.c") }, "\n")
local charSrc = read("lua/collideslide/character.lua")

-- The methods of a C type as its luaL_Reg table in csrc/cs_lua.c lists them
-- ({"name", fn} pairs), each checked to be there at run time.
local function cMethods(obj, cname)
  local block = csrc:match("const luaL_Reg " .. cname .. "_methods%[%]%s*=%s*(%b{})")
  assert(block, "spec/docs_spec.lua: cannot find " .. cname .. "_methods in csrc/cs_lua*.c")
  local t = {}
  for name in block:gmatch('{%s*"([%a_][%w_]*)"%s*,') do
    assert(type(obj[name]) == "function", cname .. "_methods lists " .. name
      .. ", which the module does not have")
    t[name] = obj[name]
  end
  return t
end

-- The methods table of an object: its metatable's __index, or the table a C
-- __index function closes over (types with fields: Body, Mover); Lua 5.1 cannot
-- read a C function's upvalues, so there the source's luaL_Reg table is read.
local function methodsOf(obj, cname)
  local mt = getmetatable(obj)
  local idx = mt and mt.__index
  if type(idx) == "table" then return idx end
  if type(idx) == "function" then
    local _, t = debug.getupvalue(idx, 1)
    if type(t) == "table" then return t end
    if cname then return cMethods(obj, cname) end
  end
  error("cannot find the methods of " .. tostring(obj))
end

-- The names of a Lua array of string literals in C source: name[...] = { "a", "b", NULL }.
local function cStrings(src, pattern)
  local block = src:match(pattern)
  assert(block, "spec/docs_spec.lua: cannot find " .. pattern .. " in csrc/cs_lua*.c")
  local out = {}
  for s in block:gmatch('"([%a_][%w_]*)"') do out[#out + 1] = s end
  return out
end

-- The character's settings: the keys of CHECKS (its top level, two spaces in).
local function characterSettings()
  local block = charSrc:match("\nlocal CHECKS = {\n(.-)\n}\n")
  assert(block, "spec/docs_spec.lua: cannot find 'local CHECKS = {' in character.lua")
  local out = {}
  for line in (block .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^  [%a_]") then
      for name in line:gmatch("([%a_][%w_]*)%s*=[^=]") do out[#out + 1] = name end
    end
  end
  return out
end

-- Every name the module exports, as "prefix.name" or "prefix:name".
local function exported()
  local out = {}
  local function add(key) out[#out + 1] = key end
  for k in pairs(cs) do add("cs." .. k) end
  for k in pairs(cs.core) do add("cs." .. k) end
  for _, p in ipairs { "mesh", "world", "body", "mover", "sensor" } do
    for k in pairs(methodsOf(OBJECTS[p], p)) do
      if not k:match("^__") then add(p .. ":" .. k) end
    end
  end
  -- Body fields: its __newindex names them in the message for an unknown one
  local ok, msg = pcall(function() body.__docs_spec_probe = 1 end)
  assert(not ok, "a Body accepted an unknown field")
  local fields = tostring(msg):match("%(fields: ([^)]*)%)")
  assert(fields, "spec/docs_spec.lua: the Body's error for an unknown field no longer "
    .. "lists its fields: " .. tostring(msg))
  for f in fields:gmatch("[%a_][%w_]*") do add("body." .. f) end
  ok, msg = pcall(function() sensor.__docs_spec_probe = 1 end)
  assert(not ok, "a Sensor accepted an unknown field")
  fields = tostring(msg):match("%(fields: ([^)]*)%)")
  assert(fields, "spec/docs_spec.lua: the Sensor's error for an unknown field no longer "
    .. "lists its fields: " .. tostring(msg))
  for f in fields:gmatch("[%a_][%w_]*") do add("sensor." .. f) end
  for _, f in ipairs(cStrings(csrc, "mover_fields%[[^%]]*%]%s*=%s*(%b{})")) do add("mover." .. f) end
  for k, v in pairs(methodsOf(character)) do
    if public(k) and type(v) == "function" then add("character:" .. k) end
  end
  for k in pairs(character) do if public(k) then add("character." .. k) end end
  for _, k in ipairs(characterSettings()) do add("character." .. k) end
  for k in pairs(methodsOf(builder)) do if not k:match("^__") then add("builder:" .. k) end end
  for k in pairs(builder) do add("builder." .. k) end
  for k in pairs(svg) do add("svg." .. k) end
  for k in pairs(cs.draw) do add("draw." .. k) end
  for k in pairs(methodsOf(doc)) do if not k:match("^__") then add("doc:" .. k) end end
  for k in pairs(doc) do add("doc." .. k) end
  for k in pairs(view) do add("view." .. k) end
  table.sort(out)
  return out
end

-- }======================================================================

-- Does the documented name exist? Returns true, or false and why not.
local function exists(d)
  local obj = OBJECTS[d.prefix]
  if obj == nil then
    return false, "unknown prefix '" .. d.prefix .. "' (known: cs, mesh, world, body, "
      .. "mover, sensor, character, builder, svg, doc, view, draw)"
  end
  local p, name = d.prefix, d.name
  if d.sep == ":" then
    if type(obj[name]) ~= "function" then return false, "no such method" end
    return true
  end
  if p == "cs" or p == "svg" or p == "draw" then
    if obj[name] == nil then return false, "no such field in the module table" end
  elseif p == "body" or p == "mover" or p == "sensor" then
    -- a field of the C objects: writing back what it holds is accepted
    local ok, err = pcall(function() obj[name] = obj[name] end)
    if not ok then return false, tostring(err) end
  elseif p == "character" then
    if rawget(obj, name) == nil then        -- a setting that defaults to nil?
      local ok, err = pcall(cs.newCharacter, { [name] = {} })
      if not ok and tostring(err):find("unknown field", 1, true) then
        return false, "neither a field of a new character nor a setting newCharacter knows"
      end
    end
  elseif p == "mesh" or p == "world" then
    return false, "Mesh and World have methods only"
  elseif rawget(obj, name) == nil then
    return false, "no such field"
  end
  return true
end

describe("docs/API.md", function()
  it("documents names (headings and table rows that start with `prefix.name`)", function()
    assert.is_true(#docList > 100, "only " .. #docList .. " documented names found in " .. DOC)
  end)

  it("documents only names that exist", function()
    local bad = {}
    for _, d in ipairs(docList) do
      local ok, why = exists(d)
      if not ok then bad[#bad + 1] = string.format("%s:%d: %s: %s", DOC, d.line, d.key, why) end
    end
    assert.are.equal("", table.concat(bad, "\n"))
  end)

  it("documents every exported function, method and field", function()
    local missing, seen = {}, {}
    for _, key in ipairs(exported()) do
      if not docNames[key] and not seen[key] then
        seen[key] = true
        missing[#missing + 1] = key
      end
    end
    assert.are.equal("", table.concat(missing, ", "),
      "exported but not documented in " .. DOC .. " (add a heading '#### `name(...)`' or a table row)")
  end)

  it("documents newMover's keys under cs.newMover", function()
    local section = docText:match("\n### `cs%.newMover.-\n## ")
    assert.is_truthy(section, "no '### `cs.newMover' section in " .. DOC)
    local body = csrc:match("int cs_newMover%(lua_State %*L%) (%b{})")
    assert.is_truthy(body, "cannot find cs_newMover in csrc/cs_lua_mover.c")
    local missing = {}
    for key in body:gmatch('strcmp%(k, "([%a_][%w_]*)"%)') do
      if not section:find("`" .. key .. "`", 1, true) then missing[#missing + 1] = key end
    end
    assert.are.equal("", table.concat(missing, ", "), "newMover keys not documented")
  end)

  it("finds the exported names it checks (the probes still work)", function()
    local all = {}
    for _, key in ipairs(exported()) do all[key] = true end
    for _, key in ipairs { "cs.newMesh", "cs.loadOBJ", "world:collideAndSlide", "body.layers",
      "body:setTransform", "mover.skin", "mover:getContact", "character:update",
      "character.walkSpeed", "character.filter", "builder:quad", "doc:save" } do
      assert.is_true(all[key], key .. " is not among the exported names the spec found")
    end
  end)
end)
