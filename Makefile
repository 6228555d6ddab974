# tracekit — one GNU Makefile. Objects go under $(BUILD)/ (out of tree).
#   make            library (static + shared), the tracekit program and, where mpicc is,
#                   tracekit-mpi (docs/mpi.md)
#   make check      the whole test suite: gcc, clang with ASan+UBSan, the threaded
#                   code under ThreadSanitizer, and musl with the general paths only
#   make test-binaries BUILD=build-nofast CFLAGS=-DTK_NO_FAST_PATH
#                   a build without the fast paths (src/core/fastpath.h)
#   make check-quick the edit loop: conventions, style, unit and CLI tests, fuzz replays, plain build
#   make format     the C sources in the one style of .clang-format (make format-check: which are not)
#   make demo       tracekit on the bundled sample traces
#   make fuzz       libFuzzer harnesses (clang);  make fuzz-run FUZZ_TIME=600 [FUZZ_NAMES="dcfg xray"]
#   make bench      benchmarks against the tools users would pick instead
#   make install PREFIX=/usr/local [DESTDIR=...] [BINDIR=... LIBDIR=... INCLUDEDIR=... MANDIR=...
#                BASHCOMPDIR=... ZSHCOMPDIR=...]
#   make uninstall (the same variables)
#   make clean
# Warnings are errors in a git checkout and under CI=true (developers, CI);
# a source tree without .git (a release) builds with warnings as warnings;
# WERROR= or WERROR=-Werror overrides.

CC ?= cc
BUILD ?= build
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
SAN ?=
FUZZ_TIME ?= 60
FUZZ_NAMES ?=
# the one version number: include/tracekit/tracekit.h
VERSION := $(shell sed -n 's/^\#define TK_VERSION_STRING "\(.*\)"/\1/p' include/tracekit/tracekit.h)
ifneq ($(wildcard .git)$(filter true,$(CI)),)
WERROR ?= -Werror
endif
NPROC := $(shell nproc 2>/dev/null || echo 1)

PKGS := zlib liblzma libzstd libelf libdw
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lz -llzma -lzstd -ldw -lelf) -lbz2
LIBS := $(PKG_LIBS) -liberty -lpthread -lm

WARN := -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wvla -Wformat=2
OPT ?= -O2 -g
CPPFLAGS += -Iinclude -Isrc -D_GNU_SOURCE
# The command line sees the public headers and its own (src/cli, src/cli/<fmt>/<fmt>.h),
# none of the library's internals.
CLI_CPPFLAGS = $(filter-out -Isrc,$(CPPFLAGS)) -Isrc/cli
ALL_CFLAGS = -std=c11 $(OPT) $(OPT_EXTRA) $(WARN) -fPIC -fvisibility=hidden -DTK_BUILDING_LIBRARY $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = $(LDFLAGS)
# TEST_OPT: the optimisation of the unit tests' own code (tests/unit/), when it is to differ
# from OPT's (make check's ASan+UBSan build: -O0, a sixth of the time to compile them)
TEST_OPT ?=
$(BUILD)/obj/tests/unit/%.o: OPT_EXTRA = $(TEST_OPT)

ifeq ($(SAN),asan)
  ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS_ALL += -fsanitize=address,undefined
  # GCC loads UBSan's runtime as a shared library of its own, whose 6 MB of
  # zeroed data LeakSanitizer scans at every exit: linked in, a process of the
  # suite takes ~18 ms less (clang has one runtime already)
  ifeq ($(shell $(CC) --version 2>/dev/null | grep -c clang),0)
    LDFLAGS_ALL += -static-libubsan
  endif
endif
ifeq ($(SAN),tsan)
  ALL_CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
  LDFLAGS_ALL += -fsanitize=thread
endif
ifeq ($(SAN),fuzz)
  ALL_CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined -DTK_FUZZING=1
  LDFLAGS_ALL += -fsanitize=address,undefined
endif

LIB_SRC := $(sort $(wildcard src/core/*.c src/graph/*.c src/model/*.c src/formats/*.c src/formats/*/*.c \
                             src/analysis/*.c src/export/*.c src/record/*.c)) $(LIB_SRC_EXTRA)
CLI_SRC := $(sort $(wildcard src/cli/*.c src/cli/*/*.c))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_SUPPORT_SRC := $(sort $(filter-out $(TEST_SRC),$(wildcard tests/unit/*.c)))
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
REPLAY_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/replay_%)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)

# tracekit-mpi (src/mpi/ and the command line's objects but tracekit.c's main), built when
# mpicc is there (Open MPI: scripts/setup-deps.sh), not for sanitizer or musl builds.
MPICC ?= mpicc
MPI_SRC := $(sort $(wildcard src/mpi/*.c))
MPI_OBJ := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
ifeq ($(SAN)$(filter musl%,$(CC)),)
MPI_PROGRAM := $(BUILD)/tracekit-mpi
# the tests' driver: many command lines in one MPI job (tests/mpi/batch.c)
MPI_BATCH := $(BUILD)/tests/mpi_batch
endif
endif

STATIC_LIB := $(BUILD)/libtracekit.a
SHARED_LIB := $(BUILD)/libtracekit.so
PROGRAM := $(BUILD)/tracekit
# The man pages and the shell completion, which the program writes from the tables that
# `tracekit help` prints (src/cli/man.c, src/cli/completion.c).
MAN_STAMP := $(BUILD)/man/.stamp
COMPLETION := $(BUILD)/completion/tracekit.bash $(BUILD)/completion/_tracekit

.DEFAULT_GOAL := all
include recorder/recorder.mk

.SECONDARY:

.PHONY: all deps viewers-deps check check-quick format format-check musl-test-binaries unit-cli-binaries check-regen test-binaries demo fuzz fuzzers fuzz-run bench install uninstall clean

all: $(STATIC_LIB) $(SHARED_LIB) $(PROGRAM) $(MPI_PROGRAM) $(MAN_STAMP) $(COMPLETION) $(RECORDER_ALL)

deps:
	@scripts/setup-deps.sh

# The viewer tests' npm packages (speedscope, playwright-core), from the lock file, into
# tests/viewers/node_modules (git-ignored); again only when the lock file changes.
VIEWERS_STAMP := tests/viewers/node_modules/.installed
viewers-deps: $(VIEWERS_STAMP)
$(VIEWERS_STAMP): tests/viewers/package.json tests/viewers/package-lock.json
	@cd tests/viewers && npm ci --no-audit --no-fund --loglevel=error >&2
	@touch $@

# Objects depend on the compiler and its flags: a change of either (CC=clang,
# SAN=..., CFLAGS=...) rebuilds them.
FLAGS_STAMP := $(BUILD)/.flags
FLAGS_TEXT := $(CC) $(CPPFLAGS) $(ALL_CFLAGS) | $(CLI_CPPFLAGS) | $(LDFLAGS_ALL) | $(TEST_OPT)
$(FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(FLAGS_TEXT)' | cmp -s - $@ 2>/dev/null || echo '$(FLAGS_TEXT)' > $@

.PHONY: FORCE
FORCE:

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The command line's objects (of two matching patterns make takes the one with the shorter stem).
$(BUILD)/obj/src/cli/%.o: src/cli/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CLI_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# mpicc runs the build's compiler (OMPI_CC) with MPI's include and library flags.
$(BUILD)/obj/src/mpi/%.o: src/mpi/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) $(CLI_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tracekit-mpi: $(MPI_OBJ) $(filter-out %/tracekit.o,$(CLI_OBJ)) $(STATIC_LIB)
	OMPI_CC=$(CC) $(MPICC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(BUILD)/obj/tests/mpi/%.o: tests/mpi/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) $(CLI_CPPFLAGS) -Isrc/mpi $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/mpi_batch: $(BUILD)/obj/tests/mpi/batch.o $(filter-out %/main.o,$(MPI_OBJ)) \
                          $(filter-out %/tracekit.o,$(CLI_OBJ)) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(STATIC_LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ) src/libtracekit.map
	$(CC) -shared -Wl,-soname,libtracekit.so.0 -Wl,--version-script=src/libtracekit.map \
	    $(LDFLAGS_ALL) -o $@ $(LIB_OBJ) $(LIBS)

$(PROGRAM): $(CLI_OBJ) $(STATIC_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJ) $(STATIC_LIB) $(LIBS)

# tracekit(1) and tracekit-COMMAND(1) for every command: `man ./build/man/tracekit.1`.
$(MAN_STAMP): $(PROGRAM)
	@rm -rf $(BUILD)/man $(BUILD)/man.tmp && mkdir -p $(BUILD)/man.tmp
	@for p in $$($(PROGRAM) help --man-pages); do \
	    $(PROGRAM) help --man $$p > $(BUILD)/man.tmp/$$p.1 || exit 1; done
	@touch $(BUILD)/man.tmp/.stamp && mv $(BUILD)/man.tmp $(BUILD)/man

$(BUILD)/completion/tracekit.bash: $(PROGRAM)
	@mkdir -p $(dir $@)
	@$(PROGRAM) help --completion bash > $@.tmp && mv $@.tmp $@

$(BUILD)/completion/_tracekit: $(PROGRAM)
	@mkdir -p $(dir $@)
	@$(PROGRAM) help --completion zsh > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(TEST_SUPPORT_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(TEST_SUPPORT_OBJ) $(STATIC_LIB) $(LIBS)

$(BUILD)/fuzz/replay_%: $(BUILD)/obj/fuzz/%.o $(BUILD)/obj/fuzz/replay.o $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(BUILD)/obj/fuzz/replay.o $(STATIC_LIB) $(LIBS)

test-binaries: $(PROGRAM) $(MPI_PROGRAM) $(MPI_BATCH) $(TEST_BIN) $(REPLAY_BIN) $(RECORDER_ALL)

# The whole suite: the plain gcc build, and the same tests under clang with
# ASan+UBSan (the second compiler: its -Werror on every source the first compiles,
# the recorder's aside, which is gcc's alone; code that works by luck of one
# compiler's choices; and its UBSan's checks, which GCC's lacks, as NULL + 0).
# The integration scripts run once (plain build); the ThreadSanitizer build
# runs the tests of the threaded code only (tests/run.sh); the build without
# fast paths (-DTK_NO_FAST_PATH: every reader's general code, which the fast
# paths must agree with) is the musl build (static, -DTK_PORTABLE: the portable
# fallbacks, and -DTK_NO_FAST_PATH), which runs the unit and CLI tests and the
# fuzz replays of the harnesses that do not compare both paths themselves
# (BOTH_PATHS_FUZZ, below).
# The four builds are made side by side by one make (its jobserver shares the
# CPUs), each of what its tests run only: the plain build is what `make` makes
# (-O2 -g, with the man pages, completion and recorder the integration scripts
# use); the others are made for their tests, with less optimisation and debug
# information (ASan and TSan at -O1 with line tables, as their manuals advise,
# the unit tests' own code under ASan at -O0; musl at -O1), which halves the
# time to compile them. The ASan build has no tracekit-mpi (Open MPI's
# allocations are not its to check): it compiles the MPI sources, not linked,
# so that clang sees them too.
CHECK_BUILDS := build build-asan build-tsan build-musl
CHECK_MAKEFLAGS := --no-print-directory -s
TSAN_TESTS := $(addprefix build-tsan/tests/,test_threadpool test_bz2_parallel test_dcfg_trace \
                test_dcfg_trace_steps)
MPI_COMPILE_ONLY := $(if $(shell command -v $(MPICC) 2>/dev/null),\
    $(addprefix build-asan/obj/,$(MPI_SRC:.c=.o) tests/mpi/batch.o))
# The tests start as soon as the plain build is made (its integration scripts, the longest
# part, beside the other builds' compiles), each other build's once it is made: the make of
# the builds runs in the background, marks each build made (BUILD/.check-built) and writes its
# status to build/.check-made when it ends (tests/run.sh, TK_BUILDS_MADE). The plain build is
# made first, on every CPU; the others after it, side by side.
CHECK_MADE := build/.check-made
check: deps viewers-deps
	@rm -f $(CHECK_MADE) $(addsuffix /.check-built,$(CHECK_BUILDS)) && mkdir -p build
	@{ $(MAKE) --no-print-directory -s -j$(NPROC) check-binaries; echo $$? >$(CHECK_MADE); } & \
	    TK_BUILDS_MADE=$(CHECK_MADE) tests/run.sh $(CHECK_BUILDS); rc=$$?; wait; exit $$rc

.PHONY: check-binaries $(addprefix check-binaries-,$(CHECK_BUILDS))
check-binaries: $(addprefix check-binaries-,$(CHECK_BUILDS))
$(addprefix check-binaries-,$(filter-out build,$(CHECK_BUILDS))): check-binaries-build
check-binaries-build:
	@$(MAKE) $(CHECK_MAKEFLAGS) all test-binaries BUILD=build && touch build/.check-built
check-binaries-build-asan:
	@$(MAKE) $(CHECK_MAKEFLAGS) test-binaries $(MPI_COMPILE_ONLY) BUILD=build-asan CC=clang \
	    SAN=asan OPT="-O1 -g1" TEST_OPT=-O0 && touch build-asan/.check-built
check-binaries-build-tsan:
	@$(MAKE) $(CHECK_MAKEFLAGS) build-tsan/tracekit $(TSAN_TESTS) BUILD=build-tsan SAN=tsan \
	    OPT="-O1 -g1" && touch build-tsan/.check-built
check-binaries-build-musl:
	@$(MAKE) $(CHECK_MAKEFLAGS) musl-test-binaries MUSL_OPT="-O1 -g0" \
	    MUSL_CFLAGS="-DTK_PORTABLE -DTK_NO_FAST_PATH" \
	    MUSL_TARGETS="unit-cli-binaries $(MUSL_REPLAY_BIN)" && touch build-musl/.check-built
# The fuzz harnesses that compare the fast and the general paths on every input
# (those with a compare_paths) are replayed by the ASan build; the musl build
# replays the others only (tests/run.sh).
BOTH_PATHS_FUZZ := $(shell grep -lw compare_paths $(FUZZ_SRC))
MUSL_REPLAY_BIN := $(patsubst fuzz/%.c,build-musl/fuzz/replay_%,$(filter-out $(BOTH_PATHS_FUZZ),$(FUZZ_SRC)))

# The musl build (static, -DTK_PORTABLE: every portable fallback of
# src/core/compat.h), against Debian's static archives of the dependencies and
# a shim of the glibc entry points they call (tests/musl/glibc_shim.c).
MUSL_A := $(addprefix /usr/lib/x86_64-linux-gnu/,libdw.a libelf.a libzstd.a liblzma.a libz.a \
                     libbz2.a libiberty.a)
MUSL_TARGETS ?= test-binaries
MUSL_OPT ?= -O2 -g
MUSL_CFLAGS ?= -DTK_PORTABLE
musl-test-binaries:
	@scripts/musl-includes.sh build-musl/include
	@$(MAKE) --no-print-directory -s $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) \
	    $(MUSL_TARGETS) BUILD=build-musl CC=musl-gcc OPT="$(MUSL_OPT)" \
	    CFLAGS="$(MUSL_CFLAGS)" PKG_CFLAGS=-Ibuild-musl/include LDFLAGS=-static \
	    LIBS="$(MUSL_A) build-musl/obj/tests/musl/glibc_shim.o -lpthread -lm" \
	    LIB_SRC_EXTRA=tests/musl/glibc_shim.c

# What the unit and CLI tests run: the program and the unit-test binaries.
unit-cli-binaries: $(PROGRAM) $(TEST_BIN)

check-quick: deps
	@$(MAKE) --no-print-directory -s -j$(NPROC) test-binaries build/libtracekit.so BUILD=build
	@TK_INTEGRATION=0 tests/run.sh build

# The one style of the C sources (.clang-format); make check runs format-check.
format-check:
	@scripts/format-check.sh
format:
	@scripts/format-check.sh --fix

check-regen: test-binaries
	@TK_REGEN=1 tests/run.sh $(BUILD)

demo: deps
	@$(MAKE) --no-print-directory -s -j$(NPROC) all
	@scripts/demo.sh $(PROGRAM)

# libFuzzer harnesses, built with clang.
fuzz: deps
	@$(MAKE) --no-print-directory -j$(NPROC) fuzzers BUILD=build-fuzz SAN=fuzz CC=clang

fuzzers: $(FUZZ_BIN)

$(BUILD)/fuzz/fuzz_%: $(BUILD)/obj/fuzz/fuzz_%.o $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -fsanitize=fuzzer -o $@ $< $(STATIC_LIB) $(LIBS)

fuzz-run: fuzz
	@scripts/fuzz-run.sh build-fuzz $(FUZZ_TIME) $(FUZZ_NAMES)

bench: deps
	@$(MAKE) --no-print-directory -s -j$(NPROC) all BUILD=build
	@scripts/bench-all.sh build/tracekit

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/tracekit
	install -m 755 $(PROGRAM) $(DESTDIR)$(BINDIR)/tracekit
ifneq ($(MPI_PROGRAM),)
	install -m 755 $(MPI_PROGRAM) $(DESTDIR)$(BINDIR)/tracekit-mpi
endif
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/completion/tracekit.bash $(DESTDIR)$(BASHCOMPDIR)/tracekit
	install -m 644 $(BUILD)/completion/_tracekit $(DESTDIR)$(ZSHCOMPDIR)/_tracekit
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/libtracekit.so.$(VERSION)
	ln -sf libtracekit.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtracekit.so.0
	ln -sf libtracekit.so.0 $(DESTDIR)$(LIBDIR)/libtracekit.so
	install -m 644 include/tracekit/*.h $(DESTDIR)$(INCLUDEDIR)/tracekit/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@VERSION@|$(VERSION)|g' tracekit.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/tracekit.pc
ifneq ($(RECORDER_ALL),)
	install -d $(DESTDIR)$(LIBDIR)/tracekit
	install -m 755 $(RECORDER_TOOL) $(DESTDIR)$(LIBDIR)/tracekit/
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tracekit $(DESTDIR)$(BINDIR)/tracekit-mpi \
	    $(DESTDIR)$(LIBDIR)/libtracekit.a \
	    $(DESTDIR)$(LIBDIR)/libtracekit.so $(DESTDIR)$(LIBDIR)/libtracekit.so.0 \
	    $(DESTDIR)$(LIBDIR)/libtracekit.so.$(VERSION) $(DESTDIR)$(LIBDIR)/pkgconfig/tracekit.pc
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/tracekit/,$(notdir $(wildcard include/tracekit/*.h)))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/tracekit 2>/dev/null
	rm -f $(DESTDIR)$(LIBDIR)/tracekit/tkrecord-$(RECORDER_ARCH)
	-rmdir $(DESTDIR)$(LIBDIR)/tracekit 2>/dev/null
	rm -f $(DESTDIR)$(MANDIR)/man1/tracekit.1 $(DESTDIR)$(MANDIR)/man1/tracekit-*.1 \
	    $(DESTDIR)$(BASHCOMPDIR)/tracekit $(DESTDIR)$(ZSHCOMPDIR)/_tracekit

clean:
	rm -rf build build-asan build-clang build-tsan build-musl build-nofast build-fuzz

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
