-- spec/ffi_spec.lua: the LuaJIT FFI binding (lua/collideslide/ffi.lua) against
-- what it mirrors. On every interpreter (text only): its ffi.cdef is the
-- header's declarations, and its version the header's. Under LuaJIT, when
-- build/libcollideslide.so is there (make ffi-lib): its functions, methods and
-- fields are those of the C binding (read from csrc/cs_lua*.c), and a state
-- closed with live objects finalizes them without a crash.

local H = require "helper"

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- The top-level declarations of C text, each normalized: comments and
-- preprocessor lines out, whitespace collapsed, none next to punctuation.
local function declarations(text)
  text = text:gsub("/%*.-%*/", " "):gsub("//[^\n]*", " ")
  text = text:gsub("#ifdef __cplusplus.-#endif", " ")
  text = ("\n" .. text):gsub("\n[ \t]*#[^\n]*", "\n")
  local out, depth, start = {}, 0, 1
  for i = 1, #text do
    local c = text:sub(i, i)
    if c == "{" then depth = depth + 1
    elseif c == "}" then depth = depth - 1
    elseif c == ";" and depth == 0 then
      local d = text:sub(start, i):gsub("%s+", " ")
      d = d:gsub(" ?([%(%)%[%]{}%*,;=]) ?", "%1"):gsub("^ ", ""):gsub(" $", "")
      out[#out + 1] = d
      start = i + 1
    end
  end
  assert(text:sub(start):match("^%s*$"), "text after the last declaration: " .. text:sub(start, start + 80))
  return out
end

local HEADER = read("csrc/collideslide.h")
local FFI_SRC = read("lua/collideslide/ffi.lua")

describe("collideslide.ffi's declarations", function()
  local cdef = assert(FFI_SRC:match("local HEADER_CDEF = %[%[(.-)%]%]"), "HEADER_CDEF not found")

  it("are each a declaration of csrc/collideslide.h, unchanged", function()
    local in_header = {}
    for _, d in ipairs(declarations(HEADER)) do in_header[d] = true end
    local decls = declarations(cdef)
    assert.is_true(#decls > 50)
    for _, d in ipairs(decls) do
      assert.is_true(in_header[d] == true, "not in the header as it is: " .. d)
    end
  end)

  it("are every declaration of csrc/collideslide.h (the header as it is)", function()
    local in_cdef = {}
    for _, d in ipairs(declarations(cdef)) do in_cdef[d] = true end
    for _, d in ipairs(declarations(HEADER)) do
      assert.is_true(in_cdef[d] == true, "in the header, not in the cdef: " .. d)
    end
  end)

  it("declare every C function the binding calls", function()
    local declared = {}
    for name in cdef:gmatch("([%w_]+)%s*%(") do declared[name] = true end
    for name in FFI_SRC:gmatch("C%.(cs_[%w_]+)%s*%(") do
      assert.is_true(declared[name] == true, name .. " is called but not declared")
    end
  end)

  it("name the header's CS_VERSION", function()
    local want = assert(HEADER:match('#define%s+CS_VERSION%s+"([^"]+)"'))
    assert.are.equal(want, FFI_SRC:match('local CS_VERSION = "([^"]+)"'))
  end)
end)

-- The FFI module when it can be loaded here (LuaJIT and the library built).
local ffi_cs, why_not
if not rawget(_G, "jit") then
  why_not = "not LuaJIT"
else
  local ok, m = pcall(require, "collideslide.ffi")
  if ok then ffi_cs = m else why_not = tostring(m):match("^[^\n]*") end
end

describe("collideslide.ffi's module", function()
  if not ffi_cs then
    it("is not checked here (" .. why_not .. ")", function() end)
    return
  end

  -- The names of a luaL_Reg array of the Lua binding (csrc/cs_lua*.c).
  local SRC = table.concat({ read("csrc/cs_lua.c"), read("csrc/cs_lua_mesh.c"), read("csrc/cs_lua_world.c"),
    read("csrc/cs_lua_mover.c"), read("csrc/cs_lua_query.c") }, "\n")
  local function reg(name)
    local body = assert(SRC:match("const luaL_Reg " .. name .. "%[%] = {(.-)\n};"), name)
    local names = {}
    for n in body:gmatch('{"([%w_]+)",') do names[#names + 1] = n end
    assert.is_true(#names > 0, name)
    return names
  end

  local V = { -10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10 }
  local I = { 1, 2, 3, 1, 3, 4 }

  it("has the C binding's functions, and the Lua layer's", function()
    for _, n in ipairs(reg("module_funcs")) do assert.is_function(ffi_cs[n], n) end
    assert.are.equal(HEADER:match('#define%s+CS_VERSION%s+"([^"]+)"'), ffi_cs._VERSION)
    for _, n in ipairs { "loadOBJ", "parseOBJ", "newBuilder", "box", "newCharacter" } do
      assert.is_function(ffi_cs[n], n)
    end
    assert.is_table(ffi_cs.core)
  end)

  it("has the C binding's methods, metamethods and fields on each type", function()
    local mesh = ffi_cs.newMesh(V, I)
    local w = ffi_cs.newWorld()
    local body = w:add(mesh)
    local m = ffi_cs.newMover {}
    for _, c in ipairs { { mesh, "mesh" }, { w, "world" }, { body, "body" }, { m, "mover" } } do
      local obj, kind = c[1], c[2]
      for _, n in ipairs(reg(kind .. "_methods")) do
        assert.is_function(obj[n], kind .. ":" .. n)
      end
      local mt = getmetatable(obj)
      for _, n in ipairs(reg(kind .. "_meta")) do
        assert.is_function(mt[n], kind .. " " .. n)
      end
      assert.are.equal("collideslide." .. kind:sub(1, 1):upper() .. kind:sub(2), mt.__name)
    end
    local fields = assert(SRC:match("mover_fields%[MF_N %+ 1%] = {(.-)}"))
    for n in fields:gmatch('"([%w_]+)"') do
      if n ~= "filter" then assert.is_not_nil(m[n], "mover." .. n) end
    end
    assert.are.equal(1, body.layers)
  end)

  it("calls the core through the header's declarations only (no ABI views)", function()
    assert.is_nil(debug.getregistry()["collideslide.ffi.abi"])
    assert.is_nil(FFI_SRC:find("csffi_", 1, true))
  end)

  it("lets the JIT compile a loop of collideAndSlide, getPosition, raycast and sweep", function()
    -- every trace abort while the loop runs, with its reason (jit.attach);
    -- with vectors passed by value the calls aborted with "NYI: unsupported C
    -- function type"
    local aborts = {}
    local vmdef = require "jit.vmdef"
    local function on_trace(what, tr, func, pc, otr, oex)
      if what == "abort" then
        local r = vmdef.traceerr[otr]
        aborts[#aborts + 1] = type(r) == "string" and r:format(oex) or tostring(otr)
      end
    end
    local w = ffi_cs.newWorld()
    w:add(ffi_cs.newMesh(V, I))
    local m = ffi_cs.newMover { radius = 0.5, position = { 0, 0.6, 0 } }
    jit.flush()
    jit.attach(on_trace, "trace")
    local sum = 0
    for _ = 1, 500 do
      local x = w:collideAndSlide(m, 0.001, 0, 0, 0, -0.01, 0)
      local _, py = m:getPosition()
      local t = w:raycast(x, 5, 0, 0, -10, 0)
      local h = w:sweep(m, 0, -1, 0)
      sum = sum + x + py + (t or 0) + (h or 0)
    end
    jit.attach(on_trace)
    assert.is_true(sum > 0)
    -- and a loop of collideAndSlide and getPosition alone: no abort at all
    local strict = #aborts
    jit.flush()
    jit.attach(on_trace, "trace")
    for _ = 1, 500 do
      local x = w:collideAndSlide(m, 0.001, 0, 0, 0, -0.01, 0)
      local _, py = m:getPosition()
      sum = sum + x + py
    end
    jit.attach(on_trace)
    for k = strict + 1, #aborts do assert.is_nil(aborts[k]:find("NYI", 1, true), aborts[k]) end
    -- the C calls: none may abort a trace (with vectors by value they did,
    -- "NYI: unsupported C function type"), nor the Lua around them (push_hit's
    -- lookups of handles by address aborted with "NYI: mixed sparse/dense
    -- table" while the bodies' table kept the movers' at key 0)
    for _, r in ipairs(aborts) do assert.is_nil(r:find("NYI", 1, true), r) end
  end)

  it("raises the C module's words for the same bad values (the core's messages)", function()
    -- the C module built for LuaJIT (make test-ffi builds it), loaded by path
    local path = "./build/luajit/collideslide/core.so"
    local open = loadfile and io.open(path, "rb")
    if not open then pending("no " .. path .. " (make all LUA=luajit)") return end
    open:close()
    local core = assert(package.loadlib(path, "luaopen_collideslide_core"))()
    local function world_of(cs)
      local w = cs.newWorld()
      w:add(cs.newMesh(V, I))
      return w, cs.newMover { radius = 0.5, position = { 0, 0.6, 0 } }
    end
    local NAN = 0 / 0
    local cases = {
      function(w, m) local r = w:collideAndSlide(m, 1e308, 0, 0); return r end,
      function(w, m) local r = w:collideAndSlide(m, 0, NAN, 0); return r end,
      function(w, m) local r = w:collideAndSlide(m, 0, 0, 0, 0, 0, -math.huge); return r end,
      function(w, m) local r = w:sweep(m, 0, 1e31, 0); return r end,
      function(w) local r = w:raycast(0, 0, 0, 0, 0, NAN); return r end,
      function(w) local r = w:sweepEllipsoid(0, 1, 0, 1, 0, 1, 0, -1, 0); return r end,
      function(w) local r = w:closestPoint(0, 1, 0, -1); return r end,
      function(w) local r = w:overlapEllipsoid(0, 0, 0, 1, 1, -2, function() end); return r end,
      function(w) local r = w:setFriction(2, 1.5); return r end,
      function(_, m) m:setPosition(0, 2e30, 0) end,
      function(_, m) m:setRadius(0.5, 0, 0.5) end,
      function(_, m) m:setOrientation(0, 0, 0, 0) end,
      function(_, m) m:setUp(0, 0, 0) end,
      function(_, m) m.skin = -0.5 end,
      function(_, m) m.slopeLimit = 91 end,
      function(_, m) m.maxIterations = 2.5 end,
    }
    -- the text; where it was raised (the C module prefixes "file:line: ",
    -- as luaL_error does) is not compared
    local function text(e) return (tostring(e):gsub("^[^:]*:%d+: ", "")) end
    for i, f in ipairs(cases) do
      local w1, m1 = world_of(core)
      local w2, m2 = world_of(ffi_cs)
      local ok1, e1 = pcall(f, w1, m1)
      local ok2, e2 = pcall(f, w2, m2)
      assert.is_false(ok1, "case " .. i)
      assert.is_false(ok2, "case " .. i)
      assert.are.equal(text(e1), text(e2), "case " .. i)
    end
  end)

  -- (with, in each world, a mesh closed while a body and a sensor use it: it
  -- is freed once, whichever finalizer comes last; its own used to run first,
  -- then the world's freed it again)
  it("names the other binding when its objects are mixed with the C module's", function()
    local ok, c = pcall(require, "collideslide.core")
    if not ok then return pending("the C module is not built for LuaJIT") end
    local mix = " from the other binding (the C module's objects and collideslide.ffi's do not mix)"
    local wc, wf = c.newWorld(), ffi_cs.newWorld()
    local mc, mf = c.newMover { radius = 1 }, ffi_cs.newMover { radius = 1 }
    local cases = {
      { function() wc:collideAndSlide(mf, 1, 0, 0) end, "#1 to 'collideAndSlide' (collideslide.Mover" },
      { function() wf:collideAndSlide(mc, 1, 0, 0) end, "#1 to 'collideAndSlide' (collideslide.Mover" },
      { function() wc:add(ffi_cs.newMesh(V, I)) end, "#1 to 'add' (collideslide.Mesh" },
      { function() wf:add(c.newMesh(V, I)) end, "#1 to 'add' (collideslide.Mesh" },
      { function() wc.moverCount(wf) end, "#1 to 'moverCount' (collideslide.World" },
      { function() mf.getPosition(mc) end, "#1 to 'getPosition' (collideslide.Mover" },
      { function() wc:collideAndSlideMany({ mf }, { 0, 0, 0 }) end, "(mover 1: collideslide.Mover" },
    }
    for _, case in ipairs(cases) do
      local ok2, e = pcall(case[1])
      assert.is_false(ok2)
      local want = case[2] .. " expected, got " .. case[2]:match("(collideslide%.%a+)") .. mix .. ")"
      assert.is_truthy(tostring(e):find(want, 1, true), tostring(e))
    end
    -- a character of one binding updated in a world of the other: refused
    -- before its settings reach the mover (an independent tester)
    local cl = require("collideslide.layer")(c)   -- (the C module's layer, whatever CS_BACKEND says)
    for _, pair in ipairs { { ffi_cs, wc }, { cl, wf } } do
      local ch = pair[1].newCharacter {}
      ch.stepHeight = 0.1
      local ok2, e = pcall(function() ch:update(pair[2], 1 / 60, { x = 1 }) end)
      assert.is_false(ok2)
      assert.is_truthy(tostring(e):find("bad argument #1 to 'update' (world expected, got collideslide.World"
        .. mix .. ")", 1, true), tostring(e))
      ok2, e = pcall(pair[1].updateCharacters, pair[2], { ch }, 1 / 60)
      assert.is_false(ok2)
      assert.is_truthy(tostring(e):find("bad argument #2 to 'updateCharacters' (character 1: its mover is "
        .. "from the other binding than the world (the C module's objects and collideslide.ffi's do not mix))",
        1, true), tostring(e))
      assert.are.equal(0.3, ch.mover.stepHeight)
    end
  end)

  it("finds its library beside ffi.lua in a LÖVE game started from another directory", function()
    -- LÖVE names the game's files inside the game ("@collideslide/ffi.lua");
    -- the library beside ffi.lua was missed unless love ran from inside the
    -- game's folder (found by an independent tester). A love.filesystem that
    -- answers getRealDirectory as LÖVE 11 does stands in for LÖVE here.
    local lib = os.getenv("COLLIDESLIDE_LIB")
    if not lib or lib == "" then return end         -- (the FFI run names the library)
    local game = os.tmpname()
    os.remove(game)
    assert(os.execute(("mkdir -p %q && cp -r lua/collideslide %q/ && cp %q %q"):format(
      game, game, lib, game .. "/collideslide/libcollideslide.so")))
    local code = ([[
      local GAME = %q
      love = { filesystem = { getRealDirectory = function(rel)
        local f = io.open(GAME .. "/" .. rel, "rb")
        if not f then error("File does not exist") end
        f:close()
        return GAME
      end } }
      package.path = GAME .. "/?.lua;" .. GAME .. "/?/init.lua"
      package.cpath = ""
      local src = assert(io.open(GAME .. "/collideslide/ffi.lua", "rb")):read("*a")
      package.preload["collideslide.ffi"] = function()
        return assert(loadstring(src, "@collideslide/ffi.lua"))()
      end
      local ok, e = pcall(require, "collideslide.ffi")
      io.write(ok and "ok\n" or ("failed: " .. tostring(e) .. "\n"))
    ]]):format(game)
    local cmd = ("cd / && env -u COLLIDESLIDE_LIB %s -e %q 2>&1"):format(H.LUA, code)
    local p = io.popen(cmd)
    local out = p:read("*a")
    p:close()
    os.execute(("rm -rf %q"):format(game))
    assert.are.equal("ok\n", out)
  end)

  -- a count hook raising from the n-th instruction on (a sandbox's time
  -- limit) in a filtered mover's second call, JIT off so that it fires in
  -- the binding's own code: resolving the first call's handles, a raise
  -- between its two marks broke the mover for good (an independent tester:
  -- n = 107)
  it("leaves a mover whose handles were being resolved usable under a raising hook", function()
    local code = H.RAISING_HOOK .. [[
      local cs = require "collideslide.ffi"
      local w = cs.newWorld()
      w:add(cs.newMesh(cs.box(-20, -1, -20, 20, 0, 20)))
      local broken = 0
      for n = 1, 200 do
        local m = cs.newMover { radius = 0.5, position = { 0, 0.51, 0 } }
        m.filter = function() return "slide" end
        w:collideAndSlide(m, 0.1, 0, 0, 0, -0.1, 0)
        under_raising_hook(n, function() w:collideAndSlide(m, 0.1, 0, 0, 0, -0.1, 0) end)
        if not pcall(function() m:getGroundBody(); w:collideAndSlide(m, 0.1, 0, 0, 0, -0.1, 0) end) then
          broken = broken + 1
        end
      end
      io.write("broken ", broken, "\n")
    ]]
    local out = H.child(code, "-joff")
    assert.are.equal("broken 0\n", out)
  end)

  it("finalizes live worlds, meshes, bodies and movers at the state's close", function()
    local code = [[
      local cs = require "collideslide.ffi"
      local keep = {}
      for i = 1, 20 do
        local w = cs.newWorld()
        local mesh = cs.newMesh({ -10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10 }, { 1, 2, 3, 1, 3, 4 })
        local b = w:add(mesh, 0, i, 0)
        local m = cs.newMover { radius = 0.5, position = { 0, i + 0.6, 0 } }
        m.filter = function() return w and "slide" end
        w:collideAndSlide(m, 0, 0, 0, 0, -1, 0)
        b.userdata = { w = w, m = m }
        keep[i] = (i % 2 == 0) and { m, b } or { mesh, w }
        local closed = cs.newMesh(cs.box(-1, -1, -1, 1, 1, 1))
        w:add(closed)
        w:addSensor(closed)
        getmetatable(closed).__close(closed)
      end
      io.write("ok\n")
    ]]
    local cmd = ("LUA_PATH=%q %s -e %q 2>&1; echo \"rc=$?\""):format(package.path, H.LUA, code)
    local p = io.popen(cmd)
    local out = p:read("*a")
    p:close()
    assert.truthy(out:find("ok\n", 1, true), out)
    assert.truthy(out:find("rc=0", 1, true), out)
  end)
end)
