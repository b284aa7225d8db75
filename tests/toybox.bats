#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# toybox.sh: toybox built from Debian's upstream tarball by a cell's own
# compiler, static, for the target's machine.

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	# the source is downloaded once, also for the builds in temporary
	# directories
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$BUILD/cache}
}

# static_for FILE MACHINE: FILE is a static executable for MACHINE (as
# readelf names it)
static_for() {
	run -0 readelf -h "$1"
	assert_line --regexp "^ +Machine: +$2\$"
	assert_line --regexp '^ +Type: +EXEC '
	run -0 readelf -l "$1"
	refute_line --partial 'INTERP'
	refute_line --partial 'DYNAMIC'
	run -0 file -b "$1"
	assert_output --partial ', statically linked, '
}

@test "toybox: compiled afresh by the cross GCC for arm-vexpress, static, for ARM" {
	need_tool arm-linux-gnueabi-gcc
	local out=$BATS_TEST_TMPDIR/b
	# the step line says it was compiled, not found up to date
	run -0 merged nice -n 10 "$TOP/scripts/toybox.sh" -o "$out" -t arm-vexpress -c gcc
	assert_output "$(printf '%s\n' "  TOYBOX  arm-vexpress/gcc" "$out/toybox/arm-vexpress-gcc/toybox")"
	static_for "$out/toybox/arm-vexpress-gcc/toybox" ARM
	# GCC's own link: the build ID is SHA1, as GNU ld writes it
	assert_output --partial 'BuildID[sha1]'
	run -0 grep "^LINK=" "$out/toybox/arm-vexpress-gcc/src/generated/build.sh"
	assert_output --regexp "^LINK='.* -static '"
	run -0 cat "$out/toybox/arm-vexpress-gcc/cc"
	assert_output "$(printf '#!/bin/sh\nexec ccache arm-linux-gnueabi-gcc "$@"')"
}

@test "toybox: compiled afresh by clang for arm64-virt, static, for AArch64, linked by lld" {
	need_tool clang
	need_tool ld.lld
	local out=$BATS_TEST_TMPDIR/b
	# the step line says it was compiled, not found up to date
	run -0 merged nice -n 10 "$TOP/scripts/toybox.sh" -o "$out" -t arm64-virt -c clang
	assert_output "$(printf '%s\n' "  TOYBOX  arm64-virt/clang" "$out/toybox/arm64-virt-clang/toybox")"
	static_for "$out/toybox/arm64-virt-clang/toybox" AArch64
	# lld's default build ID
	assert_output --partial 'BuildID[xxHash]'
	run -0 readelf -p .comment "$out/toybox/arm64-virt-clang/toybox"
	assert_line --partial 'clang version'
	assert_line --partial 'Linker: Debian LLD'
	run -0 cat "$out/toybox/arm64-virt-clang/cc"
	assert_output "$(printf '#!/bin/sh\nexec ccache clang --target=aarch64-linux-gnu "$@"')"
}

@test "toybox: every cell's binary is static and for its target" {
	local t c
	for c in gcc clang; do
		for t in arm-vexpress:ARM arm64-virt:AArch64 x86_64:'Advanced Micro Devices X86-64'; do
			"$TOP/scripts/toybox.sh" -o "$BUILD" -t "${t%%:*}" -c "$c"
			static_for "$BUILD/toybox/${t%%:*}-$c/toybox" "${t#*:}"
		done
	done
}

@test "toybox: an unknown compiler lists the known ones" {
	run -2 --separate-stderr "$TOP/scripts/toybox.sh" -o "$BUILD" -t x86_64 -c icc
	assert_equal "$stderr" "toybox.sh: unknown compiler 'icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas)"
}

@test "toybox: a missing clang is named with its package" {
	run -2 --separate-stderr env LLVM=-99 "$TOP/scripts/toybox.sh" -o "$BUILD" -t x86_64 -c clang
	assert_equal "$stderr" "toybox.sh: cannot find 'clang-99' (Debian package: clang-99)"
}

@test "toybox: a second run reuses the binary" {
	"$TOP/scripts/toybox.sh" -o "$BUILD" -t x86_64 -c clang
	run -0 merged "$TOP/scripts/toybox.sh" -o "$BUILD" -t x86_64 -c clang
	# no TOYBOX step
	assert_output "$BUILD/toybox/x86_64-clang/toybox"
}

@test "toybox: a symbol of the fragment that allnoconfig drops stops the build" {
	# a copy of the scripts (and the series their tree file names) whose
	# fragment asks for a command toybox lacks
	local top=$BATS_TEST_TMPDIR/top
	mkdir -p "$top"
	cp -r "$TOP/scripts" "$TOP/patches" "$top/"
	echo "CONFIG_NO_SUCH_COMMAND=y" >>"$top/scripts/initramfs/toybox.config"
	run -2 --separate-stderr "$top/scripts/toybox.sh" -o "$BATS_TEST_TMPDIR/b" -t x86_64 -c gcc
	assert_output ""
	# the last line: a cold cache adds a FETCH step before it
	assert_equal "${stderr_lines[-1]}" "toybox.sh: '$top/scripts/initramfs/toybox.config' asks for what toybox's allnoconfig dropped: CONFIG_NO_SUCH_COMMAND"
	assert [ ! -e "$BATS_TEST_TMPDIR/b/toybox/x86_64-gcc/toybox" ]
}
