-- examples/love/plots.lua: plots of the last few seconds of the run: the
-- height of the centre, the horizontal speed and the ground state, frame by
-- frame; while a recording is replayed (or after), the recorded run's values at
-- the same frames are drawn under them in the ghost's colour.

local plots = {}

plots.SECONDS = 5

local STATE_COLOUR = {
  ground = { 0.85, 0.33, 0.0 }, steep = { 0.95, 0.60, 0.38 },
  unsupported = { 0.60, 0.25, 0.60 }, air = { 0.16, 0.50, 0.73 },
}
plots.stateColour = STATE_COLOUR

--[[ plots.draw(S, r, fonts, colours, dt): S.path (a ring of {x, y, z, onGround,
horizontalSpeed, groundState}, with total: how many frames were added since the
character was dropped) and S.ghost (a list of the same, by frame since the
drop, or nil) in the rectangle r. ]]
function plots.draw(S, r, fonts, C, dt)
  local lg = love.graphics
  local path, ghost = S.path, S.ghost
  local window = math.floor(plots.SECONDS / dt + 0.5)
  local n = math.min(path.n, window)
  local total = path.total or path.n
  local f0 = total - n                          -- the frame before the first shown
  local function cur(j)                         -- the path entry of shown frame j (1..n)
    return path[(path.first + path.n - n + j - 2) % path.size + 1]
  end
  local function gh(j) return ghost and ghost[f0 + j] end

  lg.setColor(0.98, 0.97, 0.95)
  lg.rectangle("fill", r.x, r.y, r.w, r.h)
  lg.setColor(C.wall[1], C.wall[2], C.wall[3])
  lg.rectangle("line", r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1)
  lg.setFont(fonts.small)
  lg.setColor(C.text[1], C.text[2], C.text[3])
  lg.print(string.format("last %d s%s", plots.SECONDS, ghost and "  (ghost: the recording)" or ""),
    r.x + 10, r.y + 6)

  local px, pw = r.x + 44, r.w - 54
  local top = r.y + 28
  local bandH = 26
  local plotH = math.floor((r.h - 44 - 22 - 18 - bandH - 28) / 2)   -- titles, band, key
  local function xAt(j) return px + (j - 1) / math.max(1, window - 1) * pw end

  -- a line plot of field k of the entries
  local function linePlot(y, title, unit, k, floorZero)
    local lo, hi = math.huge, -math.huge
    for j = 1, n do
      local v = cur(j)[k]
      lo, hi = math.min(lo, v), math.max(hi, v)
      local g = gh(j)
      if g then lo, hi = math.min(lo, g[k]), math.max(hi, g[k]) end
    end
    if n == 0 then lo, hi = 0, 1 end
    if floorZero then lo = 0 end
    if hi - lo < 1 then local m = (hi + lo) / 2; lo, hi = m - 0.5, m + 0.5 end
    if floorZero and lo < 0 then lo, hi = 0, hi - lo end
    local function yAt(v) return y + plotH - (v - lo) / (hi - lo) * plotH end
    lg.setFont(fonts.small)
    lg.setColor(C.text[1], C.text[2], C.text[3])
    local last = n > 0 and cur(n)[k] or 0
    lg.print(string.format("%s  %.2f %s", title, last, unit), px, y - 18)
    lg.setFont(fonts.mono)
    lg.setColor(0.35, 0.38, 0.42)
    lg.printf(string.format("%.1f", hi), r.x + 2, y - 6, px - r.x - 6, "right")
    lg.printf(string.format("%.1f", lo), r.x + 2, y + plotH - 8, px - r.x - 6, "right")
    lg.setColor(0.85, 0.85, 0.82)
    lg.rectangle("line", px, y, pw, plotH)
    local function poly(get, c, a, width)
      local pts = {}
      for j = 1, n do
        local e = get(j)
        if e then pts[#pts + 1], pts[#pts + 2] = xAt(j), yAt(e[k]) end
      end
      if #pts >= 4 then
        lg.setColor(c[1], c[2], c[3], a)
        lg.setLineWidth(width)
        lg.line(pts)
        lg.setLineWidth(1)
      end
    end
    if ghost then poly(gh, C.ghost, 0.55, 4) end
    poly(cur, C.body, 1, 1.5)
    return y + plotH + 22
  end

  local y = linePlot(top + 16, "height", "m", 2)
  y = linePlot(y, "horizontal speed", "m/s", 5, true)
  -- the ground state: a band per run, coloured by state
  lg.setFont(fonts.small)
  lg.setColor(C.text[1], C.text[2], C.text[3])
  lg.print("ground state: " .. (n > 0 and cur(n)[6] or "-"), px, y - 18)
  local rows = ghost and 2 or 1
  local rh = (bandH - 2) / rows
  local cw = pw / math.max(1, window - 1)
  for j = 1, n do
    local c = STATE_COLOUR[cur(j)[6]] or C.text
    lg.setColor(c[1], c[2], c[3])
    lg.rectangle("fill", xAt(j), y, cw + 0.5, rh)
    local g = gh(j)
    if g then
      c = STATE_COLOUR[g[6]] or C.text
      lg.setColor(c[1], c[2], c[3], 0.55)
      lg.rectangle("fill", xAt(j), y + rh + 2, cw + 0.5, rh - 2)
    end
  end
  -- the key
  local kx = px
  lg.setFont(fonts.mono)
  for _, s in ipairs { "ground", "steep", "unsupported", "air" } do
    local c = STATE_COLOUR[s]
    lg.setColor(c[1], c[2], c[3])
    lg.rectangle("fill", kx, y + bandH + 4, 10, 10)
    lg.setColor(C.text[1], C.text[2], C.text[3])
    lg.print(s, kx + 13, y + bandH + 2)
    kx = kx + 13 + fonts.mono:getWidth(s) + 10
  end
end

return plots
