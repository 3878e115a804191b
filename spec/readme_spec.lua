-- spec/readme_spec.lua: the README's first screen tells the truth. Its first Lua
-- example runs (in this process, on the binding under test) and prints exactly
-- the block that follows it; every example in examples/ is in its table; the
-- pictures it shows exist; it says what is not included.

local function read(path)
  local f = assert(io.open(path, "rb"), "cannot open " .. path)
  local s = f:read("*a")
  f:close()
  return s
end

local README = read("README.md")

describe("README.md", function()
  it("its first example prints what the README says it prints", function()
    local code, shown = README:match("```lua\n(.-)```%s*\n[^\n`]*\n*```\n(.-)```")
    assert.is_string(code, "no ```lua block followed by an output block")
    local lines = 0
    for _ in code:gmatch("\n") do lines = lines + 1 end
    assert.is_true(lines <= 12, "the first example has " .. lines .. " lines (12 at most)")
    local out = {}
    local env = setmetatable({
      print = function(...)
        local t = {}
        for i = 1, select("#", ...) do t[i] = tostring((select(i, ...))) end
        out[#out + 1] = table.concat(t, "\t")
      end,
    }, { __index = _G })
    local chunk
    if setfenv then chunk = assert(loadstring(code, "=README")); setfenv(chunk, env)
    else chunk = assert(load(code, "=README", "t", env)) end
    chunk()
    assert.equal(shown, table.concat(out, "\n") .. "\n")
  end)

  it("lists every example", function()
    local p = assert(io.popen("ls examples"))
    for name in p:lines() do
      if name:match("%.lua$") or not name:match("%.") and name ~= "out" then
        local path = "examples/" .. name .. (name:match("%.lua$") and "" or "/")
        assert.is_truthy(README:find("`" .. path, 1, true), path .. " is not in the README's table")
      end
    end
    p:close()
  end)

  it("plain `make` builds and installs nothing (install is asked for by name)", function()
    local p = assert(io.popen("make -n -B all 2>&1; echo; make -n 2>&1"))
    local out = p:read("*a")
    p:close()
    assert.is_falsy(out:find("install ", 1, true), out)
    assert.is_truthy(out:find("collideslide/core.so", 1, true), out)
  end)

  it("shows pictures that exist, and says what is not included", function()
    for path in README:gmatch("!%b[]%(([^)]+)%)") do
      assert.is_truthy(io.open(path), path .. " is shown but does not exist")
    end
    assert.is_truthy(README:find("docs/walk.svg", 1, true))
    local first = README:sub(1, README:find("\n## ", 1, true))
    assert.is_truthy(first:find("**Not included**", 1, true))
    assert.is_truthy(first:find("no rigid-body dynamics", 1, true))
    assert.is_truthy(first:find("world:addMover", 1, true))     -- movers meet only when added
    assert.is_truthy(first:find("examples/love-minimal/main.lua", 1, true))
    assert.is_truthy(first:find("make LUA=luajit", 1, true))
  end)
end)
