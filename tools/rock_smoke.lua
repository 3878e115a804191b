-- tools/rock_smoke.lua TREE [ffi]: run by `make rock-test` from an empty directory
-- with only TREE's paths (luarocks path): requires the installed rock, checks
-- it came from TREE, and makes one collideAndSlide onto a floor. With `ffi`
-- (under LuaJIT, on the Lua 5.1 tree): requires collideslide.ffi instead, which
-- must bind the rock's collideslide/core.so (no libcollideslide is installed).
local tree = assert(arg[1], "usage: rock_smoke.lua TREE [ffi]")
local ffiMode = arg[2] == "ffi"

-- The file `require` would load for `name` (package.searchpath is 5.2+).
local function find(name, path)
  local file = name:gsub("%.", "/")
  for template in path:gmatch("[^;]+") do
    local f = template:gsub("%?", file)
    local h = io.open(f)
    if h then h:close(); return f end
  end
end

local cs = require(ffiMode and "collideslide.ffi" or "collideslide")
for name, path in pairs{ [ffiMode and "collideslide.ffi" or "collideslide"] = package.path,
                         ["collideslide.core"] = package.cpath } do
  local f = find(name, path)
  assert(f and f:sub(1, #tree) == tree, name .. " was found outside " .. tree .. ": " .. tostring(f))
end
if ffiMode then
  assert(package.loaded["collideslide.core"] == nil, "the FFI binding must not load the C module as a module")
  local maps = io.open("/proc/self/maps")       -- which core the FFI bound (Linux)
  if maps then
    local text = maps:read("*a")
    maps:close()
    local core = find("collideslide.core", package.cpath)
    assert(text:find(core, 1, true), "the FFI binding did not load " .. core)
    assert(not text:find("libcollideslide", 1, true), "the FFI binding loaded a libcollideslide")
  end
end

-- A 20 x 20 floor at y = 0 facing up; the mover walks 1 along x and falls 5.
local mesh = cs.newMesh({ -10, 0, -10,  -10, 0, 10,  10, 0, 10,  10, 0, -10 }, { 1, 2, 3,  1, 3, 4 })
local world = cs.newWorld()
world:add(mesh)
local mover = cs.newMover{ radius = { 0.5, 1, 0.5 }, position = { 0, 2, 0 } }
local x, y, z = world:collideAndSlide(mover, 1, 0, 0, 0, -5, 0)
assert(math.abs(x - 1) < 1e-6 and math.abs(z) < 1e-6 and y >= 1 - 1e-9 and y <= 1.01,
       ("unexpected end position %.9g %.9g %.9g"):format(x, y, z))
print(("rock ok on %s%s: %s -> (%.4f, %.4f, %.4f)"):format(
  type(jit) == "table" and jit.version or _VERSION, ffiMode and " (collideslide.ffi)" or "",
  find("collideslide.core", package.cpath), x, y, z))
