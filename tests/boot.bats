#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Real boots of a cell's kernel with the cell's initramfs: the toybox /init
# passes, prints the lines boot-verdict.sh reads, leaves KUnit's console
# output readable by ktap.sh, and a failing smoke check fails the verdict.
#
# The kernels are built by kernel-build.sh into $KPARITY_BUILD/kernel/
# (cached: the parity suite builds the same cells), or, with
# KPARITY_KERNELS=DIR, taken as already built from DIR/TARGET-COMPILER/,
# which is only read. Each boot runs from links in the test's own
# directory, where its logs go.

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$BUILD/cache}
}

setup() {
	need_tool qemu-system-x86_64
	need_tool qemu-system-arm
}

# kernel TARGET COMPILER: print a directory holding links to the built
# kernel image (and device tree) of the cell, for kernel-boot.sh
kernel() {
	local t=$1 c=$2 src dir f files

	if [ -n "${KPARITY_KERNELS:-}" ]; then
		src=$KPARITY_KERNELS/$t-$c
	else
		echo "# building $t/$c (cached after the first run)" >&3
		nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t "$t" -c "$c" -j 2 >/dev/null
		src=$BUILD/kernel/$t-$c
	fi
	files=$(PROG=boot.bats TOPDIR=$TOP sh -c '. "$TOPDIR/scripts/lib/common.sh" &&
		. "$TOPDIR/scripts/lib/target.sh" && load_target "$1" && echo "$t_image $t_dtb"' sh "$t")
	dir=$BATS_TEST_TMPDIR/kernel-$t-$c
	for f in $files; do
		mkdir -p "$dir/$(dirname "$f")"
		ln -s "$src/$f" "$dir/$f"
	done
	echo "$dir"
}

# token_of CMDFILE: the boot's token in kernel-boot.sh's boot.cmd
token_of() {
	sed -n "s/.* kparity\.token=\([^ ']*\).*/\1/p" "$1"
}

# init_lines LOG: the init's console lines, carriage returns dropped
init_lines() {
	sed -n 's/\r$//; /^kparity-init: /p' "$1"
}

# passed TARGET COMPILER: boot the cell with its own initramfs and check
# every line of the init and KUnit's results
passed() {
	local k initrd token
	k=$(kernel "$1" "$2")
	initrd=$("$TOP/scripts/initramfs.sh" -o "$BUILD" -t "$1" -c "$2" 2>/dev/null)
	run -0 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t "$1" -k "$k" -i "$initrd" -T 60
	assert_output pass
	token=$(token_of "$k/boot.cmd")
	run -0 init_lines "$k/boot.log"
	assert_equal "${#lines[@]}" 8
	assert_line --index 0 "kparity-init: ok mount /proc"
	assert_line --index 1 "kparity-init: marker $token"
	assert_line --index 2 --regexp "^kparity-init: version Linux version 6\.1\.[0-9]+ "
	assert_line --index 3 "kparity-init: ok mount /sys"
	assert_line --index 4 "kparity-init: ok read /proc/cpuinfo"
	assert_line --index 5 "kparity-init: command /bin/check"
	assert_line --index 6 "kparity-init: ok run /bin/check"
	assert_line --index 7 "kparity-init: PASS $token"
	# KUnit ran before /init and its KTAP reads as it did before
	run -0 "$TOP/scripts/ktap.sh" "$k/boot.log"
	assert_equal "$(printf '%s\n' "${lines[@]}" | grep -c ' pass$')" 90
	assert_equal "$(printf '%s\n' "${lines[@]}" | grep -c ' skip$')" 5
	assert_equal "${#lines[@]}" 95
}

# bats test_tags=kernel
@test "boot: x86_64/gcc passes with the toybox /init its compiler built" {
	passed x86_64 gcc
}

# bats test_tags=kernel
@test "boot: arm-vexpress/clang passes with the toybox /init its compiler built" {
	passed arm-vexpress clang
}

# bats test_tags=kernel
@test "boot: a failing smoke check fails the verdict, and names the check" {
	local k initrd token dir=$BATS_TEST_TMPDIR/bad
	k=$(kernel x86_64 gcc)
	initrd=$("$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64 -c gcc 2>/dev/null)
	# a second archive after the first replaces /bin/check with one that
	# exits 1, as a broken execve or wait would make it look
	mkdir -p "$dir"
	# shellcheck disable=SC2016 # $0 is for the guest's shell
	printf '#!/bin/sh\necho "kparity-init: command $0"\nexit 1\n' >"$dir/check"
	echo "file /bin/check $dir/check 0755 0 0" >"$dir/list"
	"$BUILD/initramfs/x86_64-gcc/gen_init_cpio" "$dir/list" >"$dir/over.cpio"
	cat "$initrd" "$dir/over.cpio" >"$dir/initramfs.cpio"
	run -1 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$k" -i "$dir/initramfs.cpio" -T 60
	assert_output "fail: smoke check failed: run /bin/check"
	token=$(token_of "$k/boot.cmd")
	run -0 init_lines "$k/boot.log"
	assert_line --index 6 "kparity-init: FAILED run /bin/check"
	assert_line --index 7 "kparity-init: FAIL $token"
	refute_line --partial "kparity-init: PASS"
}
