-- examples/love/main.lua: the collideslide playground for LÖVE 11, a tool for
-- tuning movement. The level (the benchmark arena, or any OBJ given on the
-- command line) seen from above and from the side, a character the keyboard or
-- a gamepad drives with the Lua character controller (cs.newCharacter), its
-- path, contacts and ground normal, plots of its last seconds (height,
-- horizontal speed, ground state), and a slider for each tunable: a change
-- applies at once. A run's input can be recorded and replayed with other
-- settings: the recorded path is drawn as a ghost beside the new one, and the
-- panel compares the two (where each ended, how high it got, how far it went,
-- the first frame they part). Scenarios (keys 1-4: stairs, ramps, a lift,
-- a crowd of NPCs) add moving bodies and sensor zones, lit while the character
-- is inside (world:addSensor; without it the zones are drawn unlit).
--
--   make LUA=luajit                    (LÖVE 11 runs LuaJIT: build the module for it)
--   love examples/love [level.obj]
--   love examples/love --script walk --frames 200 --screenshot out.png
--   love examples/love --script stairs --replay-compare stepHeight=0.2
--
-- Everything moves in fixed steps of 1/60 s (several per frame, or none), so
-- that a replay of the same input with the same settings is the recorded run
-- bit for bit.
--
-- Keys: WASD or arrows move (W: up the screen, -z), Shift runs, Space jumps
-- (gamepad: left stick, A jumps, X or the right shoulder runs); [ ] select a
-- slider, - = change it (Shift: x10), or use the mouse; Backspace resets the
-- sliders, R restarts the run; 1-4 pick a scenario; T starts and stops a
-- recording (from the scenario's start), G replays it with the current
-- settings, F5 saves it and F9 loads it (recording.lua in the save directory);
-- C copies the settings as a cs.newCharacter{...} call (and prints them); P
-- pauses, . advances one frame; B toggles blockSteepSlopes, V turns the side
-- view, M shows the whole level from above (the side view keeps following the
-- character), the mouse wheel zooms, Escape quits.
--
-- Command line: an OBJ path; --script NAME (scripts.lua: walk, slope, stairs,
-- lift, crowd) drives the character with a fixed input at a fixed dt; --frames
-- N quits after N frames; --screenshot FILE saves the last frame as PNG (at
-- --frames, or at the script's end); --replay-compare SETTING=VALUE records the
-- script (default stairs), replays it unchanged and then with the setting
-- changed, and prints the three runs' figures and the settings (what make
-- playground-test checks); --save-recording FILE writes that recording to FILE
-- and replays what it reads back; --scenario NAME starts in a scenario;
-- --builtin uses the small level built in level.lua.

-- {======================================================================
-- Finding the module
-- =======================================================================

--[[ LÖVE looks for Lua modules in the game's folder (or .love archive) and in
its save directory (love.filesystem.setRequirePath), and for C modules in
folders of its filesystem that are real folders: the save directory and an
unzipped game folder (love.filesystem.setCRequirePath; a .love archive cannot
hold a C library). The plain package.path and package.cpath are searched after
those. So the playground finds, in this order:
  - collideslide/core.so (or lib/collideslide/core.so) in the save directory
    (~/.local/share/love/collideslide-playground/ on Linux) or in this folder;
  - when run from the repository (love examples/love): ../../lua/ for the Lua
    layer and ../../build/luajit/ for the module `make LUA=luajit` builds;
  - collideslide/core.so in the folder that holds the game (beside the
    executable, for a fused game). ]]
local fs = love.filesystem
local root                                       -- the repository, when run from it
do
  fs.setCRequirePath("??;lib/??")
  local source = fs.getSource()
  if not fs.isFused() and fs.getInfo("main.lua") and source:sub(-5) ~= ".love" then
    root = source .. "/../.."
    package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
    package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
  end
  package.cpath = package.cpath .. ";" .. fs.getSourceBaseDirectory() .. "/?.so"
end

-- A scripted run (the headless test) has no one to read LÖVE's error screen:
-- it prints the error and exits with status 1 instead.
for _, a in ipairs(arg or {}) do
  if a == "--script" or a == "--screenshot" or a == "--frames" then
    function love.errorhandler(msg)
      io.stderr:write("playground: error: " .. debug.traceback(tostring(msg), 2) .. "\n")
      return function() return 1 end
    end
  end
end

local ok, cs = pcall(require, "collideslide")
local level = require "level"
local views = require "views"
local ui = require "ui"
local scripts = require "scripts"
local record = require "record"
local plots = require "plots"
local scenarios = require "scenarios"
local cmdline = require "args"

-- }======================================================================

local DT = 1 / 60                     -- the fixed step: every run, live or replayed

local S = {                           -- the playground's state
  selected = 1, friction = 0, paused = false, frame = 0, runFrame = 0, acc = 0,
  sideAxis = "z", slab = 3,
  camTop = { x = 0, z = 0, scale = 24 }, camSide = { u = 0, y = 0, scale = 32 },
  wholeLevel = false, events = {},
}
local opts = { }
local fonts, top, panel
local loadError
local toggleWholeLevel                -- (Input, below)

local PATH_SIZE = 1200                -- positions kept for the path (20 s)

local function newPath()
  return { first = 1, n = 0, size = PATH_SIZE, total = 0 }
end

local function pathAdd(path, e)
  local i
  if path.n < path.size then
    path.n = path.n + 1
    i = path.n
  else
    i = path.first
    path.first = path.first % path.size + 1
  end
  path[i] = e
  path.total = path.total + 1
end

-- A message at the bottom of the panel (and on stdout).
local function say(msg)
  S.message, S.messageTime = msg, love.timer.getTime()
  print("playground: " .. msg)
end

-- The current settings: every slider's value by name, and blockSteepSlopes.
local function snapshot()
  local s = {}
  for _, sl in ipairs(ui.sliders) do s[sl.name] = sl.get(S) end
  s.blockSteepSlopes = S.ch.blockSteepSlopes
  return s
end

-- Drops a new character at p, with the current settings.
local function resetCharacter(p)
  local old = S.ch
  S.ch = cs.newCharacter { position = { p[1], p[2], p[3] } }
  if old then
    for _, s in ipairs(ui.sliders) do
      if s.name ~= "friction" then s.set(S, s.get({ ch = old, friction = S.friction, L = S.L })) end
    end
    S.ch.blockSteepSlopes = old.blockSteepSlopes
  end
  S.path = newPath()
end

-- A run from its start: a new character at p, the scenario at time 0.
local function restart(p)
  resetCharacter(p)
  scenarios.reset(S.X)
  S.runFrame, S.acc = 0, 0
  S.events = {}
end

-- The cameras, for a scenario's view (or the script's).
local function setView(v, p)
  if v then S.camTop.scale, S.sideAxis, S.camSide.scale = v.top, v.side, v.sideScale end
  S.camTop.x, S.camTop.z = p[1], p[3]
  S.camSide.u, S.camSide.y = S.sideAxis == "z" and p[3] or p[1], p[2]
end

-- Switches to scenario `name` and restarts there. Ends a recording or replay;
-- the ghost stays only when it was recorded in that scenario.
local function selectScenario(name, keepGhost)
  if S.X then scenarios.teardown(S.X) end
  S.X = scenarios.setup(cs, S.L, name)
  S.start = S.X.start
  S.recording, S.replay = false, nil
  if not keepGhost then S.ghost = nil end
  restart(S.start)
  setView(S.X.view, S.start)
end

local function fail(msg)
  loadError = msg
  io.stderr:write("playground: " .. msg .. "\n")
  if opts.script or opts.screenshot or opts.frames then love.event.quit(1) end
end

function love.load(args)
  local okArgs, o = pcall(cmdline.parse, args or {}, scripts, ui.sliders, scenarios.names)
  if not okArgs then opts = { script = true }; return fail(o) end
  opts = o
  fonts = {
    small = love.graphics.newFont(13), bold = love.graphics.newFont(14),
    title = love.graphics.newFont(18), mono = love.graphics.newFont(12),
  }
  love.keyboard.setKeyRepeat(true)
  if not ok then
    return fail("cannot load the collideslide module:\n" .. tostring(cs) .. "\n\n"
      .. "Build it for LuaJIT from the repository root:  make LUA=luajit\n"
      .. "(or put collideslide/core.so in " .. fs.getSaveDirectory() .. ")")
  end
  local okLevel, L = pcall(level.load, cs, root or ".", opts.obj, opts.builtin)
  if not okLevel then return fail("cannot load the level: " .. tostring(L)) end
  S.L = L
  S.script = opts.script and scripts[opts.script]
  local t0 = love.timer.getTime()
  top = views.newTop(L, level.corners)
  S.ch = cs.newCharacter { position = { L.start[1], L.start[2], L.start[3] } }
  selectScenario(opts.scenario or S.script and S.script.scenario or "stairs")
  if S.script then
    if L.arena and S.script.start then S.start = S.script.start; restart(S.start) end
    setView(S.script.view, S.start)
    if S.script.view.whole then toggleWholeLevel() end
    opts.frames = opts.frames or S.script.frames * (opts.compare and 3 or 1)
  end
  ui.rememberDefaults(S)
  if opts.screenshot and not opts.frames then opts.frames = 180 end
  views.colourTop(top, S.ch.slopeLimit)
  print(string.format("playground: %s, %d triangles, drawn from above in %.2f s, scenario %s%s",
    L.name, L.mesh:triangleCount(), love.timer.getTime() - t0, S.X.name,
    S.script and (", script " .. opts.script) or ""))
  if opts.compare then
    S.phase = "record"
    S.rec = record.new(S.start, snapshot(), S.X.name, DT)
    S.recording = true
  end
end

-- {======================================================================
-- Recording and replaying
-- =======================================================================

local function startRecording()
  S.replay = nil
  restart(S.start)
  S.rec = record.new(S.start, snapshot(), S.X.name, DT)
  S.recording, S.ghost, S.cmp = true, nil, nil
  S.paused = false
  say("recording from the scenario's start (T stops)")
end

local function stopRecording()
  S.recording = false
  S.recFigures = record.figures(S.rec.path)
  say("recorded: " .. record.describe(S.recFigures))
end

-- The settings that differ from the recording's, as "name a -> b" texts.
local function changedSettings(rec)
  local now, out = snapshot(), {}
  for _, sl in ipairs(ui.sliders) do
    local a, b = rec.settings[sl.name], now[sl.name]
    if a ~= nil and a ~= b then out[#out + 1] = string.format("%s %s -> %s", sl.name, a, b) end
  end
  if rec.settings.blockSteepSlopes ~= nil and rec.settings.blockSteepSlopes ~= now.blockSteepSlopes then
    out[#out + 1] = "blockSteepSlopes " .. tostring(rec.settings.blockSteepSlopes) .. " -> "
      .. tostring(now.blockSteepSlopes)
  end
  return out
end

-- Replays the recording with the current settings, from its start.
local function startReplay(label)
  local rec = S.rec
  if not rec or #rec.inputs == 0 then say("nothing recorded yet (T records)"); return end
  if S.recording then stopRecording() end
  if rec.scenario and rec.scenario ~= S.X.name then selectScenario(rec.scenario, true) end
  restart(rec.start)
  S.ghost, S.cmp, S.paused = rec.path, nil, false
  S.recFigures = record.figures(rec.path)
  local changed = changedSettings(rec)
  S.replay = { rec = rec, path = {},
    label = label or (#changed == 0 and "unchanged" or table.concat(changed, ", ")) }
  say(string.format("replaying %d frames (%s)", #rec.inputs, S.replay.label))
end

local function finishReplay()
  local R = S.replay
  S.replay = nil
  local f = record.figures(R.path)
  local c = record.compare(S.rec.path, R.path)
  S.cmp = { figures = f, compare = c, label = R.label }
  print("playground: recorded: " .. record.describe(S.recFigures))
  print("playground: replay (" .. R.label .. "): " .. record.describe(f))
  print("playground: replay (" .. R.label .. ") vs recorded: " .. (c.identical
    and "identical (bit for bit)" or string.format("differs from frame %d, max separation %.4f m",
      c.firstDiff, c.maxSeparation)))
  if not S.script then S.paused = true end
end

-- The recording file in the save directory (F5 writes it, F9 reads it).
local RECORDING_FILE = "recording.lua"

local function saveRecording()
  if not S.rec or #S.rec.inputs == 0 then say("nothing recorded yet (T records)"); return end
  if S.recording then stopRecording() end
  local okw, err = fs.write(RECORDING_FILE, record.serialize(S.rec))
  if not okw then say("cannot save: " .. tostring(err)); return end
  say("saved " .. #S.rec.inputs .. " frames to " .. fs.getSaveDirectory() .. "/" .. RECORDING_FILE)
end

local function loadRecording()
  local text = fs.read(RECORDING_FILE)
  if not text then say("no " .. RECORDING_FILE .. " in " .. fs.getSaveDirectory()); return end
  local rec, err = record.parse(text, RECORDING_FILE)
  if not rec then say("cannot read " .. RECORDING_FILE .. ": " .. err); return end
  S.recording, S.replay = false, nil
  if rec.scenario and rec.scenario ~= S.X.name then
    local known = false
    for _, n in ipairs(scenarios.names) do known = known or n == rec.scenario end
    if known then selectScenario(rec.scenario) end
  end
  S.rec, S.ghost, S.cmp = rec, rec.path, nil
  S.recFigures = record.figures(rec.path)
  say("loaded " .. #rec.inputs .. " frames (G replays them)")
end

-- The recording through its file format: what the headless test replays.
local function roundTrip(rec)
  local text = record.serialize(rec)
  if opts.saveRecording then
    local f = assert(io.open(opts.saveRecording, "wb"))
    f:write(text)
    f:close()
    f = assert(io.open(opts.saveRecording, "rb"))
    text = f:read("*a")
    f:close()
  end
  local back = assert(record.parse(text, opts.saveRecording))
  print(string.format("playground: recording of %d frames saved (%d bytes%s) and read back",
    #back.inputs, #text, opts.saveRecording and (", " .. opts.saveRecording) or ""))
  return back
end

-- }======================================================================

-- {======================================================================
-- Settings as code
-- =======================================================================

local function num(v)
  for digits = 1, 17 do
    local s = string.format("%." .. digits .. "g", v)
    if tonumber(s) == v then return s end
  end
end

-- The character's settings as a call to paste into a game.
local function settingsText()
  local ch = S.ch
  local r = ch.radius
  if type(r) == "number" then r = { r, r, r } end
  local lines = {
    "cs.newCharacter {",
    string.format("  radius = { %s, %s, %s },", num(r[1]), num(r[2]), num(r[3])),
    string.format("  walkSpeed = %s, runSpeed = %s,", num(ch.walkSpeed), num(ch.runSpeed)),
    string.format("  gravity = %s, jumpSpeed = %s, airControl = %s,", num(ch.gravity),
      num(ch.jumpSpeed), num(ch.airControl)),
    string.format("  slopeLimit = %s, blockSteepSlopes = %s,", num(ch.slopeLimit),
      tostring(ch.blockSteepSlopes)),
    string.format("  stepHeight = %s, snapDistance = %s,", num(ch.stepHeight), num(ch.snapDistance)),
    "}",
  }
  if S.friction ~= 0 then
    lines[#lines + 1] = string.format("-- and world:setFriction(tag, %s) for the tags of the "
      .. "surfaces (the playground sets all)", num(S.friction))
  end
  return table.concat(lines, "\n")
end

local function copySettings()
  local text = settingsText()
  local okc = pcall(love.system.setClipboardText, text)
  print("playground: settings" .. (okc and " (copied to the clipboard)" or "") .. ":\n" .. text)
  S.message, S.messageTime = okc and "settings copied to the clipboard (and printed)"
    or "settings printed (no clipboard)", love.timer.getTime()
end

-- }======================================================================

-- {======================================================================
-- Update
-- =======================================================================

local DEADZONE = 0.2

-- The keyboard's input, and the first gamepad's added to it.
local function liveInput()
  local kd = love.keyboard.isDown
  local x, z = 0, 0
  if kd("a", "left") then x = x - 1 end
  if kd("d", "right") then x = x + 1 end
  if kd("w", "up") then z = z - 1 end
  if kd("s", "down") then z = z + 1 end
  local run, jump = kd("lshift", "rshift"), kd("space")
  if love.joystick then
    for _, js in ipairs(love.joystick.getJoysticks()) do
      if js:isGamepad() then
        local ax, az = js:getGamepadAxis("leftx"), js:getGamepadAxis("lefty")
        local l = math.sqrt(ax * ax + az * az)
        if l > DEADZONE then
          local k = math.min(1, (l - DEADZONE) / (1 - DEADZONE)) / l
          x, z = x + ax * k, z + az * k
        end
        run = run or js:isGamepadDown("x", "rightshoulder") or js:getGamepadAxis("triggerright") > 0.5
        jump = jump or js:isGamepadDown("a")
        break
      end
    end
  end
  return { x = x, z = z, run = run, jump = jump }
end

-- One frame of DT: the scenario moves, then the character, with `input` (a
-- replay's own input replaces it).
local function step(input)
  if S.replay then input = record.input(S.replay.rec, S.runFrame + 1) or {} end
  S.runFrame = S.runFrame + 1
  scenarios.step(S.X, S.runFrame, DT, S.ch.mover)
  local ch = S.ch
  ch:update(S.L.world, DT, input)
  local x, y, z = ch.mover:getPosition()
  local v = ch.velocity
  local events = ch.sensorEvents or {}                -- the sensor API, when it is there
  local e = { x, y, z, ch.onGround, math.sqrt(v[1] * v[1] + v[3] * v[3]), ch.groundState, #events }
  pathAdd(S.path, e)
  S.frame = S.frame + 1
  for _, ev in ipairs(events) do
    local name = tostring(ev.sensor and ev.sensor.userdata or "?")
    table.insert(S.events, 1, { frame = S.runFrame, name = name, event = ev.event, t = ev.t })
    S.events[7] = nil
    if S.script then
      print(string.format("playground: frame %d: %s '%s' (t = %.3f)", S.runFrame, ev.event, name, ev.t))
    end
  end
  if S.recording then
    if not record.add(S.rec, input, e) then stopRecording() end
  end
  if S.replay then
    local R = S.replay
    R.path[#R.path + 1] = e
    S.ghostFrame = S.runFrame
    if S.runFrame >= #R.rec.inputs then finishReplay() end
  end
  if y < S.L.bounds[2] - 20 then resetCharacter(S.start) end   -- fell out of the level
end

-- The headless run with --replay-compare: the script's frames recorded, replayed
-- with the same settings (bit for bit the same path), then with the setting
-- changed; the last frame shows the recording as a ghost beside the last replay.
local function comparePhases()
  local n = S.script.frames
  if S.phase == "record" and S.frame == n then
    stopRecording()
    S.rec = roundTrip(S.rec)
    S.phase = "same"
    startReplay("unchanged")
  elseif S.phase == "same" and not S.replay then
    local c = opts.compare
    if c.name == "blockSteepSlopes" then S.ch.blockSteepSlopes = c.value
    else ui.setValue(S, ui.find(c.name), c.value) end
    S.phase = "changed"
    startReplay(c.text)
  elseif S.phase == "changed" and not S.replay then
    S.phase = "done"
    copySettings()
  end
end

-- The cameras follow the character (smoothly, but at once in a scripted run).
-- With the whole level shown from above the side view still follows it.
local function follow(dt)
  local x, y, z = S.ch.mover:getPosition()
  local k = S.script and 1 or 1 - math.exp(-dt * 6)
  local ct, cside = S.camTop, S.camSide
  local tx, tz = x, z
  if S.wholeLevel then
    local b = S.L.bounds
    tx, tz = (b[1] + b[4]) / 2, (b[3] + b[6]) / 2
  end
  ct.x, ct.z = ct.x + (tx - ct.x) * k, ct.z + (tz - ct.z) * k
  local u = S.sideAxis == "z" and z or x
  cside.u, cside.y = cside.u + (u - cside.u) * k, cside.y + (y + 1.5 - cside.y) * k
end

local PLOT_W = 300

local function layout()
  local W, H = love.graphics.getDimensions()
  local pw = 380
  local vw = W - pw
  local th = math.floor(H * 0.6)
  return { x = 0, y = 0, w = vw, h = th }, { x = 0, y = th, w = vw - PLOT_W, h = H - th }, pw,
    { x = vw - PLOT_W, y = th, w = PLOT_W, h = H - th }
end

function love.update(dt)
  if loadError then return end
  if S.script then
    local input, set
    if not S.replay and S.phase ~= "done" and S.phase ~= "same" and S.phase ~= "changed" then
      input, set = scripts.at(S.script, S.frame + 1)
      for name, v in pairs(set or {}) do ui.setValue(S, ui.find(name), v) end
    end
    step(input)
    if opts.compare then comparePhases() end
  elseif S.stepOnce then
    S.stepOnce = false
    step(liveInput())
  elseif not S.paused then
    S.acc = math.min(S.acc + dt, 4 * DT)     -- a long frame (a dragged window) is not a leap
    -- (--frames N: no step past N, which a long first frame's steps went
    -- 2 past: found by an independent tester)
    while S.acc >= DT and not (opts.frames and S.frame >= opts.frames) do
      S.acc = S.acc - DT
      step(liveInput())
    end
  end
  if S.top_slope ~= S.ch.slopeLimit and not S.dragging then
    views.colourTop(top, S.ch.slopeLimit)   -- steep ground is coloured orange
    S.top_slope = S.ch.slopeLimit
  end
  follow(dt)
end

-- }======================================================================

-- {======================================================================
-- Draw
-- =======================================================================

local function status(x, y)
  local lg = love.graphics
  local ch, m = S.ch, S.ch.mover
  local px, py, pz = m:getPosition()
  local v = ch.velocity
  local hs = math.sqrt(v[1] * v[1] + v[3] * v[3])
  local gx, gy, gz = m:getGroundNormal()
  local lines = {
    string.format("position   %7.2f %7.2f %7.2f", px, py, pz),
    string.format("speed      %5.2f m/s across, %5.2f m/s up", hs, v[2]),
    string.format("ground     %-11s contacts %d%s", m:getGroundState(), m:contactCount(),
      m:wasStuck() and "  (pushed out)" or ""),
    gx and string.format("normal     %5.2f %5.2f %5.2f  (%.0f° from up)", gx, gy, gz,
      math.deg(math.acos(math.max(-1, math.min(1, gy))))) or "normal     none (no ground)",
    string.format("frame %d  %s  %s%s", S.runFrame, S.X.name, S.script and ("script '" .. opts.script
      .. "'") or string.format("%d fps", love.timer.getFPS()), S.paused and "  PAUSED (. steps)" or ""),
  }
  local e = S.events[1]
  if e then
    lines[#lines + 1] = string.format("sensor     %s '%s' at frame %d", e.event, e.name, e.frame)
  end
  lg.setFont(fonts.mono)
  lg.setColor(0.12, 0.14, 0.17)
  for i, s in ipairs(lines) do lg.print(s, x, y + (i - 1) * 15) end
  return y + #lines * 15
end

-- The recording: its state, and a replay's figures beside the recording's.
local function recordingPanel(x, y)
  local lg = love.graphics
  local lines, colours = {}, {}
  local function add(s, c) lines[#lines + 1] = s; colours[#lines] = c end
  local red, purple, dark = { 0.8, 0.1, 0.1 }, views.colours.ghost, { 0.12, 0.14, 0.17 }
  if S.recording then
    add(string.format("REC  recording %.1f s (T stops)", #S.rec.inputs * DT), red)
  elseif S.replay then
    add(string.format("REPLAY %d/%d: %s", S.runFrame, #S.replay.rec.inputs, S.replay.label), purple)
  elseif S.rec and #S.rec.inputs > 0 then
    local changed = changedSettings(S.rec)
    add(string.format("recording: %.1f s;  G replays%s", #S.rec.inputs * DT,
      #changed > 0 and (" with " .. table.concat(changed, ", ")) or " (settings unchanged)"), dark)
  else
    add("T records a run, G replays it with the current settings", dark)
  end
  local function fig(label, f)
    return string.format("%-8s end %6.2f %5.2f %6.2f  top %5.2f  %5.1f m", label, f.final[1],
      f.final[2], f.final[3], f.maxHeight, f.distance)
  end
  if S.cmp and S.recFigures then
    add(fig("recorded", S.recFigures), purple)
    add(fig("replay", S.cmp.figures), views.colours.body)
    local c = S.cmp.compare
    add(c.identical and "         identical path (bit for bit)" or string.format(
      "         differs from frame %d, %.2f m apart at most", c.firstDiff, c.maxSeparation), dark)
  end
  lg.setFont(fonts.mono)
  for i, s in ipairs(lines) do
    local c = colours[i]
    lg.setColor(c[1], c[2], c[3])
    lg.print(s, x, y + (i - 1) * 15)
  end
  return y + #lines * 15
end

local function legend(x, y)
  local lg = love.graphics
  local C = views.colours
  local items = {
    { C.pathGround, "path on ground" }, { C.pathAir, "path in the air" },
    { C.contact, "contacts, normals" }, { C.ground, "ground normal" },
    { C.steep, "ground too steep" }, { C.ghost, "recorded path (ghost)" },
    { C.sensor, "sensor zone" }, { C.sensorLit, "sensor, someone inside" },
  }
  lg.setFont(fonts.small)
  for i, it in ipairs(items) do
    local cx = x + ((i - 1) % 2) * 170
    local cy = y + math.floor((i - 1) / 2) * 16
    lg.setColor(it[1][1], it[1][2], it[1][3])
    lg.rectangle("fill", cx, cy + 3, 14, 10, 2)
    lg.setColor(0.12, 0.14, 0.17)
    lg.print(it[2], cx + 20, cy)
  end
  return y + 4 * 16
end

local HELP = "WASD/arrows/gamepad move, Shift runs, Space jumps\n"
  .. "[ ] - = sliders  Backspace: defaults  B: steep slopes\n"
  .. "1-4 scenario  R restart  P pause  . step  C copy settings\n"
  .. "T record  G replay  F5 save  F9 load  V M wheel: views"

function love.draw()
  local lg = love.graphics
  lg.clear(0.93, 0.92, 0.89)
  if loadError then
    lg.setColor(0.6, 0.1, 0.1)
    lg.printf(loadError, 40, 40, lg.getWidth() - 80)
    return
  end
  -- a scripted run draws every tenth frame and the last (software rendering
  -- under Xvfb is slow; the movement is computed every frame all the same)
  if S.script and S.frame % 10 ~= 0 and not (opts.frames and S.frame >= opts.frames) then
    return
  end
  for _, z in ipairs(S.X.sensors) do
    z.count, z.player = scenarios.inside(S.X, z, S.ch.mover)
  end
  local rtop, rside, pw, rplot = layout()
  views.drawTop(top, S, rtop, fonts.small)
  views.drawSide(S.L, S, rside, fonts.small, level.corners)
  plots.draw(S, rplot, fonts, views.colours, DT)
  -- the panel
  local px = rtop.w
  lg.setColor(0.98, 0.97, 0.95)
  lg.rectangle("fill", px, 0, pw, lg.getHeight())
  lg.setColor(0.25, 0.30, 0.37)
  lg.line(px + 0.5, 0, px + 0.5, lg.getHeight())
  lg.setFont(fonts.title)
  lg.setColor(0.12, 0.14, 0.17)
  lg.print("collideslide playground", px + 16, 8)
  lg.setFont(fonts.small)
  lg.setColor(0.35, 0.38, 0.42)
  lg.print(string.format("%s: %d triangles", S.L.name, S.L.mesh:triangleCount()), px + 16, 30)
  panel = ui.layout(px, 50, pw)
  ui.draw(panel, S, fonts)
  local y = panel.y + panel.h - 26
  lg.setFont(fonts.small)
  lg.setColor(0.12, 0.14, 0.17)
  lg.print(string.format("block steep slopes (B): %s", S.ch.blockSteepSlopes and "on" or "off"),
    px + 16, y)
  y = status(px + 16, y + 20)
  y = recordingPanel(px + 16, y + 6)
  y = legend(px + 16, y + 6)
  lg.setFont(fonts.small)
  lg.setColor(0.35, 0.38, 0.42)
  lg.print(HELP, px + 16, y + 4)
  if S.message and love.timer.getTime() - S.messageTime < 4 and not S.script then
    lg.setFont(fonts.bold)
    local w = fonts.bold:getWidth(S.message) + 20
    lg.setColor(0.12, 0.14, 0.17, 0.85)
    lg.rectangle("fill", 12, rtop.h - 40, w, 26, 4)
    lg.setColor(1, 1, 1)
    lg.print(S.message, 22, rtop.h - 35)
  end

  if opts.frames and S.frame >= opts.frames and not S.capturing then
    S.capturing = true
    if opts.screenshot then
      lg.captureScreenshot(function(img)
        local f, err = io.open(opts.screenshot, "wb")
        if not f then
          io.stderr:write("playground: cannot write " .. opts.screenshot .. ": " .. err .. "\n")
          love.event.quit(1)
          return
        end
        f:write(img:encode("png"):getString())
        f:close()
        local x, y, z = S.ch.mover:getPosition()
        print(string.format("playground: frame %d, character at (%.2f, %.2f, %.2f), %s; wrote %s",
          S.frame, x, y, z, S.ch.groundState, opts.screenshot))
        love.event.quit(0)
      end)
    else
      love.event.quit(0)
    end
  end
end

-- }======================================================================

-- {======================================================================
-- Input
-- =======================================================================

function toggleWholeLevel()
  S.wholeLevel = not S.wholeLevel
  if S.wholeLevel then
    local b = S.L.bounds
    local rtop = layout()
    S.savedScale = S.camTop.scale
    S.camTop.scale = math.min(rtop.w / (b[4] - b[1] + 2), rtop.h / (b[6] - b[3] + 2))
  else
    S.camTop.scale = S.savedScale or 24
  end
end

function love.keypressed(key)
  if loadError then
    if key == "escape" then love.event.quit() end
    return
  end
  if S.script then
    if key == "escape" then love.event.quit() end
    return
  end
  if ui.keypressed(S, key) then return end
  local n = tonumber(key)
  if key == "escape" then love.event.quit()
  elseif n and scenarios.names[n] then selectScenario(scenarios.names[n]); S.rec = nil
    S.cmp = nil
    say("scenario " .. S.X.name .. (scenarios.available(S.L) and ""
      or " (laid out for the arena and the built-in level only: the level's start)"))
  elseif key == "backspace" then ui.resetDefaults(S); S.ch.blockSteepSlopes = true
  elseif key == "r" then
    if S.recording then stopRecording() end     -- the frames so far stay recorded
    S.replay = nil
    restart(S.start)
  elseif key == "p" then S.paused = not S.paused
  elseif key == "." or key == "kp." then S.paused = true; S.stepOnce = true
  elseif key == "b" then S.ch.blockSteepSlopes = not S.ch.blockSteepSlopes
  elseif key == "t" then if S.recording then stopRecording() else startRecording() end
  elseif key == "g" then startReplay()
  elseif key == "c" then copySettings()
  elseif key == "f5" then saveRecording()
  elseif key == "f9" then loadRecording()
  elseif key == "m" then toggleWholeLevel()
  elseif key == "v" then
    S.sideAxis = S.sideAxis == "z" and "x" or "z"
    local x, _, z = S.ch.mover:getPosition()
    S.camSide.u = S.sideAxis == "z" and z or x
  end
end

-- A gamepad: the left stick moves, A jumps, X or the right shoulder runs (in
-- liveInput); Start pauses, Back restarts, the d-pad works the sliders, Y
-- records and B replays.
function love.gamepadpressed(_, button)
  if loadError or S.script then return end
  if button == "start" then S.paused = not S.paused
  elseif button == "back" then love.keypressed("r")
  elseif button == "dpup" then ui.keypressed(S, "[")
  elseif button == "dpdown" then ui.keypressed(S, "]")
  elseif button == "dpleft" then ui.keypressed(S, "-")
  elseif button == "dpright" then ui.keypressed(S, "=")
  elseif button == "y" then if S.recording then stopRecording() else startRecording() end
  elseif button == "b" then startReplay() end
end

function love.wheelmoved(_, wy)
  if loadError then return end
  local mx, my = love.mouse.getPosition()
  local rtop, rside = layout()
  local cam = my >= rside.y and mx < rside.w and S.camSide or S.camTop
  cam.scale = math.max(2, math.min(200, cam.scale * (wy > 0 and 1.15 or 1 / 1.15)))
end

function love.mousepressed(x, y, button)
  if button == 1 and panel then ui.mousepressed(panel, S, x, y) end
end

function love.mousemoved(x)
  if panel then ui.mousemoved(panel, S, x) end
end

function love.mousereleased()
  ui.mousereleased(panel, S)
end

-- }======================================================================
