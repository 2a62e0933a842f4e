# linkscope: GNU Make build. `make` builds build/bin/{linkscope-cc,linkscope}.
# `make check` installs missing Debian packages (as root), builds with
# DEVELOPER=1 (warnings are errors), runs every test, then does it all again
# under ASan+UBSan. See README.md.

VERSION := 0.2.0
BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
SANITIZE ?=

CC ?= cc
PKG_CONFIG ?= pkg-config

WARNINGS := -Wall -Wextra -Wvla -Wshadow -Wstrict-prototypes \
	-Wwrite-strings -Wno-format-truncation
# A developer build (make check, CI) turns warnings into errors; a user's
# build does not, so a newer compiler's new warning does not break it.
DEVELOPER ?=
ifneq ($(DEVELOPER),)
WARNINGS += -Werror
endif
# _GNU_SOURCE: pipe2 and signalfd (the shim's stderr tee); see docs/decisions.md.
CPPFLAGS_ALL := -Iinclude -D_GNU_SOURCE -DLINKSCOPE_VERSION='"$(VERSION)"'
# A sanitized build at -O1, as ASan's own guide advises: make check's
# build-san compiles in 31 s, not 42, and runs the tests as fast (docs/decisions.md).
OPTIMIZE := $(if $(SANITIZE),-O1,-O2)
CFLAGS_ALL := -std=c11 $(OPTIMIZE) -g $(WARNINGS) $(CFLAGS)
LDFLAGS_ALL := $(LDFLAGS)
ifneq ($(SANITIZE),)
CFLAGS_ALL += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS_ALL += -fsanitize=$(SANITIZE)
endif

JANSSON_LIBS = $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
# The shim is linked statically (libc and jansson only): on the reference VM
# that saves about 1.3 ms of dynamic loading per link (docs/bench.md).
# Sanitizer builds need the dynamic runtime.
ifeq ($(SANITIZE),)
SHIM_LDFLAGS ?= -static
endif
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
ELF_LIBS = $(shell $(PKG_CONFIG) --libs libelf 2>/dev/null || echo -lelf) -lbfd
# Bundles (analyzer/bundle.c): the tar by libarchive, its compression by libzstd; the analyzer only.
BUNDLE_CFLAGS = $(shell $(PKG_CONFIG) --cflags libarchive libzstd 2>/dev/null)
BUNDLE_LIBS = $(shell $(PKG_CONFIG) --libs libarchive libzstd 2>/dev/null || echo -larchive -lzstd)

COMMON_SRC := $(wildcard common/*.c)
SHIM_LIB_SRC := $(filter-out shim/main.c,$(wildcard shim/*.c))
# The analyzer's stages, bottom up (analyzer/README.md): each folder sees
# its own headers and those of the stages below it, never one above.
ANALYZER_STAGES := model replay explain fix report whatif
ANALYZER_LIB_SRC := $(foreach s,$(ANALYZER_STAGES),$(wildcard analyzer/$(s)/*.c))
ANALYZER_LIB_SRC += $(wildcard analyzer/replay/arch/*.c)
ANALYZER_LIB_SRC += $(wildcard analyzer/fix/where/*.c)
ANALYZER_INCLUDES := $(ANALYZER_STAGES:%=-iquote analyzer/%)
UNIT_SRC := $(wildcard tests/unit/test_*.c)

COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/obj/%.o)
SHIM_LIB_OBJ := $(SHIM_LIB_SRC:%.c=$(BUILD)/obj/%.o)
ANALYZER_LIB_OBJ := $(ANALYZER_LIB_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

SHIM := $(BUILD)/bin/linkscope-cc
ANALYZER := $(BUILD)/bin/linkscope

.PHONY: all check check-arm64 test deps demo bench install clean unit-build fuzz fuzz-build difftest difftest-options realtest san-suites
.DELETE_ON_ERROR:
.SECONDARY:

all: $(SHIM) $(ANALYZER)

# Include paths per directory: common/ sees only include/, the shim and the
# analyzer each add their own folders, so neither can include the other's
# headers; an analyzer stage adds its own folder and those below it, so it
# cannot include a stage above it; main.c and the tests see everything.
# -iquote: only "x.h" includes look there, so analyzer/model/elf.h does not
# hide the system's <elf.h>.
$(BUILD)/obj/shim/%.o: INCLUDES := -iquote shim
$(BUILD)/obj/analyzer/model/%.o: INCLUDES := -iquote analyzer/model
$(BUILD)/obj/analyzer/replay/%.o: INCLUDES := -iquote analyzer/model -iquote analyzer/replay
$(BUILD)/obj/analyzer/explain/%.o: INCLUDES := -iquote analyzer/model -iquote analyzer/replay \
	-iquote analyzer/explain
$(BUILD)/obj/analyzer/fix/%.o: INCLUDES := -iquote analyzer/model -iquote analyzer/replay \
	-iquote analyzer/explain -iquote analyzer/fix
$(BUILD)/obj/analyzer/report/%.o: INCLUDES := $(foreach s,$(filter-out whatif,$(ANALYZER_STAGES)),-iquote analyzer/$(s))
$(BUILD)/obj/analyzer/whatif/%.o: INCLUDES := $(ANALYZER_INCLUDES)
$(BUILD)/obj/analyzer/main.o $(BUILD)/obj/analyzer/cli.o $(BUILD)/obj/analyzer/failcache.o $(BUILD)/obj/analyzer/readset.o \
	$(BUILD)/obj/analyzer/bundle.o $(BUILD)/obj/analyzer/records.o: INCLUDES := $(ANALYZER_INCLUDES)
$(BUILD)/obj/tests/%.o: INCLUDES := -iquote shim $(ANALYZER_INCLUDES)
$(BUILD)/obj/analyzer/bundle.o: CFLAGS_ALL += $(BUNDLE_CFLAGS)

# A plain `make` on a fresh machine says which build dependency is missing
# and the command that installs it (scripts/check-build-deps.sh), once per
# build dir; the tests' headers are checked when they are built.
BUILD_DEPS := jansson.h=libjansson-dev gelf.h=libelf-dev bfd.h=binutils-dev archive.h=libarchive-dev zstd.h=libzstd-dev
$(BUILD)/.build-deps-ok:
	@scripts/check-build-deps.sh "$(CC)" $(BUILD_DEPS)
	@mkdir -p $(dir $@) && touch $@
$(BUILD)/.test-deps-ok:
	@scripts/check-build-deps.sh "$(CC)" 'stdarg.h=libc6-dev' 'setjmp.h=libc6-dev' 'cmocka.h=libcmocka-dev'
	@mkdir -p $(dir $@) && touch $@
$(BUILD)/obj/tests/%.o: | $(BUILD)/.test-deps-ok

$(BUILD)/obj/%.o: %.c | $(BUILD)/.build-deps-ok
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS_ALL) $(INCLUDES) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/lib/liblkcommon.a: $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/lib/liblkshim.a: $(SHIM_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The shim links only jansson and libc: never libelf or libbfd.
$(SHIM): Makefile $(BUILD)/obj/shim/main.o $(BUILD)/lib/liblkshim.a $(BUILD)/lib/liblkcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) $(SHIM_LDFLAGS) -o $@ $(filter-out Makefile,$^) $(JANSSON_LIBS)

# report --failed's cache (analyzer/failcache.c) keeps each analysis with what it
# read: the C library's calls that look at files, the environment and the programs
# run are wrapped to note it (analyzer/readset.c). Only the analyzer's own binary.
ANALYZER_MAIN_OBJ := $(BUILD)/obj/analyzer/main.o $(BUILD)/obj/analyzer/cli.o $(BUILD)/obj/analyzer/failcache.o $(BUILD)/obj/analyzer/readset.o \
	$(BUILD)/obj/analyzer/bundle.o $(BUILD)/obj/analyzer/records.o
ANALYZER_WRAP := open __open_2 openat __openat_2 fopen stat lstat fstatat access opendir \
	realpath __realpath_chk glob getenv mkdtemp mkstemp lk_runcmd lk_runcmd_start
ANALYZER_WRAP_FLAGS := $(foreach f,$(ANALYZER_WRAP),-Wl,--wrap=$(f))

$(ANALYZER): Makefile $(ANALYZER_MAIN_OBJ) $(BUILD)/lib/liblkanalyzer.a $(BUILD)/lib/liblkcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) $(ANALYZER_WRAP_FLAGS) -o $@ $(filter-out Makefile,$^) $(JANSSON_LIBS) $(ELF_LIBS) $(BUNDLE_LIBS)

$(BUILD)/lib/liblkanalyzer.a: $(ANALYZER_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/lib/liblkshim.a $(BUILD)/lib/liblkanalyzer.a $(BUILD)/lib/liblkcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(JANSSON_LIBS) $(ELF_LIBS)

# Test tools (tests/tools/): redact-record applies the shim's redaction to a
# record written with LINKSCOPE_REDACT=0 (difftest.py and realtest.py --redaction);
# record-as-jansson checks that records are jansson's own text (golden-records.sh).
TOOL_BIN := $(BUILD)/tests/redact-record $(BUILD)/tests/record-as-jansson

$(TOOL_BIN): $(BUILD)/tests/%: $(BUILD)/obj/tests/tools/%.o $(BUILD)/lib/liblkcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(JANSSON_LIBS)

unit-build: $(UNIT_BIN) $(TOOL_BIN)

# Fuzz targets (libFuzzer, clang): one per parser of untrusted input.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 10000
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)

# The sources under test are compiled once, instrumented (fuzzer-no-link),
# and every target links them all: not compiled again for each of the thirteen
# targets (ten minutes of make check on two cores, docs/bench.md).
# One include path for the shim's and the analyzer's sources: a header name
# in both would be taken from the first dir, and a function left undeclared
# (an int on 64 bits) is an error here, not a pointer cut in half.
FUZZ_FLAGS := $(CPPFLAGS_ALL) -iquote shim -iquote analyzer $(ANALYZER_INCLUDES) -std=c11 -g -O1 -fno-sanitize-recover=all \
	-Werror=implicit-function-declaration
FUZZ_LIB_OBJ := $(patsubst %.c,build-fuzz/obj/%.o,$(COMMON_SRC) $(SHIM_LIB_SRC) $(ANALYZER_LIB_SRC) analyzer/bundle.c)

build-fuzz/obj/%.o: %.c $(wildcard include/linkscope/*.h shim/*.h analyzer/*.h analyzer/*/*.h analyzer/fix/where/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	@$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB_OBJ) \
		$(JANSSON_LIBS) $(ELF_LIBS) $(BUNDLE_LIBS)

fuzz-build: $(FUZZ_BIN)

# Long fuzzing runs, off `make check`: FUZZ_SECONDS per target.
# The readers of large inputs (issue #29: debug sections, build files) get
# inputs of up to FUZZ_LARGE_LEN bytes, far above libFuzzer's default (the
# largest seed, or 4 KiB; -len_control=0: at once, not grown over hours),
# and a reader that takes FUZZ_LARGE_TIMEOUT s on one input is a failure:
# a superlinear step shows as a timeout.
FUZZ_LARGE := dwarf_line where whatif_sources
FUZZ_LARGE_LEN ?= 4194304
FUZZ_LARGE_TIMEOUT ?= 10
fuzz: deps fuzz-build
	@for f in $(FUZZ_BIN); do n=$${f##*/fuzz_}; mkdir -p build-fuzz/corpus/$$n; \
		large=; case " $(FUZZ_LARGE) " in *" $$n "*) \
			large="-max_len=$(FUZZ_LARGE_LEN) -len_control=0 -timeout=$(FUZZ_LARGE_TIMEOUT)";; esac; \
		echo "== $$f ($(FUZZ_SECONDS) s) $$large"; \
		$$f -max_total_time=$(FUZZ_SECONDS) $$large build-fuzz/corpus/$$n tests/fuzz/corpus/$$n || exit 1; done

# The differential test at length: make difftest N=1000 SEED=7 [JOBS=2]
# [LINKERS=bfd,lld,mold: every case linked by the real lld and mold too]
N ?= 1000
N_AARCH64 ?= 250
SEED ?= 1
JOBS ?= 1
LINKERS ?= bfd
difftest: all $(TOOL_BIN)
	@/usr/bin/python3 tests/difftest/difftest.py $(BUILD) $(N) $(SEED) --jobs $(JOBS) --linkers $(LINKERS)
	@/usr/bin/python3 tests/difftest/difftest.py $(BUILD) $(N_AARCH64) $(SEED) --jobs $(JOBS) --linkers $(LINKERS) --arch aarch64

# Option shapes at length (issue #33 point 6): every option of the generated
# linker tables linked by the real GNU ld, lld and mold (make check: a sample).
difftest-options: all
	@/usr/bin/python3 tests/difftest/options.py $(BUILD)

# Real projects from Debian source packages and a Rust workspace, built
# plainly and through the shim, every record replayed (tests/real/). Needs
# the network for apt-get source; outputs in build-real/. PROJECTS=name...
# REDACTION=1: each record analysed with and without redaction too.
realtest: all $(TOOL_BIN)
	@/usr/bin/python3 tests/real/realtest.py $(BUILD) $(if $(REDACTION),--redaction) $(if $(LINKERS),--linkers) $(PROJECTS)

deps:
	@scripts/install-deps.sh

# The test command of the README. Each suite prints its result; the last
# line is "N passed, N failed".
# It builds on every CPU when no -j is given (a -j given stays the jobserver's),
# and tests/run.sh runs LK_TEST_JOBS suites at a time (default: the CPUs).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check_j = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(CHECK_JOBS))
check: deps
	@$(MAKE) --no-print-directory $(check_j) DEVELOPER=1 all unit-build
	@$(MAKE) --no-print-directory $(check_j) DEVELOPER=1 BUILD=build-san SANITIZE=address,undefined all unit-build
	@$(MAKE) --no-print-directory $(check_j) DEVELOPER=1 fuzz-build
	@FUZZ_RUNS=$(FUZZ_RUNS) LK_FULL=$(LK_FULL) tests/run.sh build build-san build-fuzz

# Every pass of every suite in every build (tests/run.sh: the elsewhere
# pass under the sanitizers, the tables of linker rules in each pass, the
# sanitizers' whole difftest): about 45 minutes on two cores.
check-full:
	@$(MAKE) --no-print-directory check LK_FULL=1

test: all unit-build
	@tests/run.sh $(BUILD)

# Choose by coverage the integration suites that make check runs under the
# sanitizers: tests/san-suites.txt (tests/README.md). About 15 minutes.
san-suites:
	@scripts/choose-san-suites.py

demo: deps all
	@scripts/demo.sh $(BUILD)

# Built and tested natively on aarch64, in a Debian 12 arm64 root under
# qemu-user made once (as root; slow, not part of make check or CI).
check-arm64:
	@scripts/check-arm64.sh

# Each part appends its figures against their floors to one summary, printed last.
bench: all
	@scripts/install-deps.sh bench
	@sum=$$(mktemp /tmp/lk-bench-summary.XXXXXX); export BENCH_SUMMARY=$$sum; \
	bench/shim-overhead.sh $(BUILD) && bench/record-dir.sh $(BUILD) && \
	bench/provider-index.sh $(BUILD) && bench/llvm-line.sh $(BUILD) && \
	bench/report-failed.sh $(BUILD) && bench/whatif.sh $(BUILD) && \
	bench/script-inputs.sh $(BUILD); rc=$$?; \
	echo "== make bench: every figure against its floor, measured in this run"; cat $$sum; rm -f $$sum; exit $$rc

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(SHIM) $(ANALYZER) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 man/linkscope-cc.1 man/linkscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 completion/linkscope.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/linkscope

clean:
	rm -rf build build-san build-fuzz build-cov-*

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
