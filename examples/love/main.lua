-- examples/love/main.lua: the collideslide playground for LÖVE 11, a tool for
-- tuning movement. The level (the benchmark arena, or any OBJ given on the
-- command line) seen from above and from the side, a character the keyboard
-- drives with the Lua character controller (cs.newCharacter), its path, contacts
-- and ground normal, and a slider for each tunable: a change applies at once.
--
--   make LUA=luajit                    (LÖVE 11 runs LuaJIT: build the module for it)
--   love examples/love [level.obj]
--   love examples/love --script walk --frames 200 --screenshot out.png
--
-- Keys: WASD or arrows move (W: up the screen, -z), Shift runs, Space jumps;
-- [ ] select a slider, - = change it (Shift: x10), or use the mouse; Backspace
-- resets the sliders, R the character; B toggles blockSteepSlopes, V turns the
-- side view, M shows the whole level from above, the mouse wheel zooms, P
-- pauses, Escape quits.
--
-- Command line: an OBJ path; --script NAME (scripts.lua: walk, slope) drives
-- the character with a fixed input at a fixed dt; --frames N quits after N
-- frames; --screenshot FILE saves the last frame as PNG (at --frames, or at the
-- script's end); --builtin uses the small level built in level.lua.

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

-- }======================================================================

local S = {                           -- the playground's state
  selected = 1, friction = 0, paused = false, frame = 0,
  sideAxis = "z", slab = 3,
  camTop = { x = 0, z = 0, scale = 24 }, camSide = { u = 0, y = 0, scale = 32 },
  wholeLevel = false,
}
local opts = { }
local fonts, top, panel
local loadError

local PATH_SIZE = 1200                -- positions kept for the path (20 s)

local function newPath()
  return { first = 1, n = 0, size = PATH_SIZE }
end

local function pathAdd(path, x, y, z, onGround)
  local i
  if path.n < path.size then
    path.n = path.n + 1
    i = path.n
  else
    i = path.first
    path.first = path.first % path.size + 1
  end
  local p = path[i] or {}
  p[1], p[2], p[3], p[4] = x, y, z, onGround
  path[i] = p
end

local function parseArgs(args)
  local o = {}
  local i = 1
  while i <= #args do
    local a = args[i]
    if a == "--script" then o.script = args[i + 1]; i = i + 1
    elseif a == "--frames" then o.frames = tonumber(args[i + 1]); i = i + 1
    elseif a == "--screenshot" then o.screenshot = args[i + 1]; i = i + 1
    elseif a == "--builtin" then o.builtin = true
    elseif a:sub(1, 2) == "--" then error("unknown option " .. a .. " (options: --script NAME, "
      .. "--frames N, --screenshot FILE, --builtin, and an OBJ path)", 0)
    else o.obj = a end
    i = i + 1
  end
  if o.script and not scripts[o.script] then
    local names = {}
    for k, v in pairs(scripts) do if type(v) == "table" then names[#names + 1] = k end end
    table.sort(names)
    error("unknown script '" .. o.script .. "' (scripts: " .. table.concat(names, ", ") .. ")", 0)
  end
  return o
end

-- Drops a new character at p, with the current slider values.
local function resetCharacter(p)
  local old = S.ch
  S.ch = cs.newCharacter { position = { p[1], p[2], p[3] } }
  if old then
    for _, s in ipairs(ui.sliders) do
      if s.name ~= "friction" then s.set(S, s.get({ ch = old, friction = S.friction, L = S.L })) end
    end
  end
  S.path = newPath()
end

local function fail(msg)
  loadError = msg
  io.stderr:write("playground: " .. msg .. "\n")
  if opts.script or opts.screenshot then love.event.quit(1) end
end

function love.load(args)
  local okArgs, o = pcall(parseArgs, args or {})
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
  local start = L.start
  if S.script and L.arena then start = S.script.start end
  S.start = start
  resetCharacter(start)
  ui.rememberDefaults(S)
  if S.script then
    local v = S.script.view
    S.camTop.scale, S.sideAxis, S.camSide.scale = v.top, v.side, v.sideScale
    opts.frames = opts.frames or S.script.frames
  end
  if opts.screenshot and not opts.frames then opts.frames = 180 end
  local t0 = love.timer.getTime()
  top = views.newTop(L, level.corners)
  views.colourTop(top, S.ch.slopeLimit)
  S.camTop.x, S.camTop.z = start[1], start[3]
  S.camSide.u, S.camSide.y = S.sideAxis == "z" and start[3] or start[1], start[2]
  print(string.format("playground: %s, %d triangles, drawn from above in %.2f s%s", L.name,
    L.mesh:triangleCount(), love.timer.getTime() - t0,
    S.script and (", script " .. opts.script) or ""))
end

-- {======================================================================
-- Update
-- =======================================================================

local function keyboardInput()
  local kd = love.keyboard.isDown
  local x, z = 0, 0
  if kd("a", "left") then x = x - 1 end
  if kd("d", "right") then x = x + 1 end
  if kd("w", "up") then z = z - 1 end
  if kd("s", "down") then z = z + 1 end
  return { x = x, z = z, run = kd("lshift", "rshift"), jump = kd("space") }
end

-- The cameras follow the character (smoothly, but at once in a scripted run).
local function follow(dt)
  local x, y, z = S.ch.mover:getPosition()
  local k = S.script and 1 or 1 - math.exp(-dt * 6)
  local ct, cside = S.camTop, S.camSide
  if S.wholeLevel then
    local b = S.L.bounds
    x, z = (b[1] + b[4]) / 2, (b[3] + b[6]) / 2
  end
  ct.x, ct.z = ct.x + (x - ct.x) * k, ct.z + (z - ct.z) * k
  local u = S.sideAxis == "z" and z or x
  cside.u, cside.y = cside.u + (u - cside.u) * k, cside.y + (y + 1.5 - cside.y) * k
end

local function layout()
  local W, H = love.graphics.getDimensions()
  local pw = 380
  local vw = W - pw
  local th = math.floor(H * 0.6)
  return { x = 0, y = 0, w = vw, h = th }, { x = 0, y = th, w = vw, h = H - th }, pw
end

function love.update(dt)
  if loadError then return end
  local input
  if S.script then
    local set
    input, set = scripts.at(S.script, S.frame + 1)
    for name, v in pairs(set or {}) do ui.setValue(S, ui.find(name), v) end
    dt = 1 / 60
  else
    if S.paused then return end
    input = keyboardInput()
    dt = math.min(dt, 1 / 30)           -- a long frame (a dragged window) is not a leap
  end
  if S.top_slope ~= S.ch.slopeLimit and not S.dragging then
    views.colourTop(top, S.ch.slopeLimit)   -- steep ground is coloured orange
    S.top_slope = S.ch.slopeLimit
  end
  S.ch:update(S.L.world, dt, input)
  local x, y, z = S.ch.mover:getPosition()
  pathAdd(S.path, x, y, z, S.ch.onGround)
  if y < S.L.bounds[2] - 20 then resetCharacter(S.start) end   -- fell out of the level
  S.frame = S.frame + 1
  follow(dt)
end

-- }======================================================================

-- {======================================================================
-- Draw
-- =======================================================================

local function status(x, y, w)
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
    string.format("frame %d   %s", S.frame, S.script and ("script '" .. opts.script .. "'")
      or string.format("%d fps", love.timer.getFPS())),
  }
  lg.setFont(fonts.mono)
  lg.setColor(0.12, 0.14, 0.17)
  for i, s in ipairs(lines) do lg.print(s, x, y + (i - 1) * 16) end
  return y + #lines * 16
end

local function legend(x, y)
  local lg = love.graphics
  local C = views.colours
  local items = {
    { C.pathGround, "path on ground" }, { C.pathAir, "path in the air" },
    { C.contact, "contacts, normals" }, { C.ground, "ground normal" },
    { C.steep, "ground too steep" }, { C.wall, "walls" },
  }
  lg.setFont(fonts.small)
  for i, it in ipairs(items) do
    local cx = x + ((i - 1) % 2) * 170
    local cy = y + math.floor((i - 1) / 2) * 17
    lg.setColor(it[1][1], it[1][2], it[1][3])
    lg.rectangle("fill", cx, cy + 3, 14, 10, 2)
    lg.setColor(0.12, 0.14, 0.17)
    lg.print(it[2], cx + 20, cy)
  end
  return y + 3 * 17
end

local HELP = "WASD/arrows move, Shift runs, Space jumps\n"
  .. "[ ] pick a slider, - = change it (Shift: x10)\n"
  .. "Backspace: default values   R: restart   P: pause\n"
  .. "V: side view axis   M: whole level   wheel: zoom"

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
  local rtop, rside, pw = layout()
  views.drawTop(top, S, rtop, fonts.small)
  views.drawSide(S.L, S, rside, fonts.small, level.corners)
  -- the panel
  local px = rtop.w
  lg.setColor(0.98, 0.97, 0.95)
  lg.rectangle("fill", px, 0, pw, lg.getHeight())
  lg.setColor(0.25, 0.30, 0.37)
  lg.line(px + 0.5, 0, px + 0.5, lg.getHeight())
  lg.setFont(fonts.title)
  lg.setColor(0.12, 0.14, 0.17)
  lg.print("collideslide playground", px + 16, 10)
  lg.setFont(fonts.small)
  lg.setColor(0.35, 0.38, 0.42)
  lg.print(string.format("%s: %d triangles", S.L.name, S.L.mesh:triangleCount()), px + 16, 34)
  panel = ui.layout(px, 58, pw)
  ui.draw(panel, S, fonts)
  local y = panel.y + panel.h - 22
  lg.setFont(fonts.small)
  lg.setColor(0.12, 0.14, 0.17)
  lg.print(string.format("block steep slopes (B): %s", S.ch.blockSteepSlopes and "on" or "off"),
    px + 16, y)
  y = status(px + 16, y + 24, pw - 32)
  y = legend(px + 16, y + 10)
  lg.setFont(fonts.small)
  lg.setColor(0.35, 0.38, 0.42)
  lg.print(HELP, px + 16, y + 8)

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

function love.keypressed(key)
  if loadError then
    if key == "escape" then love.event.quit() end
    return
  end
  if ui.keypressed(S, key) then return end
  if key == "escape" then love.event.quit()
  elseif key == "backspace" then ui.resetDefaults(S); S.ch.blockSteepSlopes = true
  elseif key == "r" then resetCharacter(S.start)
  elseif key == "p" then S.paused = not S.paused
  elseif key == "b" then S.ch.blockSteepSlopes = not S.ch.blockSteepSlopes
  elseif key == "m" then S.wholeLevel = not S.wholeLevel
    if S.wholeLevel then
      local b = S.L.bounds
      local rtop = layout()
      S.savedScale = S.camTop.scale
      S.camTop.scale = math.min(rtop.w / (b[4] - b[1] + 2), rtop.h / (b[6] - b[3] + 2))
    else
      S.camTop.scale = S.savedScale or 24
    end
  elseif key == "v" then
    S.sideAxis = S.sideAxis == "z" and "x" or "z"
    local x, _, z = S.ch.mover:getPosition()
    S.camSide.u = S.sideAxis == "z" and z or x
  end
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
