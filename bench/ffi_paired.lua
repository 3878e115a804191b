-- ffi_paired.lua: the walkers workload (bench/walkers.lua: 1024 movers, 600 frames of
-- 1/60 s; terrain scenes only, whose spawn grid it uses) with the C module and with
-- the LuaJIT FFI binding in one LuaJIT process, in alternating blocks of frames, so
-- that both see the same machine load
-- (the machine is shared: separate processes measured minutes apart differ by 20%).
-- Each round restarts both from the spawn positions and prints both rates, their
-- ratio and whether both ended in the same state (bit for bit).
--
-- usage (from the repository root, after make LUA=luajit and make ffi-lib):
--   LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="./build/luajit/?.so;;" \
--     luajit bench/ffi_paired.lua bench/scenes/terrain_708.obj [ROUNDS [BLOCK]]
-- COLLIDESLIDE_FFI_ABI=0 measures the FFI binding without its System V x64 views.
local C = require "collideslide"
local F = require "collideslide.ffi"
local obj = require "collideslide.obj"
local path, rounds, block = arg[1], tonumber(arg[2] or 3), tonumber(arg[3] or 60)
assert(path and rounds and block and 600 % block == 0,
  "usage: luajit bench/ffi_paired.lua SCENE.obj [ROUNDS [BLOCK (divides 600)]]")
local V, I = obj.parse(obj.read(path), path)
local bxor = require("bit").bxor
local function walk_hash(i, k) return bxor(i * 73856093, k * 19349663) % 4294967296 end
local cos, sin, pi = math.cos, math.sin, math.pi
local function setup(cs)
  local mesh = cs.newMesh(V, I)
  local world = cs.newWorld(); world:add(mesh)
  local _, miny, _, _, maxy = mesh:bounds()
  local top, len = maxy + 10, maxy - miny + 20
  local s = { world = world, mesh = mesh, movers = {}, spawn = {}, vy = {}, wx = {}, wz = {} }
  for i = 0, 1023 do
    local x, z = -186.0 + 12.0 * (i % 32), -186.0 + 12.0 * math.floor(i / 32)
    local t, _, py = world:raycast(x, top, z, 0, -len, 0)
    s.spawn[i + 1] = { x, py + 1.5, z }
    s.movers[i + 1] = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = s.spawn[i + 1] }
  end
  return s
end
local function reset(s)
  for i = 1, 1024 do local p = s.spawn[i]; s.movers[i]:setPosition(p[1], p[2], p[3]); s.vy[i] = 0 end
end
local function frames(s, f0, f1, dt)
  local world, movers, vy, wx, wz = s.world, s.movers, s.vy, s.wx, s.wz
  for f = f0, f1 - 1 do
    if f % 60 == 0 then
      local k = math.floor(f / 60)
      for i = 1, 1024 do
        local a = walk_hash(i - 1, k) / 4294967296.0 * (2.0 * pi)
        wx[i], wz[i] = 6.0 * dt * cos(a), 6.0 * dt * sin(a)
      end
    end
    for i = 1, 1024 do
      local m = movers[i]
      local v = vy[i] - 9.81 * dt
      world:collideAndSlide(m, wx[i], 0, wz[i], 0, v * dt, 0)
      if m:isOnGround() then v = 0.0 end
      vy[i] = v
    end
  end
end
local sc, sf = setup(C), setup(F)
V, I = nil, nil
collectgarbage()
local dt = 1 / 60
for r = 1, rounds do
  reset(sc); reset(sf)
  local tc, tf = 0, 0
  for f0 = 0, 599, block do
    local c0 = os.clock(); frames(sc, f0, f0 + block, dt); tc = tc + os.clock() - c0
    c0 = os.clock(); frames(sf, f0, f0 + block, dt); tf = tf + os.clock() - c0
  end
  local sumc, sumf = 0, 0
  for i = 1, 1024 do
    local x, y, z = sc.movers[i]:getPosition(); sumc = sumc + x + y + z
    x, y, z = sf.movers[i]:getPosition(); sumf = sumf + x + y + z
  end
  print(("round %d: C module %.0f steps/s, FFI %.0f steps/s, FFI/C %.3f, same end state: %s")
    :format(r, 1024 * 600 / tc, 1024 * 600 / tf, tc / tf, tostring(sumc == sumf)))
end
