rockspec_format = "3.0"
package = "collideslide"
version = "scm-1"
source = { url = "git+https://github.com/collideslide/collideslide.git" }
description = {
  summary = "Ellipsoid collide-and-slide against triangle meshes (C99 core)",
  detailed = [[Swept ellipsoids against static and moving triangle meshes:
    sliding, two-pass gravity, ground state, moving platforms and queries.]],
  license = "MIT",
  homepage = "https://github.com/collideslide/collideslide",
  issues_url = "https://github.com/collideslide/collideslide/issues",
  labels = { "collision", "gamedev", "physics", "love" },
}
dependencies = { "lua >= 5.1" }
-- `luarocks test` from a source checkout: the specs (busted, a C compiler and
-- make, as for a build from source; see docs/RELEASE.md).
test = { type = "command", command = "make test TEST_VALGRIND=0" }
build = {
  type = "builtin",
  modules = {
    ["collideslide.core"] = {
      sources = { "csrc/cs_alloc.c", "csrc/cs_check.c", "csrc/cs_mesh.c", "csrc/cs_bvh.c", "csrc/cs_body.c",
                  "csrc/cs_broad.c",
                  "csrc/cs_geom.c", "csrc/cs_espace.c", "csrc/cs_sweep.c", "csrc/cs_slide.c", "csrc/cs_mover.c",
                  "csrc/cs_world.c", "csrc/cs_query.c", "csrc/cs_sensor.c", "csrc/cs_ellipsoid.c",
                  "csrc/cs_thread.c", "csrc/cs_batch.c",
                  "csrc/cs_lua.c", "csrc/cs_lua_mesh.c", "csrc/cs_lua_world.c",
                  "csrc/cs_lua_mover.c", "csrc/cs_lua_query.c" },
      incdirs = { "csrc" },
    },
    collideslide = "lua/collideslide/init.lua",
    ["collideslide.obj"] = "lua/collideslide/obj.lua",
    ["collideslide.character"] = "lua/collideslide/character.lua",
    ["collideslide.svg"] = "lua/collideslide/svg.lua",
    ["collideslide.layer"] = "lua/collideslide/layer.lua",
    ["collideslide.check"] = "lua/collideslide/check.lua",
    ["collideslide.draw"] = "lua/collideslide/draw.lua",
    ["collideslide.ffi"] = "lua/collideslide/ffi.lua",     -- LuaJIT only; finds libcollideslide or core.so
  },
  -- libm and POSIX threads on unix (Linux, the BSDs, macOS) only: on Windows
  -- (MSVC or MinGW) the core uses Win32 threads and links neither. An
  -- override can add to a list but not empty it, so the base has none.
  platforms = {
    unix = {
      modules = {
        ["collideslide.core"] = {
          defines = { "_POSIX_C_SOURCE=200809L" },
          libraries = { "m", "pthread" },
        },
      },
    },
  },
}
