-- examples/love/record.lua: recordings of a run, for replaying the same input
-- with other settings. A recording holds where the run started, the settings it
-- started with, the scenario, and for every frame (at the playground's fixed dt)
-- the input and where the character ended up: the input is what a replay feeds
-- the character, the positions are the ghost drawn beside the replay's path.
-- Recordings are saved as a Lua table (data only: read back without running
-- anything) with every number written so that it reads back bit for bit.

local record = {}

local sqrt, max, format = math.sqrt, math.max, string.format

record.MAX_FRAMES = 60 * 60                 -- a minute at 60 Hz, then it stops itself

--[[ record.new(start, settings, scenario, dt) -> a recording:
  start {x, y, z}, settings {name = value}, scenario (a name), dt,
  inputs  { {x, z, run, jump}, ... } one per frame (run, jump: booleans)
  path    { {x, y, z, onGround, horizontalSpeed, groundState, sensorEvents}, ... }
          one per frame (sensorEvents: how many sensor crossings the frame had) ]]
function record.new(start, settings, scenario, dt)
  local s = {}
  for k, v in pairs(settings) do s[k] = v end
  return { start = { start[1], start[2], start[3] }, settings = s, scenario = scenario,
    dt = dt, inputs = {}, path = {} }
end

-- Adds a frame: its input and the path entry the frame produced. False when full.
function record.add(rec, input, entry)
  if #rec.inputs >= record.MAX_FRAMES then return false end
  rec.inputs[#rec.inputs + 1] = { input.x or 0, input.z or 0, input.run and true or false,
    input.jump and true or false }
  rec.path[#rec.path + 1] = { entry[1], entry[2], entry[3], entry[4], entry[5], entry[6],
    entry[7] or 0 }
  return true
end

-- The input of frame f (1-based) as character:update takes it, or nil past the end.
function record.input(rec, f)
  local i = rec.inputs[f]
  if not i then return nil end
  return { x = i[1], z = i[2], run = i[3], jump = i[4] }
end

--[[ record.figures(path) -> { frames, final {x, y, z}, maxHeight, distance,
airFrames, sensorEvents }: a run summed up. path: a list of path entries. ]]
function record.figures(path)
  local f = { frames = #path, maxHeight = -math.huge, distance = 0, airFrames = 0, sensorEvents = 0 }
  for i, p in ipairs(path) do
    f.maxHeight = max(f.maxHeight, p[2])
    f.sensorEvents = f.sensorEvents + (p[7] or 0)
    if not p[4] then f.airFrames = f.airFrames + 1 end
    if i > 1 then
      local q = path[i - 1]
      f.distance = f.distance + sqrt((p[1] - q[1]) ^ 2 + (p[2] - q[2]) ^ 2 + (p[3] - q[3]) ^ 2)
    end
  end
  local last = path[#path]
  f.final = last and { last[1], last[2], last[3] } or { 0, 0, 0 }
  return f
end

function record.describe(f)
  return format("frames %d, final (%.4f, %.4f, %.4f), max height %.4f, distance %.4f, "
    .. "in the air %d frames, sensor events %d", f.frames, f.final[1], f.final[2], f.final[3],
    f.maxHeight, f.distance, f.airFrames, f.sensorEvents)
end

--[[ record.compare(a, b) -> { identical, firstDiff, maxSeparation }: two paths
frame by frame. identical: the same length and every coordinate equal (==, bit
for bit); firstDiff: the first frame whose position differs (nil when none);
maxSeparation: the largest distance between the two at the same frame. ]]
function record.compare(a, b)
  local n = math.min(#a, #b)
  local c = { identical = #a == #b, maxSeparation = 0 }
  for i = 1, n do
    local p, q = a[i], b[i]
    if p[1] ~= q[1] or p[2] ~= q[2] or p[3] ~= q[3] or p[4] ~= q[4]
      or (p[7] or 0) ~= (q[7] or 0) then
      c.identical = false
      c.firstDiff = c.firstDiff or i
    end
    c.maxSeparation = max(c.maxSeparation,
      sqrt((p[1] - q[1]) ^ 2 + (p[2] - q[2]) ^ 2 + (p[3] - q[3]) ^ 2))
  end
  if #a ~= #b and not c.firstDiff then c.firstDiff = n + 1 end
  return c
end

-- {======================================================================
-- Saving and reading back
-- =======================================================================

-- A number written so that tonumber reads back the same double.
local function num(v)
  if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return format("%d", v) end
  for digits = 15, 16 do                  -- the shortest of these that reads back
    local s = format("%." .. digits .. "g", v)
    if tonumber(s) == v then return s end
  end
  return format("%.17g", v)
end

local function value(v)
  if type(v) == "number" then return num(v) end
  if type(v) == "boolean" then return tostring(v) end
  if type(v) == "string" then return format("%q", v) end
  error("cannot save a " .. type(v), 2)
end

local SETTINGS_ORDER = { "walkSpeed", "runSpeed", "gravity", "jumpSpeed", "airControl",
  "slopeLimit", "stepHeight", "snapDistance", "radiusXZ", "radiusY", "friction",
  "blockSteepSlopes" }

-- The recording as the text of a Lua chunk that returns it.
function record.serialize(rec)
  local out = { "-- a collideslide playground recording: love examples/love, F9 loads it\n",
    "return {\n" }
  local function put(s) out[#out + 1] = s end
  put(format("  scenario = %s, dt = %s,\n", value(rec.scenario or ""), num(rec.dt)))
  put(format("  start = { %s, %s, %s },\n", num(rec.start[1]), num(rec.start[2]), num(rec.start[3])))
  put("  settings = {")
  local seen = {}
  for _, k in ipairs(SETTINGS_ORDER) do
    if rec.settings[k] ~= nil then put(format(" %s = %s,", k, value(rec.settings[k]))); seen[k] = true end
  end
  for k, v in pairs(rec.settings) do
    if not seen[k] then put(format(" %s = %s,", k, value(v))) end
  end
  put(" },\n  -- per frame: x, z, run, jump\n  inputs = {\n")
  for _, i in ipairs(rec.inputs) do
    put(format("    { %s, %s, %s, %s },\n", num(i[1]), num(i[2]), tostring(i[3]), tostring(i[4])))
  end
  put("  },\n  -- per frame: x, y, z, onGround, horizontal speed, ground state, sensor events\n"
    .. "  path = {\n")
  for _, p in ipairs(rec.path) do
    put(format("    { %s, %s, %s, %s, %s, %s, %s },\n", num(p[1]), num(p[2]), num(p[3]),
      tostring(p[4]), num(p[5]), value(p[6]), num(p[7] or 0)))
  end
  put("  },\n}\n")
  return table.concat(out)
end

-- Reads a recording back from record.serialize's text. Returns the recording,
-- or nil and an error text. The text runs with no globals at all.
function record.parse(text, name)
  if type(text) ~= "string" then return nil, "not a text" end
  local chunk, err = load(text, "=" .. (name or "recording"), "t", {})   -- text only, no globals
  if not chunk then return nil, err end
  local ok, rec = pcall(chunk)
  if not ok then return nil, rec end
  if type(rec) ~= "table" or type(rec.inputs) ~= "table" or type(rec.path) ~= "table"
    or type(rec.start) ~= "table" or type(rec.settings) ~= "table" or type(rec.dt) ~= "number" then
    return nil, "not a playground recording"
  end
  -- every field the playground reads, finite (a hand-edited file with a NaN
  -- input, a start of strings or a path entry of 3 numbers passed and then
  -- stopped the playground with a Lua error: found by an independent tester)
  local function finite(v) return type(v) == "number" and v == v and v - v == 0 end
  if not (finite(rec.dt) and rec.dt > 0) then return nil, "bad dt" end
  if not (finite(rec.start[1]) and finite(rec.start[2]) and finite(rec.start[3])) then
    return nil, "bad start"
  end
  if #rec.inputs ~= #rec.path then return nil, "inputs and path differ in length" end
  for i, v in ipairs(rec.inputs) do
    if type(v) ~= "table" or not finite(v[1]) or not finite(v[2]) then
      return nil, "bad input at frame " .. i
    end
  end
  for i, p in ipairs(rec.path) do
    if type(p) ~= "table" or not finite(p[1]) or not finite(p[2]) or not finite(p[3])
      or not finite(p[5]) or type(p[6]) ~= "string" or not finite(p[7]) then
      return nil, "bad path entry at frame " .. i
    end
  end
  if rec.scenario == "" then rec.scenario = nil end
  return rec
end

-- }======================================================================

return record
