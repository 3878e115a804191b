# collideslide: build, test and demo.
#   make            build the Lua module (build/<lua>/collideslide/core.so)
#   make demo       run examples/walk.lua
#   make test       install what is missing, build, run the specs (plain,
#                   under AddressSanitizer + UBSan, and under valgrind)
#   make ctest      build and run the C tests spec/c/test_*.c (plain and ASan+UBSan)
#   make check-valgrind  the specs under valgrind memcheck (definite leaks fail)
#   make test-all   make test for each of lua5.1 lua5.2 lua5.3 lua5.4 luajit
#   make rock-test  luarocks make the scm rockspec into build/rocktree (Lua 5.4
#                   and 5.1) and smoke-test it from outside the repository, then
#                   require the FFI binding from LuaJIT on the 5.1 tree
#   eval "$(make -s env)"  LUA_PATH and LUA_CPATH for this checkout (any directory)
#   make install    the Lua layer and the module under PREFIX (default /usr/local):
#                   PREFIX/share/lua/V/collideslide/, PREFIX/lib/lua/V/collideslide/core.so
# LUA selects the interpreter: lua5.1 lua5.2 lua5.3 lua5.4 luajit.

LUA ?= lua5.4
CC ?= cc

ifeq ($(LUA),luajit)
  LUA_INC ?= /usr/include/luajit-2.1
else
  LUA_INC ?= /usr/include/$(LUA)
endif

BUILD := build/$(LUA)
WARN := -Wall -Wextra -Wshadow -Wpointer-arith -Wcast-qual -Wstrict-prototypes \
        -Wmissing-prototypes -Wdeclaration-after-statement -Wundef
OPT ?= -O2 -g
CFLAGS_ALL = -std=c99 -D_POSIX_C_SOURCE=200809L $(WARN) $(OPT) -fPIC $(CFLAGS)
LDLIBS_ALL = -lm -lpthread

CORE_SRC := csrc/cs_alloc.c csrc/cs_check.c csrc/cs_mesh.c csrc/cs_bvh.c csrc/cs_body.c csrc/cs_broad.c csrc/cs_geom.c \
            csrc/cs_espace.c csrc/cs_sweep.c csrc/cs_slide.c csrc/cs_mover.c csrc/cs_world.c \
            csrc/cs_query.c csrc/cs_sensor.c csrc/cs_ellipsoid.c csrc/cs_thread.c csrc/cs_batch.c
LUA_SRC := csrc/cs_lua.c csrc/cs_lua_mesh.c csrc/cs_lua_world.c csrc/cs_lua_mover.c csrc/cs_lua_query.c
HDRS := $(wildcard csrc/*.h)

MODULE := $(BUILD)/collideslide/core.so
# the core alone as a shared library, for the FFI binding (make ffi-lib)
FFI_LIB := build/libcollideslide.so
SAN_MODULE := build/asan-$(LUA)/collideslide/core.so
CORE_LIB := build/libcollideslide.a

export LUA_PATH := ./lua/?.lua;./lua/?/init.lua;./spec/?.lua;;
export LUA_CPATH := ./$(BUILD)/?.so;;

.PHONY: all lib demo test check deps clean ctest check-valgrind test-all rock-test rockspec-check install env test-tsan

.DEFAULT_GOAL := all

# make install [LUA=...] [PREFIX=...] [DESTDIR=...]: where `require` finds them
# with the interpreter's default paths when PREFIX is /usr/local (Debian's Lua
# 5.1-5.4 and LuaJIT look there); any other PREFIX goes on LUA_PATH/LUA_CPATH.
PREFIX ?= /usr/local
LUA_V := $(if $(filter luajit,$(LUA)),5.1,$(patsubst lua%,%,$(LUA)))
INSTALL_LMOD := $(DESTDIR)$(PREFIX)/share/lua/$(LUA_V)/collideslide
INSTALL_CMOD := $(DESTDIR)$(PREFIX)/lib/lua/$(LUA_V)/collideslide

# eval "$(make -s env)": LUA_PATH and LUA_CPATH for this checkout, with absolute
# paths, so that `require "collideslide"` works from any directory.
env:
	@echo 'export LUA_PATH="$(CURDIR)/lua/?.lua;$(CURDIR)/lua/?/init.lua;;"'
	@echo 'export LUA_CPATH="$(CURDIR)/$(BUILD)/?.so;;"'

install: $(MODULE)
	install -d "$(INSTALL_LMOD)" "$(INSTALL_CMOD)"
	install -m 644 lua/collideslide/*.lua "$(INSTALL_LMOD)/"
	install -m 755 $(MODULE) "$(INSTALL_CMOD)/core.so"
	@echo "installed for $(LUA): $(INSTALL_LMOD)/ and $(INSTALL_CMOD)/core.so"
	@case "$(PREFIX)" in /usr/local) ;; *) echo "add to your environment:"; \
	  echo "  export LUA_PATH=\"$(PREFIX)/share/lua/$(LUA_V)/?.lua;$(PREFIX)/share/lua/$(LUA_V)/?/init.lua;;\""; \
	  echo "  export LUA_CPATH=\"$(PREFIX)/lib/lua/$(LUA_V)/?.so;;\"";; esac

all: $(MODULE)

$(MODULE): $(CORE_SRC) $(LUA_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(LUA_INC) -shared -o $@ $(CORE_SRC) $(LUA_SRC) $(LDLIBS_ALL)

# The C core alone, for C users and the C benchmarks.
lib: $(CORE_LIB)
$(CORE_LIB): $(CORE_SRC) $(HDRS)
	@mkdir -p build/obj
	@for f in $(CORE_SRC); do $(CC) $(CFLAGS_ALL) -c $$f -o build/obj/$$(basename $$f .c).o || exit 1; done
	ar rcs $@ $(patsubst csrc/%.c,build/obj/%.o,$(CORE_SRC))

# Same sources, sanitized. The Lua interpreter is not built with ASan, so the
# runtime is preloaded (see the test target).
$(SAN_MODULE): $(CORE_SRC) $(LUA_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	  -fno-sanitize-recover=undefined -I$(LUA_INC) -shared -o $@ $(CORE_SRC) $(LUA_SRC) $(LDLIBS_ALL)

# Installs what is missing (tools/deps.sh), valgrind too when make test
# will use it, so that a fresh machine needs one apt-get round.
deps:
	@sh tools/deps.sh $(LUA) $(if $(filter 1,$(TEST_VALGRIND)),valgrind)

demo: deps all
	$(LUA) examples/walk.lua

BUSTED := busted --lua=$(LUA) --helper=spec/helper.lua
# TEST_VALGRIND=0: make test skips its valgrind stage (test-all does, but for lua5.4).
TEST_VALGRIND ?= 1

test: deps all $(SAN_MODULE)
	$(BUSTED) spec
	@echo "== the same specs under AddressSanitizer + UndefinedBehaviorSanitizer =="
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  LUA_CPATH="./build/asan-$(LUA)/?.so;;" CS_SANITIZED=1 $(BUSTED) spec
	@if [ "$(TEST_VALGRIND)" = 1 ]; then \
	  echo "== the same specs under valgrind memcheck =="; \
	  $(MAKE) --no-print-directory check-valgrind; fi

# {==== More checks (the build/CI engineer's part) ============================

# Each spec/c/test_*.c is a standalone main() linked with the core and with
# the other spec/c/*.c that have no main() of their own (shared references
# such as sweep_reference.c, invariants.c; stress.c has a main and stays out).
# It runs as built (-O2) and again under ASan+UBSan, with leak checking on,
# since there is no interpreter around it.
CTESTS := $(patsubst spec/c/%.c,%,$(wildcard spec/c/test_*.c))
CTEST_OTHER := $(filter-out spec/c/test_%.c,$(wildcard spec/c/*.c))
CTEST_SUPPORT := $(if $(CTEST_OTHER),$(shell grep -L -E '^[a-z ]*int[[:space:]]+main([^A-Za-z0-9_]|$$)' $(CTEST_OTHER)))
CTEST_HDRS := $(HDRS) $(wildcard spec/c/*.h)
CORE_ASAN_LIB := build/libcollideslide-asan.a
SANFLAGS := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined

ctest: $(CTESTS:%=build/ctest/%) $(CTESTS:%=build/ctest-asan/%)
	@[ -n "$(CTESTS)" ] || echo "ctest: no spec/c/test_*.c yet"
	@set -e; for t in $(CTESTS); do \
	  echo "== $$t"; build/ctest/$$t; \
	  echo "== $$t (ASan+UBSan)"; \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    build/ctest-asan/$$t; \
	done

build/ctest/%: spec/c/%.c $(CTEST_SUPPORT) $(CTEST_HDRS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icsrc -Ispec/c -o $@ $< $(CTEST_SUPPORT) $(CORE_LIB) $(LDLIBS_ALL)

build/ctest-asan/%: spec/c/%.c $(CTEST_SUPPORT) $(CTEST_HDRS) $(CORE_ASAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(SANFLAGS) -Icsrc -Ispec/c -o $@ $< $(CTEST_SUPPORT) $(CORE_ASAN_LIB) $(LDLIBS_ALL)

# The core compiled once with the sanitizers, for all the C tests.
$(CORE_ASAN_LIB): $(CORE_SRC) $(HDRS)
	@mkdir -p build/obj-asan
	@for f in $(CORE_SRC); do $(CC) $(CFLAGS_ALL) $(SANFLAGS) -c $$f -o build/obj-asan/$$(basename $$f .c).o || exit 1; done
	rm -f $@ && ar rcs $@ $(patsubst csrc/%.c,build/obj-asan/%.o,$(CORE_SRC))

# ThreadSanitizer (issue 15): the core with -fsanitize=thread, the batch's
# C test in its thread-stress mode (batches on 4 threads, and 4 threads of
# our own on one prepared world) and in its normal mode, then the Lua batch
# specs with a TSan-built module (libtsan preloaded into the interpreter).
# Any report fails (halt_on_error).
TSANFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=thread
CORE_TSAN_LIB := build/libcollideslide-tsan.a
TSAN_MODULE := build/tsan-$(LUA)/collideslide/core.so
TSAN_OPTS := TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"

$(CORE_TSAN_LIB): $(CORE_SRC) $(HDRS)
	@mkdir -p build/obj-tsan
	@for f in $(CORE_SRC); do $(CC) $(CFLAGS_ALL) $(TSANFLAGS) -c $$f -o build/obj-tsan/$$(basename $$f .c).o || exit 1; done
	rm -f $@ && ar rcs $@ $(patsubst csrc/%.c,build/obj-tsan/%.o,$(CORE_SRC))

build/ctest-tsan/%: spec/c/%.c $(CTEST_SUPPORT) $(CTEST_HDRS) $(CORE_TSAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TSANFLAGS) -Icsrc -Ispec/c -o $@ $< $(CTEST_SUPPORT) $(CORE_TSAN_LIB) $(LDLIBS_ALL)

$(TSAN_MODULE): $(CORE_SRC) $(LUA_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TSANFLAGS) -I$(LUA_INC) -shared -o $@ $(CORE_SRC) $(LUA_SRC) $(LDLIBS_ALL)

test-tsan: deps build/ctest-tsan/test_batch $(TSAN_MODULE)
	$(TSAN_OPTS) build/ctest-tsan/test_batch tsan
	$(TSAN_OPTS) build/ctest-tsan/test_batch 120 8 1
	@if [ -f spec/batch_spec.lua ]; then \
	  echo "== the batch specs with a TSan-built module"; \
	  LUA_CPATH="./build/tsan-$(LUA)/?.so;;" $(TSAN_OPTS) LD_PRELOAD=$$($(CC) -print-file-name=libtsan.so) \
	    $(LUA) $$(command -v busted) --ignore-lua --helper=spec/helper.lua -o plainTerminal spec/batch_spec.lua; \
	fi

# The specs under memcheck. busted's re-exec (--lua) is skipped so valgrind
# watches the interpreter that loads our module; the exit with
# os.exit(code, true) closes the state, so userdata that __gc does not free
# shows up as "definitely lost". Only definite leaks and memory errors fail;
# tools/valgrind.supp holds what the interpreter itself reports (nothing for
# Debian's lua5.1-5.4 and LuaJIT so far; LuaJIT takes 2-3 times longer).
# --keep-debuginfo: Lua dlcloses core.so at exit, before the leak report.
VALGRIND := valgrind --quiet --keep-debuginfo=yes --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite --show-leak-kinds=definite \
            --num-callers=40 --suppressions=tools/valgrind.supp

check-valgrind: all
	@sh tools/deps.sh $(LUA) valgrind
	CS_VALGRIND=1 $(VALGRIND) $(LUA) $$(command -v busted) --ignore-lua \
	  --helper=spec/helper.lua -o plainTerminal spec

# make test once per interpreter; each builds into build/<lua>/ and
# build/asan-<lua>/, and LUA_CPATH follows LUA (see the top). The valgrind
# stage, the slow one, runs for lua5.4 only.
LUAS := lua5.1 lua5.2 lua5.3 lua5.4 luajit

test-all:
	@set -e; for l in $(LUAS); do \
	  echo "==== make test LUA=$$l"; \
	  $(MAKE) --no-print-directory test LUA=$$l TEST_VALGRIND=$$([ $$l = lua5.4 ] && echo 1 || echo 0); \
	done

# What CI runs after `make test` (.ci/run): the specs on every other Lua
# (plain and sanitized), the C tests, the FFI binding's suite, the rock,
# the short stress slice, and the C tests as Windows programs under wine
# (make windows, 1.5 minutes). About 8 minutes here.
OTHER_LUAS := $(filter-out lua5.4,$(LUAS))
.PHONY: ci-extra test-states callgraph

# csrc/ calls one way down: no module (a .c with its .h) reaches itself
# through includes or direct calls (tools/callgraph.py says how it looks).
callgraph:
	python3 tools/callgraph.py csrc

# The module from C (spec/c/lua_states.c): two Lua states side by side, and
# a state whose allocator fails at every allocation in turn; under ASan+UBSan.
build/lua-states-$(LUA): spec/c/lua_states.c $(CORE_SRC) $(LUA_SRC) $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS_ALL) -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	  -Icsrc -I$(LUA_INC) spec/c/lua_states.c $(CORE_SRC) $(LUA_SRC) -l$(LUA) $(LDLIBS_ALL) -o $@
test-states: deps build/lua-states-$(LUA)
	./build/lua-states-$(LUA)

ci-extra: callgraph test-states
	@set -e; for l in $(OTHER_LUAS); do \
	  echo "==== make test LUA=$$l"; \
	  $(MAKE) --no-print-directory test LUA=$$l TEST_VALGRIND=0; \
	done
	$(MAKE) --no-print-directory ctest
	$(MAKE) --no-print-directory test-ffi
	$(MAKE) --no-print-directory rock-test
	$(MAKE) --no-print-directory stress-short
	$(MAKE) --no-print-directory lifetime-slice
	$(MAKE) --no-print-directory test-tsan
	$(MAKE) --no-print-directory windows

# The rock, built the way users get it: luarocks make (builtin backend, no
# network: every dependency is a Debian package) from a copy of the sources,
# installed into build/rocktree, then required from an empty directory with
# only that tree's paths (tools/rock_smoke.lua).
ROCKSPEC := rockspec/collideslide-scm-1.rockspec
ROCK_TREE := build/rocktree
ROCK_LUAS ?= 5.4 5.1

# The rockspecs must list the Makefile's C sources and every lua/**/*.lua.
rockspec-check:
	$(LUA) tools/check_rockspec.lua --c "$(CORE_SRC) $(LUA_SRC)" \
	  --lua "$(sort $(shell find lua -name '*.lua'))" rockspec/*.rockspec

rock-test: rockspec-check
	@set -e; for v in $(ROCK_LUAS); do sh tools/deps.sh lua$$v luarocks; done
	@set -e; root=$$(pwd); for v in $(ROCK_LUAS); do \
	  echo "== luarocks make for Lua $$v"; \
	  rm -rf build/rocksrc && mkdir -p build/rocksrc && cp -r csrc lua rockspec build/rocksrc/; \
	  (cd build/rocksrc && env -u LUA_PATH -u LUA_CPATH \
	    luarocks --lua-version=$$v --tree="$$root/$(ROCK_TREE)" make $(ROCKSPEC)); \
	  tmp=$$(mktemp -d); \
	  (unset LUA_PATH LUA_CPATH; eval "$$(luarocks --lua-version $$v --tree "$$root/$(ROCK_TREE)" path)"; \
	   cd "$$tmp" && lua$$v "$$root/tools/rock_smoke.lua" "$$root/$(ROCK_TREE)"); \
	  if [ "$$v" = 5.1 ]; then \
	    echo "== the FFI binding from LuaJIT on the Lua 5.1 rock (its core.so, no libcollideslide)"; \
	    sh tools/deps.sh luajit; \
	    (unset LUA_PATH LUA_CPATH COLLIDESLIDE_LIB; \
	     eval "$$(luarocks --lua-version 5.1 --tree "$$root/$(ROCK_TREE)" path)"; \
	     cd "$$tmp" && luajit "$$root/tools/rock_smoke.lua" "$$root/$(ROCK_TREE)" ffi); \
	  fi; \
	  rm -rf "$$tmp"; \
	done

# }====

# {==== make windows: the core and its C tests on Windows (MinGW-w64, wine) ====
#   Cross-compiles the core (CORE_SRC: C99, the warning flags, no POSIX
#   defines; Win32 threads, see cs_thread.c) into build/windows/libcollideslide.a,
#   every spec/c/test_*.c and the thread stress (test_batch tsan) into
#   build/windows/*.exe, linked statically (they import KERNEL32 and msvcrt
#   only: no winpthreads, no libgcc DLL), then runs each under wine in a
#   private prefix (build/windows/wineprefix), headless and non-interactive
#   (tools/wine_tests.sh): any exit but 0, FAIL line or "N failed" fails.
#   Needs Debian's gcc-mingw-w64-x86-64, wine and wine64: installed when
#   missing (as root), else the command to run is printed.
#   WIN_RUNS: what runs, "name args" each (default: every test at its
#   default size, then test_batch tsan). About 1.5 minutes here from a clean
#   build/windows (build 15 s, wineboot 8 s, the runs 55 s; test_batch 21 s).
WIN_CC ?= x86_64-w64-mingw32-gcc
WIN_AR ?= x86_64-w64-mingw32-ar
WIN_DIR := build/windows
WIN_CFLAGS = -std=c99 $(WARN) -O2 $(WIN_EXTRA_CFLAGS)
WIN_LIB := $(WIN_DIR)/libcollideslide.a
WIN_PKGS := gcc-mingw-w64-x86-64 wine wine64
WIN_EXES := $(CTESTS:%=$(WIN_DIR)/%.exe)
WIN_RUNS ?= $(CTESTS) "test_batch tsan"

.PHONY: windows windows-deps windows-build

windows-deps:
	@if ! command -v $(WIN_CC) >/dev/null 2>&1 || ! command -v wine >/dev/null 2>&1 || \
	    ! command -v wineboot >/dev/null 2>&1 || ! [ -x /usr/lib/wine/wine64 ]; then \
	  if [ "$$(id -u)" != 0 ]; then \
	    echo "windows: run: sudo apt-get update && sudo apt-get install -y $(WIN_PKGS)"; exit 1; fi; \
	  echo "windows: apt-get install -y $(WIN_PKGS)"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y $(WIN_PKGS) </dev/null >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y $(WIN_PKGS) </dev/null >/dev/null; } || \
	  { echo "windows: apt-get install -y $(WIN_PKGS) failed"; exit 1; }; \
	fi

windows: windows-deps
	@$(MAKE) --no-print-directory windows-build
	sh tools/wine_tests.sh $(WIN_DIR) $(WIN_RUNS)

windows-build: $(WIN_LIB) $(WIN_EXES)

$(WIN_LIB): $(CORE_SRC) $(HDRS)
	@mkdir -p $(WIN_DIR)/obj
	@for f in $(CORE_SRC); do echo "$(WIN_CC) $$f"; \
	  $(WIN_CC) $(WIN_CFLAGS) -c $$f -o $(WIN_DIR)/obj/$$(basename $$f .c).o || exit 1; done
	rm -f $@ && $(WIN_AR) rcs $@ $(patsubst csrc/%.c,$(WIN_DIR)/obj/%.o,$(CORE_SRC))

$(WIN_DIR)/%.exe: spec/c/%.c $(CTEST_SUPPORT) $(CTEST_HDRS) $(WIN_LIB)
	$(WIN_CC) $(WIN_CFLAGS) -static -Icsrc -Ispec/c -o $@ $< $(CTEST_SUPPORT) $(WIN_LIB)

# }====

clean:
	rm -rf build

# {==== The benchmark (bench/, the performance engineer's part) =============
#   make bench            the "walkers" workload of $(SHARED)/bench/README.md, in C
#                         (bench/walkers.c) and in Lua (bench/walkers.lua), on
#                         terrain_708, terrain_1415 and arena, plus the size sweep,
#                         the wide worlds (wide_1416, wide_2830: terrain_708's
#                         density, 4M and 16M triangles) and the callgrind count;
#                         writes bench/RESULTS.md.
#                         QUICK=1: 1 run of 120 frames, no callgrind, written to
#                         bench/out/RESULTS.quick.md instead.
#   make bench-callgrind  instructions per mover-step (terrain_708, reduced run:
#                         256 movers, frames 60-179; FULL=1: all 600 frames)
# Scenes are generated once into bench/scenes/ (git-ignored).
SHARED ?= ../shared
BENCH_SCENES := bench/scenes
BENCH_BIN ?= build/bench/walkers
BENCH_SCENE_FILES := $(patsubst %,$(BENCH_SCENES)/terrain_%.obj,33 256 708 1415) \
                     $(patsubst %,$(BENCH_SCENES)/wide_%.obj,1416 2830) \
                     $(BENCH_SCENES)/arena.obj

.PHONY: bench bench-callgrind bench-scenes

bench-scenes: $(BENCH_SCENE_FILES)

$(BENCH_SCENES)/terrain_%.obj:
	python3 $(SHARED)/bench/make_scenes.py $(BENCH_SCENES) terrain $*

# terrain_708's density over a larger world (4M and 16M triangles; the
# 16M one is a 685 MB file, written in about 40 s)
$(BENCH_SCENES)/wide_%.obj:
	python3 $(SHARED)/bench/make_scenes.py $(BENCH_SCENES) wide $*

$(BENCH_SCENES)/arena.obj:
	python3 $(SHARED)/bench/make_scenes.py $(BENCH_SCENES) arena

# Plain -O2 (portable, no -march), like the core in $(CORE_LIB).
CROWD_BIN := build/bench/crowd
$(CROWD_BIN): bench/crowd.c bench/walkers.c csrc/collideslide.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=c99 -D_POSIX_C_SOURCE=200809L $(WARN) -Wno-unused-function -O2 -g $(CFLAGS) -Icsrc -o $@ $< $(CORE_LIB) -lm -lpthread

BINDING_COST_BIN := build/bench/binding_cost
$(BINDING_COST_BIN): bench/binding_cost.c csrc/collideslide.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=c99 -D_POSIX_C_SOURCE=200809L $(WARN) -O2 -g $(CFLAGS) -Icsrc -o $@ $< $(CORE_LIB) -lm -lpthread

# Crowds (issue 15): the walkers through the batch call, C (bench/crowd.c:
# the loop and the batch on 1 and 2 threads in one process) and Lua
# (bench/walkers.lua --threads 1 and 2), round after round in turn, wall
# clock, every configuration on the loop's checksum (bench/crowd.py); then
# 10,000 movers on terrain_708. With luajit, the FFI binding's batch on 1
# thread too. CROWD_ARGS goes to crowd.py (--rounds R). Last, the binding's
# own cost per mover: the same crowd with no geometry from C and from Lua
# (bench/binding_cost.c and .lua; their difference is the binding's).
DOOR_BIN := build/bench/door
$(DOOR_BIN): bench/door.c bench/walkers.c csrc/collideslide.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=c99 -D_POSIX_C_SOURCE=200809L $(WARN) -Wno-unused-function -O2 -g $(CFLAGS) -Icsrc -o $@ $< $(CORE_LIB) -lm -lpthread

bench-crowd: all $(CROWD_BIN) $(DOOR_BIN) $(FFI_LIB) $(BINDING_COST_BIN) $(BENCH_SCENES)/terrain_708.obj
	python3 bench/crowd.py --crowd $(CROWD_BIN) --lua $(LUA) --scene $(BENCH_SCENES)/terrain_708.obj \
	  $(if $(shell command -v luajit),--ffi ./$(FFI_LIB)) $(CROWD_ARGS)
	$(CROWD_BIN) $(BENCH_SCENES)/terrain_708.obj --movers 10000 --frames 40 --warmup 10 --runs 3 --threads 2
	$(DOOR_BIN)
	$(BINDING_COST_BIN) 1000
	LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="./$(BUILD)/?.so;;" $(LUA) bench/binding_cost.lua 1000
	$(LUA) bench/fill_floor.lua 2000

$(BENCH_BIN): bench/walkers.c csrc/collideslide.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=c99 -D_POSIX_C_SOURCE=200809L $(WARN) -O2 -g $(CFLAGS) -Icsrc -o $@ $< $(CORE_LIB) -lm -lpthread

bench: all $(BENCH_BIN) bench-scenes
	python3 bench/run.py --walkers $(BENCH_BIN) --lua $(LUA) --scenes $(BENCH_SCENES) $(if $(QUICK),--quick)
	$(MAKE) --no-print-directory bench-movers $(if $(QUICK),MOVERS_ARGS="--frames 10 --runs 1")
	$(MAKE) --no-print-directory bench-crowd $(if $(QUICK),CROWD_ARGS="--rounds 1 --frames 90 --warmup 30")

bench-callgrind: $(BENCH_BIN) $(BENCH_SCENES)/terrain_708.obj
	@command -v valgrind >/dev/null || sh tools/deps.sh $(LUA) valgrind
	python3 bench/run.py --callgrind-only --walkers $(BENCH_BIN) --scenes $(BENCH_SCENES) $(if $(FULL),--full)

# }====

# {==== make bench-peers: ours beside Bullet and Jolt (bench/peers/) ===========
#   Each peer driver runs the walkers workload with its own character
#   controller and with ours in one process, alternating a full run of ours
#   and one of the peer (PEER_ROUNDS rounds), and prints steps/s of each and
#   their ratio per scene and shape (sphere 0.5, capsule 0.4/1.8); the lines
#   also go to bench/out/peers.txt.
#   - Bullet: Debian's libbullet-dev (installed when missing),
#     btKinematicCharacterController on a btBvhTriangleMeshShape, step 0.35.
#   - Jolt: CharacterVirtual, only when JOLT_DIR names a checkout of
#     jrouwe/JoltPhysics that you built yourself (Jolt is not packaged in
#     Debian; never copy its code here), for example:
#       cd $$JOLT_DIR/Build && ./cmake_linux_clang_gcc.sh Distribution g++ \
#         && cd Linux_Distribution && make -j2 Jolt
#       make bench-peers JOLT_DIR=/path/to/JoltPhysics
#     JOLT_BUILD is the build folder (default the first of
#     Build/Linux_Distribution and Build/Linux_Release holding libJolt.a).
#     The driver is compiled with that build's own defines and instruction
#     set, LTO and RTTI flags, read from its CMake flags.make (Jolt checks
#     the defines when it starts; a mismatch also breaks its vtables), or
#     JOLT_CFLAGS when given.
#   PEERS: which to run (default "bullet jolt"; jolt only with JOLT_DIR).
#   PEER_SCENES (default terrain_708 terrain_33 terrain_256 arena),
#   PEER_ROUNDS (3), PEER_FRAMES (600).
PEERS ?= bullet jolt
PEER_SCENES ?= terrain_708 terrain_33 terrain_256 arena
PEER_ROUNDS ?= 3
PEER_FRAMES ?= 600
PEER_ARGS = --rounds $(PEER_ROUNDS) --frames $(PEER_FRAMES)
PEER_OURS := build/bench/peer_ours.o
BULLET_BIN := build/bench/walkers_bullet
JOLT_BIN := build/bench/walkers_jolt
JOLT_BUILD ?= $(or $(patsubst %/libJolt.a,%,$(firstword $(wildcard \
  $(JOLT_DIR)/Build/Linux_Distribution/libJolt.a $(JOLT_DIR)/Build/Linux_Release/libJolt.a))),\
  $(JOLT_DIR)/Build/Linux_Distribution)
JOLT_LIB ?= $(JOLT_BUILD)/libJolt.a
JOLT_FLAGS_MAKE = $(JOLT_BUILD)/CMakeFiles/Jolt.dir/flags.make
JOLT_CFLAGS ?= $(if $(wildcard $(JOLT_FLAGS_MAKE)),$(shell sed -n 's/^CXX_DEFINES = //p' \
  $(JOLT_FLAGS_MAKE)) $(filter -m% -flto% -fno-rtti -ffp-contract%,$(shell sed -n \
  's/^CXX_FLAGS = //p' $(JOLT_FLAGS_MAKE))))
CXX ?= c++

.PHONY: bench-peers

# Our side, compiled like build/bench/walkers (walkers.c without its main).
$(PEER_OURS): bench/peers/peer_ours.c bench/peers/peer.h bench/walkers.c csrc/collideslide.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 -D_POSIX_C_SOURCE=200809L $(WARN) -Wno-unused-function -O2 -g $(CFLAGS) \
	  -Icsrc -c -o $@ $<

$(BULLET_BIN): bench/peers/walkers_bullet.cpp bench/peers/peer_main.h bench/peers/peer.h \
               $(PEER_OURS) $(CORE_LIB)
	@sh tools/deps.sh $(LUA) bullet
	$(CXX) -std=c++11 -O2 -g $$(pkg-config --cflags bullet) -Icsrc -o $@ $< $(PEER_OURS) \
	  $(CORE_LIB) $$(pkg-config --libs bullet) -lm -lpthread

$(JOLT_BIN): bench/peers/walkers_jolt.cpp bench/peers/peer_main.h bench/peers/peer.h \
             $(PEER_OURS) $(CORE_LIB)
	$(CXX) -std=c++17 -O2 -g $(JOLT_CFLAGS) -I$(JOLT_DIR) -Icsrc -o $@ $< $(PEER_OURS) \
	  $(CORE_LIB) $(JOLT_LIB) -lpthread -lm

bench-peers: $(if $(filter bullet,$(PEERS)),$(BULLET_BIN)) \
             $(patsubst %,$(BENCH_SCENES)/%.obj,$(PEER_SCENES))
	@mkdir -p bench/out
	@: > bench/out/peers.txt
ifneq ($(filter bullet,$(PEERS)),)
	@for s in $(PEER_SCENES); do \
	  echo "== Bullet: $(BULLET_BIN) $(BENCH_SCENES)/$$s.obj $(PEER_ARGS)" | tee -a bench/out/peers.txt; \
	  $(BULLET_BIN) $(BENCH_SCENES)/$$s.obj $(PEER_ARGS) | tee -a bench/out/peers.txt || exit 1; \
	done
endif
ifeq ($(filter jolt,$(PEERS)),)
else ifeq ($(strip $(JOLT_DIR)),)
	@echo "== Jolt: skipped (JOLT_DIR is not set; see the Makefile's bench-peers notes to build Jolt)" | tee -a bench/out/peers.txt
else
	@test -f $(JOLT_LIB) || { echo "bench-peers: $(JOLT_LIB) not found: build Jolt first (see the Makefile)"; exit 1; }
	@$(MAKE) --no-print-directory $(JOLT_BIN)
	@for s in $(PEER_SCENES); do \
	  echo "== Jolt: $(JOLT_BIN) $(BENCH_SCENES)/$$s.obj $(PEER_ARGS)" | tee -a bench/out/peers.txt; \
	  $(JOLT_BIN) $(BENCH_SCENES)/$$s.obj $(PEER_ARGS) | tee -a bench/out/peers.txt || exit 1; \
	done
endif

# }====

# {==== make bench-movers: movers that meet (bench/movers.c) ====
#   10,000 movers apart on a floor, none added then all added (they never
#   meet), and a dense crowd of 1,024 added movers in 40 x 40 m: ms per frame
#   and mover-steps/s, interleaved run after run. MOVERS_ARGS: --movers N
#   --frames F --runs R. Then the walkers on terrain_708 under callgrind
#   without and with every mover added (walkers --added): the ratio.
#   make bench runs it too.
MOVERS_BIN := build/bench/movers

.PHONY: bench-movers

$(MOVERS_BIN): bench/movers.c csrc/collideslide.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icsrc -o $@ bench/movers.c $(CORE_LIB) $(LDLIBS_ALL)

bench-movers: $(MOVERS_BIN) $(BENCH_BIN) $(BENCH_SCENES)/terrain_708.obj
	$(MOVERS_BIN) $(MOVERS_ARGS)
	@command -v valgrind >/dev/null || sh tools/deps.sh $(LUA) valgrind
	@set -e; for mode in plain added; do \
	  valgrind --tool=callgrind --dump-instr=no --collect-atstart=no --toggle-collect=run_frames \
	    --callgrind-out-file=build/bench/callgrind.movers-$$mode.out $(BENCH_BIN) \
	    $(BENCH_SCENES)/terrain_708.obj --runs 1 --movers 256 --warmup 60 --frames 180 \
	    $$([ $$mode = added ] && echo --added) > build/bench/walkers-$$mode.log 2>&1; \
	done; \
	p=$$(grep -E '^(summary|totals):' build/bench/callgrind.movers-plain.out | head -1 | awk '{print $$2}'); \
	a=$$(grep -E '^(summary|totals):' build/bench/callgrind.movers-added.out | head -1 | awk '{print $$2}'); \
	echo "walkers on terrain_708 (callgrind, 256 movers, frames 60-179): $$((p / 30720)) instructions" \
	  "per step, $$((a / 30720)) with every mover added: $$(awk -v a=$$a -v p=$$p 'BEGIN { printf "%.2f", a / p }')x"

# }====

# {==== make bench-bodies: "worlds that move" (bench/bodies.c, bench/bodies.lua) ====
#   10,000 bodies (one shared box mesh) moved by setTransform every frame and
#   256 movers walking among them: ms per frame of the transforms, of the
#   world's tree over bodies and of the moves; queries/s of each query kind;
#   the bytes of 1000 instances of a 10k-triangle mesh (C). In C, then in Lua.
#   BODIES_ARGS passes options to both: --bodies N --frames F --movers M --queries Q.
BODIES_BIN := build/bench/bodies

.PHONY: bench-bodies

$(BODIES_BIN): bench/bodies.c csrc/collideslide.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icsrc -o $@ bench/bodies.c $(CORE_LIB) $(LDLIBS_ALL)

bench-bodies: $(BODIES_BIN) all
	@echo "== bench/bodies.c"
	$(BODIES_BIN) $(BODIES_ARGS)
	@echo "== bench/bodies.lua ($(LUA))"
	$(LUA) bench/bodies.lua $(BODIES_ARGS)

# }====

# {==== Long-run invariants and fuzzing (the reliability engineer's part) ====
#   make stress        spec/c/stress.c: 10 million mover-steps in random worlds
#                      (sealed rooms, stairs, creases, spikes, bumpy floors, the
#                      bench arena and terrain_33), then 1 million each with the
#                      scene at (1e5, 0, 1e5) and (1e6, 0, 1e6); prints the counts
#                      and fails on any violation. About 6 CPU minutes; the runs
#                      are separate targets (the 10 million in two halves with
#                      their own seeds), so make -j4 stress runs them side by side.
#   make stress-short  the same checks on 200,000 steps at the origin and 25,000
#                      at each far offset (for make test).
#   make fuzz          the libFuzzer harnesses fuzz/fuzz_{mesh,sweep,slide}.c
#                      (clang, ASan+UBSan): each replays fuzz/regressions/<name>/,
#                      then runs FUZZ_SECONDS (60) on fuzz/corpus/<name>/ plus its
#                      working corpus fuzz/out/<name>/ (git-ignored); crashes go
#                      to fuzz/out/artifacts/. Prints the executions of each.
#   make fuzz-merge    minimises fuzz/out/<name>/ into fuzz/corpus/<name>/ (to commit).
#   make lifetime-slice  fuzz/fuzz_lifetime.c without libFuzzer (gcc): its
#                      regressions and corpus, then LIFETIME_INPUTS random
#                      inputs under ASan+UBSan, and a tenth of them under
#                      valgrind (in CI, through make ci-extra).
# STRESS_STEPS, STRESS_FAR_STEPS, STRESS_SEED and STRESS_ARGS tune the runs.
STRESS_BIN := build/stress/stress
STRESS_STEPS ?= 10000000
STRESS_FAR_STEPS ?= 1000000
STRESS_SEED ?= 1
STRESS_SCENES ?= $(or $(BENCH_SCENES),bench/scenes)
STRESS_SCENE_FILES := $(STRESS_SCENES)/arena.obj $(STRESS_SCENES)/terrain_33.obj
STRESS_SUPPORT := spec/c/invariants.c spec/c/sweep_reference.c
STRESS_RUN = $(STRESS_BIN) --quiet --seed $(STRESS_SEED) --scenes $(STRESS_SCENES) $(STRESS_ARGS)

FUZZERS := fuzz_mesh fuzz_sweep fuzz_slide fuzz_lifetime
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -std=c99 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: stress stress-0a stress-0b stress-1e5 stress-1e6 stress-short fuzz fuzz-deps fuzz-merge \
        fuzz-regressions lifetime-slice

$(STRESS_BIN): spec/c/stress.c $(STRESS_SUPPORT) $(CTEST_HDRS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icsrc -Ispec/c -o $@ $< $(STRESS_SUPPORT) $(CORE_LIB) $(LDLIBS_ALL)

stress: stress-0a stress-0b stress-1e5 stress-1e6 stress-movers

stress-0a: $(STRESS_BIN) $(STRESS_SCENE_FILES)
	$(STRESS_RUN) --steps $$(($(STRESS_STEPS) / 2))

stress-0b: $(STRESS_BIN) $(STRESS_SCENE_FILES)
	$(STRESS_RUN) --steps $$(($(STRESS_STEPS) - $(STRESS_STEPS) / 2)) --seed $$(($(STRESS_SEED) + 1000))

stress-1e5: $(STRESS_BIN) $(STRESS_SCENE_FILES)
	$(STRESS_RUN) --steps $(STRESS_FAR_STEPS) --offset 1e5

stress-1e6: $(STRESS_BIN) $(STRESS_SCENE_FILES)
	$(STRESS_RUN) --steps $(STRESS_FAR_STEPS) --offset 1e6

# Movers that meet: the issue's crowd, 1,000 added movers walking 600 frames
# in a walled yard, then in the bench arena, checked after every step
# (spec/c/test_movers.c: no two overlap, none inside the geometry).
.PHONY: stress-movers
stress-movers: build/ctest/test_movers $(STRESS_SCENES)/arena.obj
	build/ctest/test_movers 1000 600 $(STRESS_SCENES)/arena.obj

# (no scene files needed: without them the runner builds its own worlds only)
stress-short: $(STRESS_BIN)
	$(STRESS_RUN) --steps 200000 --per-mover 100
	$(STRESS_RUN) --steps 25000 --per-mover 60 --offset 1e5
	$(STRESS_RUN) --steps 25000 --per-mover 60 --offset 1e6

# Debian's clang 14 needs libclang-rt-14-dev for -fsanitize=fuzzer.
FUZZ_PROBE := int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }
fuzz-deps:
	@mkdir -p build && echo '$(FUZZ_PROBE)' > build/fuzz-probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer -o build/fuzz-probe build/fuzz-probe.c 2>/dev/null || { \
	  echo "fuzz: $(FUZZ_CC) cannot link libFuzzer: apt-get install -y clang libclang-rt-14-dev"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y clang libclang-rt-14-dev </dev/null && \
	  $(FUZZ_CC) -fsanitize=fuzzer -o build/fuzz-probe build/fuzz-probe.c; }

build/fuzz/%: fuzz/%.c fuzz/fuzz_alloc.h $(STRESS_SUPPORT) $(CORE_SRC) $(CTEST_HDRS) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Icsrc -Ispec/c -Ifuzz -o $@ $< $(STRESS_SUPPORT) $(CORE_SRC) -lm -lpthread

# Each input that once found a bug must pass.
fuzz-regressions: $(FUZZERS:%=build/fuzz/%)
	@mkdir -p fuzz/out
	@set -e; for f in $(FUZZERS); do \
	  [ -n "$$(ls fuzz/regressions/$$f 2>/dev/null)" ] || continue; \
	  if $(FUZZ_ENV) build/fuzz/$$f fuzz/regressions/$$f/* > fuzz/out/$$f-regressions.log 2>&1; then \
	    echo "$$f: $$(grep -c '^Executed' fuzz/out/$$f-regressions.log) inputs of fuzz/regressions/$$f/ pass"; \
	  else \
	    grep -E '^(Executed|fuzz_|==[0-9]+==ERROR|SUMMARY)' fuzz/out/$$f-regressions.log; \
	    echo "$$f: a regression input fails (log: fuzz/out/$$f-regressions.log)"; exit 1; \
	  fi; \
	done

fuzz: fuzz-regressions
	@mkdir -p fuzz/out/artifacts
	@set -e; for f in $(FUZZERS); do \
	  mkdir -p fuzz/out/$$f; \
	  echo "== $$f: $(FUZZ_SECONDS) s"; \
	  if $(FUZZ_ENV) build/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	       -artifact_prefix=fuzz/out/artifacts/$$f- fuzz/out/$$f fuzz/corpus/$$f \
	       > fuzz/out/$$f.log 2>&1; then \
	    grep -E '^Done [0-9]+ runs' fuzz/out/$$f.log | sed "s/^/$$f: /"; \
	  else \
	    grep -E '^(fuzz_|==[0-9]+==ERROR|SUMMARY|artifact_prefix)' fuzz/out/$$f.log; \
	    echo "$$f: FAILED (log: fuzz/out/$$f.log)"; exit 1; \
	  fi; \
	done

# The lifetime harness as a plain program: random lives of worlds, bodies,
# meshes and movers with the allocator's address reuse on for half of them
# (fuzz/fuzz_lifetime.c), under the sanitizers, then valgrind.
LIFETIME_INPUTS ?= 20000
LIFETIME_SEED ?= 1
LIFETIME_FILES = $(wildcard fuzz/regressions/fuzz_lifetime/* fuzz/corpus/fuzz_lifetime/*)
build/lifetime/asan: fuzz/fuzz_lifetime.c fuzz/fuzz_alloc.h $(CORE_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(SANFLAGS) -DFUZZ_STANDALONE -Icsrc -Ifuzz -o $@ fuzz/fuzz_lifetime.c $(CORE_SRC) $(LDLIBS_ALL)
build/lifetime/plain: fuzz/fuzz_lifetime.c fuzz/fuzz_alloc.h $(CORE_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DFUZZ_STANDALONE -Icsrc -Ifuzz -o $@ fuzz/fuzz_lifetime.c $(CORE_SRC) $(LDLIBS_ALL)
lifetime-slice: build/lifetime/asan build/lifetime/plain
	@command -v valgrind >/dev/null || sh tools/deps.sh $(LUA) valgrind
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  build/lifetime/asan $(LIFETIME_FILES)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  build/lifetime/asan --random $(LIFETIME_INPUTS) $(LIFETIME_SEED)
	$(VALGRIND) build/lifetime/plain $(LIFETIME_FILES)
	$(VALGRIND) build/lifetime/plain --random $$(($(LIFETIME_INPUTS) / 10)) $$(($(LIFETIME_SEED) + 1))

fuzz-merge: $(FUZZERS:%=build/fuzz/%)
	@set -e; for f in $(FUZZERS); do \
	  mkdir -p fuzz/corpus/$$f fuzz/out/$$f; \
	  build/fuzz/$$f -merge=1 fuzz/corpus/$$f fuzz/out/$$f 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new'; \
	done

# }====

# {==== The LuaJIT FFI binding (lua/collideslide/ffi.lua, the FFI engineer's part) ====
#   make ffi-lib    build/libcollideslide.so: the C core alone as a shared library
#                   (no Lua), which `require "collideslide.ffi"` loads with ffi.load
#                   (COLLIDESLIDE_LIB, else package.cpath-style locations, else next
#                   to ffi.lua; see its header).
#   make test-ffi   the busted specs under LuaJIT with `require "collideslide"`
#                   resolving to collideslide.ffi (CS_BACKEND=ffi, see spec/helper.lua).
#                   Specs tagged #cbinding test what only the C module has (messages
#                   naming the C stack, the state's close running core.so's
#                   finalizers, ...): excluded here, each tag says why.
#                   spec/ffi_spec.lua checks that ffi.lua's cdef is the header's
#                   declarations (in make test too) and compares the two modules.
#                   The C calls take vectors through pointers, so the JIT compiles
#                   them on every platform: no ABI views to test separately.

.PHONY: ffi-lib test-ffi

ffi-lib: $(FFI_LIB)

$(FFI_LIB): $(CORE_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -shared -o $@ $(CORE_SRC) $(LDLIBS_ALL)

FFI_BUSTED := CS_BACKEND=ffi COLLIDESLIDE_LIB=./$(FFI_LIB) busted --lua=luajit \
              --helper=spec/helper.lua --exclude-tags=cbinding

test-ffi: $(FFI_LIB)
	@sh tools/deps.sh luajit
	$(MAKE) --no-print-directory all LUA=luajit
	$(FFI_BUSTED) spec

# }====

# {==== The LÖVE playground's headless test (examples/love, the docs/examples part) ====
#   make playground-test  builds the module for LuaJIT (LÖVE 11 runs LuaJIT) and runs
#                         the playground twice under Xvfb:
#                         1. `--script walk`: 200 frames of scripted input at a fixed
#                            dt, then a screenshot (PLAYGROUND_SHOT);
#                         2. `--script stairs --replay-compare stepHeight=0.2`: the
#                            script's 200 frames recorded (and saved to a file, read
#                            back), replayed with the settings unchanged, then with
#                            the setting changed (PLAYGROUND_COMPARE), a screenshot of
#                            the last replay beside the recording's ghost
#                            (PLAYGROUND_COMPARE_SHOT). examples/love/test/check_compare.lua
#                            then checks the printed figures: the unchanged replay
#                            is the recorded path bit for bit, the changed one
#                            differs, the settings printed for pasting are a valid
#                            cs.newCharacter call with the new value, the saved
#                            recording reads back.
#                         Then --builtin --frames 30 must stop at frame 30 (it ran
#                         2 past: a long first frame's steps).
#                         Fails unless both screenshots appear and are PNGs and the
#                         checks pass. Installs love, xvfb and xauth when missing.
#                         Not in make test: LÖVE and Xvfb are heavy.
#                         PLAYGROUND_SCRIPT=slope: the other first run;
#                         PLAYGROUND_COMPARE=airControl=1 (any slider): another change.
PLAYGROUND_SCRIPT ?= walk
PLAYGROUND_SHOT ?= build/playground/$(PLAYGROUND_SCRIPT).png
PLAYGROUND_COMPARE ?= stepHeight=0.2
PLAYGROUND_COMPARE_SHOT ?= build/playground/compare.png
PLAYGROUND_DIR := build/playground
PLAYGROUND_PKGS := love xvfb xauth
PLAYGROUND_XVFB := timeout 300 xvfb-run -a -s "-screen 0 1280x800x24"

.PHONY: playground-test playground-deps love-minimal-test

playground-deps:
	@sh tools/deps.sh luajit
	@if ! command -v love >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null 2>&1 || \
	    ! command -v xauth >/dev/null 2>&1; then \
	  if [ "$$(id -u)" != 0 ]; then \
	    echo "playground-test: run: sudo apt-get install -y $(PLAYGROUND_PKGS)"; exit 1; fi; \
	  echo "playground-test: apt-get install -y $(PLAYGROUND_PKGS)"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y $(PLAYGROUND_PKGS) </dev/null || \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(PLAYGROUND_PKGS) </dev/null; }; \
	fi

playground-test: playground-deps
	$(MAKE) --no-print-directory all LUA=luajit
	@mkdir -p $(dir $(PLAYGROUND_SHOT)) $(dir $(PLAYGROUND_COMPARE_SHOT)) $(PLAYGROUND_DIR)
	@rm -f $(PLAYGROUND_SHOT) $(PLAYGROUND_COMPARE_SHOT) $(PLAYGROUND_DIR)/compare.log \
	  $(PLAYGROUND_DIR)/recording.lua
	$(PLAYGROUND_XVFB) love examples/love --script $(PLAYGROUND_SCRIPT) \
	  --screenshot $(abspath $(PLAYGROUND_SHOT))
	@head -c 8 $(PLAYGROUND_SHOT) 2>/dev/null | grep -q PNG || \
	  { echo "playground-test: FAILED: no screenshot at $(PLAYGROUND_SHOT)"; exit 1; }
	$(PLAYGROUND_XVFB) love examples/love --script stairs --replay-compare $(PLAYGROUND_COMPARE) \
	  --save-recording $(abspath $(PLAYGROUND_DIR))/recording.lua \
	  --screenshot $(abspath $(PLAYGROUND_COMPARE_SHOT)) > $(PLAYGROUND_DIR)/compare.log 2>&1 || \
	  { cat $(PLAYGROUND_DIR)/compare.log; echo "playground-test: FAILED: the replay run"; exit 1; }
	@cat $(PLAYGROUND_DIR)/compare.log
	@head -c 8 $(PLAYGROUND_COMPARE_SHOT) 2>/dev/null | grep -q PNG || \
	  { echo "playground-test: FAILED: no screenshot at $(PLAYGROUND_COMPARE_SHOT)"; exit 1; }
	luajit examples/love/test/check_compare.lua $(PLAYGROUND_DIR)/compare.log $(PLAYGROUND_COMPARE) \
	  $(PLAYGROUND_DIR)/recording.lua
	$(PLAYGROUND_XVFB) love examples/love --builtin --frames 30 \
	  --screenshot $(abspath $(PLAYGROUND_DIR))/frames.png > $(PLAYGROUND_DIR)/frames.log 2>&1
	@grep -q 'playground: frame 30,' $(PLAYGROUND_DIR)/frames.log || \
	  { cat $(PLAYGROUND_DIR)/frames.log; echo "playground-test: FAILED: --frames 30 without a script"; exit 1; }
	@echo "playground-test: ok, $(PLAYGROUND_SHOT) ($$(wc -c < $(PLAYGROUND_SHOT)) bytes)," \
	  "$(PLAYGROUND_COMPARE_SHOT) ($$(wc -c < $(PLAYGROUND_COMPARE_SHOT)) bytes)"

# The LÖVE quick start (examples/love-minimal/main.lua, unchanged) under Xvfb:
# tools/love_minimal_test scripts its keyboard (east up the stairs, then a jump)
# at a fixed dt, fails unless the character climbed, and saves a screenshot.
love-minimal-test: playground-deps
	$(MAKE) --no-print-directory all LUA=luajit
	@mkdir -p build/playground && rm -f build/playground/love-minimal.png
	timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" \
	  love tools/love_minimal_test $(abspath build/playground/love-minimal.png)
	@head -c 8 build/playground/love-minimal.png 2>/dev/null | grep -q PNG || \
	  { echo "love-minimal-test: FAILED: no screenshot"; exit 1; }
	@echo "love-minimal-test: ok, build/playground/love-minimal.png"

# }====
