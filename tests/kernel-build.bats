#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kernel-build.sh on the tiny x86_64 gcc cell (cached in
# $KPARITY_BUILD/kernel/ after the first run): what makes a cell that is
# otherwise up to date build again.

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	echo "# building x86_64/gcc (cached after the first run)" >&3
	"$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc >/dev/null
}

# cpio_time CPIO: the time of a newc archive's first entry, in seconds
cpio_time() {
	printf '%d\n' "0x$(head -c 54 "$1" | tail -c 8)"
}

@test "kernel-build: a built-in initramfs that carries another time is made again" {
	need_tool objcopy
	local cell=$BUILD/kernel/x86_64-gcc src want
	local cpio=$cell/usr/initramfs_data.cpio
	src=$(KPARITY_SRC_QUIET=1 "$TOP/scripts/kernel-src.sh" -o "$BUILD")
	want=$(date -d "${KBUILD_BUILD_TIMESTAMP:-@$(stat -c %Y "$src/Makefile")}" +%s)
	# what a build under another KBUILD_BUILD_TIMESTAMP leaves: make writes
	# the archive again only when its list changes
	printf '%08X' 1000000000 | dd of="$cpio" bs=1 seek=46 conv=notrunc status=none
	run -0 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc
	assert_output "$cell/vmlinux"
	assert_regex "${stderr_lines[-1]}" '^  BUILD   x86_64/gcc  [0-9]+(m[0-9]+)?s$'
	run -0 cpio_time "$cpio"
	assert_output "$want"
	# and vmlinux holds it
	objcopy -O binary --only-section=.init.data "$cell/vmlinux" "$BATS_TEST_TMPDIR/init.data"
	run -0 grep -c -a -F "$(head -c 110 "$cpio")" "$BATS_TEST_TMPDIR/init.data"
	assert_output 1
}

@test "kernel-build: an operand other than the compile flags is one line and exit 2" {
	run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc CC=clang
	assert_output ""
	assert_equal "$stderr" "kernel-build.sh: 'CC=clang' is not one of the variables a build takes (KCFLAGS KAFLAGS KCPPFLAGS)"
	run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc KCFLAGS
	assert_equal "$stderr" "kernel-build.sh: 'KCFLAGS' is not VAR=VALUE"
}

@test "kernel-build: KCFLAGS as an operand reaches the compiler, the environment's does not" {
	local cell=$BUILD/kernel/x86_64-gcc
	# up to date, but not with these flags: the first compile refuses the option
	run -1 --separate-stderr env KCFLAGS=-fkparity-from-the-environment \
		"$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc KCFLAGS=-fkparity-no-such-option
	assert_output ""
	assert_equal "${stderr_lines[1]}" "  BUILD   x86_64/gcc  FAIL"
	assert_equal "${stderr_lines[2]}" "kernel-build.sh: building x86_64/gcc failed; last lines of $cell/build.log:"
	# (the quotes are the locale's)
	run -0 grep -c -E '^gcc: error: unrecognized command-line option .-fkparity-no-such-option.$' "$cell/build.log"
	refute_output 0
	run -1 grep -c -F -e -fkparity-from-the-environment "$cell/build.log"
	assert_output 0
	# the cell's own flags again: it builds, and is up to date after
	run -0 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc
	assert_output "$cell/vmlinux"
	run -1 grep -c -F -e -fkparity-no-such-option "$cell/build.log"
	assert_output 0
	run -0 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc
	assert_equal "${stderr_lines[-1]}" "  BUILD   x86_64/gcc  up to date"
}
