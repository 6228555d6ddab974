# tkrecord, tracekit's Valgrind tool (recorder/, docs/record.md), built out of
# Valgrind's source tree from what Debian's valgrind package installs: the tool
# API headers and the static archives of the core.  Built by `make` when they
# are present (scripts/setup-deps.sh installs valgrind), installed by `make
# install` into $(LIBDIR)/tracekit, found there or in the build tree by
# `tracekit record`.  x86-64 only.
VALGRIND_INC ?= /usr/include/valgrind
VALGRIND_ARCHIVES ?= /usr/lib/x86_64-linux-gnu/valgrind
RECORDER_CC ?= gcc
RECORDER_ARCH := amd64-linux
RECORDER_SRC := $(sort $(wildcard recorder/*.c))
RECORDER_OBJ := $(RECORDER_SRC:recorder/%.c=$(BUILD)/recorder/obj/%.o)
RECORDER_TOOL := $(BUILD)/recorder/tkrecord-$(RECORDER_ARCH)
RECORDER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter $(WERROR) \
    -Wmissing-prototypes -Wshadow -fno-stack-protector -fno-builtin -fno-strict-aliasing \
    -fomit-frame-pointer -fno-pie -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 \
    -DVGPV_amd64_linux_vanilla=1 -I$(VALGRIND_INC)
RECORDER_LDFLAGS := -static -nodefaultlibs -nostartfiles -u _start -Wl,-Ttext-segment=0x58000000
RECORDER_LIBS := $(VALGRIND_ARCHIVES)/libcoregrind-$(RECORDER_ARCH).a \
    $(VALGRIND_ARCHIVES)/libvex-$(RECORDER_ARCH).a \
    $(VALGRIND_ARCHIVES)/libgcc-sup-$(RECORDER_ARCH).a -lgcc

# built where the headers and archives are, on x86-64, in the plain builds
# (not under a sanitizer, not with musl-gcc: the tool has its own flags anyway)
RECORDER_AVAILABLE := $(and $(wildcard $(VALGRIND_INC)/pub_tool_basics.h),\
    $(wildcard $(VALGRIND_ARCHIVES)/libcoregrind-$(RECORDER_ARCH).a),\
    $(filter x86_64,$(shell uname -m)))
ifneq ($(RECORDER_AVAILABLE),)
ifeq ($(SAN),)
ifeq ($(filter musl-gcc,$(CC)),)
RECORDER_ALL := $(RECORDER_TOOL)
endif
endif
endif

$(BUILD)/recorder/obj/%.o: recorder/%.c recorder/tkr.h recorder/recorder.mk
	@mkdir -p $(dir $@)
	$(RECORDER_CC) $(RECORDER_CFLAGS) -c $< -o $@

$(RECORDER_TOOL): $(RECORDER_OBJ)
	@mkdir -p $(dir $@)
	$(RECORDER_CC) -o $@ $(RECORDER_OBJ) $(RECORDER_LDFLAGS) $(RECORDER_LIBS)
