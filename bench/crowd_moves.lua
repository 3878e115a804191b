-- crowd_moves.lua: how bench/walkers.lua --batch keeps a crowd's moves list
-- for world:collideAndSlideMany, as a game would: one list of 6 numbers a
-- mover (walk x, y, z, gravity x, y, z), in which a frame changes only what
-- changed. bench/fill_floor.lua times the same two functions alone, with no
-- call into collideslide. Loaded by path (dofile), beside those scripts.
local M = {}

-- The walks of movers 1..n (wx, wz), when a segment starts: every number
-- but the vertical move.
function M.write_walks(moves, n, wx, wz)
  for i = 1, n do
    local j = 6 * i
    moves[j - 5], moves[j - 4], moves[j - 3], moves[j - 2], moves[j] = wx[i], 0, wz[i], 0, 0
  end
end

-- A frame's gravity: each mover's vertical speed vy[i] lowered by gdt (g
-- dt), and its vertical move, that speed times dt (walkers.c's arithmetic,
-- in its order).
function M.write_falls(moves, n, vy, gdt, dt)
  for i = 1, n do
    local v = vy[i] - gdt
    vy[i] = v
    moves[6 * i - 1] = v * dt
  end
end

return M
