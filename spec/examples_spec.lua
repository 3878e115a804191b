-- spec/examples_spec.lua: every example in examples/ (but the LÖVE playground,
-- see `make playground-test`) runs as a user runs it, `<lua> examples/NAME.lua`
-- from the repository root with the interpreter these specs run on, exits with
-- status 0 and prints what it says it does.

local H = require "helper"

-- The interpreter: $LUA when set, else the one the specs run on (lua5.1 ..
-- lua5.4, luajit: also the name of its command on Debian).
local LUA = os.getenv("LUA") or H.LUA

-- Runs a command; returns its output (stdout and stderr) and its exit status.
local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1; echo \"__exit__=$?\""))
  local out = p:read("*a")
  p:close()
  local status = tonumber(out:match("__exit__=(%d+)%s*$"))
  return out:gsub("__exit__=%d+%s*$", ""), status
end

-- example -> patterns (Lua patterns, plain when `plain` is set) its output must contain
local EXAMPLES = {
  walk = {
    "level: %d+ triangles",
    "landed on the floor at y = 0%.9",
    "climbed the stairs to y = 2%.5",
    "slid along the wall x = 10",
    "wrote .*walk%.svg",
  },
  game_loop = {
    "start: dropped from 2%.0 m",
    "on the ground %(ground%), after air",
    "up the stairs: 6 steps of 0%.2 m",
    "jumped %(5%.5 m/s up%)",
    "stopped by the wall",
    "%d+ frames drawn, %d+ fixed steps of 0%.0083 s %(120 per second%)",
    "final position %(13%.10, 0%.90, 0%.00%), ground",
  },
  load_obj = {
    "small level: 8 triangles, 12 vertices, 0 degenerate",
    "raycast down at %(1%.50, 0%.00%): hit y = 1%.000, triangle 7 %(tag 3%)",
    "triangles 1%-2 have tag 1, 3%-4 tag 2, 5%-8 tag 3",
    "a mover resting on it stands on tag 1 %(ground%)",
    "friction 0: x moved 0%.300",
    "a broken file: broken%.obj:3: face index 3 out of range",
    "arena[%w_.-]*: 78000 triangles, 49233 vertices, 0 degenerate",
  },
  platform_door = {
    "t = 1 s  platform at %(%-5%.00, 0%.50%).-feet 0%.004 m above its top, on platform",
    "t = 4 s  platform at %(%-2%.00, 2%.50%).-feet 0%.004 m above its top, on platform",
    "stopped at z = 5%.5%d+ .-: touching the door",
    "the door is open %(90 degrees%)",
    "through the doorway",
  },
  arena_tour = {
    "stairs %(16 x 0%.25 m%): climbed to the top %(feet at 4%.00 m%)",
    "ramp 20 deg %(top 2%.91 m%): walked up",
    "ramp 35 deg %(top 5%.60 m%): walked up",
    "ramp 50 deg %(top 9%.53 m%): held back",
    "corridor %(0%.6 m wide, the character 0%.8 m%): too narrow",
    "across the floor %(120 m%): %d+%.%d s",
  },
  level_logic = {
    "frame %d+: entered the hall at x = 10%.%d%d %(t = [01]%.%d+ of the frame's path%): the door opens",
    "walked through the open door: x = 2%d%.%d+",
    "dash frame 1: enter the checkpoint at t = 0%.5000 %(x = 105%.000%)",
    "dash frame 1: exit the checkpoint at t = 0%.5010 %(x = 105%.010%)",
  },
  crowd = {
    "400 walkers, 240 frames, one collideAndSlideMany per frame on %d thread",
    "on the ground: 400 of 400",
    "the same crowd on 1 thread: the same bits",
    "the same crowd as a loop of collideAndSlide: the same bits",
    "100 characters, 180 frames, cs.updateCharacters: %d+ within 10 m of the middle",
    "the same characters updated one at a time: the same bits",
  },
  arena = {
    "arena: 78000 triangles, 49233 vertices, bounds %(%-64, 0, %-64%) %.%. %(64, 9%.53, 64%)",
  },
  queries = {
    "t = 0%.150 %(1%.50 m%): crate A, triangle %d+ %(tag 0%)",
    "with mask 2 %(layer 2 only%): glass at x = 5%.95",
    "straight up from %(0, 0%.5, 0%): nil",
    "6 hits",
    "a callback returning false stops at the first: 1",
    "the centre stops at x = 1%.100, touching crate A",
    "world:sweep%(mover, 10, 0, 0%): t = 0%.1100, crate A",
    "to %(0, 5, 0%) within 1 m: nil",
    "20 triangles: crate A 10, crate B 10",
    "crate A triangle %d+: 0%.200 m deep",
    "overlap%(mover%) for a mover standing clear on the floor: 0",
  },
}

-- #cbinding: the examples load the C module (build/<lua>/collideslide/core.so),
-- which make test builds and make test-ffi does not.
describe("examples/ #cbinding", function()
  local names = {}
  for name in pairs(EXAMPLES) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    it(name .. ".lua runs and says what it does", function()
      local cmd = string.format("%s examples/%s.lua", LUA, name)
      local out, status = run(cmd)
      assert.are.equal(0, status, cmd .. " failed:\n" .. out)
      for _, pattern in ipairs(EXAMPLES[name]) do
        assert.is_truthy(out:find(pattern), cmd .. ": no line matches '" .. pattern
          .. "' in its output:\n" .. out)
      end
    end)
  end

  it("lists every example but the LÖVE playground", function()
    local out = run("ls examples")
    for file in out:gmatch("([%w_]+)%.lua") do
      assert.is_truthy(EXAMPLES[file], "examples/" .. file .. ".lua has no entry in spec/examples_spec.lua")
    end
  end)
end)

-- The playground's recordings (examples/love/record.lua, plain Lua): a file
-- F9 loads is refused unless every field the playground reads is there and
-- finite (a hand-edited NaN input, a start of strings or a path entry of 3
-- numbers passed and then stopped the playground with a Lua error: found by an
-- independent tester).
describe("examples/love/record.lua", function()
  it("reads back what it writes and refuses what the playground cannot replay", function()
    if _VERSION == "Lua 5.1" and not jit then return end    -- (load with an environment)
    local saved = package.path
    package.path = "examples/love/?.lua;" .. package.path
    local record = require "record"
    package.path = saved
    local rec = { scenario = "stairs", dt = 1 / 120, start = { 1, 2, 3 }, settings = { walkSpeed = 4 },
      inputs = { { 1, 0, false, true }, { 0.5, -0.5, true, false } },
      path = { { 1, 2, 3, true, 4, "ground", 0 }, { 1.1, 2, 3.1, false, 4, "air", 1 } } }
    local text = record.serialize(rec)
    local back = assert(record.parse(text))
    assert.are.same(rec.path, back.path)
    assert.are.same(rec.start, back.start)
    local function refused(from, to, why)
      local r, err = record.parse((text:gsub(from, to, 1)))
      assert.is_nil(r)
      assert.are.equal(why, err)
    end
    refused("{ 1, 0, false", "{ 0/0, 0, false", "bad input at frame 1")
    refused("start = { 1,", "start = { \"a\",", "bad start")
    refused(", 4, \"ground\", 0 }", " }", "bad path entry at frame 1")
    refused("dt = [^,]+,", "dt = 1/0,", "bad dt")
  end)
end)

-- The playground's command line (examples/love/args.lua, plain Lua): a bad
-- --frames or an out-of-range --replay-compare value is refused with the
-- reason ("--frames abc" ran the script to its own end; "stepHeight=9" ran
-- with 1.5 while its label said 9: found by an independent tester).
describe("examples/love/args.lua", function()
  it("parses the playground's options and refuses bad ones with the reason", function()
    local saved = package.path
    package.path = "examples/love/?.lua;" .. package.path
    local args = require "args"
    package.path = saved
    local scripts = { stairs = { frames = 10 }, walk = { frames = 20 }, at = function() end }
    local sliders = { { name = "stepHeight", min = 0, max = 1.5 }, { name = "walkSpeed", min = 0, max = 12 } }
    local names = { "stairs", "ramps" }
    local function parse(...) return args.parse({ ... }, scripts, sliders, names) end
    local function refused(msg, ...)
      local ok, err = pcall(args.parse, { ... }, scripts, sliders, names)
      assert.is_false(ok)
      assert.are.equal(msg, err)
    end
    local o = parse("--script", "walk", "--frames", "30", "level.obj")
    assert.are.same({ script = "walk", frames = 30, obj = "level.obj" }, o)
    o = parse("--replay-compare", "stepHeight=0.2")
    assert.are.same({ name = "stepHeight", value = 0.2, text = "stepHeight=0.2" }, o.compare)
    assert.are.equal("stairs", o.script)
    assert.are.same({ name = "blockSteepSlopes", value = false, text = "blockSteepSlopes=false" },
      parse("--replay-compare", "blockSteepSlopes=false").compare)
    refused("--frames wants a whole number of frames, 1 or more; got 'abc'", "--frames", "abc")
    refused("--frames wants a whole number of frames, 1 or more; got '0'", "--frames", "0")
    refused("--frames wants a whole number of frames, 1 or more; got '2.5'", "--frames", "2.5")
    refused("--replay-compare: stepHeight must be in 0..1.5, got '9'", "--replay-compare", "stepHeight=9")
    refused("--replay-compare wants SETTING=VALUE, SETTING one of stepHeight, walkSpeed, "
      .. "blockSteepSlopes; got 'jump=2'", "--replay-compare", "jump=2")
    refused("unknown script 'run' (scripts: stairs, walk)", "--script", "run")
    refused("unknown scenario 'moon' (scenarios: stairs, ramps)", "--scenario", "moon")
    local ok, err = pcall(args.parse, { "--screenshot" }, scripts, sliders, names)
    assert.is_false(ok)
    assert.truthy(err:find("^%-%-screenshot wants a value"))
    ok, err = pcall(args.parse, { "--fast" }, scripts, sliders, names)
    assert.is_false(ok)
    assert.truthy(err:find("^unknown option %-%-fast %(options: "))
  end)
end)
