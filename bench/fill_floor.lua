-- bench/fill_floor.lua: the floor under the Lua batch (issue 15). The fill
-- of the moves list that bench/walkers.lua --batch makes every frame (the
-- functions of bench/crowd_moves.lua, the same code), alone, on 1024
-- walkers, with no call into collideslide: what any Lua 5.4 script pays to
-- hand a crowd's moves over, before the binding reads them.
--
--   valgrind --tool=callgrind --callgrind-out-file=/dev/null lua5.4 bench/fill_floor.lua 100
--   valgrind --tool=callgrind --callgrind-out-file=/dev/null lua5.4 bench/fill_floor.lua 200
--
-- (the difference of the two totals over 100 x 1024 is the loop's instructions
-- per mover; without valgrind it prints its time per mover.)
local frames = tonumber(arg and arg[1]) or 2000
local n, GRAVITY, dt, SEGMENT_FRAMES = 1024, 9.81, 1.0 / 60.0, 60
local vy, wx, wz, moves = {}, {}, {}, {}
for i = 1, n do vy[i], wx[i], wz[i] = 0.0, 0.01 * i, -0.02 * i end
local crowd_moves = dofile(((arg and arg[0] or ""):match("^(.*[/\\])") or "") .. "crowd_moves.lua")
local write_walks, write_falls = crowd_moves.write_walks, crowd_moves.write_falls
local t0 = os.clock()
local gdt = GRAVITY * dt
for f = 0, frames - 1 do               -- as run_frames_batch fills it
  if f % SEGMENT_FRAMES == 0 then write_walks(moves, n, wx, wz) end
  write_falls(moves, n, vy, gdt, dt)
end
local t = os.clock() - t0
print(("fill_floor: %d frames x %d movers, %.1f ns per mover (%s)"):format(frames, n,
  t / (frames * n) * 1e9, _VERSION))
