# ktrace: recover the ftrace flight recorder from a vmcore.
#   make            libktrace, ktrace-extract, ktrace.so (if crash headers exist)
#   make check      fixtures (real vmcores, generated on demand) and all tests
#   make bench      benchmarks
#   make install    PREFIX=/usr/local DESTDIR=

PREFIX    ?= /usr/local
DESTDIR   ?=
CC        ?= gcc
CFLAGS    ?= -O2 -g
WERROR    ?= -Werror
SANITIZE  ?=
PKG_CONFIG ?= pkg-config

WARN      := -Wall -Wextra $(WERROR) -Wno-unused-parameter
TEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtraceevent)
TEP_LIBS   := $(shell $(PKG_CONFIG) --libs libtraceevent)
# what libktrace links: libtraceevent, zlib + zstd for the ticket archives, threads (jobs.c)
LIB_LIBS   := $(TEP_LIBS) -lz -lzstd -pthread
KDUMP_CFLAGS := $(shell $(PKG_CONFIG) --cflags libkdumpfile libdw libbpf)
KDUMP_LIBS   := $(shell $(PKG_CONFIG) --libs libkdumpfile libdw libbpf) -laddrxlat -lelf -lz
# another libkdumpfile than the system's, unpacked under a prefix (its
# include/ and lib/<multiarch>/): LIBKDUMPFILE_PREFIX=DIR/usr, e.g. sid's
# from scripts/fetch-libkdumpfile. Its libraries may need a newer libc than
# this machine's (sid's 0.5.6: glibc 2.38), so what they leave undefined is
# not checked at link time; the binary is run with their own loader
# (the fetch script's bin/run, tests/t-lkdf.sh).
LIBKDUMPFILE_PREFIX ?=
ifneq ($(LIBKDUMPFILE_PREFIX),)
LKDF_LIBDIR := $(firstword $(wildcard $(LIBKDUMPFILE_PREFIX)/lib/*-linux-gnu/libkdumpfile.so \
	$(LIBKDUMPFILE_PREFIX)/lib64/libkdumpfile.so $(LIBKDUMPFILE_PREFIX)/lib/libkdumpfile.so))
ifeq ($(LKDF_LIBDIR),)
$(error no libkdumpfile.so under LIBKDUMPFILE_PREFIX=$(LIBKDUMPFILE_PREFIX))
endif
LKDF_LIBDIR := $(patsubst %/,%,$(dir $(LKDF_LIBDIR)))
KDUMP_CFLAGS := -I$(LIBKDUMPFILE_PREFIX)/include $(KDUMP_CFLAGS)
KDUMP_LIBS := -L$(LKDF_LIBDIR) -Wl,-rpath-link,$(LKDF_LIBDIR) -Wl,--allow-shlib-undefined $(KDUMP_LIBS)
endif

ALL_CFLAGS = $(CFLAGS) $(WARN) $(SANITIZE) -std=gnu11 -fPIC -D_GNU_SOURCE -Iinclude $(TEP_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(SANITIZE)

O ?= build
LIB_SRCS := $(wildcard lib/*.c lib/*/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
# extract/types/: where types and symbols come from (DWARF, BTF, the dump)
EXTRACT_SRCS := $(wildcard extract/*.c extract/types/*.c)
EXTRACT_OBJS := $(EXTRACT_SRCS:%.c=$(O)/%.o)
CRASH_SRCS := $(wildcard crash-ext/*.c)
CRASH_DEFS ?= /usr/include/crash/defs.h
# where "extend ktrace.so" finds it: crash searches $CRASH_EXTENSIONS, then
# /usr/lib64/crash/extensions (64-bit), /usr/lib/crash/extensions (Debian's),
# ./extensions (crash's extensions.c); not under PREFIX
CRASH_EXTDIR ?= /usr/lib/crash/extensions

LIBKTRACE := $(O)/libktrace.a
EXTRACT := $(O)/ktrace-extract
CRASH_EXT := $(O)/ktrace.so

TARGETS := $(LIBKTRACE) $(EXTRACT)
ifneq ($(wildcard $(CRASH_DEFS)),)
ifneq ($(CRASH_SRCS),)
TARGETS += $(CRASH_EXT)
endif
endif

UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)

all: $(TARGETS)

$(O)/lib/%.o: lib/%.c lib/*.h lib/*/*.h include/ktrace/*.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the ticket's SHA-256 where there are no SHA extensions (a capture kernel
# on older hardware, QEMU's emulation in the tests): unrolled, about a
# third faster under QEMU
$(O)/lib/sinks/sha256.o: ALL_CFLAGS += -O3 -funroll-loops

$(O)/extract/%.o: extract/%.c extract/*.h extract/types/*.h include/ktrace/*.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KDUMP_CFLAGS) -Iextract -c -o $@ $<

$(LIBKTRACE): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

# the shared library, for make install (the tools link the static one):
# it exports the public API only, the functions include/ktrace/*.h
# declares, under the version KTRACE_0 (the map is made from the headers,
# so a function made public is exported by declaring it there; the
# internal kt_* functions of lib/*.h stay local; tests/t-abi.sh checks)
$(O)/libktrace.map: $(wildcard include/ktrace/*.h) Makefile
	@mkdir -p $(dir $@)
	{ echo 'KTRACE_0 {'; echo 'global:'; \
	  grep -hv '^[[:space:]]*#' $(wildcard include/ktrace/*.h) | \
	  grep -o '\bkt_[a-z0-9_]*[[:space:]]*(' | sed 's/[[:space:]]*($$//' | sort -u | \
	  sed 's/.*/  &;/'; printf 'local:\n  *;\n};\n'; } >$@.tmp && mv $@.tmp $@

$(O)/libktrace.so: $(LIB_OBJS) $(O)/libktrace.map
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,libktrace.so.0 \
		-Wl,--version-script=$(O)/libktrace.map -o $@ $(LIB_OBJS) $(LIB_LIBS)

$(EXTRACT): $(EXTRACT_OBJS) $(LIBKTRACE)
	$(CC) $(ALL_LDFLAGS) -o $@ $(EXTRACT_OBJS) $(LIBKTRACE) $(KDUMP_LIBS) $(LIB_LIBS)

# crash extensions are built against one crash's defs.h, for the machine
# crash itself was built for (crash's -D$(TARGET): X86_64, ARM64, ...): the
# compiler's, so that a cross build (CC=aarch64-linux-gnu-gcc) gets ARM64
# (each pattern in parentheses: make counts them inside $(shell))
CRASH_TARGET ?= $(shell case "$$($(CC) -dumpmachine 2>/dev/null)" in \
	(x86_64-*) echo X86_64 ;; (aarch64-*) echo ARM64 ;; (powerpc64*) echo PPC64 ;; \
	(s390x-*) echo S390X ;; (i?86-*) echo X86 ;; (arm*) echo ARM ;; \
	(riscv64-*) echo RISCV64 ;; (*) echo UNKNOWN_CRASH_TARGET ;; esac)
$(CRASH_EXT): $(CRASH_SRCS) crash-ext/*.h $(LIBKTRACE) include/ktrace/*.h
	$(CC) $(ALL_CFLAGS) -Wno-sign-compare -Wno-missing-field-initializers -D$(CRASH_TARGET) \
		-I$(dir $(CRASH_DEFS)) -shared -nostartfiles -Wl,--exclude-libs,ALL -o $@ \
		$(CRASH_SRCS) $(LIBKTRACE) $(LIB_LIBS) $(ALL_LDFLAGS)

# unit tests of lib/ (test-*) run on the fake kernel of tests/unit/fake-*.h
$(O)/tests/test-%: tests/unit/test-%.c tests/unit/*.h lib/*.h $(LIBKTRACE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Ilib -o $@ $< $(LIBKTRACE) $(LIB_LIBS) $(ALL_LDFLAGS)

$(O)/tests/%: tests/unit/%.c extract/*.h extract/types/*.h $(LIBKTRACE) $(EXTRACT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KDUMP_CFLAGS) -Iextract -Ilib -o $@ $< \
		$(filter-out $(O)/extract/main.o,$(EXTRACT_OBJS)) $(LIBKTRACE) \
		$(KDUMP_LIBS) $(LIB_LIBS) $(ALL_LDFLAGS)

units: $(UNIT_BINS)

# libFuzzer targets (tests/fuzz/): libktrace compiled in, instrumented
FUZZ_CC   ?= clang
FUZZ_TIME ?= 60
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer -std=gnu11 -D_GNU_SOURCE -Iinclude -Ilib -Itests/unit $(TEP_CFLAGS)
FUZZERS := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(wildcard tests/fuzz/fuzz-*.c))

# libktrace compiled once for all of them (coverage and sanitizers, no main)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(O)/fuzz/obj/%.o)

$(O)/fuzz/obj/%.o: %.c lib/*.h lib/*/*.h include/ktrace/*.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(subst -fsanitize=fuzzer,-fsanitize=fuzzer-no-link,$(FUZZ_FLAGS)) -c -o $@ $<

$(O)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_LIB_OBJS) tests/unit/*.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_LIB_OBJS) $(LIB_LIBS)

# the dump containers: extract/'s flat.c, kdump-desc.c, kdump-reblock.c and io.c, and libkdumpfile
FUZZ_KDUMP_SRCS := extract/flat.c extract/kdump-desc.c extract/kdump-reblock.c extract/io.c
$(O)/fuzz/fuzz-kdump: tests/fuzz/fuzz-kdump.c $(FUZZ_KDUMP_SRCS) extract/*.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(KDUMP_CFLAGS) -o $@ $< $(FUZZ_KDUMP_SRCS) -lkdumpfile -lz -lzstd

fuzzers: $(FUZZERS)

# make fuzz FUZZ_TIME=600: each fuzzer for FUZZ_TIME seconds, one after the other
fuzz: $(FUZZERS) $(EXTRACT)
	O=$(O) KTRACE_BIN=$(CURDIR)/$(EXTRACT) tests/fuzz/run $(FUZZ_TIME)

# everything built with ASan+UBSan into build-asan, the whole suite run on it;
# LeakSanitizer suppressions (third-party leaks only) in tests/lsan.supp
ASAN_O ?= build-asan
check-sanitize:
	$(MAKE) O=$(ASAN_O) WERROR=$(WERROR) CFLAGS="-O1 -g" \
		SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		all units
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:$${ASAN_OPTIONS:-} \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0:$${LSAN_OPTIONS:-} \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	KTRACE_MAX_MEM=0 KTRACE_SANITIZE=1 \
	O=$(ASAN_O) KTRACE_BIN=$(CURDIR)/$(ASAN_O)/ktrace-extract tests/run-tests.sh

check: all units
	O=$(O) tests/run-tests.sh

# every test, the whole guests, packages and Debian roots too (tests/run-tests.sh)
check-full: all units
	O=$(O) KTRACE_TIER=full tests/run-tests.sh

bench: all
	O=$(O) scripts/bench

install: all $(O)/libktrace.so
	install -D -m 0755 $(EXTRACT) $(DESTDIR)$(PREFIX)/bin/ktrace-extract
	install -D -m 0644 $(LIBKTRACE) $(DESTDIR)$(PREFIX)/lib/libktrace.a
	install -D -m 0755 $(O)/libktrace.so $(DESTDIR)$(PREFIX)/lib/libktrace.so.0
	ln -sf libktrace.so.0 $(DESTDIR)$(PREFIX)/lib/libktrace.so
	install -d $(DESTDIR)$(PREFIX)/include/ktrace
	install -m 0644 include/ktrace/*.h $(DESTDIR)$(PREFIX)/include/ktrace/
	install -D -m 0644 docs/ktrace-extract.1 $(DESTDIR)$(PREFIX)/share/man/man1/ktrace-extract.1
	install -D -m 0755 scripts/ktrace-qemu $(DESTDIR)$(PREFIX)/bin/ktrace-qemu
	install -D -m 0644 docs/ktrace-qemu.1 $(DESTDIR)$(PREFIX)/share/man/man1/ktrace-qemu.1
	install -d $(DESTDIR)$(PREFIX)/lib/ktrace/tools
	install -m 0644 scripts/ktrace-common.sh scripts/ktrace-qemu-guest.sh scripts/ktrace-qemu-vm.sh \
		scripts/ktrace-qemu-verdict.sh $(DESTDIR)$(PREFIX)/lib/ktrace/
	# the guest's /init, and a script of the host
	install -m 0755 scripts/qemu-panic-init.sh scripts/fetch-kernel $(DESTDIR)$(PREFIX)/lib/ktrace/
	install -m 0644 scripts/tools/vmcore-normalize.c scripts/tools/vmcore-add-vmcoreinfo.c $(DESTDIR)$(PREFIX)/lib/ktrace/tools/
	if [ -f $(CRASH_EXT) ]; then \
		install -D -m 0644 $(CRASH_EXT) $(DESTDIR)$(CRASH_EXTDIR)/ktrace.so; fi

clean:
	rm -rf $(O)

# kdump integration (kdump-hooks/, docs/kdump.md); PREFIX is /usr there
install-kdump-debian: all
	O=$(O) DESTDIR=$(DESTDIR) kdump-hooks/debian/install $(EXTRACT)

install-kdump-dracut: all
	O=$(O) DESTDIR=$(DESTDIR) kdump-hooks/dracut/install $(EXTRACT)

.PHONY: install-kdump-debian install-kdump-dracut
.PHONY: all check check-full bench install clean units fuzz fuzzers check-sanitize
