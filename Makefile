# collideslide: build, test and demo.
#   make            build the Lua module (build/<lua>/collideslide/core.so)
#   make demo       run examples/walk.lua
#   make test       install what is missing, build, run the specs (plain and
#                   under AddressSanitizer + UBSan)
#   make ctest      build and run the C tests spec/c/test_*.c (plain and ASan+UBSan)
#   make check-valgrind  the specs under valgrind memcheck (definite leaks fail)
#   make test-all   make test for each of lua5.1 lua5.2 lua5.3 lua5.4 luajit
#   make rock-test  luarocks make the scm rockspec into build/rocktree (Lua 5.4
#                   and 5.1) and smoke-test it from outside the repository
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
LDLIBS_ALL = -lm

CORE_SRC := csrc/cs_alloc.c csrc/cs_mesh.c csrc/cs_bvh.c csrc/cs_broad.c csrc/cs_geom.c \
            csrc/cs_sweep.c csrc/cs_slide.c csrc/cs_mover.c csrc/cs_world.c \
            csrc/cs_query.c
LUA_SRC := csrc/cs_lua.c
HDRS := $(wildcard csrc/*.h)

MODULE := $(BUILD)/collideslide/core.so
SAN_MODULE := build/asan-$(LUA)/collideslide/core.so
CORE_LIB := build/libcollideslide.a

export LUA_PATH := ./lua/?.lua;./lua/?/init.lua;./spec/?.lua;;
export LUA_CPATH := ./$(BUILD)/?.so;;

.PHONY: all lib demo test check deps clean ctest check-valgrind test-all rock-test rockspec-check

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

deps:
	@sh tools/deps.sh $(LUA)

demo: deps all
	$(LUA) examples/walk.lua

BUSTED := busted --lua=$(LUA) --helper=spec/helper.lua

test: deps all $(SAN_MODULE)
	$(BUSTED) spec
	@echo "== the same specs under AddressSanitizer + UndefinedBehaviorSanitizer =="
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  LUA_CPATH="./build/asan-$(LUA)/?.so;;" CS_SANITIZED=1 $(BUSTED) spec

# {==== More checks (the build/CI engineer's part) ============================

# Each spec/c/test_*.c is a standalone main() linked with the core and the
# other spec/c/*.c (shared references such as sweep_reference.c); it runs as
# built (-O2) and again under ASan+UBSan, with leak checking on, since there
# is no interpreter around it.
CTESTS := $(patsubst spec/c/%.c,%,$(wildcard spec/c/test_*.c))
CTEST_SUPPORT := $(filter-out spec/c/test_%.c,$(wildcard spec/c/*.c))
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

# The specs under memcheck. busted's re-exec (--lua) is skipped so valgrind
# watches the interpreter that loads our module; the exit with
# os.exit(code, true) closes the state, so userdata that __gc does not free
# shows up as "definitely lost". Only definite leaks and memory errors fail;
# tools/valgrind.supp holds what the interpreter itself reports (nothing for
# Debian's PUC Lua so far). LuaJIT needs a valgrind-aware build: use 5.x.
VALGRIND := valgrind --quiet --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite --show-leak-kinds=definite \
            --num-callers=40 --suppressions=tools/valgrind.supp

check-valgrind: all
	@sh tools/deps.sh $(LUA) valgrind
	CS_VALGRIND=1 $(VALGRIND) $(LUA) $$(command -v busted) --ignore-lua \
	  --helper=spec/helper.lua -o plainTerminal spec

# make test once per interpreter; each builds into build/<lua>/ and
# build/asan-<lua>/, and LUA_CPATH follows LUA (see the top).
LUAS := lua5.1 lua5.2 lua5.3 lua5.4 luajit

test-all:
	@set -e; for l in $(LUAS); do \
	  echo "==== make test LUA=$$l"; $(MAKE) --no-print-directory test LUA=$$l; \
	done

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
	  rm -rf "$$tmp"; \
	done

# }====

clean:
	rm -rf build
