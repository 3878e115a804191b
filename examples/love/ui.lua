-- examples/love/ui.lua: the tuning panel. One slider per tunable (mouse: click or
-- drag; keys: [ and ] select, - and = change, with Shift ten times as much),
-- each showing its current value; a new value reaches the character at once
-- (its next update).

local ui = {}

--[[ The tunables: name, label, min, max, step, unit, and how to read and write
it (S: the playground's state, with S.ch the character and S.L the level). ]]
local function field(name)
  return function(S) return S.ch[name] end, function(S, v) S.ch[name] = v end
end

local function radius(i)
  return function(S) return S.ch.radius[i] end,
    function(S, v)
      local r = S.ch.radius
      local new = { r[1], r[2], r[3] }
      new[i] = v
      if i == 1 then new[3] = v end              -- horizontal: rx = rz
      S.ch.radius = new                          -- a new table: the next update applies it
    end
end

local function friction()
  return function(S) return S.friction end,
    function(S, v)
      S.friction = v
      for _, tag in ipairs(S.L.tags) do S.L.world:setFriction(tag, v) end
    end
end

ui.sliders = {
  { name = "walkSpeed", label = "walk speed", min = 0, max = 12, step = 0.1, unit = "m/s", field("walkSpeed") },
  { name = "runSpeed", label = "run speed (Shift)", min = 0, max = 20, step = 0.1, unit = "m/s", field("runSpeed") },
  { name = "gravity", label = "gravity", min = 0, max = 40, step = 0.1, unit = "m/s²", field("gravity") },
  { name = "jumpSpeed", label = "jump speed", min = 0, max = 15, step = 0.1, unit = "m/s", field("jumpSpeed") },
  { name = "airControl", label = "air control", min = 0, max = 1, step = 0.01, unit = "", field("airControl") },
  { name = "slopeLimit", label = "slope limit", min = 0, max = 90, step = 1, unit = "°", field("slopeLimit") },
  { name = "stepHeight", label = "step height", min = 0, max = 1.5, step = 0.01, unit = "m", field("stepHeight") },
  { name = "snapDistance", label = "snap distance", min = 0, max = 1.5, step = 0.01, unit = "m", field("snapDistance") },
  { name = "radiusXZ", label = "radius across (rx = rz)", min = 0.1, max = 1.5, step = 0.01, unit = "m", radius(1) },
  { name = "radiusY", label = "radius up (ry)", min = 0.1, max = 2.5, step = 0.01, unit = "m", radius(2) },
  { name = "friction", label = "friction (all surfaces)", min = 0, max = 1, step = 0.01, unit = "", friction() },
}
for _, s in ipairs(ui.sliders) do s.get, s.set = s[1], s[2] end

function ui.find(name)
  for i, s in ipairs(ui.sliders) do if s.name == name then return s, i end end
end

local function clamp(v, lo, hi) return v < lo and lo or v > hi and hi or v end

-- Sets a slider's value (clamped, rounded to its step).
function ui.setValue(S, s, v)
  v = clamp(math.floor(v / s.step + 0.5) * s.step, s.min, s.max)
  v = tonumber(string.format("%.4f", v))
  s.set(S, v)
  s.changed, s.changedFrame = love.timer.getTime(), S.frame
end

local ROW = 34
local PAD = 16

-- The rectangle of slider i's track.
local function track(P, i)
  return P.x + PAD, P.y + (i - 1) * ROW + 21, P.w - 2 * PAD, 6
end

function ui.layout(x, y, w)
  return { x = x, y = y, w = w, h = #ui.sliders * ROW + 30 }
end

local function fmt(s, v)
  local digits = s.step >= 1 and 0 or s.step >= 0.1 and 1 or 2
  return string.format("%." .. digits .. "f", v) .. (s.unit ~= "" and " " .. s.unit or "")
end

function ui.draw(P, S, fonts)
  local lg = love.graphics
  for i, s in ipairs(ui.sliders) do
    local tx, ty, tw, th = track(P, i)
    local v = s.get(S)
    local selected = i == S.selected
    if selected then
      lg.setColor(0.16, 0.50, 0.73, 0.10)
      lg.rectangle("fill", P.x + 4, ty - 19, P.w - 8, ROW - 2, 4)
    end
    lg.setFont(fonts.small)
    lg.setColor(0.12, 0.14, 0.17)
    lg.print(s.label, tx, ty - 17)
    local value = fmt(s, v)
    -- a value changed in the last 1.5 s (2 s of frames in a scripted run) is orange
    local recent = s.changed and (S.script and S.frame - s.changedFrame < 120
      or not S.script and love.timer.getTime() - s.changed < 1.5)
    if recent then lg.setColor(0.85, 0.33, 0.0) end
    lg.setFont(fonts.bold)
    lg.print(value, tx + tw - fonts.bold:getWidth(value), ty - 18)
    -- the track, the part up to the value, the default's tick and the knob
    local k = (v - s.min) / (s.max - s.min)
    lg.setColor(0.80, 0.80, 0.78)
    lg.rectangle("fill", tx, ty, tw, th, 3)
    lg.setColor(0.16, 0.50, 0.73)
    lg.rectangle("fill", tx, ty, tw * k, th, 3)
    if s.default then
      local d = tx + tw * (s.default - s.min) / (s.max - s.min)
      lg.setColor(0.12, 0.14, 0.17, 0.6)
      lg.line(d, ty - 2, d, ty + th + 2)
    end
    lg.setColor(1, 1, 1)
    lg.circle("fill", tx + tw * k, ty + th / 2, 7)
    lg.setColor(0.16, 0.50, 0.73)
    lg.setLineWidth(2)
    lg.circle("line", tx + tw * k, ty + th / 2, 7)
    lg.setLineWidth(1)
  end
end

-- Mouse: a press on a row selects its slider and sets the value; a drag moves it.
function ui.mousepressed(P, S, mx, my)
  for i, s in ipairs(ui.sliders) do
    local tx, ty, tw = track(P, i)
    if mx >= P.x and mx <= P.x + P.w and my >= ty - 19 and my < ty - 19 + ROW then
      S.selected, S.dragging = i, s
      ui.setValue(S, s, s.min + (s.max - s.min) * clamp((mx - tx) / tw, 0, 1))
      return true
    end
  end
  return false
end

function ui.mousemoved(P, S, mx)
  local s = S.dragging
  if not s then return end
  local tx, _, tw = track(P, S.selected)
  ui.setValue(S, s, s.min + (s.max - s.min) * clamp((mx - tx) / tw, 0, 1))
end

function ui.mousereleased(_, S) S.dragging = nil end

-- Keys: [ and ] select, - and = change (Shift: ten steps). True when handled.
function ui.keypressed(S, key)
  local n = #ui.sliders
  local shift = love.keyboard.isDown("lshift", "rshift")
  if key == "[" then S.selected = (S.selected - 2) % n + 1
  elseif key == "]" then S.selected = S.selected % n + 1
  elseif key == "-" or key == "kp-" or key == "=" or key == "kp+" then
    local s = ui.sliders[S.selected]
    local dir = (key == "-" or key == "kp-") and -1 or 1
    ui.setValue(S, s, s.get(S) + dir * s.step * (shift and 10 or 1))
  else
    return false
  end
  return true
end

-- Remembers the current values as the defaults (drawn as ticks; Backspace).
function ui.rememberDefaults(S)
  for _, s in ipairs(ui.sliders) do s.default = s.get(S) end
end

-- Back to the defaults, exactly (not rounded to the step: gravity's 9.81 stays).
function ui.resetDefaults(S)
  for _, s in ipairs(ui.sliders) do
    if s.default then
      s.set(S, s.default)
      s.changed, s.changedFrame = love.timer.getTime(), S.frame
    end
  end
end

return ui
