-- examples/love/args.lua: the playground's command line (plain Lua, so that
-- spec/examples_spec.lua can try it without LÖVE). args.parse(args, scripts,
-- sliders, scenarioNames) returns the options or raises the message the
-- playground prints before it quits.

local args = {}

local USAGE = "options: --script NAME, --frames N, --screenshot FILE, --replay-compare "
  .. "SETTING=VALUE, --save-recording FILE, --scenario NAME, --builtin, and an OBJ path"

-- The value after option a, which must be there (a missing one was taken as
-- nil, and "--frames" alone ran without end).
local function value(list, i, a)
  local v = list[i + 1]
  if v == nil then error(a .. " wants a value (" .. USAGE .. ")", 0) end
  return v
end

-- A whole number of frames, 1 or more ("--frames abc" ran a script to its own
-- end, and "--frames 0" never quit: found by an independent tester).
local function frames(text)
  local n = tonumber(text)
  if not n or n < 1 or n ~= math.floor(n) or n == math.huge then
    error("--frames wants a whole number of frames, 1 or more; got '" .. text .. "'", 0)
  end
  return n
end

local function sortedNames(t)
  local names = {}
  for k, v in pairs(t) do if type(v) == "table" then names[#names + 1] = k end end
  table.sort(names)
  return names
end

-- SETTING=VALUE for --replay-compare: a slider's name and a value in its
-- range (a value out of it was clamped while the label kept the text given),
-- or blockSteepSlopes=true|false.
local function compare(text, sliders)
  local name, v = text:match("^([%a]+)=(.+)$")
  local found
  for _, s in ipairs(sliders) do if s.name == name then found = s end end
  if name == "blockSteepSlopes" and (v == "true" or v == "false") then
    return { name = name, value = v == "true", text = text }
  end
  local n = tonumber(v)
  if not found or not n then
    local names = {}
    for _, s in ipairs(sliders) do names[#names + 1] = s.name end
    error("--replay-compare wants SETTING=VALUE, SETTING one of " .. table.concat(names, ", ")
      .. ", blockSteepSlopes; got '" .. text .. "'", 0)
  end
  if not (n >= found.min and n <= found.max) then
    error(string.format("--replay-compare: %s must be in %s..%s, got '%s'", name, found.min,
      found.max, v), 0)
  end
  return { name = name, value = n, text = text }
end

function args.parse(list, scripts, sliders, scenarioNames)
  local o = {}
  local i = 1
  while i <= #list do
    local a = list[i]
    if a == "--script" then o.script = value(list, i, a); i = i + 1
    elseif a == "--frames" then o.frames = frames(value(list, i, a)); i = i + 1
    elseif a == "--screenshot" then o.screenshot = value(list, i, a); i = i + 1
    elseif a == "--replay-compare" then o.compare = value(list, i, a); i = i + 1
    elseif a == "--save-recording" then o.saveRecording = value(list, i, a); i = i + 1
    elseif a == "--scenario" then o.scenario = value(list, i, a); i = i + 1
    elseif a == "--builtin" then o.builtin = true
    elseif a:sub(1, 2) == "--" then error("unknown option " .. a .. " (" .. USAGE .. ")", 0)
    else o.obj = a end
    i = i + 1
  end
  if o.script and type(scripts[o.script]) ~= "table" then
    error("unknown script '" .. o.script .. "' (scripts: " .. table.concat(sortedNames(scripts), ", ")
      .. ")", 0)
  end
  if o.compare then
    o.compare = compare(o.compare, sliders)
    o.script = o.script or "stairs"
  end
  if o.scenario then
    local known = false
    for _, n in ipairs(scenarioNames) do known = known or n == o.scenario end
    if not known then
      error("unknown scenario '" .. o.scenario .. "' (scenarios: " .. table.concat(scenarioNames, ", ")
        .. ")", 0)
    end
  end
  return o
end

return args
