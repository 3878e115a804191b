-- walkers.lua: the standard "walkers" benchmark (../shared/bench/README.md) in
-- Lua through the module, the same workload as walkers.c, with the same
-- arithmetic in the same order, so that both end with the same checksum.
-- Runs on Lua 5.1-5.4 and LuaJIT.
--
-- usage: lua walkers.lua SCENE.obj [--runs N] [--frames F] [--movers M]
--                                  [--kind terrain|arena]
-- (from the repository root, with LUA_PATH/LUA_CPATH as the Makefile sets them)
-- CS_BACKEND=ffi (LuaJIT): the FFI binding, require "collideslide.ffi", instead.
-- The last line is machine-readable: "RESULT key=value ...".

local BACKEND = os.getenv("CS_BACKEND") == "ffi" and "ffi" or "c"
local cs = require(BACKEND == "ffi" and "collideslide.ffi" or "collideslide")
local obj = require "collideslide.obj"     -- cs.loadOBJ is obj.load: read, parse, newMesh

local WALK_SPEED, GRAVITY, SEGMENT_FRAMES, ARENA_HALF = 6.0, 9.81, 60, 64.0
local clock = os.clock          -- process CPU time (walkers.c reads the same clock)

-- {==== h = ((i * 73856093) XOR (k * 19349663)) AND 0xFFFFFFFF ===============
-- Lua 5.3+ has 64-bit integers and bit operators (compiled from a string, so
-- that 5.1 and LuaJIT can still parse this file); LuaJIT has `bit` (32-bit
-- signed results, reduced modulo 2^32 here), 5.2 has bit32; plain 5.1 XORs
-- bit by bit. Each product is below 2^53, so doubles hold it exactly.
local walk_hash
if math.type then
  walk_hash = assert(load(
    "return function(i, k) return ((i * 73856093) ~ (k * 19349663)) & 0xFFFFFFFF end"))()
elseif rawget(_G, "bit") or package.preload.bit or jit then
  local bxor = require("bit").bxor
  walk_hash = function(i, k) return bxor(i * 73856093, k * 19349663) % 4294967296 end
elseif rawget(_G, "bit32") then
  local bxor = bit32.bxor
  walk_hash = function(i, k) return bxor(i * 73856093 % 4294967296, k * 19349663 % 4294967296) end
else
  walk_hash = function(i, k)
    local a, b = i * 73856093 % 4294967296, k * 19349663 % 4294967296
    local h, p = 0, 1
    for _ = 1, 32 do
      local x, y = a % 2, b % 2
      if x ~= y then h = h + p end
      a, b, p = (a - x) / 2, (b - y) / 2, p * 2
    end
    return h
  end
end
-- }====

-- Walk displacement of mover i (0-based) in segment k: walkers.c's walk_dir.
local cos, sin, pi = math.cos, math.sin, math.pi
local function walk_dir(i, k, dt)
  local angle = walk_hash(i, k) / 4294967296.0 * (2.0 * pi)
  return WALK_SPEED * dt * cos(angle), WALK_SPEED * dt * sin(angle)
end

local function die(msg)
  io.stderr:write("walkers.lua: ", msg, "\n")
  os.exit(1)
end

-- Peak resident memory (VmHWM) in kB, as getrusage's ru_maxrss reports it.
local function peak_rss_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return -1 end
  local s = f:read("*a")
  f:close()
  return tonumber(s:match("VmHWM:%s*(%d+)")) or -1
end

-- {==== Arguments ==============================================================
local USAGE = "usage: walkers.lua SCENE.obj [--runs N] [--frames F] [--warmup W] [--movers M] "
  .. "[--kind terrain|arena] [--batch] [--threads K]"
local path, runs, frames, nmovers, kind = nil, 5, 600, 1024, nil
local batch, threads = false, 1   -- --batch: one collideAndSlideMany per frame (issue 15)
local warmup = 0                  -- --warmup W: frames 0..W-1 run untimed
do
  local i = 1
  while i <= #arg do
    local a = arg[i]
    if a == "--runs" then runs = tonumber(arg[i + 1]); i = i + 1
    elseif a == "--frames" then frames = tonumber(arg[i + 1]); i = i + 1
    elseif a == "--movers" then nmovers = tonumber(arg[i + 1]); i = i + 1
    elseif a == "--kind" then kind = arg[i + 1]; i = i + 1
    elseif a == "--batch" then batch = true
    elseif a == "--warmup" then warmup = tonumber(arg[i + 1]); i = i + 1
    elseif a == "--threads" then threads = tonumber(arg[i + 1]); batch = true; i = i + 1
    elseif a:sub(1, 1) ~= "-" and not path then path = a
    else die(USAGE)
    end
    i = i + 1
  end
  if not path or not runs or runs < 1 or not frames or not nmovers or nmovers < 1
    or nmovers > 1024 then
    die(USAGE)
  end
end
local base = path:match("([^/]*)$")
kind = kind or (base:sub(1, 5) == "arena" and "arena" or "terrain")
-- }====

-- Load (read + parse) and build, timed apart: the two halves of cs.loadOBJ.
local t0 = clock()
local V, I = obj.parse(obj.read(path), path)
local t_parse = clock() - t0
t0 = clock()
local mesh = cs.newMesh(V, I)
local t_build = clock() - t0
V, I = nil, nil
collectgarbage()
local world = cs.newWorld()
world:add(mesh)
local minx, miny, minz, maxx, maxy, maxz = mesh:bounds()

-- The mesh's own surface height under (x, z): a ray straight down from
-- above the whole mesh. Returns nil when it misses.
local top, len = maxy + 10.0, maxy - miny + 20.0
local function surface_height(x, z)
  local t, px, py = world:raycast(x, top, z, 0, -len, 0)
  if t then return py end
  return nil
end

local spawn, movers, vy, wx, wz = {}, {}, {}, {}, {}
for i = 0, nmovers - 1 do
  local x, y, z
  if kind == "arena" then
    x, z, y = -54.0 + 3.5 * (i % 32), -54.0 + 3.5 * math.floor(i / 32), 7.0
  else
    x, z = -186.0 + 12.0 * (i % 32), -186.0 + 12.0 * math.floor(i / 32)
    local s = surface_height(x, z)
    if not s then die("no surface under a spawn point") end
    y = s + 1.5
  end
  spawn[i + 1] = {x, y, z}
  movers[i + 1] = cs.newMover{radius = {0.4, 0.9, 0.4}, position = {x, y, z}}
end

-- Each mover's walk displacement for the segment that starts at frame f.
local function new_segment(f, dt)
  local k = math.floor(f / SEGMENT_FRAMES)
  for i = 1, nmovers do wx[i], wz[i] = walk_dir(i - 1, k, dt) end
end

-- The frames: every mover, one collideAndSlide each, written as a game would.
local function run_frames(f0, f1, dt)
  local n = nmovers
  for f = f0, f1 - 1 do
    if f % SEGMENT_FRAMES == 0 then new_segment(f, dt) end
    for i = 1, n do
      local m = movers[i]
      local v = vy[i] - GRAVITY * dt
      local _, _, _, onGround = world:collideAndSlide(m, wx[i], 0, wz[i], 0, v * dt, 0)
      if onGround then v = 0.0 end
      vy[i] = v
    end
  end
end

-- The same frames through one collideAndSlideMany per frame, written as a
-- game keeps a crowd's moves: one list, in which a frame changes only what
-- changed (each mover's vertical move; the walks when a segment starts),
-- then each one's vertical speed from its ground (the call's grounded
-- list, no method call per mover). The numbers are walkers.c's, in the
-- same order, so the checksum is the loop's.
local moves, out, grounded = {}, {}, {}
local crowd_moves = dofile(((arg and arg[0] or ""):match("^(.*[/\\])") or "") .. "crowd_moves.lua")
local write_walks, write_falls = crowd_moves.write_walks, crowd_moves.write_falls
local function run_frames_batch(f0, f1, dt)
  local n, gdt = nmovers, GRAVITY * dt
  for f = f0, f1 - 1 do
    if f % SEGMENT_FRAMES == 0 or f == f0 then
      new_segment(f, dt)
      write_walks(moves, n, wx, wz)
    end
    write_falls(moves, n, vy, gdt, dt)
    world:collideAndSlideMany(movers, moves, out, grounded)
    for i = 1, n do
      if grounded[i] then vy[i] = 0.0 end
    end
  end
end
if batch then
  world:setThreads(threads)
  run_frames = run_frames_batch
  -- the wall clock, as bench/crowd.c reads it (with threads, CPU time adds
  -- theirs up), from date(1): a run lasts seconds, a reading a millisecond
  clock = function()
    local p = io.popen("date +%s.%N")
    local t = tonumber(p:read("*l"))
    p:close()
    return t
  end
end

-- Movers inside or below the geometry (README; walkers.c's fell_through).
local function fell_through()
  local fell = 0
  for i = 1, nmovers do
    local x, y, z = movers[i]:getPosition()
    if kind == "arena" then
      if y < 0 or math.abs(x) > ARENA_HALF or math.abs(z) > ARENA_HALF then fell = fell + 1 end
    else
      local s = surface_height(x, z)
      if not s or y < s then fell = fell + 1 end
    end
  end
  return fell
end

local rates, fell, dt = {}, 0, 1.0 / 60.0
for run = 1, runs do
  for i = 1, nmovers do
    local p = spawn[i]
    movers[i]:setPosition(p[1], p[2], p[3])
    vy[i] = 0.0
  end
  run_frames(0, warmup, dt)
  collectgarbage()
  local c0 = clock()
  run_frames(warmup, frames, dt)
  rates[run] = nmovers * (frames - warmup) / (clock() - c0)
  fell = fell_through()
  if fell ~= 0 then io.stderr:write(("walkers.lua: run %d: %d movers fell through\n"):format(run, fell)) end
end
local sum = 0
for i = 1, nmovers do
  local x, y, z = movers[i]:getPosition()
  sum = sum + (x + y + z)
end
table.sort(rates)
local median = rates[math.floor(runs / 2) + 1]
local ntri = mesh:triangleCount()
local version = (jit and jit.version) or _VERSION

print(("scene %s: %d triangles (%s, %s binding)"):format(base, ntri, version, BACKEND))
print(("  load (read+parse) %.3f s, build %.3f s, mesh %.1f bytes/triangle, peak RSS %.1f MB")
  :format(t_parse, t_build, mesh:memory() / ntri, peak_rss_kb() / 1024))
print(("  walkers %d x %d frames, %d runs: %.0f mover-steps/s (median; min %.0f, max %.0f)")
  :format(nmovers, frames, runs, median, rates[1], rates[runs]))
print(("  fell through: %d; checksum %.17g"):format(fell, sum))
print(("RESULT impl=%s scene=%s triangles=%d movers=%d frames=%d runs=%d steps_per_s=%.0f "
  .. "min=%.0f max=%.0f load_s=%.4f build_s=%.4f mesh_bytes=%d bytes_per_tri=%.2f "
  .. "peak_rss_kb=%d fell=%d checksum=%.17g backend=%s batch=%d threads=%d")
  :format(version:gsub(" ", ""):lower(), base, ntri, nmovers, frames, runs, median, rates[1],
    rates[runs], t_parse, t_build, mesh:memory(), mesh:memory() / ntri, peak_rss_kb(), fell, sum, BACKEND,
    batch and 1 or 0, threads))
os.exit(fell == 0 and 0 or 3)
