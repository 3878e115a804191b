-- examples/love/scripts.lua: scripted input for the headless test and the README
-- screenshot (`love examples/love --script NAME`). Each script is a fixed
-- sequence run at a fixed dt of 1/60 s, so that a run is the same every time:
--   scenario  the scenario it runs in (scenarios.lua)
--   start     where the character is dropped on the benchmark arena (on another
--             level: the scenario's start)
--   frames    how many frames it runs by default (--frames overrides)
--   view      the camera: top view scale (px/m), side view axis and scale, and
--             whole = true: the whole level from above (as M does)
--   steps     { frames, input [, set = {slider = value}] }: input is held for
--             that many frames; set moves sliders (as a user would) at the first
--             of them

local scripts = {}

-- Up the first staircase of the arena at a run, a jump off its top (with the
-- jump speed raised from 5 to 6.5 m/s on the way, as a user would with the
-- slider), the landing, then a walk to the side.
scripts.walk = {
  scenario = "stairs",
  start = { -38, 1.5, -43 },
  frames = 200,
  view = { top = 14, side = "z", sideScale = 26 },
  steps = {
    { 15, {} },                                           -- land
    { 71, { z = 1, run = true } },                        -- run up the 16 steps
    { 1, { z = 1, run = true, jump = true }, set = { jumpSpeed = 6.5 } },  -- jump off the top
    { 60, { z = 1, run = true } },
    { 200, { x = 0.7, z = 0.7 } },                        -- and walk on
  },
}

-- The 50 degree ramp of the arena: the character walks into it and is stopped
-- (steeper than the slope limit of 45 degrees); the slope limit is raised to 55
-- and it climbs at once.
scripts.slope = {
  scenario = "ramps",
  start = { 19, 1.5, -42.5 },
  frames = 170,
  view = { top = 20, side = "z", sideScale = 30 },
  steps = {
    { 15, {} },
    { 75, { z = 1 } },
    { 240, { z = 1 }, set = { slopeLimit = 55 } },
  },
}

-- The run `make playground-test` records and replays (--replay-compare): the
-- walk without its slider change, so that the recording holds input only. Up
-- the stairs at a run (through the "top step" sensor zone), a jump off the top
-- (into the "landing" zone), then a walk to the side, turning in the air.
scripts.stairs = {
  scenario = "stairs",
  start = { -38, 1.5, -43 },
  frames = 200,
  view = { top = 14, side = "z", sideScale = 26 },
  steps = {
    { 15, {} },                                           -- land
    { 71, { z = 1, run = true } },                        -- run up the 16 steps
    { 1, { z = 1, run = true, jump = true } },            -- jump off the top
    { 30, { z = 1, run = true } },
    { 200, { x = 0.7, z = 0.7 } },                        -- steer to the side, walk on
  },
}

-- The platform scenario: onto the lift, a ride up (the lift waits 2 s below,
-- rises for 2 s), then off onto the ledge and into its sensor zone.
scripts.lift = {
  scenario = "platform",
  frames = 330,
  view = { top = 20, side = "x", sideScale = 30 },
  steps = {
    { 15, {} },
    { 75, { x = 1 } },                                    -- onto the lift
    { 160, {} },                                          -- ride up
    { 200, { x = 1 } },                                   -- onto the ledge
  },
}

-- The crowd scenario, the whole level seen from above (M): into the pillar
-- hall among the NPCs, through its sensor zone; the side view follows.
scripts.crowd = {
  scenario = "crowd",
  frames = 240,
  view = { top = 12, side = "x", sideScale = 26, whole = true },
  steps = {
    { 15, {} },
    { 120, { z = 1 } },                                   -- into the hall
    { 200, { x = -1, z = 0.3 } },                         -- across it
  },
}

-- The input (and the slider changes) for frame f (1-based) of a script.
function scripts.at(script, f)
  local n = 0
  for _, step in ipairs(script.steps) do
    if f <= n + step[1] then return step[2], f == n + 1 and step.set or nil end
    n = n + step[1]
  end
  return {}, nil
end

return scripts
