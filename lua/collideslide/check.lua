-- collideslide/check.lua: argument checks for the Lua layer, with the messages of
-- the C module ("bad argument #2 to 'box' (minx must be a number, got table)").
-- Argument numbers count as Lua counts them (luaL_argerror): self is #1, except in
-- a method call (b:box(...)), where the first argument after the colon is #1.

local type, tostring, format, getinfo, floor = type, tostring, string.format, debug.getinfo, math.floor
local error, getmetatable, rawget, pcall = error, getmetatable, rawget, pcall
local getlocal, rawequal, byte, dump = debug.getlocal, rawequal, string.byte, string.dump

local check = {}

--- check.len(t) -> the border of t read raw, as the C module reads arrays
-- (docs/API.md: "read raw"): Lua 5.2-5.4's # honours __len (a table of 9
-- values whose __len said 2 was refused with "a hole at 3 (element 3 is
-- set)"; found by an independent tester); 5.1's and LuaJIT's # is raw.
check.len = rawlen or function(t) return #t end
local len = check.len

-- A number as the messages show it: NaN, inf, -inf, or %.14g.
-- On LuaJIT through the C library's snprintf: LuaJIT's own formatting
-- rounds a tie at the 14th digit up (-0.919586181640625 gave ...063), where
-- the C library and the core's messages round it to even (...062; found by
-- an independent tester comparing the bindings).
local g14 = function(v) return format("%.14g", v) end
if rawget(_G, "jit") then
  local ok, ffi = pcall(require, "ffi")
  if ok then
    pcall(ffi.cdef, "int snprintf(char *s, size_t n, const char *format, ...);")
    local buf = ffi.new("char[40]")
    if pcall(function() return ffi.C.snprintf end) then
      g14 = function(v)
        ffi.C.snprintf(buf, 40, "%.14g", v)
        return ffi.string(buf)
      end
    end
  end
end

function check.num2str(v)
  if v ~= v then return "NaN" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  return g14(v)
end

-- The type of v as its metatable's __name (collideslide.Mesh, ...) or type(v).
function check.tname(v)
  local mt = getmetatable(v)
  if type(mt) == "table" then
    local n = rawget(mt, "__name")
    if type(n) == "string" then return n end
  end
  return type(v)
end

--- check.argerror(arg, fname, msg [, depth]): raises "bad argument #arg to 'fname'
-- (msg)" blaming the caller of the API function, which is `depth` calls above
-- this one (default 1: the API function called argerror itself). arg counts self
-- for methods; a method call (colon) shifts it down by one, as luaL_argerror does.
function check.argerror(arg, fname, msg, depth)
  depth = depth or 1
  local info = getinfo(depth + 1, "n")
  if info and info.namewhat == "method" then
    arg = arg - 1
    if arg == 0 then
      error(format("calling '%s' on bad self (%s)", fname, msg), depth + 2)
    end
  end
  error(format("bad argument #%d to '%s' (%s)", arg, fname, msg), depth + 2)
end
local argerror = check.argerror

--- check.notModule(v, fname [, depth [, fn]]): a module function called with a
-- colon (cs:newMover{...}) is given the module as its first argument: raises
-- that, with the fix, rather than what the module's fields make of it
-- ("unknown Mover field '_VERSION'": found by an independent tester). The
-- module: a table whose field fname is fn (the function itself), or without
-- fn one holding the functions newWorld, newMover and newMesh and the string
-- _VERSION. depth: as argerror's.
function check.notModule(v, fname, depth, fn)
  if type(v) == "table" and (fn and rawget(v, fname) == fn or not fn and type(rawget(v, "newWorld")) == "function"
     and type(rawget(v, "newMover")) == "function" and type(rawget(v, "newMesh")) == "function"
     and type(rawget(v, "_VERSION")) == "string") then
    argerror(1, fname, "got the collideslide module: call it with a dot, cs." .. fname .. "(...)", (depth or 1) + 1)
  end
end

--- check.alive(o, method, arg, fname [, depth]) -> o:method()'s first result,
-- its error (a closed mover or mesh, a removed body) raised as argument arg's
-- in fname's words ("bad argument #1 to 'contacts' (attempt to use a
-- closed/collected Mover)") rather than as the method's own self's.
function check.alive(o, method, arg, fname, depth)
  local ok, r = pcall(o[method], o)
  if not ok then
    r = tostring(r)
    argerror(arg, fname, r:match("^.-on bad self %((.*)%)$") or
      r:match("^.-bad argument #%d+ to '[^']*' %((.*)%)$") or r, (depth or 1) + 1)
  end
  return r
end

-- The count of parameters of the Lua function f: debug.getinfo's nparams
-- (Lua 5.2 on, LuaJIT); Lua 5.1's getinfo has none, so there it is read from
-- f's string.dump (the header: 12 bytes, then the source's size_t length and
-- bytes, linedefined and lastlinedefined as ints, nups, then numparams).
local PARAMS = setmetatable({}, { __mode = "k" })
local function nparams(f, info)
  if info.nparams then return info.nparams end
  if PARAMS[f] then return PARAMS[f] end
  local ok, d = pcall(dump, f)
  if not ok or byte(d, 5) ~= 0x51 then return 0 end
  local little, sint, ssize = byte(d, 7) == 1, byte(d, 8), byte(d, 9)
  local n = 0
  for i = 0, ssize - 1 do
    n = n * 256 + byte(d, 13 + (little and ssize - 1 - i or i))
  end
  PARAMS[f] = byte(d, 13 + ssize + n + 2 * sint + 1)
  return PARAMS[f]
end

-- Are the parameters of the function `level` calls above this one nil from
-- the arg-th on (a vararg function's varargs too)?
local function nilFrom(level, arg)
  level = level + 1
  local info = getinfo(level, "Sfu")
  if not info or info.what == "C" then return false end
  for i = arg, nparams(info.func, info) do
    if not rawequal(select(2, getlocal(level, i)), nil) then return false end
  end
  if info.isvararg then                         -- (vararg k is argument nparams + k)
    local i = -(arg > info.nparams and arg - info.nparams or 1)
    while true do
      local name, v = getlocal(level, i)
      if not name then break end
      if not rawequal(v, nil) then return false end
      i = i - 1
    end
  end
  return true
end

--- check.argType(v, arg [, depth]) -> the type of v, argument arg of the API
-- function `depth` calls above this one (as argerror's), as the messages name
-- it: check.tname, or "no value" when v is nil and so is every parameter from
-- arg on. A Lua function cannot tell a trailing nil from an argument not
-- given, so both are "no value", as API.md's Conventions say and the C
-- module's checks word them (cs.box(0, 0, 0, 1, 1) said "maxz must be a
-- number, got nil": found by an independent tester). The API function's
-- parameters must be its arguments in order (self first in a method).
function check.argType(v, arg, depth)
  if rawequal(v, nil) and nilFrom((depth or 1) + 1, arg) then return "no value" end
  return check.tname(v)
end
local argType = check.argType

--- check.num(v, arg, fname, name [, depth]) -> v: a finite number (no strings).
function check.num(v, arg, fname, name, depth)
  if type(v) ~= "number" then
    argerror(arg, fname, format("%s must be a number, got %s", name,
      argType(v, arg, (depth or 1) + 1)), (depth or 1) + 1)
  end
  if v - v ~= 0 then
    argerror(arg, fname, format("%s is %s", name, check.num2str(v)), (depth or 1) + 1)
  end
  return v
end

--- check.int(v, arg, fname, name [, depth]) -> v: a number with an integer value.
function check.int(v, arg, fname, name, depth)
  check.num(v, arg, fname, name, (depth or 1) + 1)
  if v ~= floor(v) then
    argerror(arg, fname, format("%s must be an integer, got %s", name, check.num2str(v)),
      (depth or 1) + 1)
  end
  return v
end

--- check.nums(first, fname, names, ...): each of ... a finite number; names[i]
-- names the i-th, which is argument first + i - 1. (Not `arg`: in a vararg
-- function, Lua 5.1 declares its own local `arg`, which would hide it.)
function check.nums(first, fname, names, ...)
  for i = 1, #names do
    check.num((select(i, ...)), first + i - 1, fname, names[i], 2)
  end
end

--- check.coord(v, arg, fname, name [, depth]) -> v: check.num's number, also
-- within +-1e30 (the core's range), in the core's words ("x is out of range
-- (|x| > 1e30), got 1e+31").
function check.coord(v, arg, fname, name, depth)
  depth = (depth or 1) + 1
  check.num(v, arg, fname, name, depth)
  if v > 1e30 or v < -1e30 then
    argerror(arg, fname, format("%s is out of range (|%s| > 1e30), got %s", name, name,
      check.num2str(v)), depth)
  end
  return v
end

--- check.coords(first, fname, names, ...): check.nums, each also within
-- +-1e30 (check.coord).
function check.coords(first, fname, names, ...)
  for i = 1, #names do
    check.coord((select(i, ...)), first + i - 1, fname, names[i], 2)
  end
end

--- check.self(self, mt, fname, what, usage [, depth]): self must have the
-- metatable mt; otherwise the message names a dot used for a colon.
function check.self(self, mt, fname, what, usage, depth)
  if getmetatable(self) ~= mt then
    error(format("bad argument #1 to '%s' (%s expected, got %s: call it with a colon, %s)",
      fname, what, argType(self, 1, (depth or 1) + 1), usage), (depth or 1) + 2)
  end
end

--- check.flatMesh(fname, v, ix, varg, iarg [, depth]): flat vertex and index
-- arrays (arguments varg and iarg), each index an integer naming a vertex
-- whose three coordinates are numbers.
function check.flatMesh(fname, v, ix, varg, iarg, depth)
  depth = (depth or 1) + 1
  if check.tname(v) ~= "table" then
    argerror(varg, fname, "vertices: table expected, got " .. check.tname(v), depth)
  end
  if check.tname(ix) ~= "table" then
    argerror(iarg, fname, "indices: table expected, got " .. check.tname(ix), depth)
  end
  check.hole(v, varg, fname, "vertex array", depth)
  check.hole(ix, iarg, fname, "index array", depth)
  local nv, ni = floor(len(v) / 3), len(ix)
  if ni % 3 ~= 0 then argerror(iarg, fname, format("index count %d is not a multiple of 3", ni), depth) end
  for k = 1, ni do
    local i = ix[k]
    if type(i) ~= "number" or i ~= floor(i) or i < 1 or i > nv then
      argerror(iarg, fname, format("index %d must name a vertex (1..%d), got %s", k, nv,
        type(i) == "number" and check.num2str(i) or check.tname(i)), depth)
    end
    for c = 3 * i - 2, 3 * i do
      local x, name = v[c], ({ "x", "y", "z" })[c - 3 * i + 3]
      if type(x) ~= "number" then
        argerror(varg, fname, format("vertex %d: %s must be a number, got %s", i, name,
          check.tname(x)), depth)
      elseif x ~= x then
        argerror(varg, fname, format("vertex %d: %s is NaN", i, name), depth)
      elseif x > 1e30 or x < -1e30 then
        argerror(varg, fname, format("vertex %d: %s is out of range (|%s| > 1e30), got %s", i, name,
          name, check.num2str(x)), depth)
      end
    end
  end
end

--- check.firstHole(t, len) -> k, j: t's first nil (read raw) and its first
-- set integer key past k, in the same words whichever border # found (len:
-- Lua 5.4 finds 3 in {1, nil, 3}, LuaJIT 1); nil when t has no hole. The C
-- module's hole_fail, for the FFI binding and the Lua layer.
function check.firstHole(t, len)
  local k = 1
  while k <= len and rawget(t, k) ~= nil do k = k + 1 end
  if k <= len then                      -- t[len] is set, as a border's is
    local j = k + 1
    while j < len and rawget(t, j) == nil do j = j + 1 end
    return k, j
  end
  local j                               -- 1..len are set: the least key past len
  for key in next, t do
    local past = type(key) == "number" and key > len and key == floor(key) and key - key == 0
    if past and (j == nil or key < j) then j = key end   -- (an inf key is none)
  end
  if j ~= nil then return k, j end
end

--- check.holeMessage(t, len, what) -> "<what> has a hole at k (element j is
-- set)" for t's first hole (check.firstHole), as the C module's hole_fail
-- words it, or nil when t has none.
function check.holeMessage(t, len, what)
  local k, j = check.firstHole(t, len)
  if k then
    return format("%s has a hole at %s (element %s is set)", what, check.num2str(k), check.num2str(j))
  end
end

--- check.hole(t, arg, fname, what [, depth]): raises check.holeMessage (past
-- the border # found) as argument arg's error; returns when t has no hole.
function check.hole(t, arg, fname, what, depth)
  local msg = check.holeMessage(t, len(t), what)
  if msg then argerror(arg, fname, msg, (depth or 1) + 1) end
end

--- check.keyKind(k) -> what an unknown key is called when it is no name:
--- its type, or "NUL-holding string" for a string with a NUL byte (no name:
--- the C module's messages cannot show it whole), as the C module's key_kind.
function check.keyKind(k)
  if type(k) == "string" and k:find("\0", 1, true) then return "NUL-holding string" end
  return type(k)
end

--- check.leastUnknown(t, known) -> the least key of t (read raw) that
-- known[k] does not hold, or nil: whatever order next() takes (it differs
-- between Lua versions, and between runs on 5.4), keys that are no strings
-- first (by type, then as tostring shows them), then the least string: the
-- C module's least_unknown, for the FFI binding and the Lua layer.
function check.leastUnknown(t, known)
  local best, bestkey
  for k in next, t do
    if not known[k] then
      local kind = check.keyKind(k)
      local key = (kind == "string" and "1" or "0" .. kind) .. tostring(k)
      if bestkey == nil or key < bestkey then best, bestkey = k, key end
    end
  end
  return best
end

--- check.objectString(obj) -> "collideslide.Builder: 0x...": a Lua-layer
-- object's __tostring, the same on every Lua (5.4's tostring names __name,
-- 5.1's and LuaJIT's say "table").
function check.objectString(obj)
  local mt = getmetatable(obj)
  setmetatable(obj, nil)
  local s = tostring(obj)
  setmetatable(obj, mt)
  return rawget(mt, "__name") .. s:sub((s:find(": ", 1, true) or 1))
end

-- The closest name in `names` to `k` differing only in case, or nil.
function check.suggest(k, names)
  if type(k) ~= "string" then return nil end
  local lk = k:lower()
  for _, n in ipairs(names) do
    if n:lower() == lk then return n end
  end
end

-- " (an array ...)" when the table t has a string key (a script wrote
-- {x = 1, y = 2, z = 3} where {1, 2, 3} goes), else "": the C module's words.
function check.namedHint(t)
  for k in next, t do
    if type(k) == "string" then return " (an array such as {1, 2, 3}, not named fields)" end
  end
  return ""
end

--- check.loveHint(lib) -> inside LÖVE, where to put the native library lib so
-- that the game finds it ("put <lib> in the game's folder, or in its save
-- directory (<dir>) for a .love, which cannot hold a native library"); nil
-- outside LÖVE. The loaders' not-found errors add it (collideslide/init.lua,
-- collideslide/ffi.lua): there the shell's fixes do not apply (found by an
-- independent tester).
function check.loveHint(lib)
  local love = rawget(_G, "love")          -- (rawget: a strict.lua refuses unset globals)
  if type(love) ~= "table" then return nil end
  local lfs, save = type(love.filesystem) == "table" and love.filesystem, nil
  if lfs and lfs.getSaveDirectory then
    local ok, dir = pcall(lfs.getSaveDirectory)
    save = ok and type(dir) == "string" and dir or nil
  end
  return "put " .. lib .. " in the game's folder, or in its save directory"
    .. (save and " (" .. save .. ")" or "") .. " for a .love, which cannot hold a native library"
end

return check
