-- tools/check_rockspec.lua --c "C FILES" --lua "LUA FILES" ROCKSPEC...: fails
-- when a rockspec's build list drifts from the Makefile's sources (--c) or
-- from the Lua files under lua/ (--lua), or when it is not publishable as it
-- stands: no homepage, no test table, or (a release) a tag other than
-- v<version> or a version other than csrc/collideslide.h's CS_VERSION.
local want_c, want_lua, specs = {}, {}, {}
local k = 1
while arg[k] do
  if arg[k] == "--c" or arg[k] == "--lua" then
    for f in arg[k + 1]:gmatch("%S+") do
      if arg[k] == "--c" then want_c[f] = true
      else -- lua/a/b.lua -> a.b; lua/a/init.lua -> a
        want_lua[(f:gsub("^lua/", ""):gsub("%.lua$", ""):gsub("/init$", ""):gsub("/", "."))] = f
      end
    end
    k = k + 2
  else specs[#specs + 1] = arg[k]; k = k + 1 end
end

local function load_rockspec(path)
  local env, chunk = {}, nil
  if setfenv then chunk = assert(loadfile(path)); setfenv(chunk, env)
  else chunk = assert(loadfile(path, "t", env)) end
  chunk()
  return env
end

local bad = 0
local function complain(spec, msg) print(spec .. ": " .. msg); bad = bad + 1 end

-- build as luarocks sees it on a platform list (its platform_overrides: each
-- build.platforms[p] deep-merged over build, in order).
local function deep_merge(dst, src)
  for k, v in pairs(src) do
    if type(v) == "table" then
      if dst[k] == nil then dst[k] = {} end
      if type(dst[k]) == "table" then deep_merge(dst[k], v) else dst[k] = v end
    else dst[k] = v end
  end
end
local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end
local function build_on(build, platforms)
  local b = copy(build)
  for _, p in ipairs(platforms) do
    if b.platforms and b.platforms[p] then deep_merge(b, b.platforms[p]) end
  end
  b.platforms = nil
  return b
end
local function libs(m) return table.concat((m and m.libraries) or {}, " ") end
for _, spec in ipairs(specs) do
  local r = load_rockspec(spec)
  local got_c, got_lua = {}, {}
  for name, m in pairs(r.build.modules) do
    if type(m) == "table" then
      for _, f in ipairs(m.sources) do got_c[f] = true end
    else got_lua[name] = m end
  end
  for f in pairs(want_c) do if not got_c[f] then complain(spec, "C source missing: " .. f) end end
  for f in pairs(got_c) do if not want_c[f] then complain(spec, "C source not in the Makefile: " .. f) end end
  for n, f in pairs(want_lua) do
    if got_lua[n] ~= f then complain(spec, ("module %s should be %s"):format(n, f)) end
  end
  for n, f in pairs(got_lua) do if not want_lua[n] then complain(spec, "no such file: " .. f) end end
  -- libm and POSIX threads on unix; nothing on Windows (Win32 threads there).
  local linux = build_on(r.build, { "unix", "linux" }).modules["collideslide.core"]
  local mingw = build_on(r.build, { "windows", "win32", "mingw32" }).modules["collideslide.core"]
  local msvc = build_on(r.build, { "windows", "win32" }).modules["collideslide.core"]
  if libs(linux) ~= "m pthread" then complain(spec, "on Linux the core should link m pthread, not: " .. libs(linux)) end
  for name, m in pairs({ MinGW = mingw, MSVC = msvc }) do
    if libs(m) ~= "" or m.defines then
      complain(spec, ("on Windows (%s) the core should link no library and have no defines: %s"):format(name, libs(m)))
    end
  end
  if not (r.description and r.description.homepage) then complain(spec, "no description.homepage") end
  if type(r.test) ~= "table" then complain(spec, "no test table") end
  if r.rockspec_format ~= "3.0" then complain(spec, "rockspec_format must be \"3.0\" (test table)") end
  local v = r.version:match("^(.-)%-%d+$")
  if v ~= "scm" then
    if r.source.tag ~= "v" .. v then
      complain(spec, ("source.tag is %s, the release process tags v%s"):format(tostring(r.source.tag), v))
    end
    local h = io.open("csrc/collideslide.h")
    local cv = h and h:read("*a"):match('#define CS_VERSION "([^"]*)"')
    if h then h:close() end
    if cv and cv ~= v then complain(spec, ("version %s, but CS_VERSION is %s"):format(v, cv)) end
  end
end
if bad > 0 then os.exit(1) end
