# SPDX-License-Identifier: GPL-2.0-only
#
# kparity: keep a kernel tree building, booting and layout-identical under
# GCC and Clang.  'make help' lists the targets.

# ---- user-overridable settings ----------------------------------------
# O=DIR      build output (default: build)
# V=1        show full commands
# CC=...     compiler for the tools (gcc or clang)
# SANITIZE=1 build the tools with ASan+UBSan
# PREFIX, DESTDIR  for 'make install'
# KERNEL=6.1|6.12  the kernel tree (scripts/trees/; default 6.1) of parity,
#            series-*, diagnose, probes and the benchmarks of kernel builds
# KCONFIG=defconfig|NAME_defconfig|debian  every cell's base configuration
#            in place of its target's (tinyconfig); debian is Debian's own
# KCONFIG_ADD=NAME,CONFIG_X=y  fragments of kconfig/fragments/ and symbols
#            added to every cell's configuration (kcfi, ...); the run keeps
#            its cells and report apart, in O/config-NAMES/
#            (Documentation/configs.md)
# TARGETS=..., COMPILERS=..., TESTS=..., LLVM=-N  what 'make parity' runs
#            (Documentation/parity.md); COMPILERS= names compilers of
#            scripts/targets/compilers.list, or all, for parity, probes,
#            series-bisect and series-survey
# DIST=distcc|icecc  compile the kernels of parity and series-* on a farm
#            (Documentation/build-farm.md; scripts/farm.sh starts a test one)
# JOBS=N     make jobs of each kernel build of 'make parity' (default: the
#            number of CPUs; on a farm, its slot count). make's own -j does
#            not reach them: parity builds one kernel at a time
# BOOT_LIMIT=SECONDS  the time limit of each boot of 'make parity' (default
#            120; 32-bit ARM on 6.12 with its kselftests needs about 110)
# RUNS=N     repetitions of each 'make bench' measurement (default 3), of
#            each 'make bench-probes' pair (default 5) and of each 'make
#            bench-diagnose' pair (default 3)
O        ?= build
CC       ?= gcc
PREFIX   ?= /usr/local
DESTDIR  ?=
SANITIZE ?=
# -----------------------------------------------------------------------

ifeq ($(origin V),command line)
  KBUILD_VERBOSE := $(V)
endif
ifeq ($(KBUILD_VERBOSE),1)
  Q :=
  quiet :=
else
  Q := @
  quiet := quiet_
endif
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
  quiet := silent_
endif
export V

# cmd
# Usage: $(call cmd,name)
# Runs cmd_name, echoing quiet_cmd_name (or the command with V=1).
cmd = @$(if $($(quiet)cmd_$(1)),echo '  $($(quiet)cmd_$(1))';) $(cmd_$(1))

.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: all check parity fuzz install clean help deps-build deps-check deps-check-full deps-parity kabi-asan

objdir  := $(O)/tools/kabi
ifeq ($(SANITIZE),1)
  objdir := $(O)/asan/tools/kabi
endif
kabi    := $(patsubst %/tools/kabi,%,$(objdir))/kabi
srcs    := $(wildcard tools/kabi/*.c)
objs    := $(patsubst tools/kabi/%.c,$(objdir)/%.o,$(srcs))

KABI_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g \
	       $(shell pkg-config --cflags libdw libbpf 2>/dev/null)
KABI_LIBS   := $(shell pkg-config --libs libdw libelf libbpf 2>/dev/null || echo -ldw -lelf -lbpf) -pthread
ifeq ($(SANITIZE),1)
  KABI_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all \
		 -fno-omit-frame-pointer -O1
  KABI_LDFLAGS += -fsanitize=address,undefined
endif

all: $(kabi)

quiet_cmd_cc = CC      $@
      cmd_cc = $(CC) $(KABI_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
quiet_cmd_ld = LD      $@
      cmd_ld = $(CC) $(KABI_LDFLAGS) $(LDFLAGS) -o $@ $^ $(KABI_LIBS)

$(objdir)/%.o: tools/kabi/%.c | $(objdir)
	$(call cmd,cc)

$(kabi): $(objs)
	$(call cmd,ld)

$(objdir):
	$(Q)mkdir -p $@

-include $(objs:.o=.d)

# The sanitizer build lives beside the normal one; 'check' runs both.
kabi-asan:
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 O=$(O) all

# ---- jobs ---------------------------------------------------------------
# Each job first installs the Debian packages it needs (scripts/deps.sh).

deps-build:
	$(Q)scripts/deps.sh build

# check runs the compiler-bug suite with every compiler of COMPILERS=all
# (check-full also a parity cell with clang-22), so it installs them all,
# and one target beyond the default ones (tests/parity-riscv.bats).
deps-check:
	$(Q)COMPILERS=all TARGETS=default,riscv64-virt scripts/deps.sh build check kernel parity bench compilers

# check-full builds every target, so it installs what each needs.
deps-check-full:
	$(Q)COMPILERS=all TARGETS=all scripts/deps.sh build check kernel parity bench compilers

deps-parity:
	$(Q)COMPILERS='$(COMPILERS)' TARGETS='$(TARGETS)' scripts/deps.sh build kernel parity $(if $(COMPILERS),compilers)

check: deps-check
	$(Q)$(MAKE) --no-print-directory O=$(O) all kabi-asan
	$(Q)scripts/run-tests.sh -o $(O)

# check-full runs what costs more kernels than the default suite may
# build: every target's cells, booted (Documentation/testing.md).
.PHONY: check-full
check-full: deps-check-full
	$(Q)$(MAKE) --no-print-directory O=$(O) all kabi-asan
	$(Q)scripts/run-tests.sh -o $(O) tests/full/*.bats

# TARGETS, COMPILERS, TESTS, JOBS and BOOT_LIMIT go through as they are; LLVM reaches the script
# in the environment, as every command-line variable does.
parity: deps-parity
	$(Q)$(MAKE) --no-print-directory O=$(O) all
	$(Q)scripts/parity.sh -o $(O) $(if $(TARGETS),-t '$(TARGETS)') $(if $(COMPILERS),-c '$(COMPILERS)') $(if $(TESTS),-k '$(TESTS)') $(if $(JOBS),-j '$(JOBS)') $(if $(BOOT_LIMIT),-T '$(BOOT_LIMIT)')

# probes is the name users know the compiler-bug suite by; COMPILERS=
# narrows it to some compilers (default, and all: every installed one).
comma := ,
probe_compilers = $(foreach c,$(filter-out all,$(subst $(comma), ,$(COMPILERS))),-c '$(c)')
.PHONY: compiler-bugs probes
compiler-bugs probes:
	$(Q)COMPILERS='$(COMPILERS)' scripts/deps.sh build check $(if $(COMPILERS),compilers)
	$(Q)$(MAKE) --no-print-directory O=$(O) all
	$(Q)scripts/compiler-bugs.sh -o $(O) $(probe_compilers)

# Fuzz kabi's reading and diff paths (FUZZ_TIME seconds per harness).
fuzz: deps-check
	$(Q)scripts/fuzz.sh -o $(O)

# No-op rebuild of the tiny clang kernel, stock Kbuild against the overlay.
.PHONY: bench-probes
bench-probes: deps-check
	$(Q)scripts/bench-probes.sh -o $(O) $(if $(RUNS),-n $(RUNS))

# The tiny GCC cell replayed through Clang's diagnostics against a cold
# Clang build of its configuration (Documentation/diagnose.md).
.PHONY: bench-diagnose
bench-diagnose: deps-parity
	$(Q)scripts/bench-diagnose.sh -o $(O) $(if $(RUNS),-n $(RUNS))

# ---- an external module against a distro kernel -------------------------
# (Documentation/distro-modules.md)
# KDIR=DIR     the kernel's configured tree or headers (/lib/modules/$(uname -r)/build)
# M=DIR        the module's source, with its Kbuild or Makefile
# COMPILER=    kernel (default: the one that built the kernel), gcc, gcc-N,
#              clang or clang-N
# VMLINUX=FILE the kernel's types from this vmlinux's DWARF, or
# BTF=FILE     from this BTF; default /sys/kernel/btf/vmlinux when KDIR is
#              the running kernel's
# MODDIR=DIR.. the kernel's modules, for the modules a module depends on
#              (besides /lib/modules/RELEASE), one or more directories
.PHONY: module
module: all
	$(Q)scripts/module.sh -o '$(O)' -k '$(KDIR)' -m '$(M)' $(if $(COMPILER),-c '$(COMPILER)') $(if $(VMLINUX),-V '$(VMLINUX)') $(if $(BTF),-B '$(BTF)') $(foreach d,$(MODDIR),-d '$(d)')

# ---- the quilt series (Documentation/series.md) -------------------------
# SRC=DIR      the kernel tree to work on (default: O's, see kernel-src.sh);
#              not '-s DIR', which make takes for its own --silent
# PATCHES=DIR  the patch directory (default: the tree's, patches/KERNEL/)
# JSON=1       series-check's report as JSON
# FRESH=1      series-tree extracts the tree afresh
# DISCARD=1    series-tree drops work no patch file holds instead of stopping
# TARGET= and COMPILERS= choose what series-bisect builds; PHASE=after runs
# the survey with the series applied.
# A script that fails makes make exit 2, whatever the script's own status
# (1: the answer is no, 2: trouble): GNU make has no way to pass a
# recipe's status through. make's message names it ('Error 1'); run the
# script itself when the status matters.
.PHONY: series-tree series-status series-check series-bisect series-roundtrip series-refresh series-survey

series_args = -o '$(O)' $(if $(SRC),-s '$(SRC)') $(if $(PATCHES),-p '$(PATCHES)')

series-status series-roundtrip series-refresh:
	$(Q)scripts/$@.sh $(series_args)

series-check:
	$(Q)scripts/series-check.sh -c $(series_args) $(if $(filter 1,$(JSON)),-j)

series-tree:
	$(Q)scripts/series-tree.sh -o '$(O)' $(if $(PATCHES),-p '$(PATCHES)') $(if $(filter 1,$(FRESH)),-f) $(if $(filter 1,$(DISCARD)),--discard)

series-bisect:
	$(Q)scripts/series-bisect.sh -o $(O) $(if $(PATCHES),-p '$(PATCHES)') $(if $(TARGET),-t '$(TARGET)') $(if $(COMPILERS),-c '$(COMPILERS)')

series-survey:
	$(Q)scripts/series-survey.sh -o $(O) $(if $(PHASE),-p '$(PHASE)') $(if $(COMPILERS),-c '$(COMPILERS)')

# Replay a GCC kernel build through Clang's diagnostics (Documentation/diagnose.md).
# CELL=TARGET-gcc   a parity cell of the run's tree, KERNEL= (default: every
#                   GCC cell of it built)
# BUILD_DIR=DIR     any GCC kernel build directory instead
# W=1|2|12          the kernel's extra warning levels; LLVM=-N picks the clang
# A=, B=            the two diagnose.json files diagnose-diff compares
# diagnose-series takes one build (CELL= or BUILD_DIR=) and W=1 unless W= is
# given: each patch of its tree's series with the findings it adds and removes
.PHONY: diagnose diagnose-diff diagnose-series
diagnose: deps-parity
	$(Q)scripts/diagnose.sh -O '$(O)' $(if $(W),-W '$(W)') $(if $(BUILD_DIR),'$(BUILD_DIR)',$(if $(CELL),-C '$(CELL)'))

diagnose-series: deps-parity
	$(Q)scripts/diagnose-series.sh -O '$(O)' $(if $(filter-out undefined,$(origin W)),-W '$(W)') $(if $(BUILD_DIR),'$(BUILD_DIR)',-C '$(or $(CELL),x86_64-gcc)')

diagnose-diff:
	$(Q)scripts/diagnose-diff.sh '$(A)' '$(B)'

# ---- results over time (Documentation/history.md) -----------------------
# JSON=1       make history's answer as JSON
# CELL=T/C     history: only this cell (x86_64/clang); reproduce: the cell
# RUN=N        history: that run instead of the last
# PREDICATE=   compiler-bisect: probe:CASE[:RE], unit:FILE[:TEXT], build,
#              boot, test:NAME, warning:FLAG or kabi:TYPE
# TARGET=, COMPILERS=clang|gcc|NAME,..., KCELL=DIR, W=0|1, FLAGS=  compiler-bisect
# REPORT=FILE  reproduce: the report (default: the run's tree's in $(O),
#              $(O)/report/report.json, or $(O)/KERNEL/report/report.json)
# KPARITY_HISTORY_DB  the database (default ~/.local/share/kparity/results.db)
.PHONY: history compiler-bisect reproduce
history:
	$(Q)scripts/history.sh show $(if $(filter 1,$(JSON)),--json) $(if $(RUN),-r '$(RUN)') $(CELL)

compiler-bisect:
	$(Q)scripts/compiler-bisect.sh -o '$(O)' $(if $(COMPILERS),-c '$(COMPILERS)') $(if $(TARGET),-t '$(TARGET)') $(if $(KCELL),-k '$(KCELL)') $(if $(W),-W '$(W)') $(if $(FLAGS),-x '$(FLAGS)') '$(PREDICATE)'

reproduce:
	$(Q)scripts/reproduce.sh -o '$(O)/reproduce' '$(or $(REPORT),$(O))' '$(CELL)'

# kabi against pahole, codiff and abidiff on a distro vmlinux pair and the
# tiny kernel's pair (Documentation/bench.md); never part of 'check'.
.PHONY: codegen bench
# codegen compares the size of each compiler's kernel on the parity cells,
# or with SPEED=1 the speed of their code as User-Mode Linux
codegen:
ifeq ($(SPEED),1)
	$(Q)scripts/codegen-speed.sh -o $(O) $(if $(RUNS),-n '$(RUNS)') $(if $(CPU),-c '$(CPU)')
else
	$(Q)scripts/codegen.sh -o $(O) $(if $(TARGETS),-t '$(TARGETS)') $(if $(COMPILERS),-c '$(COMPILERS)')
endif

bench:
	$(Q)scripts/deps.sh build bench
	$(Q)$(MAKE) --no-print-directory O=$(O) all
	$(Q)scripts/bench.sh -o $(O) $(if $(RUNS),-n $(RUNS))

# kabi, its manual and completion, and the overlay, Kconfig entries, series
# and scripts under $(PREFIX)/share/kparity (scripts/install.sh has the layout).
install: $(kabi)
	$(Q)scripts/install.sh -k $(kabi) -d '$(DESTDIR)' -p '$(PREFIX)'

clean:
	$(Q)rm -rf $(O)/tools $(O)/asan $(O)/kabi $(O)/tests

# ---- help ---------------------------------------------------------------
# One line per target and per setting: NAME|TEXT. 'make help' aligns them;
# tests/make.bats checks that every target of this file is listed.
define HELP_TARGETS
all|build the tools (kabi) into $$(O)
parity|build every default target (or TARGETS=) with GCC and Clang, boot each into toybox to run KUnit and the kselftests from a disk, compare the tests and diff the layouts
compiler-bugs|run the compiler-bug cases with every installed compiler and target
probes|the same as compiler-bugs (COMPILERS= narrows it)
check|install test dependencies and run the default suite, tests/*.bats
check-full|the suites that build every target's kernels, tests/full/*.bats
fuzz|fuzz kabi with libFuzzer, FUZZ_TIME seconds per harness
codegen|the size of each compiler's kernel on the parity cells, by section and per symbol (TARGETS= COMPILERS= LLVM=-N); with SPEED=1 the speed of its code, GCC against Clang as User-Mode Linux (RUNS=N CPU=N)
bench|kabi against pahole, codiff and abidiff on a distro vmlinux (RUNS=N)
bench-probes|no-op kernel rebuild, stock Kbuild probes against the overlay
bench-diagnose|make diagnose on the tiny GCC cell against a cold Clang build (RUNS=N LLVM=-N)
module|build an external module (KDIR= M= COMPILER=) and check its layouts against the kernel
series-tree|extract the tree if needed, push the series, print its path
series-status|the quilt series: which patches the tree has
series-check|does the series apply to the pristine tree, and pass checkpatch
series-bisect|build every prefix of the series with GCC and Clang, -Werror
series-roundtrip|push -a then pop -a leaves the tree byte-identical
series-refresh|rewrite the patches in normalised form
series-survey|the long defconfig builds behind Documentation/series.md
diagnose|replay a GCC kernel build through clang -fsyntax-only (CELL= BUILD_DIR= W= LLVM=-N)
diagnose-diff|new, gone and unchanged findings of two replays (A= B=)
diagnose-series|each patch of the series with the Clang findings it adds and removes, W=1 (CELL= BUILD_DIR= W= LLVM=-N)
history|per cell and result of the last run: new, gone, always since N runs, flaky (JSON=1 CELL= RUN=)
compiler-bisect|the first installed compiler version that changes a result (PREDICATE= TARGET= COMPILERS=)
reproduce|the exact rebuild of a report cell, its vmlinux compared byte for byte (CELL= REPORT=)
install|install kabi, the overlay, the series and the scripts under $$(DESTDIR)$$(PREFIX)
clean|remove tool builds (kernel builds under $$(O)/kernel stay)
deps-build|install what building kabi needs
deps-check|install what the tests need
deps-check-full|install what check-full needs: every target's packages too
deps-parity|install what the parity run needs
kabi-asan|build kabi with ASan and UBSan beside the normal build
help|this list
endef
define HELP_SETTINGS
every target|O=DIR V=1 CC=gcc|clang SANITIZE=1 PREFIX= DESTDIR=
kernel builds|KERNEL=6.1|6.12 (scripts/trees/) KSRC=DIR
kernel builds|KCONFIG=defconfig|NAME_defconfig|debian KCONFIG_ADD=NAME,CONFIG_X=y
parity|TARGETS=NAME...|all COMPILERS= TESTS=none|kunit|kselftest|all LLVM=-N KSRC=DIR JOBS=N BOOT_LIMIT=S
parity, probes, series-*|COMPILERS=all|NAME... (scripts/targets/compilers.list)
series-*|SRC=DIR PATCHES=DIR
series-check|JSON=1
series-tree|FRESH=1 DISCARD=1
series-bisect|TARGET= COMPILERS=
series-survey|PHASE=before|after COMPILERS=
module|KDIR= M= COMPILER=kernel|gcc|gcc-N|clang|clang-N VMLINUX= BTF= MODDIR=
parity, series-bisect, series-survey|DIST=distcc|icecc (build on a farm)
bench, bench-probes, bench-diagnose, codegen SPEED=1|RUNS=N
history|JSON=1 CELL=TARGET/COMPILER RUN=N
compiler-bisect|PREDICATE= TARGET= COMPILERS= KCELL=DIR W=0|1 FLAGS=
reproduce|CELL=TARGET/COMPILER REPORT=FILE
endef
export HELP_TARGETS HELP_SETTINGS

help:
	@printf '%s\n' "$$HELP_TARGETS" | awk -v title=Targets -f scripts/help/help.awk
	@printf '%s\n' "$$HELP_SETTINGS" | awk -v title=Settings -f scripts/help/help.awk
