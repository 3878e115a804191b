-- OBJ loader (lua/collideslide/obj.lua): every statement form it reads, the
-- ones it ignores, errors with file and line, and a round trip through a file.
-- parseOBJ runs on strings; loadOBJ on temporary files.
local cs = require "collideslide"

-- Lines joined with "\n" (or sep), ending with one.
local function lines(t, sep)
  sep = sep or "\n"
  return table.concat(t, sep) .. sep
end

local errorOf = require("helper").errorOf

-- Writes text to a fresh temporary file; returns its path.
local function tempFile(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

-- A unit square's four corners, as OBJ vertex lines.
local SQUARE = { "v 0 0 0", "v 1 0 0", "v 1 0 1", "v 0 0 1" }

local function square(...)
  local t = {}
  for i, l in ipairs(SQUARE) do t[i] = l end
  for _, l in ipairs { ... } do t[#t + 1] = l end
  return lines(t)
end

describe("OBJ", function()
  describe("parseOBJ", function()
    describe("when it reads vertices", function()
      it("returns them flat, x y z in order", function()
        local v, i, tags = cs.parseOBJ(lines { "v 1 2 3", "v -4.5 5e-1 +6E2", "f 1 2 1" })
        assert.are.same({ 1, 2, 3, -4.5, 0.5, 600 }, v)
        assert.are.same({ 1, 2, 1 }, i)
        assert.is_nil(tags)
      end)

      it("ignores w and anything after x y z", function()
        local v = cs.parseOBJ(lines { "v 1 2 3 0.5", "v 4 5 6 1 0 0" })
        assert.are.same({ 1, 2, 3, 4, 5, 6 }, v)
      end)

      it("takes tabs, repeated spaces and leading blanks", function()
        local v = cs.parseOBJ(lines { "v\t1\t2\t3", "v   4  5   6  ", "   v 7 8 9" })
        assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9 }, v)
      end)
    end)

    describe("when it reads faces", function()
      it("keeps a triangle as it is", function()
        local _, i = cs.parseOBJ(square("f 1 2 3"))
        assert.are.same({ 1, 2, 3 }, i)
      end)

      -- (1) a quad      (2) a pentagon: fanned from the first vertex
      it("fans polygons from their first vertex", function()
        local _, i = cs.parseOBJ(square("f 1 2 3 4"))
        assert.are.same({ 1, 2, 3, 1, 3, 4 }, i)
        local _, i5 = cs.parseOBJ(lines { "v 0 0 0", "v 1 0 0", "v 2 0 1", "v 1 0 2", "v 0 0 1",
          "f 1 2 3 4 5" })
        assert.are.same({ 1, 2, 3, 1, 3, 4, 1, 4, 5 }, i5)
      end)

      it("reads the i, i/t, i//n and i/t/n forms alike", function()
        for _, f in ipairs { "f 1 2 3", "f 1/1 2/2 3/3", "f 1//1 2//2 3//3", "f 1/1/1 2/2/2 3/3/3",
                             "f 1/4/2 2//7 3" } do
          local _, i = cs.parseOBJ(square(f))
          assert.are.same({ 1, 2, 3 }, i, f)
        end
      end)

      it("counts negative indices back from the last vertex so far", function()
        local _, i = cs.parseOBJ(lines { "v 0 0 0", "v 1 0 0", "v 1 0 1", "f -3 -2 -1",
          "v 0 0 1", "f -4 -2 -1", "f -4/-1/-1 -3//-2 -2/1" })
        assert.are.same({ 1, 2, 3, 1, 3, 4, 1, 2, 3 }, i)
      end)

      it("reads fo (an old name of f)", function()
        local _, i = cs.parseOBJ(square("fo 1 2 3"))
        assert.are.same({ 1, 2, 3 }, i)
      end)
    end)

    describe("when the text holds other things", function()
      it("skips comments, blank lines and the statements it does not use", function()
        local v, i = cs.parseOBJ(lines {
          "# a comment", "", "   ", "\t", "mtllib scene.mtl", "o thing", "g part",
          "v 0 0 0", "vt 0 0", "vn 0 1 0", "vp 0.5", "v 1 0 0  # trailing", "v 1 0 1",
          "s 1", "usemtl stone", "l 1 2", "p 1", "f 1/1/1 2/1/1 3/1/1   ", "# end" })
        assert.are.same({ 0, 0, 0, 1, 0, 0, 1, 0, 1 }, v)
        assert.are.same({ 1, 2, 3 }, i)
      end)

      it("reads \\r\\n and \\r line endings as \\n ones", function()
        local t = { "# crlf", "v 0 0 0", "v 1 0 0", "v 1 0 1", "v 0 0 1", "f 1 2 3",
          "f 1/1 3/3 4/4", "f 1 2 3 4", "" }
        local v1, i1 = cs.parseOBJ(lines(t, "\r\n"))
        local v2, i2 = cs.parseOBJ(lines(t, "\n"))
        local v3, i3 = cs.parseOBJ(lines(t, "\r"))         -- (old Mac files: 1 vertex, no face)
        assert.are.same(v2, v1)
        assert.are.same(i2, i1)
        assert.are.same(v2, v3)
        assert.are.same(i2, i3)
        assert.are.same({ 1, 2, 3, 1, 3, 4, 1, 2, 3, 1, 3, 4 }, i1)
        assert.matches("^x%.obj:3: face index 9", errorOf(cs.parseOBJ, "v 0 0 0\rv 1 0 0\rf 1 2 9\r", "x.obj"))
      end)

      it("ends a face line at a '#', as a vertex line", function()
        local v, i = cs.parseOBJ(lines { "v 0 0 0", "v 1 0 0", "v 1 0 1 # c", "f 1 2 3 # a face", "f 1 2 3 #4" })
        assert.are.same({ 0, 0, 0, 1, 0, 0, 1, 0, 1 }, v)
        assert.are.same({ 1, 2, 3, 1, 2, 3 }, i)
      end)

      it("ends a line at a '#' glued to a number (found by an independent tester)", function()
        local v, i = cs.parseOBJ(lines { "v 0 0 0#origin", "v 1 0 0", "v 1 0 1", "f 1 2 3#floor" })
        assert.are.same({ 0, 0, 0, 1, 0, 0, 1, 0, 1 }, v)
        assert.are.same({ 1, 2, 3 }, i)
        assert.are.equal("x.obj:1: vertex with 2 coordinates (needs 3)", errorOf(cs.parseOBJ, "v 1 0 # two\n", "x.obj"))
      end)

      it("takes time in proportion to a long line of blanks", function()
        -- the name pattern was quadratic in a run of blanks: 64,000 took 17 s
        local blanks = string.rep(" ", 200000)
        local t0 = os.clock()
        local v, i = cs.parseOBJ(lines { "v 0 0 0", "v 1 0 0", "v 1 0 1", "# a" .. blanks .. "x",
          "g a" .. blanks .. "b", "vt 0" .. blanks .. "1", "f 1 2 3" .. blanks })
        assert.are.same({ 1, 2, 3 }, i)
        assert.are.equal(9, #v)
        assert.is_true(os.clock() - t0 < 2, "took " .. (os.clock() - t0) .. " s")
      end)

      it("reads a last line without a newline, a byte order mark and an empty text", function()
        local v, i = cs.parseOBJ("\239\187\191v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3")
        assert.are.same({ 0, 0, 0, 1, 0, 0, 1, 0, 1 }, v)
        assert.are.same({ 1, 2, 3 }, i)
        local ve, ie = cs.parseOBJ("")
        assert.are.same({}, ve)
        assert.are.same({}, ie)
      end)
    end)

    describe("with options.tags", function()
      local TEXT = lines { "v 0 0 0", "v 1 0 0", "v 1 0 1", "v 0 0 1",
        "f 1 2 3",                            -- no material, no group
        "o crate", "g lid", "usemtl wood", "f 1 2 3 4",
        "usemtl metal", "f 1 2 3", "g hinge", "f 2 3 4" }

      it("calls a function with the material, group and object names", function()
        local calls = {}
        local codes = { wood = 1, metal = 2 }
        local _, _, tags = cs.parseOBJ(TEXT, "crate.obj", { tags = function(m, g, o)
          calls[#calls + 1] = { m, g, o }
          return (codes[m] or 0) * 10 + (g == "hinge" and 1 or 0)
        end })
        assert.are.same({ 0, 10, 10, 20, 21 }, tags)
        -- once per change of names that precedes a face, not once per triangle
        assert.are.same({ { nil, nil, nil }, { "wood", "lid", "crate" },
          { "metal", "lid", "crate" }, { "metal", "hinge", "crate" } }, calls)
      end)

      it("looks a table up by material, then group, then object (default 0)", function()
        local _, _, tags = cs.parseOBJ(TEXT, nil, { tags = { metal = 7, lid = 3 } })
        assert.are.same({ 0, 3, 3, 7, 7 }, tags)
        local _, _, t2 = cs.parseOBJ(TEXT, nil, { tags = { crate = 5 } })
        assert.are.same({ 0, 5, 5, 5, 5 }, t2)
      end)

      it("ends a name at a '#' after a blank, a comment (found by an independent tester)", function()
        local seen = {}
        local text = lines { "v 0 0 0", "v 1 0 0", "v 1 0 1", "usemtl metal # shiny", "g floor\t# the floor",
          "o Material#1  ", "f 1 2 3", "usemtl # none", "f 1 2 3" }
        local _, _, tags = cs.parseOBJ(text, nil, { tags = function(m, g, o)
          seen[#seen + 1] = { m, g, o }
          return m == "metal" and 7 or 0
        end })
        assert.are.same({ 7, 0 }, tags)
        assert.are.same({ { "metal", "floor", "Material#1" }, { "", "floor", "Material#1" } }, seen)
        local _, _, t2 = cs.parseOBJ(text, nil, { tags = { metal = 7 } })
        assert.are.same({ 7, 0 }, t2)
      end)

      it("rejects a tag that is not an integer, naming the line", function()
        local err = errorOf(cs.parseOBJ, TEXT, "crate.obj", { tags = function(m)
          return m == "metal" and 1.5 or 0
        end })
        assert.matches("^crate%.obj:11: options%.tags gave 1%.5 for material metal", err)
        -- and one past 32 bits (newMesh's range), which newMesh refused without a line
        err = errorOf(cs.parseOBJ, TEXT, "crate.obj", { tags = function(m) return m == "metal" and 2 ^ 31 or 0 end })
        assert.matches("^crate%.obj:11: options%.tags gave 2147483648 for material metal.*32%-bit integer", err)
        -- the object named too, when the tag came from it (found by an independent tester)
        err = errorOf(cs.parseOBJ, TEXT, "crate.obj", { tags = { crate = 2 ^ 31 } })
        assert.matches("^crate%.obj:9: options%.tags gave 2147483648 for material wood, group lid, object crate %(", err)
        -- a string is named as one ("gave 3" read as an integer it is not:
        -- found by an independent tester)
        err = errorOf(cs.parseOBJ, TEXT, "crate.obj", { tags = { metal = "3" } })
        assert.matches('^crate%.obj:11: options%.tags gave string "3" for material metal', err)
        err = errorOf(cs.parseOBJ, TEXT, "crate.obj", { tags = { metal = {} } })
        assert.matches("^crate%.obj:11: options%.tags gave table for material metal", err)
      end)
    end)

    describe("when the text is wrong", function()
      -- each case: the lines, then the error it must give
      local CASES = {
        { { "v 0 0 0", "v 1 0 0", "v 1 1 0", "f 1 2 40" }, "model.obj:4: face index 40 out of range (1..3)" },
        { { "v 0 0 0", "v 1 0 0", "f 1 2 3", "v 1 1 0" }, "model.obj:3: face index 3 out of range (1..2)" },
        { { "v 0 0 0", "v 1 0 0", "v 1 1 0", "f 0 1 2" }, "model.obj:4: face index 0 out of range (1..3)" },
        { { "v 0 0 0", "v 1 0 0", "v 1 1 0", "f -4 -1 -2" }, "model.obj:4: face index -4 out of range (1..3)" },
        { { "v 0 0 0", "v 1 0 0", "v 1 1 0", "f 1/1 2/2 9/3 1" }, "model.obj:4: face index 9 out of range (1..3)" },
        { { "# x", "v 0 0 0", "v 1 0 0", "v 1 1 0", "f 1 2" }, "model.obj:5: face with 2 vertices (needs at least 3)" },
        { { "v 0 0 0", "f" }, "model.obj:2: face with 0 vertices (needs at least 3)" },
        { { "v 0 0 0", "v 1 0 0", "v 1 1 0", "f 1 2 a" }, "model.obj:4: bad face vertex 'a'" },
        { { "v 0 0 0", "v 1 0 0", "v 1 1 0", "f 1 2 3/4/5/6" }, "model.obj:4: bad face vertex '3/4/5/6'" },
        { { "v 0 0 0", "v 1 x 0" }, "model.obj:2: bad number 'x' in vertex" },
        { { "v 0 0 0", "v 1 0 nan" }, "model.obj:2: bad number 'nan' in vertex" },
        { { "v 0 0 0", "v 1 0 1e999" }, "model.obj:2: bad number '1e999' in vertex" },
        -- LuaJIT's tonumber reads binary literals, Lua 5.1-5.4 do not: the
        -- same file must read the same on all (found by an independent tester)
        { { "v 0 0 0", "v 0b101 0 0" }, "model.obj:2: bad number '0b101' in vertex" },
        { { "v 0 0 0", "v 1 -0B1 0 # x" }, "model.obj:2: bad number '-0B1' in vertex" },
        { { "v 0 0 0", "", "v 1 0" }, "model.obj:3: vertex with 2 coordinates (needs 3)" },
      }
      for n, case in ipairs(CASES) do
        it("(" .. n .. ") says: " .. case[2], function()
          assert.are.equal(case[2], errorOf(cs.parseOBJ, lines(case[1]), "model.obj"))
          assert.are.equal(case[2], errorOf(cs.parseOBJ, lines(case[1], "\r\n"), "model.obj"))
        end)
      end

      it("names the text (obj) when no chunk name is given", function()
        assert.are.equal("(obj):1: face with 0 vertices (needs at least 3)",
          errorOf(cs.parseOBJ, "f\n"))
      end)

      it("checks its arguments", function()
        assert.matches("bad argument #1 to 'parseOBJ' %(string expected, got no value%)",
          errorOf(cs.parseOBJ))
        assert.matches("bad argument #2 to 'parseOBJ'", errorOf(cs.parseOBJ, "", 5))
        assert.matches("bad argument #3 to 'parseOBJ'", errorOf(cs.parseOBJ, "", "x", 5))
        assert.matches("options%.tags", errorOf(cs.parseOBJ, "", "x", { tags = 5 }))
      end)

      -- found by an independent tester: unknown options and bad backfaces
      -- were taken silently (newMesh and loadOBJ refuse them)
      it("checks its options as newMesh does, in its own words", function()
        local text = square("usemtl grass", "f 1 2 3")
        local function parse(options) local v = cs.parseOBJ(text, "level.obj", options); return v end
        local cases = {                 -- options, message, newMesh's too
          { { tgs = { grass = 2 } }, "unknown option 'tgs' (options are tags, backfaces)", true },
          { { tags = {}, [1] = 2 }, "unknown option (a number key)", true },
          { { backfaces = "x" }, 'options.backfaces must be "collide" or "ignore", got "x"', true },
          { { backfaces = true }, 'options.backfaces must be "collide" or "ignore", got boolean', true },
          { { tags = 5 }, "options.tags must be a function or a table, got number" },
        }
        for _, c in ipairs(cases) do
          local e = errorOf(parse, c[1])
          assert.matches("obj_spec%.lua:%d+: ", e)
          assert.truthy(e:find("bad argument #3 to 'parseOBJ' (" .. c[2] .. ")", 1, true), e)
          if c[3] then
            e = errorOf(cs.newMesh, { 0, 0, 0, 1, 0, 0, 0, 0, 1 }, nil, c[1])
            assert.truthy(e:find("bad argument #3 to 'newMesh' (" .. c[2] .. ")", 1, true), e)
          end
        end
        local _, _, tags = cs.parseOBJ(text, nil, { tags = { grass = 2 }, backfaces = "ignore" })
        assert.are.same({ 2 }, tags)
      end)
    end)
  end)

  describe("loadOBJ", function()
    local paths = {}
    local function temp(text)
      local p = tempFile(text)
      paths[#paths + 1] = p
      return p
    end
    teardown(function()
      for _, p in ipairs(paths) do os.remove(p) end
    end)

    it("returns a mesh of the file's triangles", function()
      local path = temp(square("f 1 2 3 4", "f 1 3 2"))
      local mesh = cs.loadOBJ(path)
      assert.are.equal(3, mesh:triangleCount())
      assert.are.equal(4, mesh:vertexCount())
      assert.are.same({ 0, 0, 0, 1, 0, 1 }, { mesh:bounds() })
    end)

    it("passes tags and backfaces to newMesh", function()
      local path = temp(square("usemtl grass", "f 1 2 3", "usemtl rock", "f 1 3 4"))
      local mesh = cs.loadOBJ(path, { tags = { grass = 1, rock = 2 }, backfaces = "ignore" })
      assert.are.equal(2, mesh:triangleCount())
      if mesh.getTag then
        assert.are.equal(1, mesh:getTag(1))
        assert.are.equal(2, mesh:getTag(2))
      end
      if mesh.getBackfaces then assert.are.equal("ignore", mesh:getBackfaces()) end
    end)

    it("names the file and the line in its errors", function()
      local path = temp(lines { "v 0 0 0", "v 1 0 0", "v 1 1 0", "", "f 1 2 40" })
      assert.are.equal(path .. ":5: face index 40 out of range (1..3)", errorOf(cs.loadOBJ, path))
    end)

    it("names a file it cannot open", function()
      local path = os.tmpname() .. "-missing.obj"
      local err = errorOf(cs.loadOBJ, path)
      assert.truthy(err:find(path, 1, true), err)
    end)

    it("says why it cannot read a file it opened (a directory)", function()
      local dir = os.tmpname()
      os.remove(dir)
      if not os.execute("mkdir " .. dir) then return end
      local err = errorOf(cs.loadOBJ, dir)
      os.execute("rmdir " .. dir)
      -- (io.open opens a directory on Linux; the read's reason was dropped)
      if not err:find("cannot open", 1, true) then
        assert.truthy(err:find("cannot read OBJ file '" .. dir .. "': Is a directory", 1, true), err)
      end
    end)

    it("checks its arguments", function()
      assert.matches("bad argument #1 to 'loadOBJ'", errorOf(cs.loadOBJ, 42))
      assert.matches("bad argument #2 to 'loadOBJ'", errorOf(cs.loadOBJ, "x.obj", 42))
      -- its options before the file is read, as parseOBJ checks them
      local missing = os.tmpname() .. "-missing.obj"
      assert.truthy(errorOf(cs.loadOBJ, missing, { tgs = 1 }):find(
        "bad argument #2 to 'loadOBJ' (unknown option 'tgs' (options are tags, backfaces))", 1, true))
      assert.truthy(errorOf(cs.loadOBJ, missing, { backfaces = "x" }):find(
        "bad argument #2 to 'loadOBJ' (options.backfaces must be \"collide\" or \"ignore\", got \"x\")", 1, true))
    end)

    describe("with a box written out and read back", function()
      -- cs.box -> OBJ text -> file -> loadOBJ: the same box, every face outward
      local V, I = cs.box(-1, 0, 2, 3, 1.5, 2.25)
      local out = { "# a box from cs.box" }
      for k = 1, #V, 3 do out[#out + 1] = ("v %.17g %.17g %.17g"):format(V[k], V[k + 1], V[k + 2]) end
      for k = 1, #I, 3 do out[#out + 1] = ("f %d %d %d"):format(I[k], I[k + 1], I[k + 2]) end
      local text = lines(out)

      it("parses back to the very same arrays", function()
        local v, i = cs.parseOBJ(text)
        assert.are.same(V, v)
        assert.are.same(I, i)
      end)

      it("loads as a closed box of 12 triangles facing outward", function()
        local mesh = cs.loadOBJ(temp(text))
        assert.are.equal(12, mesh:triangleCount())
        assert.are.equal(8, mesh:vertexCount())
        assert.are.equal(0, mesh:degenerateCount())
        assert.are.same({ -1, 0, 2, 3, 1.5, 2.25 }, { mesh:bounds() })
        local cx, cy, cz = 1, 0.75, 2.125
        for t = 1, 12 do
          local a, b, c = I[3 * t - 2], I[3 * t - 1], I[3 * t]
          local function p(k) return V[3 * k - 2], V[3 * k - 1], V[3 * k] end
          local ax, ay, az = p(a)
          local bx, by, bz = p(b)
          local qx, qy, qz = p(c)
          local ux, uy, uz = bx - ax, by - ay, bz - az
          local wx, wy, wz = qx - ax, qy - ay, qz - az
          local nx, ny, nz = uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx
          local out_ = nx * (ax - cx) + ny * (ay - cy) + nz * (az - cz)
          assert.is_true(out_ > 0, "triangle " .. t .. " faces inward")
        end
      end)

      it("stops a mover falling onto it", function()
        local world = cs.newWorld()
        world:add(cs.loadOBJ(temp(text)))
        local m = cs.newMover { radius = 0.5, position = { 1, 3, 2.125 } }
        local _, y = world:collideAndSlide(m, 0, 0, 0, 0, -5, 0)
        assert.is_true(math.abs(y - (1.5 + 0.5 + m.skin)) <= 1e-6, "y = " .. y)
        assert.is_true(m:isOnGround())
      end)
    end)
  end)
end)
