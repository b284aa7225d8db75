#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The top-level Makefile: O=, V=1, install, help, clean.

load common

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "make: O= puts every build product under O" {
	run -0 make -C "$TOP" --no-print-directory O="$T/out" all
	assert_line "  LD      $T/out/kabi"
	[ -x "$T/out/kabi" ]
	run -0 git -C "$TOP" ls-files --others -- tools
	assert_output ""
}

@test "make: quiet by default, full commands with V=1" {
	run -0 make -C "$TOP" --no-print-directory O="$T/out" all
	refute_output --partial "-Wall"
	touch "$TOP/tools/kabi/filter.c"
	run -0 make -C "$TOP" --no-print-directory O="$T/out" V=1 all
	assert_line --partial "-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror"
}

@test "make: the tools build warning-free with clang too" {
	need_tool clang
	run -0 make -C "$TOP" --no-print-directory O="$T/clang" CC=clang all
	refute_output --partial "warning:"
	[ -x "$T/clang/kabi" ]
}

# files_under DIR [FIND-TESTS...]: the files below DIR, relative, sorted
files_under() {
	local dir="$1"

	shift
	find "$dir" -type f "$@" -printf '%P\n' | LC_ALL=C sort
}

@test "make: install honours DESTDIR and PREFIX" {
	run -0 make -C "$TOP" --no-print-directory O="$T/out" DESTDIR="$T/root" PREFIX=/usr install
	run -0 files_under "$T/root" ! -path '*/share/kparity/*' ! -path '*/share/doc/*'
	assert_output "$(printf '%s\n' usr/bin/kabi usr/share/bash-completion/completions/kabi \
		usr/share/man/man1/kabi.1 usr/share/man/man1/kabi-check.1 | LC_ALL=C sort)"
	# The overlay, Kconfig entries, series and scripts in the checkout's layout
	run -0 files_under "$T/root/usr/share/kparity"
	assert_output "$(git -C "$TOP" ls-files kbuild kconfig patches scripts)"
	run -0 test -x "$T/root/usr/share/kparity/scripts/parity.sh"
	run -0 "$T/root/usr/bin/kabi" help dump
	assert_line --index 0 "usage: kabi dump [--json] [--root DIR]... [--type NAME]... [--kind KIND]"
}

@test "make: help lists the targets" {
	run -0 make -C "$TOP" --no-print-directory help
	assert_line "  check             install test dependencies and run the default suite,"
	assert_line "                    tests/*.bats"
	assert_line "  parity            build every default target (or TARGETS=) with GCC and"
	assert_line "                    Clang, boot each into toybox to run KUnit and the"
	assert_line "                    kselftests from a disk, compare the tests and diff the"
	assert_line "                    layouts"
}

# targets: every target the Makefile declares phony, one a line, sorted
targets() {
	make -C "$TOP" --no-print-directory -pn help 2>/dev/null |
		sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | grep . | LC_ALL=C sort -u
}

@test "make: every target of the Makefile is in the help table" {
	run -0 targets
	local all=$output
	run -0 make -C "$TOP" --no-print-directory help
	local t missing=""
	for t in $all; do
		printf '%s\n' "${lines[@]}" | grep -q "^  $t " || missing="$missing $t"
	done
	assert_equal "$missing" ""
}

@test "make: help.awk aligns the names and wraps the text under itself" {
	run -0 awk -v title=T -f "$TOP/scripts/help/help.awk" <<'TABLE'
a|one two
long-name|x|y words words words words words words words words words words words words words
TABLE
	assert_output - <<'OUT'
T:
  a          one two
  long-name  x|y words words words words words words words words words words
             words words words
OUT
}

@test "make: clean removes the tool builds" {
	run -0 make -C "$TOP" --no-print-directory O="$T/out" all
	run -0 make -C "$TOP" --no-print-directory O="$T/out" clean
	[ ! -e "$T/out/kabi" ]
	[ ! -e "$T/out/tools" ]
}

@test "make: the man pages render without warnings" {
	need_tool groff
	run -0 groff -man -ww -z "$TOP/Documentation/kabi.1"
	assert_output ""
	run -0 groff -man -ww -z "$TOP/Documentation/kabi-check.1"
	assert_output ""
}

@test "make: parity passes JOBS to the kernel builds as -j, BOOT_LIMIT to the boots as -T" {
	run -0 make -C "$TOP" --no-print-directory -n O=build parity TARGETS=x86_64 JOBS=4
	assert_line "scripts/parity.sh -o build -t 'x86_64'   -j '4' "
	run -0 make -C "$TOP" --no-print-directory -n O=build parity TARGETS=x86_64 BOOT_LIMIT=300
	assert_line "scripts/parity.sh -o build -t 'x86_64'    -T '300'"
}

@test "make: probes is compiler-bugs, COMPILERS= becomes one -c each" {
	run -0 make -C "$TOP" --no-print-directory -n O=build probes COMPILERS="gcc-11,clang-22"
	assert_line "scripts/compiler-bugs.sh -o build -c 'gcc-11' -c 'clang-22'"
	assert_line "COMPILERS='gcc-11,clang-22' scripts/deps.sh build check compilers"
	run -0 make -C "$TOP" --no-print-directory -n O=build probes COMPILERS=all
	assert_line "scripts/compiler-bugs.sh -o build "
}

@test "make: module passes each MODDIR directory as its own -d" {
	run -0 make -C "$TOP" --no-print-directory -n O=build module KDIR=/k M=/m MODDIR="/a /b/c"
	assert_line "scripts/module.sh -o 'build' -k '/k' -m '/m'    -d '/a' -d '/b/c'"
}
