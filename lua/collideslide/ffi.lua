-- collideslide/ffi.lua: the LuaJIT FFI binding of the C core, for LuaJIT hosts
-- (LÖVE, LOVR, plain luajit) without a C compiler for the Lua module:
--
--     local cs = require "collideslide.ffi"
--
-- is the same API as `require "collideslide"` (docs/API.md): the same
-- functions, methods, fields, messages, 1-based indices and body handles. It is
-- a thin layer over csrc/collideslide.h, whose functions check every value and
-- word the errors (cs_world_error, cs_mover_error, cs_mesh_error); what is left
-- here is Lua's side (types, tables, indices, masks, handles, lifetimes), in the
-- words of the C module (csrc/cs_lua*.c). Where it finds the library (`make
-- ffi-lib` builds build/libcollideslide.so): docs/API.md, and load_library.
--
-- How it differs from the C module, apart from type() (tables, not userdata):
--   - Finalizers are cdata finalizers (ffi.gc) on the core pointers; a world's
--     holds its meshes, so a core mesh is freed after the worlds that use it.
--   - The handles of a call's contacts are resolved when first read, or before
--     the world changes (add, remove, close): the ones the C module gives.
--   - One FFI callback per kind (filter, mover filter, four query kinds), and
--     one context for the running call; the C calls that call back run with
--     jit.off (a callback from compiled code aborts LuaJIT), the others
--     (vectors through pointers) JIT-compile. A callback's error is parked,
--     the core stopped, the error raised again.
--   - A debug hook set with debug.sethook is off while this file's code runs
--     inside a call that calls back, on in the script's callbacks (its count
--     starts again at each): see ctx_enter.
--   - An object's state is its table's fields whose names start with "_"
--     (_p, the core pointer, ...): the binding's own, which a script must not
--     write (nothing stops it, and a written _p is a dangling pointer).
--   - A NULL cdata (ffi.cast("void *", 0)) compares equal to nil in LuaJIT,
--     so several arguments that may be nil take it as nil here (newMesh's
--     indices and options, add's transform, filter, skin, gravity, masks,
--     callbacks) where the C module refuses it ("got cdata"); the lists and
--     tables a call fills (collideAndSlideMany's out and grounded, contacts'
--     list), closestPoint's maxDistance, newMover's other fields, options.tags
--     and the elements of the lists a call reads refuse it in both (rawequal:
--     in a list it was called a hole). Found by independent testers; the
--     first is left as it is.
--   - A nil last declared argument followed by extra ones (collideAndSlide's
--     gz, then a ninth) is "no value" here, "nil" in the C module: the hot
--     calls declare no `...` (an independent tester's fuzzer; left).
-- See bench/RESULTS.md ("LuaJIT: FFI vs C module") for the speed of both.

if type(jit) ~= "table" then            -- (plain Lua has no FFI: say which module to use)
  error("collideslide.ffi is the LuaJIT FFI binding; under " .. _VERSION
    .. " require \"collideslide\" (the C module: make LUA=" .. _VERSION:gsub("Lua ", "lua") .. ")", 2)
end
local ffi = require "ffi"

local type, select, tonumber, tostring, error, pcall, rawget, rawequal, pairs, next =
  type, select, tonumber, tostring, error, pcall, rawget, rawequal, pairs, next
local getmetatable, setmetatable = getmetatable, setmetatable
local floor, huge, format = math.floor, math.huge, string.format

-- One core per Lua state: a second execution of this file (package.loaded
-- cleared, as busted's insulation does) returns the first one's module, so that
-- ffi.cdef runs once and objects stay compatible.
local REG = debug.getregistry()
local REG_KEY = "collideslide.ffi"
if REG[REG_KEY] then return REG[REG_KEY] end

-- Declarations: csrc/collideslide.h's, every one and unchanged, without its
-- comments and preprocessor lines (spec/ffi_spec.lua checks that the two sets
-- are the same).
local HEADER_CDEF = [[
typedef void *(*cs_AllocFn)(void *ud, void *ptr, size_t osize, size_t nsize);
typedef struct cs_Alloc { cs_AllocFn fn; void *ud; } cs_Alloc;
typedef struct cs_Vec3 { double x, y, z; } cs_Vec3;
typedef enum cs_Status {
  CS_OK = 0,
  CS_ENOMEM,
  CS_EINVAL,
  CS_ERANGE,
  CS_ETOOBIG,
  CS_EBUSY,
  CS_EABORT
} cs_Status;
const char *cs_status_string(cs_Status s);
typedef struct cs_Error {
  cs_Status status;
  int arg;
  char message[160];
} cs_Error;
cs_Alloc cs_default_alloc(void);
typedef struct cs_Mesh cs_Mesh;
enum { CS_BACKFACES_COLLIDE = 0, CS_BACKFACES_IGNORE = 1 };
typedef struct cs_MeshDesc {
  const double *vertices;
  size_t vertex_count;
  const unsigned *indices;
  size_t triangle_count;
  const int *tags;
  int backfaces;
} cs_MeshDesc;
cs_Status cs_mesh_new(const cs_Alloc *alloc, const cs_MeshDesc *desc,
                      cs_Mesh **out, size_t *bad_index);
void cs_mesh_free(cs_Mesh *mesh);
const cs_Error *cs_mesh_error(const cs_Mesh *mesh);
size_t cs_mesh_triangle_count(const cs_Mesh *mesh);
size_t cs_mesh_vertex_count(const cs_Mesh *mesh);
size_t cs_mesh_degenerate_count(cs_Mesh *mesh);
size_t cs_mesh_memory(const cs_Mesh *mesh);
int cs_mesh_backfaces(const cs_Mesh *mesh);
void cs_mesh_bounds(cs_Mesh *mesh, cs_Vec3 *lo, cs_Vec3 *hi);
void cs_mesh_vertex(const cs_Mesh *mesh, size_t i, cs_Vec3 *out);
void cs_mesh_triangle(const cs_Mesh *mesh, size_t t, unsigned idx[3]);
int cs_mesh_tag(const cs_Mesh *mesh, size_t t);
cs_Status cs_mesh_set_vertex(cs_Mesh *mesh, size_t i, const cs_Vec3 *p);
cs_Status cs_mesh_set_vertices(cs_Mesh *mesh, const double *xyz);
void cs_mesh_refit(cs_Mesh *mesh);
typedef struct cs_World cs_World;
typedef struct cs_Body cs_Body;
cs_Status cs_world_new(const cs_Alloc *alloc, cs_World **out);
void cs_world_free(cs_World *world);
const cs_Error *cs_world_error(const cs_World *world);
cs_Status cs_world_add(cs_World *world, cs_Mesh *mesh, cs_Body **out);
void cs_world_remove(cs_World *world, cs_Body *body);
size_t cs_world_body_count(const cs_World *world);
cs_Status cs_world_set_friction(cs_World *world, int tag, double coefficient);
double cs_world_get_friction(const cs_World *world, int tag);
cs_Status cs_body_set_transform(cs_Body *body, const cs_Vec3 *t, const double q[4],
                                const cs_Vec3 *s);
cs_Status cs_body_set_matrix(cs_Body *body, const double m[16]);
void cs_body_get_matrix(const cs_Body *body, double m[16]);
cs_Status cs_body_set_velocity(cs_Body *body, const cs_Vec3 *v);
void cs_body_get_velocity(const cs_Body *body, cs_Vec3 *out);
cs_Status cs_body_set_layers(cs_Body *body, unsigned layers);
unsigned cs_body_get_layers(const cs_Body *body);
cs_Status cs_body_set_enabled(cs_Body *body, int enabled);
int cs_body_get_enabled(const cs_Body *body);
cs_Mesh *cs_body_mesh(const cs_Body *body);
void cs_body_bounds(cs_Body *body, cs_Vec3 *lo, cs_Vec3 *hi);
void cs_body_set_userdata(cs_Body *body, void *ud);
void *cs_body_get_userdata(const cs_Body *body);
typedef enum cs_GroundState {
  CS_GROUND_AIR = 0,
  CS_GROUND_ON,
  CS_GROUND_STEEP,
  CS_GROUND_UNSUPPORTED
} cs_GroundState;
typedef enum cs_Response {
  CS_RESPONSE_SLIDE = 0,
  CS_RESPONSE_TOUCH,
  CS_RESPONSE_CROSS
} cs_Response;
typedef int (*cs_FilterFn)(void *ud, const cs_Body *body, int tag);
typedef struct cs_Mover cs_Mover;
typedef int (*cs_MoverFilterFn)(void *ud, const cs_Mover *other);
typedef struct cs_Contact {
  cs_Vec3 point;
  cs_Vec3 normal;
  cs_Vec3 tri_normal;
  const cs_Body *body;
  unsigned triangle;
  int tag;
  int pass;
  const cs_Mover *mover;
} cs_Contact;
enum { CS_PASS_WALK = 0, CS_PASS_GRAVITY, CS_PASS_CARRY, CS_PASS_STEP,
       CS_PASS_SNAP, CS_PASS_DEPENETRATE };
cs_Status cs_mover_new(const cs_Alloc *alloc, cs_Mover **out);
void cs_mover_free(cs_Mover *mover);
const cs_Error *cs_mover_error(const cs_Mover *mover);
cs_Status cs_mover_set_position(cs_Mover *m, const cs_Vec3 *p);
void cs_mover_get_position(const cs_Mover *m, cs_Vec3 *out);
cs_Status cs_mover_set_radius(cs_Mover *m, const cs_Vec3 *r);
void cs_mover_get_radius(const cs_Mover *m, cs_Vec3 *out);
cs_Status cs_mover_set_orientation(cs_Mover *m, const double q[4]);
void cs_mover_get_orientation(const cs_Mover *m, double q[4]);
cs_Status cs_mover_set_up(cs_Mover *m, const cs_Vec3 *up);
void cs_mover_get_up(const cs_Mover *m, cs_Vec3 *out);
typedef enum cs_Setting {
  CS_MAX_ITERATIONS,
  CS_SKIN,
  CS_SLOPE_LIMIT,
  CS_BLOCK_STEEP_SLOPES,
  CS_STEP_HEIGHT,
  CS_SNAP_DISTANCE,
  CS_COLLIDES_WITH,
  CS_LAYERS
} cs_Setting;
cs_Status cs_mover_set(cs_Mover *m, cs_Setting s, double value);
double cs_mover_get(const cs_Mover *m, cs_Setting s);
cs_Status cs_mover_set_skin_auto(cs_Mover *m);
cs_Status cs_mover_set_filter(cs_Mover *m, cs_FilterFn fn, void *ud);
cs_Status cs_mover_set_mover_filter(cs_Mover *m, cs_MoverFilterFn fn, void *ud);
void cs_mover_mark_filtered(cs_Mover *m, int filtered);
size_t cs_mover_contact_count(const cs_Mover *m);
const cs_Contact *cs_mover_contact(const cs_Mover *m, size_t i);
cs_GroundState cs_mover_ground_state(const cs_Mover *m);
int cs_mover_ground(const cs_Mover *m, cs_Vec3 *normal, const cs_Body **body, int *tag);
const cs_Mover *cs_mover_ground_mover(const cs_Mover *m);
int cs_mover_was_stuck(const cs_Mover *m);
cs_Status cs_world_add_mover(cs_World *world, cs_Mover *m);
cs_Status cs_world_remove_mover(cs_World *world, cs_Mover *m);
size_t cs_world_mover_count(const cs_World *world);
cs_World *cs_mover_added_to(const cs_Mover *m);
void cs_mover_set_userdata(cs_Mover *m, void *ud);
void *cs_mover_get_userdata(const cs_Mover *m);
typedef struct cs_Sensor cs_Sensor;
typedef struct cs_SensorEvent {
  const cs_Sensor *sensor;
  int enter;
  double t;
} cs_SensorEvent;
cs_Status cs_world_add_sensor(cs_World *world, cs_Mesh *mesh, cs_Sensor **out,
                              unsigned bad_edge[2], int *uses);
void cs_world_remove_sensor(cs_World *world, cs_Sensor *sensor);
size_t cs_world_sensor_count(const cs_World *world);
cs_Status cs_sensor_set_transform(cs_Sensor *s, const cs_Vec3 *t, const double q[4],
                                  const cs_Vec3 *scale);
cs_Status cs_sensor_set_matrix(cs_Sensor *s, const double m[16]);
void cs_sensor_get_matrix(const cs_Sensor *s, double m[16]);
cs_Status cs_sensor_set_layers(cs_Sensor *s, unsigned layers);
unsigned cs_sensor_get_layers(const cs_Sensor *s);
void cs_sensor_set_userdata(cs_Sensor *s, void *ud);
void *cs_sensor_get_userdata(const cs_Sensor *s);
cs_Mesh *cs_sensor_mesh(const cs_Sensor *s);
int cs_sensor_contains(cs_Sensor *s, const cs_Vec3 *p);
size_t cs_mover_sensor_event_count(const cs_Mover *m);
const cs_SensorEvent *cs_mover_sensor_event(const cs_Mover *m, size_t i);
int cs_mover_is_inside(const cs_Mover *m, const cs_Sensor *s);
typedef struct cs_Hit {
  double t;
  cs_Vec3 point;
  cs_Vec3 normal;
  const cs_Body *body;
  unsigned triangle;
  int tag;
  const cs_Mover *mover;
} cs_Hit;
cs_Status cs_world_collide_and_slide(cs_World *w, cs_Mover *m, const cs_Vec3 *walk,
                                     const cs_Vec3 *gravity);
int cs_world_sweep(cs_World *w, const cs_Mover *m, const cs_Vec3 *d, cs_Hit *hit);
int cs_world_sweep_mask(cs_World *w, const cs_Mover *m, const cs_Vec3 *d, unsigned mask,
                        cs_Hit *hit);
int cs_world_sweep_ellipsoid(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                             const cs_Vec3 *d, unsigned mask, cs_Hit *hit);
int cs_world_raycast(cs_World *w, const cs_Vec3 *o, const cs_Vec3 *d, unsigned mask, cs_Hit *hit);
typedef int (*cs_HitFn)(void *ud, const cs_Hit *hit);
long cs_world_raycast_all(cs_World *w, const cs_Vec3 *o, const cs_Vec3 *d, unsigned mask,
                          cs_HitFn fn, void *ud);
int cs_world_closest_point(cs_World *w, const cs_Vec3 *p, double max_distance,
                           unsigned mask, cs_Hit *hit);
typedef int (*cs_TriFn)(void *ud, const cs_Body *body, unsigned triangle);
long cs_world_query_box(cs_World *w, const cs_Vec3 *lo, const cs_Vec3 *hi, unsigned mask,
                        cs_TriFn fn, void *ud);
typedef int (*cs_OverlapFn)(void *ud, const cs_Body *body, unsigned triangle,
                            double depth, const cs_Vec3 *normal);
long cs_world_overlap_ellipsoid(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                                unsigned mask, cs_OverlapFn fn, void *ud);
typedef int (*cs_MoverOverlapFn)(void *ud, const cs_Mover *other, double depth,
                                 const cs_Vec3 *normal);
long cs_world_overlap_movers(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                             unsigned mask, const cs_Mover *self, cs_MoverOverlapFn fn, void *ud);
long cs_world_overlap(cs_World *w, const cs_Vec3 *p, const cs_Vec3 *r, const double q[4],
                      unsigned mask, const cs_Mover *self, cs_OverlapFn tri_fn,
                      cs_MoverOverlapFn mover_fn, void *ud);
cs_Status cs_world_set_threads(cs_World *w, int k);
int cs_world_get_threads(const cs_World *w);
int cs_cpu_count(void);
cs_Status cs_world_prepare(cs_World *w);
typedef struct cs_CallScratch cs_CallScratch;
cs_Status cs_call_scratch_new(cs_World *w, cs_CallScratch **out);
void cs_call_scratch_free(cs_World *w, cs_CallScratch *sc);
cs_Status cs_world_collide_and_slide_in(cs_World *w, cs_CallScratch *sc, cs_Mover *m,
                                        const cs_Vec3 *walk, const cs_Vec3 *gravity);
int cs_world_sweep_in(cs_World *w, cs_CallScratch *sc, const cs_Mover *m, const cs_Vec3 *d,
                      cs_Hit *hit);
const cs_Error *cs_call_scratch_error(const cs_CallScratch *sc);
cs_Status cs_world_collide_and_slide_many(cs_World *w, cs_Mover *const *movers, size_t n,
                                          const double *moves, int stride, double *out,
                                          unsigned char *moved, size_t *failed);
const char *cs_batch_summary(char *buf, size_t size, const unsigned char *moved, size_t n,
                             size_t failed);
]]
local CS_VERSION = "0.1.0"      -- the header's CS_VERSION (spec/ffi_spec.lua checks it)

-- Once per state: a load that failed after this point (no library) must not
-- make the next attempt redefine the types.
if not REG["collideslide.ffi.cdef"] then
  ffi.cdef(HEADER_CDEF)
  REG["collideslide.ffi.cdef"] = true
end

local LIBEXT = ffi.os == "Windows" and "dll" or ffi.os == "OSX" and "dylib" or "so"

-- The library: $COLLIDESLIDE_LIB alone when set, else the first of these that
-- loads, in docs/API.md's order.
local function load_library()
  local env = os.getenv("COLLIDESLIDE_LIB")
  if env and env ~= "" then
    local ok, lib = pcall(ffi.load, env)
    if ok then return lib end
    error("collideslide.ffi: cannot load COLLIDESLIDE_LIB=" .. env .. ": " .. tostring(lib), 3)
  end
  local paths = {}          -- the places to try, in order; false: the system's search
  local function on_cpath(name, ext)
    for template in package.cpath:gmatch("[^;]+") do
      if template:find("?", 1, true) then
        local path = template:gsub("%?", name)
        paths[#paths + 1] = ext and path:gsub("%.so$", "." .. ext) or path
      end
    end
  end
  on_cpath("libcollideslide", LIBEXT)
  on_cpath("collideslide/libcollideslide", LIBEXT)
  local src = debug.getinfo(1, "S").source
  local dir = src:sub(1, 1) == "@" and src:sub(2):match("^(.*[/\\])") or "./"
  -- LÖVE names a game's files inside the game ("@collideslide/ffi.lua"): ask
  -- it for the real directory of each place its C require path looks (a
  -- library beside ffi.lua was missed unless love ran from inside the game's
  -- folder: found by an independent tester)
  local love = rawget(_G, "love")          -- (rawget: a strict.lua refuses unset globals)
  local lfs = type(love) == "table" and type(love.filesystem) == "table" and love.filesystem
  if lfs and lfs.getRealDirectory then
    for _, rel in ipairs { dir .. "libcollideslide." .. LIBEXT, "libcollideslide." .. LIBEXT,
                           "collideslide/libcollideslide." .. LIBEXT } do
      local ok, real = pcall(lfs.getRealDirectory, rel)
      if ok and type(real) == "string" then paths[#paths + 1] = real .. "/" .. rel end
    end
  end
  paths[#paths + 1] = dir .. "libcollideslide." .. LIBEXT
  paths[#paths + 1] = dir .. "../../build/libcollideslide." .. LIBEXT
  paths[#paths + 1] = false
  on_cpath("collideslide/core")                           -- the rock's C module
  local tried = {}
  for _, path in ipairs(paths) do
    if not path then
      local ok, lib = pcall(ffi.load, "collideslide")
      if ok then return lib end
      tried[#tried + 1] = "the system's library path (" .. tostring(lib) .. ")"
    elseif not tried[path] then
      tried[#tried + 1], tried[path] = path, true
      local f = io.open(path, "rb")
      if f then
        f:close()
        local ok, lib = pcall(ffi.load, path)
        if ok then return lib end
        tried[#tried] = path .. " (" .. tostring(lib) .. ")"
      end
    end
  end
  local hint = require("collideslide.check").loveHint("libcollideslide." .. LIBEXT)
  error("collideslide.ffi: libcollideslide." .. LIBEXT .. " not found (make ffi-lib builds it; "
    .. "COLLIDESLIDE_LIB=path picks it; a collideslide/core.so built for LuaJIT, as "
    .. "`luarocks --lua-version=5.1 make` or `make LUA=luajit` builds it, works too when it is on "
    .. "package.cpath (LÖVE's own C require path is not searched)"
    .. (hint and "; in LÖVE: " .. hint or "") .. "); tried:\n  "
    .. table.concat(tried, "\n  "), 3)
end

local C = load_library()

-- A library older than this file lacks functions it declares: said once,
-- here, not as "undefined symbol" at the first call of one (an independent tester).
for name in HEADER_CDEF:gmatch("[%s%*](cs_[%w_]+)%(") do
  if not pcall(function() return C[name] end) then
    error("collideslide.ffi: the library lacks " .. name .. ": it is older than this binding "
      .. "(rebuild it: make ffi-lib, or make LUA=luajit for the C module)", 2)
  end
end

-- Int views of functions returning an enum, which the FFI boxes (an
-- allocation, compared through metamethods); an enum has the ABI of an int.
local slide_call = ffi.cast("int (*)(cs_World *, cs_Mover *, const cs_Vec3 *, const cs_Vec3 *)",
  C.cs_world_collide_and_slide)
local ground_state = ffi.cast("int (*)(const cs_Mover *)", C.cs_mover_ground_state)
local many_call = ffi.cast("int (*)(cs_World *, cs_Mover *const *, size_t, const double *, int, "
  .. "double *, unsigned char *, size_t *)", C.cs_world_collide_and_slide_many)

-- Errors and argument checks, as the C module words them

local API = {}             -- every Lua-facing function -> the name errors use
local function new_mt(name) return { __name = "collideslide." .. name } end
local MESH_MT, WORLD_MT, BODY_MT, MOVER_MT, SENSOR_MT =
  new_mt "Mesh", new_mt "World", new_mt "Body", new_mt "Mover", new_mt "Sensor"

-- Raises msg with the position of the first caller outside this file, as
-- luaL_error prefixes the C module's errors; none when that caller is C.
local THIS_SOURCE = debug.getinfo(1, "S").source
local function raise(msg)
  local level = 2
  while true do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.source ~= THIS_SOURCE then
      if info.currentline > 0 then msg = info.short_src .. ":" .. info.currentline .. ": " .. msg end
      break
    end
    level = level + 1
  end
  error(msg, 0)
end

-- "bad argument #arg to 'fname' (msg)" for the nearest Lua-facing function on
-- the stack, numbered as luaL_argerror does (a method call does not count
-- self). obj: argument 1 is that object's ("mover"), so a bad one there was
-- a dot for a colon, and the message names the fix as the C module's does.
local function argerror(arg, msg, obj)
  local level, name, namewhat = 2, nil, nil
  while true do
    local info = debug.getinfo(level, "nf")
    if not info then break end
    local n = API[info.func]
    if n then name, namewhat = n, info.namewhat; break end
    level = level + 1
  end
  if namewhat == "method" then
    arg = arg - 1
    if arg == 0 then raise(format("calling '%s' on bad self (%s)", name, msg)) end
  elseif obj and arg == 1 and name and name:sub(1, 2) ~= "__" then
    msg = format("%s: call it with a colon, %s:%s(...)", msg, obj, name)
  end
  raise(format("bad argument #%d to '%s' (%s)", arg, name or "?", msg))
end

-- The same with a name and number given (metamethods); nil fname: argerror.
local function fail_at(arg, fname, msg)
  if fname == nil then return argerror(arg, msg) end
  raise(format("bad argument #%d to '%s' (%s)", arg, fname, msg))
end

-- The core's error e (a cs_Error *): argument base + e.arg (the core counts
-- its numbers from 1, see collideslide.h); with a prefix, always argument base.
local function core_fail(e, base, fname, prefix)
  local msg = ffi.string(e.message)
  if prefix then return argerror(base, prefix .. msg) end
  if e.arg == 0 then raise(fname .. ": " .. msg) end
  return argerror(base + e.arg, msg)
end

local function status_error(fname, s)
  raise(fname .. ": " .. ffi.string(C.cs_status_string(s)))
end

-- Numbers and type names as the messages show them (the Lua layer's, in the
-- C module's words). tname: "no value" for a missing argument (none: v and
-- every argument after it are nil).
local check = require "collideslide.check"
local fmtnum, check_tname = check.num2str, check.tname
local function tname(v, none)
  if rawequal(v, nil) and none then return "no value" end   -- (a NULL cdata is a value)
  return check_tname(v)
end

local function allnil(...)
  for i = 1, select("#", ...) do
    if not rawequal(select(i, ...), nil) then return false end
  end
  return true
end

-- Are the arguments from the first-th on of the nearest Lua-facing function
-- all nil (its declared ones, as they are now, and its varargs)? Then a nil
-- there is "no value", as the C module calls it (the error path only).
local function nil_from_arg(first)
  local level = 2
  while true do
    local info = debug.getinfo(level, "fu")
    if not info then return true end
    if API[info.func] then
      for i = first, info.nparams do
        if select(2, debug.getlocal(level, i)) ~= nil then return false end
      end
      local i = -(first > info.nparams and first - info.nparams or 1)   -- vararg k is argument nparams + k
      while info.isvararg do
        local name, v = debug.getlocal(level, i)
        if not name then break end
        if v ~= nil then return false end
        i = i - 1
      end
      return true
    end
    level = level + 1
  end
end

-- What to add to "<mt's name> expected, got t", as the C module's type_hint:
-- the fix for the likely mistakes (found by independent testers).
local function type_hint(mt, t)
  if mt == MOVER_MT and t == "collideslide.Character" then return " (pass character.mover)" end
  if t == mt.__name then
    return " from the other binding (the C module's objects and collideslide.ffi's do not mix)"
  end
  if mt == MESH_MT and t == "collideslide.Builder" then return " (a builder makes its mesh with builder:mesh())" end
  if mt == MESH_MT and t == "table" then
    return " (arrays, as cs.box gives, make a mesh with cs.newMesh(vertices, indices))"
  end
  return ""
end

-- v of type mt; errors to argument arg of fname (nil: the running function),
-- `none` as tname's (nil: found on the stack). check_live: alive too (its _p
-- set, not _closed). prefix: the messages' ("mover 3: ").
local function check_is(v, mt, arg, none, fname, prefix)
  if getmetatable(v) ~= mt then
    if v == nil and none == nil then none = nil_from_arg(arg + 1) end
    local t = tname(v, none)
    local hint = type_hint(mt, t)
    local msg = (prefix or "") .. mt.__name .. " expected, got " .. t .. hint
    if fname == nil and prefix == nil and hint == "" then
      argerror(arg, msg, string.lower(mt.__name:sub(14, 14)) .. mt.__name:sub(15))
    end
    fail_at(arg, fname, msg)
  end
  return v
end
local function check_live(v, mt, arg, none, fname, prefix)
  check_is(v, mt, arg, none, fname, prefix)
  if not v._p or rawget(v, "_closed") then
    fail_at(arg, fname, (prefix or "") .. "attempt to use a closed/collected " .. mt.__name:sub(14))
  end
  return v
end

-- A number (of any value: the core checks values); `...`: the arguments after
-- it, for "no value". check_vec3: x, y, z at arg .. arg + 2.
local function check_num(v, arg, name, ...)
  if type(v) ~= "number" then
    argerror(arg, format("%s must be a number, got %s", name, tname(v, allnil(...))))
  end
  return v
end
local function check_vec3(x, y, z, arg, names, ...)
  if type(x) == "number" and type(y) == "number" and type(z) == "number" then return end
  local pad = not allnil(...) and 0 or nil   -- before any other call (see check_xform)
  check_num(x, arg, names[1], y, z, pad)
  check_num(y, arg + 1, names[2], z, pad)
  check_num(z, arg + 2, names[3], pad)
end

-- 1 when v is a number with an integer value, 0 when it is no number, -1 when
-- it is a number without one (2.5, NaN, inf).
local function intval(v)
  if type(v) ~= "number" then return 0 end
  if v - v == 0 and v == floor(v) then return 1 end
  return -1
end

-- A 1-based index in 1..n; returns it 0-based.
local function check_index(v, arg, what, n, none)
  local r = intval(v)
  if r == 0 then argerror(arg, format("%s index must be an integer, got %s", what, tname(v, none))) end
  if r < 0 then argerror(arg, format("%s index must be an integer, got %s", what, fmtnum(v))) end
  if v < 1 or v > n then
    if n == 0 then argerror(arg, format("%s %s out of range (there are none)", what, fmtnum(v))) end
    argerror(arg, format("%s %s out of range 1..%s", what, fmtnum(v), fmtnum(n)))
  end
  return v - 1
end

-- A 32-bit integer: a tag (signed), or a mask (integers in [-2^31, 2^32 - 1],
-- negative ones as two's complement). fname, none: as check_is's.
local function check_int32(v, arg, fname, what, mask, none)
  local r, kind = intval(v), mask and " bitmask" or ""
  if r == 0 then
    fail_at(arg, fname, format("%s must be an integer%s, got %s", what, kind, tname(v, none)))
  end
  if r < 0 or v < -2147483648 or v > (mask and 4294967295 or 2147483647) then
    fail_at(arg, fname, format("%s must be a 32-bit integer%s, got %s", what, kind, fmtnum(v)))
  end
  if v < 0 and mask then return v + 4294967296 end
  return v
end
local function check_mask(v, arg, fname, what) return check_int32(v, arg, fname, what, true) end
local function opt_mask(v, arg)
  if v == nil then return 0xffffffff end
  return check_mask(v, arg, nil, "mask")
end

-- Is v one of the core's objects (a table here, userdata in the C module)?
-- It is no table of numbers or options, and the messages call it what the C
-- module's call it: "userdata" for type(), its __name otherwise. (The Lua
-- layer's objects, a Character or a Builder, are tables in both bindings.)
local CORE_MT = { [MESH_MT] = true, [WORLD_MT] = true, [BODY_MT] = true, [MOVER_MT] = true,
  [SENSOR_MT] = true }
local function ours(v)
  return type(v) == "table" and CORE_MT[getmetatable(v)] == true
end
local function ltype(v) return ours(v) and "userdata" or type(v) end

-- n numbers of a table-valued field (position = {x, y, z}, ...); their
-- values are the core's to check. A missing first one in a table of named
-- fields says so (check.namedHint, found by a first-hour user).
local function table_nums(arg, t, field, names, n)
  local out = {}
  for i = 1, n do
    local v = rawget(t, i)
    if type(v) ~= "number" then
      argerror(arg, format("%s: %s must be a number, got %s%s", field, names[i], ltype(v),
        v == nil and check.namedHint(t) or ""))
    end
    out[i] = v
  end
  return out
end

-- Raises "<what> has a hole at k (element j is set)" (check.holeMessage: the
-- first nil, whichever border # found, len). Returns when t has no hole.
local function hole_fail(arg, t, len, what)
  local msg = check.holeMessage(t, len, what)
  if msg then argerror(arg, msg) end
end

-- Rejects integer keys past n, the border # found: a hole. from: the key to
-- start at (a hot list's n: the keys after it in the table's order, as the C
-- module's check_array_tail, every key past n when 1..n sit in the array part).
local function check_array_end(arg, t, n, what, from)
  for k in next, t, from do
    if type(k) == "number" and k > n and k == floor(k) then return hole_fail(arg, t, n, what) end
  end
end

local function check_table(v, arg, none)   -- (an object named by its __name, as luaL_checktype does)
  if type(v) ~= "table" or ours(v) then
    if v == nil and none == nil then none = nil_from_arg(arg + 1) end
    argerror(arg, "table expected, got " .. tname(v, none))
  end
end

-- The object's own address, for __tostring.
local function address(o)
  local mt = getmetatable(o)
  setmetatable(o, nil)
  local s = tostring(o):match("0x%x+") or tostring(o)
  setmetatable(o, mt)
  return s
end

-- "unknown <Type> field ..." for __newindex, and its words for an unknown key
-- (one of ours: "a userdata key", as the C module).
local function unknown_key(k) return ours(k) and "userdata" or check.keyKind(k) end
local function unknown_field(kind, k, list)
  if check.keyKind(k) ~= "string" then
    fail_at(2, "__newindex", format("unknown %s field (a %s key)", kind, unknown_key(k)))
  end
  fail_at(2, "__newindex", format("unknown %s field '%s'%s", kind, k, list or ""))
end

-- Scratch memory: module-wide buffers serve calls that run no Lua code between
-- filling and reading them; each world has its own for its hot calls.
local ALLOC = ffi.new("cs_Alloc[1]", C.cs_default_alloc())
local vec_ct = ffi.typeof("cs_Vec3")
local V1, V2, V3, BOX, Q4, M16 = vec_ct(), vec_ct(), vec_ct(), ffi.new("cs_Vec3[2]"),
  ffi.new("double[4]"), ffi.new("double[16]")
local BOXD = ffi.cast("double *", BOX)
local MESH_OUT, WORLD_OUT = ffi.new("cs_Mesh *[1]"), ffi.new("cs_World *[1]")
local BODY_OUT, MOVER_OUT = ffi.new("cs_Body *[1]"), ffi.new("cs_Mover *[1]")
local SENSOR_OUT, BAD_INDEX = ffi.new("cs_Sensor *[1]"), ffi.new("size_t[1]")
local GROUND_N, GROUND_B, GROUND_T = ffi.new("cs_Vec3[1]"), ffi.new("const cs_Body *[1]"), ffi.new("int[1]")

-- The address of a pointer as a Lua number (exact: addresses fit in 53 bits),
-- read as 32-bit words (word_addr: at word i of u, a uint32_t *):
-- tonumber(ffi.cast(uintptr_t, p)) boxed a 64-bit number each time outside
-- compiled code. No Lua code runs between the write and the read.
local ptr_addr, word_addr
do                        -- (a block: the main chunk is at Lua's 200 locals)
  local buf = ffi.new("const void *[1]")
  local words = ffi.cast("const uint32_t *", buf)
  local PTR64, LE = ffi.sizeof("void *") == 8, ffi.abi("le")
  function word_addr(u, i)
    if not PTR64 then return u[i] end
    if LE then return u[i] + u[i + 1] * 4294967296 end
    return u[i] * 4294967296 + u[i + 1]
  end
  function ptr_addr(p)
    buf[0] = p
    return word_addr(words, 0)
  end
end

-- The cold getters: M.name(self) checks self (check(self, 1), a handle with
-- its core pointer in _p), calls the core function f on that pointer and
-- returns its answer or out-parameters as one of these kinds.
local GOT = {
  count = function(f, p) return tonumber(f(p)) end,
  int = function(f, p) return f(p) end,
  bool = function(f, p) return f(p) ~= 0 end,
  vec = function(f, p) f(p, V1); return V1.x, V1.y, V1.z end,
  quat = function(f, p) f(p, Q4); return Q4[0], Q4[1], Q4[2], Q4[3] end,
  bounds = function(f, p)            -- minx, miny, minz, maxx, maxy, maxz
    f(p, BOX, BOX + 1)
    return BOXD[0], BOXD[1], BOXD[2], BOXD[3], BOXD[4], BOXD[5]
  end,
  matrix = function(f, p)            -- 16 numbers, a column-major 4x4 matrix
    f(p, M16)
    local m = M16
    return m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11],
      m[12], m[13], m[14], m[15]
  end,
}
local function getters(M, check, list)     -- list: name -> { f, kind }
  for name, g in next, list do
    local f, got = g[1], GOT[g[2]]
    M[name] = function(self) return got(f, check(self, 1, true)._p) end   -- (self alone: nil is none)
  end
end

-- The cold setters of numbers: M.name(self, a, b, c [, d]) checks self, the
-- numbers (names: theirs; 3 go to f in V1, 4 in Q4; sphere: a alone stands for
-- a, a, a) and, if given, idle(self, name); f failing raises the core's error
-- (err(self), a cs_Error *).
local function setters(M, check, err, idle, list)  -- list: name -> { f, names [, sphere] }
  for name, g in next, list do
    local f, names, sphere = g[1], g[2], g[3]
    local q = names[4] ~= nil
    M[name] = function(self, a, b, c, d)
      check(self, 1)
      if sphere and b == nil and c == nil then b, c = a, a end
      check_vec3(a, b, c, 2, names, q and d or nil)
      if q then check_num(d, 5, names[4]) end
      if idle then idle(self, name) end
      if q then Q4[0], Q4[1], Q4[2], Q4[3] = a, b, c, d else V1.x, V1.y, V1.z = a, b, c end
      if f(self._p, q and Q4 or V1) ~= 0 then core_fail(err(self), 1, name) end
    end
  end
end

-- The numbers' names as the messages say them: x, y, z with a prefix ("vx").
local function xyz(prefix) return { prefix .. "x", prefix .. "y", prefix .. "z" } end
local XYZ, VXYZ, GXYZ, DXYZ, OXYZ = xyz "", xyz "v", xyz "g", xyz "d", xyz "o"
local PXYZ, RXYZ, MINXYZ, MAXXYZ = xyz "p", xyz "r", xyz "min", xyz "max"
local QXYZW = { "qx", "qy", "qz", "qw" }

-- Meshes

local Mesh = {}           -- methods

local function check_mesh(v, arg, none) return check_live(v, MESH_MT, arg, none) end

-- Takes the core pointer off handle h and its finalizer off the pointer, for
-- the caller to free it now; returns it (nil: done already).
local function unpin(h)
  local p = h._p
  if p then h._p = nil; ffi.gc(p, nil) end
  return p
end

-- The core mesh's finalizer, which frees it once: its handle's mesh_free may
-- come after it (at lua_close every finalizer runs, in no set order, so a
-- world's may release a closed mesh whose own finalizer already ran). done: a
-- table that does not reach the cdata (no cycle).
local function mesh_finalizer(done)
  local f = function(p)
    if not done[1] then done[1] = true; C.cs_mesh_free(p) end
  end
  jit.off(f)                -- (see world_finalizer)
  return f
end

-- Frees the core mesh now (unless its finalizer did; that is dropped).
local function mesh_free(m)
  local p = unpin(m)
  if p then m._free(p) end
end

-- A world no longer uses the mesh for n bodies.
local function mesh_release(m, n)
  m._users = m._users - (n or 1)
  if m._users <= 0 then
    m._users = 0
    if m._closed then mesh_free(m) end
  end
end
jit.off(mesh_release)       -- (see world_finalizer)

-- Coordinate comp (1..3) of vertex v, a finite number, else the error (a
-- nil in a flat array is a hole: read_triples raises it first).
local function coordinate(arg, x, v, comp)
  if type(x) == "number" and x - x == 0 and x <= 1e30 and x >= -1e30 then return x end
  local at = format("vertex %s: %s", fmtnum(v), XYZ[comp])
  if type(x) ~= "number" then argerror(arg, format("%s must be a number, got %s", at, ltype(x))) end
  if x - x ~= 0 then argerror(arg, format("%s is %s", at, fmtnum(x))) end
  argerror(arg, format("%s is out of range (|%s| > 1e30), got %s", at, XYZ[comp], fmtnum(x)))
end

-- One index of triangle tri: an integer in 1..nverts, returned 0-based.
local function index_value(arg, x, tri, _, nverts)
  if type(x) == "number" and x >= 1 and x <= nverts and x == floor(x) then return x - 1 end
  local at = "triangle " .. fmtnum(tri) .. ": index"
  if rawequal(x, nil) then argerror(arg, at .. " is nil (a hole)") end
  if type(x) ~= "number" then argerror(arg, format("%s must be an integer, got %s", at, ltype(x))) end
  if x - x ~= 0 or x ~= floor(x) then argerror(arg, format("%s %s is not an integer", at, fmtnum(x))) end
  argerror(arg, format("%s %s out of range 1..%s%s", at, fmtnum(x), fmtnum(nverts),
    x == 0 and " (indices are 1-based)" or ""))     -- (0: 0-based indices; an independent tester)
end

-- The vertices and the indices: their words, element reader and array type.
local VERTICES = { empty = "empty mesh (no vertices)", named = ": the table has a field 'vertices': "
    .. "give the arrays themselves (t.vertices, t.indices); a builder makes its mesh with builder:mesh()",
  first = "vertex 1 must be a number (flat array) or a table {x, y, z}, got ", array = "vertex array",
  not3 = "flat vertex array has %s numbers, not a multiple of 3", max = 0xfffffffe,
  too_many = "too many vertices",
  item = "vertex %s must be a table {x, y, z}, got %s", value = coordinate, ct = "double[?]",
  extra = "vertex %s has more than 3 coordinates, expected {x, y, z}" }
local INDICES = { empty = "empty mesh (no triangles)",
  first = "triangle 1: index must be an integer (flat array) or a table {a, b, c}, got ",
  array = "index array", not3 = "index count %s is not a multiple of 3", max = 0x3fffffff,
  too_many = "too many triangles", item = "triangle %s must be a table {a, b, c}, got %s",
  value = index_value, ct = "unsigned[?]",
  extra = "triangle %s has more than 3 indices (a quad {a, b, c, d} is two triangles, {a, b, c} and {a, c, d})" }

-- The table t at arg, flat {a1, b1, c1, ...} or {{a, b, c}, ...} (told apart
-- by the first element), read by K (VERTICES or INDICES) into a K.ct of 3 n
-- elements; returns it and n. extra: K.value's last argument.
local function read_triples(K, t, arg, none, extra)
  check_table(t, arg, none)
  local len = #t
  check_array_end(arg, t, len, K.array)       -- (a hole before the first)
  if len == 0 then argerror(arg, K.empty .. (K.named and rawget(t, "vertices") ~= nil and K.named or "")) end
  local first = ltype(rawget(t, 1))
  if first == "nil" then hole_fail(arg, t, len, K.array) end
  if first ~= "number" and first ~= "table" then argerror(arg, K.first .. first) end
  if first == "number" and len % 3 ~= 0 then
    hole_fail(arg, t, len, K.array)
    argerror(arg, format(K.not3, fmtnum(len)))
  end
  local n = first == "number" and len / 3 or len
  if n > K.max then argerror(arg, K.too_many) end
  local out, value, flat = ffi.new(K.ct, 3 * n), K.value, first == "number"
  for i = 0, n - 1 do
    local p, at = t, 3 * i               -- (flat: the numbers at 3i + 1 .. 3i + 3 of t)
    if not flat then
      p, at = rawget(t, i + 1), 0
      if rawequal(p, nil) then hole_fail(arg, t, len, K.array) end
      if ltype(p) ~= "table" then argerror(arg, format(K.item, fmtnum(i + 1), ltype(p))) end
    end
    for k = 1, 3 do
      local x = rawget(p, at + k)
      if rawequal(x, nil) and flat then hole_fail(arg, t, len, K.array) end
      out[3 * i + k - 1] = value(arg, x, i + 1, k, extra)
    end
    if not flat and rawget(p, 4) ~= nil then argerror(arg, format(K.extra, fmtnum(i + 1))) end
  end
  return out, n
end

-- options.tags (the table t): one 32-bit integer per triangle.
local function read_tags(arg, t, ntris)
  local len = #t
  check_array_end(arg, t, len, "options.tags")
  if len ~= ntris then
    hole_fail(arg, t, len, "options.tags")
    argerror(arg, format("options.tags has %s entries, expected %s (one per triangle)",
      fmtnum(len), fmtnum(ntris)))
  end
  local tags = ffi.new("int[?]", ntris > 0 and ntris or 1)
  for i = 1, ntris do
    local d = rawget(t, i)
    if rawequal(d, nil) then hole_fail(arg, t, len, "options.tags") end
    if type(d) ~= "number" then
      argerror(arg, format("options.tags: tag %s must be an integer, got %s", fmtnum(i), ltype(d)))
    end
    if d - d ~= 0 or d ~= floor(d) or d < -2147483648 or d > 2147483647 then
      argerror(arg, format("options.tags: tag %s must be a 32-bit integer, got %s", fmtnum(i), fmtnum(d)))
    end
    tags[i - 1] = d
  end
  return tags
end

local BACKFACES = { collide = C.CS_BACKFACES_COLLIDE, ignore = C.CS_BACKFACES_IGNORE,
  [C.CS_BACKFACES_COLLIDE] = "collide", [C.CS_BACKFACES_IGNORE] = "ignore" }

-- options: {tags = {...}, backfaces = "collide" | "ignore"}, read raw; unknown
-- keys are errors. Returns backfaces and the tags table (or nil).
local function read_options(o, arg)
  if o == nil then return C.CS_BACKFACES_COLLIDE, nil end
  check_table(o, arg)
  local bad = check.leastUnknown(o, { tags = true, backfaces = true })   -- (the C module's least_unknown)
  if bad ~= nil and check.keyKind(bad) ~= "string" then
    argerror(arg, format("unknown option (a %s key)", unknown_key(bad)))
  end
  if bad ~= nil then argerror(arg, format("unknown option '%s' (options are tags, backfaces)", bad)) end
  local s = rawget(o, "backfaces")
  local bf = (s == nil or type(s) == "string") and BACKFACES[s or "collide"]
  if not bf then
    argerror(arg, format('options.backfaces must be "collide" or "ignore", got %s',
      check.keyKind(s) == "string" and '"' .. s .. '"' or type(s) == "string"
      and "a string with a NUL byte" or ltype(s)))   -- (an object: "userdata", as the C module)
  end
  local tags = rawget(o, "tags")
  if not rawequal(tags, nil) and (type(tags) ~= "table" or ours(tags)) then
    argerror(arg, "options.tags must be a table, got " .. ltype(tags))
  end
  return bf, tags
end

--- cs.newMesh(vertices [, indices [, options]]) -> mesh
local function newMesh(...)
  local vt, it, o = ...
  check.notModule(vt, "newMesh", 1, newMesh)
  local v, nv = read_triples(VERTICES, vt, 1, allnil(...))
  local ix, nt
  if it == nil then
    if nv % 3 ~= 0 then
      argerror(1, format("vertex count %s is not a multiple of 3 (no indices given)", fmtnum(nv)))
    end
    nt = nv / 3
  else
    ix, nt = read_triples(INDICES, it, 2, false, nv)
  end
  local bf, tagst = read_options(o, 3)
  local tags = tagst and read_tags(3, tagst, nt) or nil
  local d = ffi.new("cs_MeshDesc", v, nv, ix, nt, tags, bf)
  MESH_OUT[0] = nil
  local s = C.cs_mesh_new(ALLOC, d, MESH_OUT, BAD_INDEX)
  if s ~= C.CS_OK then
    local bad = tonumber(BAD_INDEX[0])
    if s == C.CS_ERANGE then
      raise(format("newMesh: triangle %s: index out of range", fmtnum(floor(bad / 3) + 1)))
    elseif s == C.CS_EINVAL then
      raise(format("newMesh: invalid input at %s", fmtnum(bad + 1)))
    end
    status_error("newMesh", s)
  end
  local free = mesh_finalizer({ false })
  return setmetatable({ _p = ffi.gc(MESH_OUT[0], free), _free = free, _users = 0, _closed = false },
    MESH_MT)
end

-- Serves __gc and __close; safe to call twice. The core mesh waits for the last
-- world using it (mesh_release).
function MESH_MT.__gc(self)
  check_is(self, MESH_MT, 1)
  if not self._closed then
    self._closed = true
    if self._users <= 0 then mesh_free(self) end
  end
end

function MESH_MT.__tostring(self)
  if self._closed or not self._p then return "collideslide.Mesh (closed): " .. address(self) end
  return format("collideslide.Mesh (%d triangles): %s",
    tonumber(C.cs_mesh_triangle_count(self._p)), address(self))
end

getters(Mesh, check_mesh, { triangleCount = { C.cs_mesh_triangle_count, "count" },
  vertexCount = { C.cs_mesh_vertex_count, "count" }, memory = { C.cs_mesh_memory, "count" },
  degenerateCount = { C.cs_mesh_degenerate_count, "count" }, bounds = { C.cs_mesh_bounds, "bounds" } })

function Mesh.getBackfaces(self) return BACKFACES[C.cs_mesh_backfaces(check_mesh(self, 1)._p)] end

-- The mesh of self and the 0-based index of i (a vertex or triangle index).
local function mesh_index(self, i, what, none)
  local p = check_mesh(self, 1)._p
  local n = what == "vertex" and C.cs_mesh_vertex_count(p) or C.cs_mesh_triangle_count(p)
  return p, check_index(i, 2, what, tonumber(n), none)
end

--- mesh:getVertex(i) -> x, y, z; getTriangle(i) -> a, b, c (1-based vertex indices); getTag(i)
function Mesh.getVertex(self, i)
  local p, k = mesh_index(self, i, "vertex", true)
  C.cs_mesh_vertex(p, k, V1)
  return V1.x, V1.y, V1.z
end

local IDX3 = ffi.new("unsigned[3]")
function Mesh.getTriangle(self, i)
  local p, k = mesh_index(self, i, "triangle", true)
  C.cs_mesh_triangle(p, k, IDX3)
  return IDX3[0] + 1, IDX3[1] + 1, IDX3[2] + 1
end

function Mesh.getTag(self, i) return C.cs_mesh_tag(mesh_index(self, i, "triangle", true)) end

--- mesh:setVertex(i, x, y, z); the core refits before the mesh's next use.
function Mesh.setVertex(self, i, x, y, z)
  local p, k = mesh_index(self, i, "vertex", allnil(x, y, z))
  check_vec3(x, y, z, 3, XYZ)
  V1.x, V1.y, V1.z = x, y, z
  if C.cs_mesh_set_vertex(p, k, V1) ~= 0 then core_fail(C.cs_mesh_error(p), 1, "setVertex") end
end

--- mesh:setVertices(vertices): every vertex, in newMesh's forms.
function Mesh.setVertices(self, ...)
  local vt, none = ..., allnil(...)   -- first (see check_xform)
  local p = check_mesh(self, 1)._p
  local want = tonumber(C.cs_mesh_vertex_count(p))
  local v, n = nil, 0
  -- No vertices: the count's error, not "empty mesh". (not ours: an object
  -- said "expected 3 vertices, got 0" where the C module says "table
  -- expected, got collideslide.Mover": found by an independent tester)
  if type(vt) == "table" and not ours(vt) and #vt == 0 then
    check_array_end(2, vt, 0, VERTICES.array)
  else
    v, n = read_triples(VERTICES, vt, 2, none)
  end
  if n ~= want then
    argerror(2, format("expected %s vertices (the mesh's vertexCount), got %s", fmtnum(want), fmtnum(n)))
  end
  if C.cs_mesh_set_vertices(p, v) ~= 0 then core_fail(C.cs_mesh_error(p), 1, "setVertices") end
end

-- Worlds, and the meshes placed in them: bodies and sensors

local World, Body, Sensor = {}, {}, {}     -- methods

local function check_world(v, arg, none) return check_live(v, WORLD_MT, arg, none) end

-- A call that takes one object (what: "mover") refuses a non-nil argument
-- after it: world:addMover(a, b) added a alone (an independent tester).
local function check_one(what, fname, ...)
  for i = 1, select("#", ...) do
    if not rawequal(select(i, ...), nil) then
      argerror(2 + i, format("one %s expected: call %s once per %s", what, fname, what))
    end
  end
end

-- Adding or removing bodies from inside one of the world's own filters or query
-- callbacks would change the body list the core is walking: refused. Moves and
-- sweeps use the world's scratch, which a collideAndSlide whose filter runs
-- holds: refused (busy_moving). Queries are re-entrant.
local function check_idle(w, fname)
  if w._busy > 0 then
    raise(fname .. ": the world is busy (called from inside a filter or a query callback of the same world)")
  end
end
local function busy_moving(fname)
  raise(fname .. ": the world is busy (called from inside a filter of the same world)")
end
local function check_not_moving(w, fname)
  if w._moving then busy_moving(fname) end
end

local resolve_pending     -- (world): the contacts of its movers, see Movers

-- A transform in the forms of body:setTransform, the n values a[off + 1 ..
-- off + n]: returns {n = 3, 7, 10 or 16, the numbers}. first: the argument
-- number of the first value. The values are the core's to check. The callers
-- take their arguments as a table a at their start, before any call: Debian's
-- LuaJIT 2.1 (git 20220320) may read `...` wrongly in a trace after a call
-- that reallocated the stack (LuaJIT issues #864 and #1046).
local TRS_NAMES = { "x", "y", "z", "qx", "qy", "qz", "qw", "sx", "sy", "sz" }
local function check_xform(first, a, off, n)
  local v, t = {}, a[off + 1]
  if n == 1 and type(t) == "table" and not ours(t) then
    n = #t
    check_array_end(first, t, n, "transform table")
    if n ~= 3 and n ~= 7 and n ~= 10 and n ~= 16 then
      hole_fail(first, t, n, "transform table")
      argerror(first, format("transform table has %s numbers, expected 3, 7, 10 or 16%s", fmtnum(n),
        check.namedHint(t)))
    end
    for i = 1, n do
      local x = rawget(t, i)
      if x == nil then hole_fail(first, t, n, "transform table") end
      if type(x) ~= "number" then
        argerror(first, format("transform element %d must be a number, got %s", i, ltype(x)))
      end
      if x - x ~= 0 then argerror(first, format("transform element %d is %s", i, fmtnum(x))) end
      v[i] = x
    end
  elseif n == 3 or n == 7 or n == 10 or n == 16 then
    for i = 1, n do
      local x = a[off + i]
      if type(x) ~= "number" then      -- (a value after it, or none: check_num's "no value")
        check_num(x, first + i - 1, n == 16 and format("m[%d]", i) or TRS_NAMES[i],
          not allnil(unpack(a, off + i + 1, off + n)) and 0 or nil)
      end
      v[i] = x
    end
  else
    argerror(first, format("transform: expected 3, 7, 10 or 16 numbers or a table of them, got %s",
      n == 0 and "none" or n .. " values"))
  end
  v.n = n
  return v
end

-- Applies a checked transform to p, a body or sensor of kind K; a cs_Status.
local function apply_xform(K, p, x)
  if x.n == 16 then
    for i = 1, 16 do M16[i - 1] = x[i] end
    return K.set_matrix(p, M16)
  end
  V1.x, V1.y, V1.z = x[1], x[2], x[3]
  V2.x, V2.y, V2.z = 1, 1, 1
  Q4[0], Q4[1], Q4[2], Q4[3] = 0, 0, 0, 1
  if x.n >= 7 then Q4[0], Q4[1], Q4[2], Q4[3] = x[4], x[5], x[6], x[7] end
  if x.n == 10 then V2.x, V2.y, V2.z = x[8], x[9], x[10] end
  return K.set_transform(p, V1, Q4, V2)
end

-- The core's error for a transform (in the world's cs_Error): the core counts
-- the numbers as the positional forms do; the table form is one argument.
local function xform_fail(w, first, tableform, fname)
  local e = C.cs_world_error(w)
  if tableform then return argerror(first, ffi.string(e.message)) end
  return core_fail(e, first - 1, fname)
end

-- The world's finalizer: frees the core world, then lets go of its meshes
-- (uses: mesh -> bodies and sensors of this world using it). It must not reach
-- the world's cdata, which is the key of the FFI's finalizer table.
local function world_finalizer(uses)
  -- Not compiled (nor is mesh_release): a finalizer runs inside a GC step,
  -- which may come in the middle of a compiled trace that is updating the
  -- same mesh's _users; with both compiled, about one full FFI suite in eight
  -- lost the field altogether (spec/lifetime_spec.lua's random lives: World.add
  -- read _users as nil). With them interpreted: 0 in 34 runs.
  local f = function(p)
    C.cs_world_free(p)
    for m, n in next, uses do
      uses[m] = nil
      mesh_release(m, n)
    end
  end
  jit.off(f)
  return f
end

--- cs.newWorld() -> world. It takes no arguments: one given was dropped
-- without a word (found by an independent tester); the first non-nil one is
-- refused, with the fix for the likely ones (the C module's check_no_args).
local function newWorld(...)
  if not allnil(...) then
    local i = 1
    while rawequal(select(i, ...), nil) do i = i + 1 end
    local v = select(i, ...)
    if i == 1 then check.notModule(v, "newWorld", 1, newWorld) end
    local t, fix = tname(v), ""
    if t == MESH_MT.__name then fix = ": add meshes with world:add(mesh)"
    elseif t == "collideslide.Builder" then fix = ": add its mesh with world:add(builder:mesh())"
    elseif type(v) == "table" and rawget(v, "threads") ~= nil then
      fix = ": a world has no options; world:setThreads(k) sets its threads"
    end
    argerror(i, format("no arguments expected, got %s%s", t, fix))
  end
  WORLD_OUT[0] = nil
  local s = C.cs_world_new(ALLOC, WORLD_OUT)
  if s ~= C.CS_OK then status_error("newWorld", s) end
  local uses, hit = {}, ffi.new("cs_Hit[1]")
  local free = world_finalizer(uses)
  -- _bodies, _movers (added), _sensors: core address -> handle (no other keys:
  -- a key 0 would give it an array part, and lookups of addresses in it could
  -- not be compiled); _pending: movers with unresolved contacts; _busy: > 0
  -- while a filter or a query callback may run; _moving: inside
  -- collideAndSlide (its filter may run); _hit as doubles (_hd) and 32-bit
  -- words (_hu); _b*: collideAndSlideMany's arrays, for _bcap movers (grown, kept)
  return setmetatable({ _p = ffi.gc(WORLD_OUT[0], free), _free = free, _uses = uses,
    _bodies = {}, _movers = {}, _sensors = {}, _pending = setmetatable({}, { __mode = "k" }),
    _busy = 0, _moving = false, _walk = vec_ct(), _grav = vec_ct(), _v = vec_ct(),
    _hit = hit, _hd = ffi.cast("double *", hit), _hu = ffi.cast("uint32_t *", hit),
    _bcap = 0, _bmoves = false, _bout = false, _blist = false, _bmoved = false,
    _bfailed = ffi.new("size_t[1]"),
  }, WORLD_MT)
end

-- Serves __gc and __close; safe to call twice. Frees the core world, marks its
-- handles dead and releases their meshes.
local function world_close(self)
  check_is(self, WORLD_MT, 1)
  local p = self._p
  if not p then return end
  if self._busy > 0 then raise("cannot close a World while a filter or query callback of it runs") end
  resolve_pending(self)
  self._free(unpin(self))
  for _, handles in next, { self._bodies, self._sensors } do
    for a, h in next, handles do
      h._p = nil
      handles[a] = nil
    end
  end
  local movers = self._movers
  for a, h in next, movers do
    h._inworld = false
    movers[a] = nil
  end
end
WORLD_MT.__gc, WORLD_MT.__close = world_close, world_close

function WORLD_MT.__tostring(self)
  if not self._p then return "collideslide.World (closed): " .. address(self) end
  return format("collideslide.World (%d bodies): %s", tonumber(C.cs_world_body_count(self._p)),
    address(self))
end

getters(World, check_world, { bodyCount = { C.cs_world_body_count, "count" },
  sensorCount = { C.cs_world_sensor_count, "count" }, moverCount = { C.cs_world_mover_count, "count" },
  getThreads = { C.cs_world_get_threads, "int" } })

--- world:setFriction(tag, coefficient in [0, 1]), getFriction(tag)
function World.setFriction(self, tag, ...)
  local c, none = ..., allnil(...)   -- first (see check_xform)
  check_world(self, 1)
  check_int32(tag, 2, nil, "tag", false, none)
  if type(c) ~= "number" then argerror(3, "coefficient must be a number, got " .. tname(c, none)) end
  if C.cs_world_set_friction(self._p, tag, c) ~= C.CS_OK then
    core_fail(C.cs_world_error(self._p), 1, "setFriction")
  end
end

function World.getFriction(self, tag)
  check_world(self, 1)
  return C.cs_world_get_friction(self._p, check_int32(tag, 2, nil, "tag", false, true))
end

-- The two kinds of placed meshes. A handle: _p (the core pointer, nil once
-- removed or its world closed), _addr, _w (its world), _mesh, _ud (userdata).
local BODY_K = { name = "Body", what = "body", mt = BODY_MT, methods = Body, handles = "_bodies",
  set_matrix = C.cs_body_set_matrix, set_transform = C.cs_body_set_transform,
  get_matrix = C.cs_body_get_matrix, set_layers = C.cs_body_set_layers,
  get_layers = C.cs_body_get_layers, mesh = C.cs_body_mesh, remove = C.cs_world_remove }
local SENSOR_K = { name = "Sensor", what = "sensor", mt = SENSOR_MT, methods = Sensor,
  handles = "_sensors", set_matrix = C.cs_sensor_set_matrix,
  set_transform = C.cs_sensor_set_transform, get_matrix = C.cs_sensor_get_matrix,
  set_layers = C.cs_sensor_set_layers, get_layers = C.cs_sensor_get_layers,
  mesh = C.cs_sensor_mesh, remove = C.cs_world_remove_sensor }

function BODY_K.create(w, mesh)
  BODY_OUT[0] = nil
  local s = C.cs_world_add(w._p, mesh._p, BODY_OUT)
  if s ~= C.CS_OK then status_error("add", s) end
  return BODY_OUT[0]
end

do                        -- (a block: the main chunk is at Lua's 200 locals)
local BAD_EDGE, EDGE_USES = ffi.new("unsigned[2]"), ffi.new("int[1]")
function SENSOR_K.create(w, mesh)
  SENSOR_OUT[0] = nil
  local s = C.cs_world_add_sensor(w._p, mesh._p, SENSOR_OUT, BAD_EDGE, EDGE_USES)
  local uses = EDGE_USES[0]
  if s == C.CS_EINVAL and uses == 0 then argerror(2, "mesh has no triangles (a sensor needs a closed mesh)") end
  if s == C.CS_EINVAL then
    argerror(2, format("mesh is not closed: the edge from vertex %d to vertex %d has %d triangle%s "
      .. "on it, not a pair wound opposite ways (a sensor needs a closed mesh with shared "
      .. "vertices and one winding)", BAD_EDGE[0] + 1, BAD_EDGE[1] + 1, uses, uses == 1 and "" or "s"))
  end
  if s ~= C.CS_OK then status_error("addSensor", s) end
  return SENSOR_OUT[0]
end
end

-- A live handle of kind K; errors to argument arg of fname (nil: the running function).
local function check_placed(v, K, arg, fname)
  check_is(v, K.mt, arg)
  if not v._w._p then fail_at(arg, fname, "attempt to use a " .. K.what .. " of a closed/collected World") end
  if not v._p then fail_at(arg, fname, K.what .. " was removed from its world") end
  return v
end

--- world:add(mesh [, transform...]) -> body, world:addSensor(...) -> sensor
local function add_placed(self, K, fname, ...)
  local nargs, a = select("#", ...), { ... }   -- first (see check_xform)
  check_world(self, 1)
  local mesh = check_mesh(a[1], 2, allnil(...))
  local x
  if nargs >= 2 and not (nargs == 2 and a[2] == nil) then x = check_xform(3, a, 1, nargs - 1) end
  check_idle(self, fname)
  resolve_pending(self)
  local p = K.create(self, mesh)
  if x then
    local s = apply_xform(K, p, x)
    if s ~= C.CS_OK then
      K.remove(self._p, p)
      if s ~= C.CS_EINVAL and s ~= C.CS_ERANGE then status_error(fname, s) end
      xform_fail(self._p, 3, type(a[2]) == "table", fname)
    end
  end
  local addr = ptr_addr(p)
  local h = setmetatable({ _p = p, _addr = addr, _w = self, _mesh = mesh }, K.mt)
  self[K.handles][addr] = h
  mesh._users = mesh._users + 1
  self._uses[mesh] = (self._uses[mesh] or 0) + 1
  return h
end
-- Not compiled: with add_placed compiled, 5 runs of spec/errors_spec.lua in 30
-- saw a plain table for the mesh its varargs forwarded ("collideslide.Mesh
-- expected, got table"); interpreted, 0 in 60. (Adding is not a hot call.)
jit.off(add_placed)

--- world:remove(body), world:removeSensor(sensor): the handle is dead afterwards.
local function remove_placed(self, K, fname, h, ...)
  check_world(self, 1)
  check_is(h, K.mt, 2, true)
  check_one(K.what, fname, ...)
  if not rawequal(h._w, self) then argerror(2, K.what .. " belongs to another world") end
  if not h._p then argerror(2, K.what .. " was removed from its world") end
  check_idle(self, fname)
  resolve_pending(self)
  K.remove(self._p, h._p)
  h._p = nil
  self[K.handles][h._addr] = nil
  local mesh, uses = h._mesh, self._uses
  uses[mesh] = uses[mesh] - 1
  if uses[mesh] <= 0 then uses[mesh] = nil end
  mesh_release(mesh)
end

-- What bodies and sensors share: adding and removing, placement, mesh, fields
-- layers and userdata (which stays readable and writable after the removal).
for _, K in next, { BODY_K, SENSOR_K } do
  local M, mt, add, remove = K.methods, K.mt, K.what == "body" and "add" or "addSensor",
    K.what == "body" and "remove" or "removeSensor"
  K.check = function(v, arg) return check_placed(v, K, arg) end
  World[add] = function(self, ...) return (add_placed(self, K, add, ...)) end
  World[remove] = function(self, h, ...) remove_placed(self, K, remove, h, ...) end

  --- x:setTransform(...): see check_xform for the forms.
  function M.setTransform(self, ...)
    local nargs, a = select("#", ...), { ... }   -- first (see check_xform)
    check_placed(self, K, 1)
    if apply_xform(K, self._p, check_xform(2, a, 0, nargs)) ~= C.CS_OK then
      xform_fail(self._w._p, 2, type(a[1]) == "table", "setTransform")
    end
  end

  getters(M, K.check, { getTransform = { K.get_matrix, "matrix" } })
  function M.getMesh(self) return check_placed(self, K, 1)._mesh end
  function M.isRemoved(self) return check_is(self, mt, 1)._p == nil or not self._w._p end

  function mt.__index(self, k)
    local f = M[k]
    if f ~= nil then return f end
    if k == "layers" then return K.get_layers(check_placed(self, K, 1, "__index")._p) end
    if k == "userdata" then return rawget(self, "_ud") end
    return nil
  end

  function mt.__newindex(self, k, v)
    if k == "layers" then
      local mask = check_mask(v, 3, "__newindex", "layers")
      if K.set_layers(check_placed(self, K, 1, "__newindex")._p, mask) ~= C.CS_OK then
        core_fail(C.cs_world_error(self._w._p), 2, "__newindex")     -- (in a batch)
      end
    elseif k == "userdata" then
      rawset(self, "_ud", v)
    else
      unknown_field(K.name, k, " (fields: layers, userdata)")
    end
  end

  function mt.__tostring(self)
    if not self._p or not self._w._p then return mt.__name .. " (removed): " .. address(self) end
    return format("%s (mesh of %d triangles): %s", mt.__name,
      tonumber(C.cs_mesh_triangle_count(K.mesh(self._p))), address(self))
  end
end

-- body:setVelocity(vx, vy, vz), getVelocity(), isEnabled(), getBounds() (world space)
local function world_error(h) return C.cs_world_error(h._w._p) end
setters(Body, BODY_K.check, world_error, nil, { setVelocity = { C.cs_body_set_velocity, VXYZ } })
getters(Body, BODY_K.check, { getVelocity = { C.cs_body_get_velocity, "vec" },
  isEnabled = { C.cs_body_get_enabled, "bool" }, getBounds = { C.cs_body_bounds, "bounds" } })

function Body.setEnabled(self, ...)
  local e, none = ..., allnil(...)   -- first (see check_xform); a trailing nil is no value
                                     -- (setEnabled(nil) said "got nil": found by an independent tester)
  check_placed(self, BODY_K, 1)
  if type(e) ~= "boolean" then argerror(2, "enabled must be a boolean, got " .. tname(e, none)) end
  if C.cs_body_set_enabled(self._p, e and 1 or 0) ~= C.CS_OK then
    core_fail(world_error(self), 1, "setEnabled")       -- (in a batch)
  end
end

--- sensor:contains(x, y, z) -> boolean
function Sensor.contains(self, x, y, z)
  check_placed(self, SENSOR_K, 1)
  check_vec3(x, y, z, 2, XYZ)
  V1.x, V1.y, V1.z = x, y, z
  local inside = C.cs_sensor_contains(self._p, V1)
  if inside < 0 then core_fail(world_error(self), 1, "contains") end
  return inside ~= 0
end

-- Movers

local Mover = {}          -- methods

-- The fields: the settings in cs_Setting order, then the filter (kept here);
-- FIELDS: name -> number (0-based, as cs_Setting).
local FIELD_ORDER = { "maxIterations", "skin", "slopeLimit", "blockSteepSlopes", "stepHeight",
  "snapDistance", "collidesWith", "layers", "filter" }
local FIELDS = {}
for i, name in ipairs(FIELD_ORDER) do FIELDS[name] = i - 1 end
local MF_MAXIT, MF_SKIN, MF_BLOCK, MF_MASK, MF_LAYERS, MF_FILTER = 0, 1, 3, 6, 7, 8

local function check_mover(v, arg, none, fname) return check_live(v, MOVER_MT, arg, none, fname) end

-- A mover that is moving (its filter runs) cannot be changed.
local function check_mover_idle(m, fname)
  if m._busy then raise(fname .. ": the mover is busy (its move is under way: called from a filter)") end
end

-- The Lua value v for field f (a FIELDS number) as cs_mover_set takes it (the
-- filter is only checked; the core checks the numbers' values). fname: as check_is's.
local function check_field(f, name, v, arg, fname)
  if f == MF_BLOCK then
    if type(v) ~= "boolean" then fail_at(arg, fname, format("%s must be a boolean, got %s", name, tname(v))) end
    return v and 1 or 0
  elseif f == MF_MASK or f == MF_LAYERS then
    return check_mask(v, arg, fname, name)
  elseif f == MF_FILTER then
    if v ~= nil and type(v) ~= "function" then
      fail_at(arg, fname, format("%s must be a function or nil, got %s", name, tname(v)))
    end
    return 0
  end
  if f == MF_SKIN and v == nil then return 0 end       -- back to auto: set_field
  if type(v) ~= "number" then
    fail_at(arg, fname, format("%s must be %s, got %s", name, f == MF_MAXIT and "an integer" or "a number", tname(v)))
  end
  return v
end

-- A checked value into the core; a nil skin (isnil) goes back to auto.
local function set_field(mp, f, d, isnil)
  if f == MF_SKIN and isnil then return C.cs_mover_set_skin_auto(mp) end
  return C.cs_mover_set(mp, f, d)
end

-- newMover's shape keys: their numbers' names and the core's setter, in the
-- order newMover sets them; the names of the fields and shape keys (NAMES),
-- of the shape keys (SHAPE_NAMES), and the keys newMover takes, sorted.
local SHAPE = { { "radius", RXYZ, C.cs_mover_set_radius }, { "position", XYZ, C.cs_mover_set_position },
  { "up", XYZ, C.cs_mover_set_up }, { "orientation", QXYZW, C.cs_mover_set_orientation } }
local NAMES, SHAPE_NAMES, SETTINGS = { unpack(FIELD_ORDER) }, {}, {}
for _, sh in ipairs(SHAPE) do
  SHAPE[sh[1]], NAMES[#NAMES + 1], SHAPE_NAMES[#SHAPE_NAMES + 1] = sh, sh[1], sh[1]
end
local SETTINGS_SORTED = { unpack(NAMES) }
for _, name in ipairs(NAMES) do SETTINGS[name] = true end
table.sort(SETTINGS_SORTED)

-- For an unknown field k: " (did you mean 'stepHeight'?)" when it differs from
-- a name of NAMES only in case, else "" (the C module's words); assigned
-- (newindex_hint), a shape key's setter ("set it with mover:setRadius(rx, ry, rz)").
local function field_hint(k)
  local name = check.suggest(k, NAMES)
  if name then return format(" (did you mean '%s'?)", name) end
  name = check.suggest(k, { "walkSpeed", "runSpeed", "jumpSpeed", "airControl", "gravity", "pushDrag" })
  return name and format(" (%s is a character's setting: cs.newCharacter takes it)", name) or ""
end
local function newindex_hint(k)
  local name = check.suggest(k, SHAPE_NAMES)
  if not name then return field_hint(k) end
  return format(" (set it with mover:set%s%s(%s))", name:sub(1, 1):upper(), name:sub(2),
    table.concat(SHAPE[name][2], ", "))
end

--- cs.newMover{radius = r | {rx, ry, rz}, position = {x, y, z},
---   orientation = {qx, qy, qz, qw}, up = {x, y, z}, <any field>} -> mover
local function newMover(t)
  if t == nil then t = {} end
  check_table(t, 1)
  check.notModule(t, "newMover", 1, newMover)
  local bad = check.leastUnknown(t, SETTINGS)    -- (whatever order next() takes)
  if bad ~= nil and check.keyKind(bad) ~= "string" then
    argerror(1, format("unknown Mover field (a %s key)", unknown_key(bad)))
  end
  if bad ~= nil then argerror(1, format("unknown Mover field '%s'%s", bad, field_hint(bad))) end
  local shape, vals = {}, {}           -- radius, position, up, orientation; the fields
  for _, k in ipairs(SETTINGS_SORTED) do   -- (alphabetical: the first bad one, as the C module)
    local v = rawget(t, k)
    local names = SHAPE[k] and SHAPE[k][2]
    if rawequal(v, nil) then            -- not given
    elseif names then
      if k == "radius" and type(v) == "number" then
        if v - v ~= 0 then argerror(1, "radius is " .. fmtnum(v)) end
        v = { v, v, v }
      elseif type(v) ~= "table" or ours(v) then  -- "radius must be a number or a table {rx, ry, rz}, got ..."
        argerror(1, format("%s must be %sa table {%s}, got %s", k, k == "radius" and "a number or " or "",
          table.concat(names, ", "), tname(v)))
      end
      shape[k] = table_nums(1, v, k, names, #names)
    else                                -- a field (leastUnknown found no other)
      vals[k] = check_field(FIELDS[k], k, v, 1, nil)
    end
  end
  MOVER_OUT[0] = nil
  local s = C.cs_mover_new(ALLOC, MOVER_OUT)
  if s ~= C.CS_OK then status_error("newMover", s) end
  local mp = ffi.gc(MOVER_OUT[0], C.cs_mover_free)
  for _, sh in ipairs(SHAPE) do        -- the core's checks: the field and its message
    local v = shape[sh[1]]
    if v and #v == 4 then Q4[0], Q4[1], Q4[2], Q4[3] = v[1], v[2], v[3], v[4]
    elseif v then V1.x, V1.y, V1.z = v[1], v[2], v[3] end
    if v and sh[3](mp, #v == 4 and Q4 or V1) ~= 0 then
      core_fail(C.cs_mover_error(mp), 1, "newMover", sh[1] .. ": ")
    end
  end
  for f = 0, MF_FILTER - 1 do
    local name = FIELD_ORDER[f + 1]
    if vals[name] ~= nil and set_field(mp, f, vals[name], false) ~= 0 then
      core_fail(C.cs_mover_error(mp), 1, "newMover", "")
    end
  end
  if rawget(t, "filter") then C.cs_mover_mark_filtered(mp, 1) end
  -- _busy: inside its own collideAndSlide (its filter runs); _contacts and
  -- _events: the handles of the last call's contacts and sensor events, once
  -- resolved; _ground, _gmover: the ground body's and mover's; _inworld: the
  -- world it was added to; _resolved false: the last call's handles are still
  -- to resolve, in _cworld. (Never nil: assigning a missing key runs __newindex.)
  return setmetatable({ _p = mp, _busy = false, _filter = rawget(t, "filter") or false,
    _contacts = {}, _nhandles = 0, _events = {}, _nevents = 0, _ground = false, _gmover = false,
    _inworld = false, _resolved = true, _cworld = false }, MOVER_MT)
end

-- Serves __gc and __close; safe to call twice.
local function mover_close(self)
  check_is(self, MOVER_MT, 1)
  local p = self._p
  if not p then return end
  if self._busy then raise("cannot close a Mover while its move is under way (from a filter)") end
  local w = self._inworld
  if w and w._p and w._busy > 0 then
    raise("cannot close a Mover added to a world while a filter or query callback of that world "
      .. "runs (world:removeMover is refused there too)")
  end
  if w and w._p then
    resolve_pending(w)                  -- (contacts naming it keep its handle)
    w._movers[ptr_addr(p)] = nil
  end
  self._inworld = false
  C.cs_mover_free(unpin(self))
end
MOVER_MT.__gc, MOVER_MT.__close = mover_close, mover_close

function MOVER_MT.__tostring(self)
  if not self._p then return "collideslide.Mover (closed): " .. address(self) end
  local v = vec_ct()
  C.cs_mover_get_position(self._p, v)
  return format("collideslide.Mover (%s, %s, %s): %s", fmtnum(v.x), fmtnum(v.y), fmtnum(v.z),
    address(self))
end

function MOVER_MT.__index(self, k)
  local f = Mover[k]
  if f ~= nil then return f end
  f = FIELDS[k]
  if f == nil then return nil end
  check_mover(self, 1, false, "__index")
  if f == MF_FILTER then return self._filter or nil end
  local d = C.cs_mover_get(self._p, f)        -- (an auto skin: the one in use)
  if f == MF_BLOCK then return d ~= 0 end
  return d
end

function MOVER_MT.__newindex(self, k, v)
  local f = FIELDS[k]
  check_mover(self, 1, false, "__newindex")
  if f == nil then unknown_field("Mover", k, newindex_hint(k)) end
  local d = check_field(f, k, v, 3, "__newindex")
  check_mover_idle(self, "__newindex")
  if f == MF_FILTER then
    self._filter = v or false
    C.cs_mover_mark_filtered(self._p, v and 1 or 0)
  elseif set_field(self._p, f, d, v == nil) ~= 0 then
    fail_at(3, "__newindex", ffi.string(C.cs_mover_error(self._p).message))
  end
end

-- Stores the handles of the last call's contacts, ground body and mover and
-- sensor events, from the handles of the world of that call (which has
-- changed none since).
local function resolve(m)
  local w = m._cworld
  local p, bodies, handles, movers = m._p, w._bodies, m._contacts, w._movers
  local n = tonumber(C.cs_mover_contact_count(p))
  for i = 0, n - 1 do
    local c = C.cs_mover_contact(p, i)
    handles[i + 1] = c.mover ~= nil and movers[ptr_addr(c.mover)]
      or c.body ~= nil and bodies[ptr_addr(c.body)] or nil
  end
  for i = n + 1, m._nhandles do handles[i] = nil end
  m._nhandles = n
  local gm = C.cs_mover_ground_mover(p)
  m._gmover = gm ~= nil and movers[ptr_addr(gm)] or false
  local g = C.cs_mover_ground(p, GROUND_N, GROUND_B, GROUND_T) ~= 0 and GROUND_B[0] ~= nil
  m._ground = g and bodies[ptr_addr(GROUND_B[0])] or false
  local sensors, events = w._sensors, m._events
  n = tonumber(C.cs_mover_sensor_event_count(p))
  for i = 0, n - 1 do
    events[i + 1] = sensors[ptr_addr(C.cs_mover_sensor_event(p, i).sensor)]
  end
  for i = n + 1, m._nevents do events[i] = nil end
  m._nevents = n
  -- done: marked last, _resolved before _cworld, so that a debug hook raising
  -- in here leaves the mover to resolve again (marked first, a raise between
  -- the two stores broke every later call of the mover: an independent tester)
  m._resolved = true
  m._cworld = false
end

-- After a call of m in world w: the handles of its contacts are resolved when
-- read (ensure_resolved), or before w changes (resolve_pending).
local function pend(w, m)
  m._resolved, m._cworld = false, w
  w._pending[m] = true
end

function resolve_pending(w)
  local pending = w._pending
  for m in next, pending do
    pending[m] = nil
    if not m._resolved and rawequal(m._cworld, w) and m._p then resolve(m) end
  end
end

local function ensure_resolved(m)
  if not m._resolved then
    if m._cworld._p then resolve(m)
    else m._resolved, m._cworld = true, false end     -- (not reached: close resolves)
  end
end

local POS = ffi.new("cs_Vec3[1]")          -- the position out
local POSD = ffi.cast("double *", POS)

local function getPosition(self)
  if getmetatable(self) ~= MOVER_MT or not self._p then check_mover(self, 1) end
  C.cs_mover_get_position(self._p, POS)
  return POSD[0], POSD[1], POSD[2]
end
Mover.getPosition = getPosition

-- mover:setPosition(x, y, z), setUp(x, y, z), setOrientation(qx, qy, qz, qw),
-- setRadius(r) (a sphere) or setRadius(rx, ry, rz). The mover must be idle,
-- and its last call's handles are resolved first (a teleport forgets the
-- ground body: read after it, the FFI gave nil where the C module, which keeps
-- the handle from the call, gives the body; found by an independent tester).
setters(Mover, check_mover, function(m) return C.cs_mover_error(m._p) end, function(m, fname)
  check_mover_idle(m, fname)
  ensure_resolved(m)
end, { setPosition = { C.cs_mover_set_position, XYZ }, setUp = { C.cs_mover_set_up, XYZ },
  setOrientation = { C.cs_mover_set_orientation, QXYZW }, setRadius = { C.cs_mover_set_radius, RXYZ, true } })
getters(Mover, check_mover, { getRadius = { C.cs_mover_get_radius, "vec" },
  getUp = { C.cs_mover_get_up, "vec" }, getOrientation = { C.cs_mover_get_orientation, "quat" },
  contactCount = { C.cs_mover_contact_count, "count" }, wasStuck = { C.cs_mover_was_stuck, "bool" },
  sensorEventCount = { C.cs_mover_sensor_event_count, "count" } })

--- mover:getContact(i) -> px, py, pz, nx, ny, nz, triangle, body, tag, pass
do
  local PASS_NAMES = { [0] = "walk", "gravity", "carry", "step", "snap", "depenetrate" }
  function Mover.getContact(self, i)
    local p = check_mover(self, 1)._p
    local k = check_index(i, 2, "contact", tonumber(C.cs_mover_contact_count(p)), true)
    ensure_resolved(self)
    local c = C.cs_mover_contact(p, k)
    local pt, n = c.point, c.normal
    return pt.x, pt.y, pt.z, n.x, n.y, n.z, c.triangle + 1, self._contacts[k + 1], c.tag,
      PASS_NAMES[c.pass] or "walk"
  end
end

local function isOnGround(self)
  if getmetatable(self) ~= MOVER_MT or not self._p then check_mover(self, 1) end
  return ground_state(self._p) == 1     -- CS_GROUND_ON
end
Mover.isOnGround = isOnGround

local GROUND_NAMES = { [0] = "air", "ground", "steep", "unsupported" }
function Mover.getGroundState(self)
  return GROUND_NAMES[ground_state(check_mover(self, 1)._p)] or "air"
end

-- mover:getGroundNormal() -> nx, ny, nz, getGroundTag() -> tag; nil without ground
for name, tag in next, { getGroundNormal = false, getGroundTag = true } do
  Mover[name] = function(self)
    local found = C.cs_mover_ground(check_mover(self, 1)._p, GROUND_N, GROUND_B, GROUND_T)
    if found == 0 then return nil end
    if tag then return GROUND_T[0] end
    local n = GROUND_N[0]
    return n.x, n.y, n.z
  end
end

-- mover:getGroundBody(), getGroundMover(): the handles, or nil
for name, field in next, { getGroundBody = "_ground", getGroundMover = "_gmover" } do
  Mover[name] = function(self)
    ensure_resolved(check_mover(self, 1))
    return self[field] or nil
  end
end

--- mover:getSensorEvent(i) -> sensor, "enter" | "exit", t
function Mover.getSensorEvent(self, i)
  local p = check_mover(self, 1)._p
  local i0 = check_index(i, 2, "sensor event", tonumber(C.cs_mover_sensor_event_count(p)), true)
  ensure_resolved(self)
  local e = C.cs_mover_sensor_event(p, i0)
  return self._events[i0 + 1], e.enter ~= 0 and "enter" or "exit", e.t
end

function Mover.isInside(self, sensor)
  check_mover(self, 1)
  check_placed(sensor, SENSOR_K, 2)
  return C.cs_mover_is_inside(self._p, sensor._p) ~= 0
end

--- world:addMover(mover), world:removeMover(mover)
for name, add in next, { addMover = true, removeMover = false } do
  World[name] = function(self, m, ...)
    check_world(self, 1)
    check_mover(m, 2, true)
    check_mover_idle(m, name)
    check_one("mover", name, ...)
    check_idle(self, name)
    local w = C.cs_mover_added_to(m._p)
    if add and w ~= nil then
      argerror(2, "the mover is in a world already (world:removeMover it there first)")
    end
    if not add and w ~= self._p then argerror(2, "the mover is not in this world") end
    resolve_pending(self)
    local s = (add and C.cs_world_add_mover or C.cs_world_remove_mover)(self._p, m._p)
    if s ~= C.CS_OK then status_error(name, s) end
    self._movers[ptr_addr(m._p)] = add and m or nil
    m._inworld = add and self
  end
end

-- The calls and the queries. A Lua callback runs under pcall from the core's
-- FFI callback; an error is parked, the callback stops the core, and the error
-- is raised again once the core returned. One FFI callback of each kind serves
-- every call: the running call's context is X, which each call that calls back
-- puts in place and takes away around itself (a callback may run another
-- query or move).

local CTX_OK, CTX_RAISED, CTX_BADRESULT = 0, 1, 2

-- What a filter returned, for the messages: a string quoted, others by type.
local function filter_returned(r)
  return format('returned %s (expected "slide", "touch" or "cross")',
    type(r) == "string" and '"' .. r .. '"' or tname(r))
end

-- Raises what a failed call left: the callback's error (the same value), a bad
-- filter result, or the core's status.
local function ctx_raise(fname, s, failed, err)
  if failed == CTX_RAISED then error(err, 0) end
  if failed == CTX_BADRESULT then raise(format("%s: the filter %s", fname, filter_returned(err))) end
  if s == C.CS_EBUSY then busy_moving(fname) end
  if s == C.CS_EABORT then raise(fname .. ": aborted by a callback") end
  status_error(fname, s)
end

local slide_filtered, many_filtered, run_query
do                        -- (a block: the main chunk is at Lua's 200 locals)
-- The running call's context: fn and self (a mover's filter and its mover, or
-- a query's callback), or a batch's fns and list (its movers' filters and
-- movers, by the place in the list their callbacks get as ud); bodies and
-- movers (its world's handles); failed and err (what a callback left);
-- prev (the context it interrupted).
local X = { failed = CTX_OK, depth = 0 }

-- Queries, and moves with a filter, nested in callbacks are refused past 150
-- levels over all the worlds (X.depth), as the C module's check_nesting (the
-- C stack overflowed at some 3,000, a segfault: found by independent testers).
local function check_nesting(fname)
  if X.depth >= 150 then
    raise(fname .. ": queries and moves nested too deeply in callbacks (150 levels)")
  end
end

-- A debug hook may raise at any instruction (a sandbox's time limit). In the
-- binding's own code between ctx_enter and ctx_leave it left the world and
-- mover busy for good, and in an FFI callback outside its pcall it unwound
-- through the core (found by an independent tester; the C module runs that
-- code in C, where no hook runs). So from ctx_enter to ctx_leave the hook is
-- off, and on again only while the script's own callbacks run (user_call):
-- the hook set with debug.sethook in Lua (x.hook, x.hmask, x.hcount), that
-- is; one set from C ("external hook") cannot be set again from Lua and stays on.
local function ctx_enter(w, x)
  local f, mask, count = debug.gethook()       -- (a hook raising here finds nothing set)
  if type(f) == "function" then debug.sethook() else f = nil end
  x.hook, x.hmask, x.hcount = f, mask, count
  x.bodies, x.movers, x.failed, x.prev = w._bodies, w._movers, CTX_OK, X
  x.depth = X.depth + 1
  X = x
  w._busy = w._busy + 1
end

-- Back to the interrupted context, and the hook on; returns what the
-- callbacks left.
local function ctx_leave(w)
  w._busy = w._busy - 1
  local x = X
  X = x.prev
  if x.hook then debug.sethook(x.hook, x.hmask, x.hcount) end
  return x.failed, x.err
end

-- The hook off again after the script's callback, kept as the callback left
-- it (set, changed or cleared there) for the next callback and ctx_leave.
local function hook_off(x)
  local f, mask, count = debug.gethook()
  if f ~= nil and type(f) ~= "function" then x.hook = nil; return end   -- (from C: left on)
  debug.sethook()
  x.hook, x.hmask, x.hcount = f, mask, count
end

-- fn(...)'s first result, with the hook on while fn runs; under xpcall with
-- unhook_err, which turns it off when fn raised.
local function user_call(fn, ...)
  local x = X
  if x.hook then debug.sethook(x.hook, x.hmask, x.hcount) end
  local r = fn(...)
  if x.hook then hook_off(x) end
  return r
end
local function unhook_err(e)
  if X.hook then hook_off(X) end
  return e
end

-- pcall(fn, ...) for the callbacks when a hook is set (X.hook): the plain
-- pcall otherwise, which costs half as much a callback. (Chosen at each
-- callback: a function choosing it made a query with a callback slower.)
local function hooked_pcall(fn, ...) return xpcall(user_call, unhook_err, fn, ...) end

local RESPONSE = { slide = 0, touch = 1, cross = 2 }
local intptr_ct = ffi.typeof("intptr_t")

-- The filter's answer (pcall's results), or -1 with the failure parked.
local function filter_result(ok, r)
  local resp = ok and type(r) == "string" and RESPONSE[r]
  if resp then return resp end
  X.failed, X.err = ok and CTX_BADRESULT or CTX_RAISED, r
  return -1
end

-- The filter a callback asks (ud: a place in a batch's list, or none) and its mover.
local function filter_of(ud)
  if ud == nil then return X.fn, X.self end
  local i = tonumber(ffi.cast(intptr_ct, ud))
  return X.fns[i], X.list[i]
end

-- filter(mover, body, tag); asked about another added mover: filter(mover, other, 0).
local filter_cb = ffi.cast("cs_FilterFn", function(ud, body, tag)
  local fn, m = filter_of(ud)
  return filter_result((X.hook and hooked_pcall or pcall)(fn, m,
    body ~= nil and X.bodies[ptr_addr(body)] or nil, tag))
end)
local mover_filter_cb = ffi.cast("cs_MoverFilterFn", function(ud, other)
  local fn, m = filter_of(ud)
  return filter_result((X.hook and hooked_pcall or pcall)(fn, m, X.movers[ptr_addr(other)], 0))
end)

-- Puts the filter callbacks on mover m (ud: its place in a batch), or takes
-- them off; the status (CS_EBUSY: the mover is a running batch's).
local function set_filters(m, on, ud)
  local s = C.cs_mover_set_filter(m._p, on and filter_cb or nil, ud)
  C.cs_mover_set_mover_filter(m._p, on and mover_filter_cb or nil, ud)
  return s
end

-- collideAndSlide with the mover's filter: a C call that calls back, so never
-- JIT-compiled. Returns the status, and the failure and error of the filter.
function slide_filtered(w, m, walk, grav)
  check_nesting("collideAndSlide")
  if not m._resolved then resolve(m) end    -- the old handles, during the call
  ctx_enter(w, { fn = m._filter, self = m })
  if set_filters(m, true, nil) ~= C.CS_OK then
    ctx_leave(w)
    raise("collideAndSlide: " .. ffi.string(C.cs_mover_error(m._p).message))
  end
  w._moving, m._busy = true, true
  local s = slide_call(w._p, m._p, walk, grav)
  w._moving, m._busy = false, false
  set_filters(m, false, nil)
  return s, ctx_leave(w)
end
jit.off(slide_filtered)

-- collideAndSlideMany with filters, the same way; the core runs the filters on
-- this thread, in list order, while its threads move the others. list: the
-- movers as they were listed (kept while the filters run).
function many_filtered(w, list, n, stride)
  check_nesting("collideAndSlideMany")
  local fns = {}
  ctx_enter(w, { fns = fns, list = list })     -- (first: see ctx_enter)
  for i = 1, n do
    local m = list[i]
    if m._filter then
      if not m._resolved then resolve(m) end    -- the old handles, during the call
      fns[i] = m._filter
      set_filters(m, true, ffi.cast("void *", i))
    end
    m._busy = true
  end
  w._moving = true
  local s = many_call(w._p, w._blist, n, w._bmoves, stride, w._bout, w._bmoved, w._bfailed)
  w._moving = false
  for i = 1, n do
    list[i]._busy = false
    if fns[i] then set_filters(list[i], false, nil) end
  end
  return s, ctx_leave(w)
end
jit.off(many_filtered)

-- A query callback's answer (pcall's results): 0 stops the core.
local function q_call(ok, r)
  if not ok then
    X.failed, X.err = CTX_RAISED, r
    return 0
  end
  return r == false and 0 or 1
end

-- The query kinds' FFI callbacks (in a table: the main chunk is at Lua's 200
-- locals): queryBox's fn(body, triangle, tag); overlapEllipsoid's and
-- overlap's fn(body, triangle, depth, nx, ny, nz, tag), and for an added mover
-- fn(mover, 1, depth, nx, ny, nz, 0); raycastAll's fn(t, px, py, pz, nx, ny,
-- nz, triangle, body, tag).
local QCB = {}
QCB.tri = ffi.cast("cs_TriFn", function(_, body, tri)
  local tag = C.cs_mesh_tag(C.cs_body_mesh(body), tri)
  return q_call((X.hook and hooked_pcall or pcall)(X.fn, X.bodies[ptr_addr(body)], tri + 1, tag))
end)
QCB.overlap = ffi.cast("cs_OverlapFn", function(_, body, tri, depth, n)
  local tag = C.cs_mesh_tag(C.cs_body_mesh(body), tri)
  return q_call((X.hook and hooked_pcall or pcall)(X.fn, X.bodies[ptr_addr(body)], tri + 1, depth,
    n.x, n.y, n.z, tag))
end)
QCB.mover_overlap = ffi.cast("cs_MoverOverlapFn", function(_, other, depth, n)
  return q_call((X.hook and hooked_pcall or pcall)(X.fn, X.movers[ptr_addr(other)], 1, depth, n.x, n.y, n.z, 0))
end)
QCB.hit = ffi.cast("cs_HitFn", function(_, h)
  local p, n = h.point, h.normal
  local other = h.mover ~= nil and X.movers[ptr_addr(h.mover)] or
    h.body ~= nil and X.bodies[ptr_addr(h.body)] or nil
  return q_call((X.hook and hooked_pcall or pcall)(X.fn, h.t, p.x, p.y, p.z, n.x, n.y, n.z,
    h.triangle + 1, other, h.tag))
end)

-- Runs the query of kind ("box", "overlap", "ray": a C function that calls
-- back, so never JIT-compiled) on a, b (and c, d) with fn (argument fnarg; mask
-- the next one, nil: dflt) as the callback of world w; returns the count, or
-- raises what failed.
function run_query(w, fname, fnarg, fn, mask, dflt, kind, a, b, c, d)
  if fn ~= nil and type(fn) ~= "function" then
    argerror(fnarg, "callback must be a function, got " .. tname(fn))
  end
  local mk = dflt
  if mask ~= nil or dflt == nil then mk = opt_mask(mask, fnarg + 1) end
  check_not_moving(w, fname)
  check_nesting(fname)
  ctx_enter(w, { fn = fn })
  local n
  local has = fn ~= nil
  if kind == "box" then n = C.cs_world_query_box(w._p, a, b, mk, has and QCB.tri or nil, nil)
  elseif kind == "ray" then n = C.cs_world_raycast_all(w._p, a, b, mk, has and QCB.hit or nil, nil)
  else                                  -- the triangles, then the added movers (d: one to leave out)
    n = C.cs_world_overlap(w._p, a, b, c, mk, d, has and QCB.overlap or nil,
      has and QCB.mover_overlap or nil, nil)
  end
  local failed, err = ctx_leave(w)
  if failed ~= CTX_OK then ctx_raise(fname, C.CS_EABORT, failed, err) end
  n = tonumber(n)
  if n == -C.CS_EINVAL or n == -C.CS_ERANGE then core_fail(C.cs_world_error(w._p), 1, fname) end
  if n < 0 then status_error(fname, C.CS_ENOMEM) end
  return n
end
jit.off(run_query)
end

--- world:collideAndSlide(mover, vx, vy, vz [, gx, gy, gz]) -> x, y, z, onGround
local function collideAndSlide(self, m, vx, vy, vz, gx, gy, gz)
  if getmetatable(self) ~= WORLD_MT or not self._p then check_world(self, 1) end
  if getmetatable(m) ~= MOVER_MT or not m._p then check_mover(m, 2, allnil(vx, vy, vz, gx, gy, gz)) end
  if type(vx) ~= "number" or type(vy) ~= "number" or type(vz) ~= "number" then
    check_vec3(vx, vy, vz, 3, VXYZ, gx, gy, gz)
  end
  local grav = nil
  if gx ~= nil or gy ~= nil or gz ~= nil then
    if type(gx) ~= "number" or type(gy) ~= "number" or type(gz) ~= "number" then
      check_vec3(gx, gy, gz, 6, GXYZ)
    end
    grav = self._grav
  end
  check_not_moving(self, "collideAndSlide")
  check_mover_idle(m, "collideAndSlide")
  if grav then grav.x, grav.y, grav.z = gx, gy, gz end
  local mp = m._p
  local s, failed, err
  local walk = self._walk
  walk.x, walk.y, walk.z = vx, vy, vz
  if not m._filter then
    s, failed = slide_call(self._p, mp, walk, grav), CTX_OK
  else
    s, failed, err = slide_filtered(self, m, walk, grav)
  end
  if s ~= 0 then
    if (s == C.CS_EINVAL or s == C.CS_ERANGE or s == C.CS_EBUSY) and failed == CTX_OK then
      core_fail(C.cs_world_error(self._p), 2, "collideAndSlide")   -- (EBUSY: another world's batch)
    end
    ctx_raise("collideAndSlide", s, failed, err)
  end
  pend(self, m)
  C.cs_mover_get_position(mp, POS)
  return POSD[0], POSD[1], POSD[2], ground_state(mp) == 1   -- mover:isOnGround()
end
World.collideAndSlide = collideAndSlide

-- Crowds: world:collideAndSlideMany and the world's threads (issue 15), in
-- the words of csrc/cs_lua_query.c. The arrays the core takes are the world's.
do                        -- (a block: the main chunk is at Lua's 200 locals)
local MOVE_NAMES = { "vx", "vy", "vz", "gx", "gy", "gz" }
local SUMMARY = ffi.new("char[256]")     -- cs_batch_summary's

-- The batch's centres into out, and each mover's isOnGround() into grounded
-- (a table or nil); raw writes, as the C module's lua_rawseti.
local function many_results(w, n, out, grounded)
  local o = w._bout
  for k = 1, 3 * n do rawset(out, k, o[k - 1]) end
  if grounded then
    local list = w._blist
    for i = 1, n do rawset(grounded, i, ground_state(list[i - 1]) == 1) end   -- CS_GROUND_ON
  end
end

-- Raises what stopped a batch (status s; failed, err: its filters'): a check
-- of the core that failed before any mover moved (see cs_lua_query.c), or (the
-- centres in out first) what stopped it, with which movers moved.
local function many_fail(w, s, failed, err, n, stride, out, grounded)
  local moved, at = w._bmoved, tonumber(w._bfailed[0])
  local began = failed ~= CTX_OK
  for i = 0, n - 1 do began = began or moved[i] ~= 0 end
  -- (CS_EBUSY from the checks: a mover another world's batch moves or reads)
  if not began and (s == C.CS_EINVAL or s == C.CS_ERANGE or (s == C.CS_EBUSY and at < n)) then
    local e = C.cs_world_error(w._p)
    local msg, list = ffi.string(e.message), w._blist
    for i = 0, at - 1 do
      if list[i] == list[at] then argerror(2, msg) end
    end
    if e.arg > 0 then argerror(3, format("%s (moves[%d])", msg, at * stride + e.arg)) end
    raise("collideAndSlideMany: " .. msg)
  end
  if not began then ctx_raise("collideAndSlideMany", s) end
  if at < n then many_results(w, n, out, grounded) end
  local what
  if failed == CTX_RAISED then
    if type(err) ~= "string" then error(err, 0) end    -- (a number too, as the C module)
    what = format("the filter of mover %d raised an error: %s", at + 1, err)
  elseif failed == CTX_BADRESULT then
    what = format("the filter of mover %d %s", at + 1, filter_returned(err))
  else
    what = ffi.string(C.cs_world_error(w._p).message)
  end
  C.cs_batch_summary(SUMMARY, 256, moved, n, at)      -- "movers 1-140 and 150-300 moved, ..."
  raise(format("collideAndSlideMany: %s; %s", what, ffi.string(SUMMARY)))
end

--- world:collideAndSlideMany(movers, moves [, out [, grounded]]) -> out
function World.collideAndSlideMany(self, movers, moves, out, grounded)
  if getmetatable(self) ~= WORLD_MT or not self._p then check_world(self, 1) end
  check_table(movers, 2, moves == nil and out == nil and grounded == nil)
  check_table(moves, 3, out == nil and grounded == nil)
  -- (plain tables: one of ours is no list to write into; rawequal: a NULL
  -- cdata == nil in LuaJIT, and it failed in rawset after the batch had moved
  -- its movers: found by an independent tester)
  if not rawequal(out, nil) and (type(out) ~= "table" or ours(out)) then
    argerror(4, "out must be a table or nil, got " .. tname(out))
  end
  if not rawequal(grounded, nil) and (type(grounded) ~= "table" or ours(grounded)) then
    argerror(5, "grounded must be a table or nil, got " .. tname(grounded))
  end
  local n, len = #movers, #moves
  check_array_end(2, movers, n, "movers", n > 0 and n or nil)   -- (# finds another border on LuaJIT than on 5.4)
  check_array_end(3, moves, len, "moves", len > 0 and len or nil)
  check_not_moving(self, "collideAndSlideMany")
  if n > self._bcap then
    local cap = n > 2 * self._bcap and n or 2 * self._bcap
    self._bmoves, self._bout = ffi.new("double[?]", 6 * cap), ffi.new("double[?]", 3 * cap)
    self._blist, self._bmoved = ffi.new("cs_Mover *[?]", cap), ffi.new("unsigned char[?]", cap)
    self._bcap = cap
  end
  local list, mv, moved, filtered = self._blist, self._bmoves, self._bmoved, false
  for i = 1, n do
    local m = rawget(movers, i)
    if rawequal(m, nil) then hole_fail(2, movers, n, "movers") end
    if getmetatable(m) ~= MOVER_MT or not m._p then check_live(m, MOVER_MT, 2, false, nil, format("mover %d: ", i)) end
    if m._busy then
      raise(format("collideAndSlideMany: mover %d is busy (its move is under way: called from a filter)", i))
    end
    list[i - 1] = m._p
    if m._filter then filtered = true end
  end
  local stride = len == 6 * n and 6 or len == 3 * n and 3 or nil   -- (after the movers' holes,
  if not stride then                                                -- and the moves' own)
    for k = 1, len do if rawequal(rawget(moves, k), nil) then hole_fail(3, moves, len, "moves") end end
    for k = 1, len do   -- (a table or one of ours, named: "is a collideslide.Mesh", as the C module)
      if type(rawget(moves, k)) == "table" then
        argerror(3, format("moves is one flat list of numbers, 6 a mover (walk and gravity) or 3 (walk "
          .. "only), {vx1, vy1, vz1, gx1, gy1, gz1, vx2, ...}; moves[%d] is a %s", k, tname(rawget(moves, k))))
      end
    end
    if n == 0 then argerror(3, format("moves has %s numbers for an empty list of movers", fmtnum(len))) end
    argerror(3, format("moves has %s numbers, expected %s (walk and gravity of each mover) or %s "
      .. "(walk only) for %s mover%s", fmtnum(len), fmtnum(6 * n), fmtnum(3 * n), fmtnum(n),
      n == 1 and "" or "s"))
  end
  for k = 1, len do
    local x = rawget(moves, k)
    if type(x) ~= "number" then
      if rawequal(x, nil) then hole_fail(3, moves, len, "moves") end
      argerror(3, format("mover %d: %s must be a number, got %s (moves[%d])", floor((k - 1) / stride) + 1,
        MOVE_NAMES[(k - 1) % stride + 1], tname(x), k))
    end
    mv[k - 1] = x
  end
  if n == 0 then return out or {} end
  ffi.fill(moved, n)
  local s, failed, err, listed = nil, CTX_OK, nil, movers
  if filtered then
    listed = {}
    for i = 1, n do listed[i] = rawget(movers, i) end
    s, failed, err = many_filtered(self, listed, n, stride)
  else
    s = many_call(self._p, list, n, mv, stride, self._bout, moved, self._bfailed)
  end
  for i = 1, n do
    if moved[i - 1] ~= 0 then pend(self, rawget(listed, i)) end
  end
  out = out or {}
  if s ~= 0 then many_fail(self, s, failed, err, n, stride, out, grounded) end
  many_results(self, n, out, grounded)
  return out
end

--- world:setThreads(k): k in 1..64
function World.setThreads(self, k)
  check_world(self, 1)
  local r = intval(k)
  if r == 0 then argerror(2, "threads must be an integer, got " .. tname(k, true)) end
  if r < 0 then argerror(2, "threads must be an integer, got " .. fmtnum(k)) end
  if k < 1 or k > 64 then argerror(2, "threads must be in 1..64, got " .. fmtnum(k)) end
  check_not_moving(self, "setThreads")
  if C.cs_world_set_threads(self._p, k) ~= C.CS_OK then busy_moving("setThreads") end
end
end

-- The hit in the world's buffer: t, px, py, pz, nx, ny, nz, triangle, body, tag;
-- or nil. found < 0 is a failed call: -(cs_Status), its message as argument
-- base + the core's number.
local push_hit
do                        -- (a block: the main chunk is at Lua's 200 locals)
-- Where the fields of a cs_Hit sit, in doubles (size 8) and in 32-bit words.
local function at(field, size) return ffi.offsetof("cs_Hit", field) / size end
local HIT_T, HIT_P, HIT_N = at("t", 8), at("point", 8), at("normal", 8)
local HIT_BODY, HIT_TRI, HIT_TAG, HIT_MOVER = at("body", 4), at("triangle", 4), at("tag", 4), at("mover", 4)

function push_hit(w, found, fname, base)
  if found == -C.CS_EINVAL or found == -C.CS_ERANGE then
    core_fail(C.cs_world_error(w._p), base, fname)
  end
  if found < 0 then ctx_raise(fname, -found) end
  if found == 0 then return nil end
  local d, u = w._hd, w._hu
  local a, ma = word_addr(u, HIT_BODY), word_addr(u, HIT_MOVER)
  local body = ma ~= 0 and w._movers[ma] or a ~= 0 and w._bodies[a] or nil
  local tag = u[HIT_TAG]
  if tag >= 2147483648 then tag = tag - 4294967296 end
  return d[HIT_T], d[HIT_P], d[HIT_P + 1], d[HIT_P + 2], d[HIT_N], d[HIT_N + 1], d[HIT_N + 2],
    u[HIT_TRI] + 1, body, tag
end
end

--- world:sweep(mover, dx, dy, dz [, mask]): the mover's collidesWith, or mask.
local function sweep(self, m, dx, dy, dz, mask)
  if getmetatable(self) ~= WORLD_MT or not self._p then check_world(self, 1) end
  if getmetatable(m) ~= MOVER_MT or not m._p then check_mover(m, 2, allnil(dx, dy, dz, mask)) end
  if type(dx) ~= "number" or type(dy) ~= "number" or type(dz) ~= "number" then
    check_vec3(dx, dy, dz, 3, DXYZ, mask)
  end
  check_not_moving(self, "sweep")
  local d = self._v
  d.x, d.y, d.z = dx, dy, dz
  local found
  if mask == nil then
    found = C.cs_world_sweep(self._p, m._p, d, self._hit)
  else
    found = C.cs_world_sweep_mask(self._p, m._p, d, check_mask(mask, 6, nil, "mask"), self._hit)
  end
  if found < 0 then push_hit(self, found, "sweep", 2) end     -- raises (not a tail call)
  return push_hit(self, found, "sweep", 2)
end
World.sweep = sweep

--- world:sweepEllipsoid(px, py, pz, rx, ry, rz, dx, dy, dz [, mask])
function World.sweepEllipsoid(self, px, py, pz, rx, ry, rz, dx, dy, dz, mask)
  check_world(self, 1)
  check_vec3(px, py, pz, 2, PXYZ, rx, ry, rz, dx, dy, dz, mask)
  check_vec3(rx, ry, rz, 5, RXYZ, dx, dy, dz, mask)
  check_vec3(dx, dy, dz, 8, DXYZ, mask)
  local mk = opt_mask(mask, 11)
  check_not_moving(self, "sweepEllipsoid")
  V1.x, V1.y, V1.z = px, py, pz
  V2.x, V2.y, V2.z = rx, ry, rz
  V3.x, V3.y, V3.z = dx, dy, dz
  local found = C.cs_world_sweep_ellipsoid(self._p, V1, V2, nil, V3, mk, self._hit)
  -- the core counts p, r, q (4), d: d.x is its 11th number, Lua's 8th
  if found < 0 then
    push_hit(self, found, "sweepEllipsoid", C.cs_world_error(self._p).arg >= 11 and 1 - 4 or 1)
  end
  return push_hit(self, found, "sweepEllipsoid", 1)
end

--- world:raycast(ox, oy, oz, dx, dy, dz [, mask])
local function raycast(self, ox, oy, oz, dx, dy, dz, mask)
  if getmetatable(self) ~= WORLD_MT or not self._p then check_world(self, 1) end
  if type(ox) ~= "number" or type(oy) ~= "number" or type(oz) ~= "number" then
    check_vec3(ox, oy, oz, 2, OXYZ, dx, dy, dz, mask)
  end
  if type(dx) ~= "number" or type(dy) ~= "number" or type(dz) ~= "number" then
    check_vec3(dx, dy, dz, 5, DXYZ, mask)
  end
  local mk = 0xffffffff
  if mask ~= nil then mk = check_mask(mask, 8, nil, "mask") end
  check_not_moving(self, "raycast")
  local o, d = self._v, self._walk
  o.x, o.y, o.z = ox, oy, oz
  d.x, d.y, d.z = dx, dy, dz
  local found = C.cs_world_raycast(self._p, o, d, mk, self._hit)
  if found < 0 then push_hit(self, found, "raycast", 1) end
  return push_hit(self, found, "raycast", 1)
end
World.raycast = raycast

--- world:closestPoint(x, y, z [, maxDistance [, mask]])
---   -> px, py, pz, distance, triangle, body, nx, ny, nz, tag; or nil
function World.closestPoint(self, x, y, z, maxd, mask)
  check_world(self, 1)
  check_vec3(x, y, z, 2, XYZ, maxd, mask)
  local mk = opt_mask(mask, 6)
  if not rawequal(maxd, nil) and type(maxd) ~= "number" then
    argerror(5, "maxDistance must be a number, got " .. tname(maxd))
  end
  check_not_moving(self, "closestPoint")
  V1.x, V1.y, V1.z = x, y, z
  local found = C.cs_world_closest_point(self._p, V1, maxd or huge, mk, self._hit)
  if found < 0 then push_hit(self, found, "closestPoint", 1) end
  if found == 0 then return nil end
  local t, px, py, pz, nx, ny, nz, tri, body, tag = push_hit(self, 1, "closestPoint")
  return px, py, pz, t, tri, body, nx, ny, nz, tag
end

--- world:queryBox(minx, miny, minz, maxx, maxy, maxz, fn [, mask]),
--- overlapEllipsoid(px, py, pz, rx, ry, rz, fn [, mask]),
--- raycastAll(ox, oy, oz, dx, dy, dz, fn [, mask]) -> count
for name, q in next, { queryBox = { MINXYZ, MAXXYZ, "box" }, overlapEllipsoid = { PXYZ, RXYZ, "overlap" },
                       raycastAll = { OXYZ, DXYZ, "ray" } } do
  local names1, names2, kind = q[1], q[2], q[3]
  World[name] = function(self, x0, y0, z0, x1, y1, z1, fn, mask)
    check_world(self, 1)
    check_vec3(x0, y0, z0, 2, names1, x1, y1, z1, fn, mask)
    check_vec3(x1, y1, z1, 5, names2, fn, mask)
    if kind == "box" then
      if x0 > x1 then argerror(5, "maxx is less than minx") end
      if y0 > y1 then argerror(6, "maxy is less than miny") end
      if z0 > z1 then argerror(7, "maxz is less than minz") end
    end
    local n = run_query(self, name, 8, fn, mask, nil, kind, vec_ct(x0, y0, z0), vec_ct(x1, y1, z1))
    return n                            -- (not a tail call: argerror finds this function)
  end
end

--- world:overlap(mover, fn [, mask]) -> count; mask: the mover's collidesWith.
function World.overlap(self, m, fn, mask)
  check_world(self, 1)
  local mp = check_mover(m, 2, fn == nil and mask == nil)._p
  local p, r, q = vec_ct(), vec_ct(), ffi.new("double[4]")
  C.cs_mover_get_position(mp, p)
  C.cs_mover_get_radius(mp, r)
  C.cs_mover_get_orientation(mp, q)
  local n = run_query(self, "overlap", 3, fn, mask, C.cs_mover_get(mp, C.CS_COLLIDES_WITH),
    "overlap", p, r, q, mp)
  return n
end

-- The module

local function no_fields(name)
  return function(_, k)
    local shown = check.keyKind(k) == "NUL-holding string" and "(a NUL-holding string key)"
      or "'" .. tostring(k) .. "'"
    error(format("attempt to set field %s of a %s (it has no fields)", shown, name), 2)
  end
end
MESH_MT.__index, MESH_MT.__close, MESH_MT.__newindex = Mesh, MESH_MT.__gc, no_fields("collideslide.Mesh")
WORLD_MT.__index, WORLD_MT.__newindex = World, no_fields("collideslide.World")

local core = { newMesh = newMesh, newWorld = newWorld, newMover = newMover, _VERSION = CS_VERSION }
-- cs:cpuCount() is refused as the C module refuses it (it gave the count:
-- found by an independent tester).
function core.cpuCount(...)
  check.notModule((...), "cpuCount", 1, core.cpuCount)
  return C.cs_cpu_count()
end

for name, f in pairs(core) do if type(f) == "function" then API[f] = name end end
for _, methods in ipairs { Mesh, World, Body, Mover, Sensor } do
  for name, f in pairs(methods) do API[f] = name end
end
for _, mt in ipairs { MESH_MT, WORLD_MT, MOVER_MT } do API[mt.__gc] = "__gc" end

-- The module: the core, and the Lua layer around it (collideslide/layer.lua).
local cs = require("collideslide.layer")(core)
REG[REG_KEY] = cs
return cs
