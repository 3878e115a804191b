-- bench/binding_cost.lua: bench/binding_cost.c's crowd from Lua (issue 15):
-- 1024 movers in a world with no body, one world:collideAndSlideMany per
-- frame (out and grounded kept), then a loop of world:collideAndSlide. The
-- difference with the C figures is the binding's own cost per mover.
--
-- usage: lua bench/binding_cost.lua [FRAMES]   (os.clock, ns per mover)
local BACKEND = os.getenv("CS_BACKEND") == "ffi" and "ffi" or "c"
local cs = require(BACKEND == "ffi" and "collideslide.ffi" or "collideslide")
local n, frames = 1024, tonumber(arg and arg[1]) or 2000
local world = cs.newWorld()
local movers, moves, out, grounded = {}, {}, {}, {}
for i = 1, n do
  movers[i] = cs.newMover { radius = { 0.4, 0.9, 0.4 }, position = { 3 * i, 0, 0 } }
  local k = 6 * (i - 1)
  moves[k + 1], moves[k + 2], moves[k + 3], moves[k + 4], moves[k + 5], moves[k + 6] = 0.1, 0, 0, 0, -0.001, 0
end
for _ = 1, math.floor(frames / 10) + 1 do world:collideAndSlideMany(movers, moves, out, grounded) end   -- warm
local t0 = os.clock()
for _ = 1, frames do world:collideAndSlideMany(movers, moves, out, grounded) end
local batch = (os.clock() - t0) / (frames * n) * 1e9
t0 = os.clock()
for _ = 1, frames do
  for i = 1, n do world:collideAndSlide(movers[i], 0.1, 0, 0, 0, -0.001, 0) end
end
local loop = (os.clock() - t0) / (frames * n) * 1e9
print(("binding_cost, %s (%s binding): %d movers, no geometry: batch %.1f ns per mover, loop %.1f ns per mover")
  :format((jit and jit.version) or _VERSION, BACKEND, n, batch, loop))
