-- examples/love/test/check_compare.lua: checks what `love examples/love
-- --replay-compare SETTING=VALUE` printed (make playground-test runs it):
--   luajit examples/love/test/check_compare.lua LOG SETTING=VALUE [RECORDING]
-- The replay with the settings unchanged must give the recorded path bit for bit
-- and the same figures; the replay with the setting changed must differ (a
-- first differing frame, another final position); the settings printed for
-- pasting must be a valid cs.newCharacter call holding the changed value; the
-- saved recording must read back with the frames and the figures printed.
local logPath, change, recPath = arg[1], arg[2], arg[3]
assert(logPath and change, "usage: check_compare.lua LOG SETTING=VALUE [RECORDING]")
local here = arg[0]:match("^(.*)/test/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local record = require "record"

local f = assert(io.open(logPath, "rb"))
local log = f:read("*a")
f:close()
local failures = 0
local function check(ok, what)
  print((ok and "ok     " or "FAILED ") .. what)
  if not ok then failures = failures + 1 end
end
local function line(prefix)
  return log:match("\nplayground: " .. prefix:gsub("%p", "%%%0") .. "([^\n]*)")
    or log:match("^playground: " .. prefix:gsub("%p", "%%%0") .. "([^\n]*)")
end
local function figures(s)
  if not s then return nil end
  local fr, x, y, z, top, dist = s:match("frames (%d+), final %(([-%d.]+), ([-%d.]+), ([-%d.]+)%), "
    .. "max height ([-%d.]+), distance ([-%d.]+)")
  if not fr then return nil end
  return { frames = tonumber(fr), x = tonumber(x), y = tonumber(y), z = tonumber(z),
    top = tonumber(top), dist = tonumber(dist), text = s }
end

local rec = figures(line("recorded: "))
local same = figures(line("replay (unchanged): "))
local changed = figures(line("replay (" .. change .. "): "))
check(rec and same and changed, "the three runs' figures were printed")
if not (rec and same and changed) then os.exit(1) end
print(string.format("       recorded:  %s\n       unchanged: %s\n       %s: %s", rec.text, same.text,
  change, changed.text))
check(rec.frames > 0 and same.frames == rec.frames and changed.frames == rec.frames,
  "the replays ran the recording's " .. rec.frames .. " frames")
check(line("replay (unchanged) vs recorded: ") == "identical (bit for bit)",
  "the unchanged replay gave the recorded path bit for bit")
check(same.text == rec.text, "the unchanged replay's figures are the recorded ones")
local cmp = line("replay (" .. change .. ") vs recorded: ") or ""
local first, sep = cmp:match("^differs from frame (%d+), max separation ([%d.]+) m$")
check(first ~= nil and tonumber(sep) > 0, "the replay with " .. change .. " differs: " .. cmp)
check(changed.x ~= rec.x or changed.y ~= rec.y or changed.z ~= rec.z,
  "the replay with " .. change .. " ends elsewhere")

-- the settings as code: a cs.newCharacter call, with the changed value
local code = log:match("\nplayground: settings[^\n]*:\n(cs%.newCharacter %b{})")
check(code ~= nil, "the settings were printed as a cs.newCharacter call")
if code then
  local got
  local chunk = load(code, "=settings", "t", { cs = { newCharacter = function(t) got = t end } })
  check(chunk and pcall(chunk) and type(got) == "table", "the settings text runs as Lua")
  local name, value = change:match("^(%w+)=(.+)$")
  if got and got[name] ~= nil then
    check(tostring(got[name]) == tostring(tonumber(value) or value),
      "the settings text has " .. name .. " = " .. tostring(got[name]))
  end
  if got then                                   -- the real module (make LUA=luajit built it)
    package.path = here .. "/../../lua/?.lua;" .. here .. "/../../lua/?/init.lua;" .. package.path
    package.cpath = here .. "/../../build/luajit/?.so;" .. package.cpath
    local okc, cs = pcall(require, "collideslide")
    check(okc, "the module loads" .. (okc and "" or (": " .. tostring(cs))))
    if okc then
      local okn, err = pcall(cs.newCharacter, got)
      check(okn, "cs.newCharacter accepts the settings text" .. (okn and "" or (": " .. tostring(err))))
    end
  end
end

-- the recording file
if recPath then
  local rf = io.open(recPath, "rb")
  check(rf ~= nil, "the recording was saved to " .. recPath)
  if rf then
    local text = rf:read("*a")
    rf:close()
    local r, err = record.parse(text, recPath)
    check(r ~= nil, "the recording reads back" .. (r and "" or (": " .. tostring(err))))
    if r then
      local fig = record.figures(r.path)
      check(#r.inputs == rec.frames, "it holds " .. #r.inputs .. " frames of input")
      check(record.describe(fig) == rec.text, "its path gives the recorded figures")
    end
  end
end

print(failures == 0 and "check_compare: all good" or ("check_compare: " .. failures .. " FAILED"))
os.exit(failures == 0 and 0 or 1)
