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
load boot

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$BUILD/cache}
}

setup() {
	need_tool qemu-system-x86_64
}

# bats test_tags=kernel
@test "boot: x86_64/gcc passes with the toybox /init its compiler built" {
	passed x86_64 gcc
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

# bats test_tags=kernel
@test "boot: a cell's proofs are looked for on the console, and a missing one fails the boot" {
	local k initrd proof
	k=$(kernel x86_64 gcc)
	initrd=$("$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64 -c gcc 2>/dev/null)
	# as kernel-build.sh writes them from a fragment: LABEL, a tab, TEXT
	printf '%s\t%s\n' "a.config" "kparity-init: ok run /bin/check" \
		"b.config control (why)" "Linux version 6.1" >"$k/kparity.proof"
	run -0 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$k" -i "$initrd" -T 60
	assert_output pass
	run -0 cat "$k/boot.proof"
	assert_line --index 0 "a.config: kparity-init: ok run /bin/check"
	assert_line --index 1 --regexp '^b\.config control \(why\): Linux version 6\.1\.[0-9]+ '
	proof="no such line"
	printf '%s\t%s\n' "a.config" "$proof" >"$k/kparity.proof"
	run -1 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$k" -i "$initrd" -T 60
	assert_output "fail: no proof of a.config on the console (no line with '$proof')"
	run -0 cat "$k/boot.verdict"
	assert_output "fail: no proof of a.config on the console (no line with '$proof')"
}
