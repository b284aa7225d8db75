#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# initramfs.sh and the test init: one archive per cell, built without
# root, holding the toybox the cell's own compiler built (tests/toybox.bats).

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	# the toybox source is downloaded once, also for the builds in
	# temporary directories
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$BUILD/cache}
}

@test "initramfs: the archive holds toybox, its commands, init, check and the console" {
	need_tool cpio
	run -0 --separate-stderr "$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64 -c gcc
	assert_output "$BUILD/initramfs/x86_64-gcc/initramfs.cpio"
	run -0 cpio --quiet -itv -F "$BUILD/initramfs/x86_64-gcc/initramfs.cpio"
	assert_equal "${#lines[@]}" 19
	assert_line --index 0 --regexp '^drwxr-xr-x +2 root +root +0 .* dev$'
	assert_line --index 1 --regexp '^crw------- +1 root +root +5, +1 .* dev/console$'
	assert_line --index 4 --regexp '^drwxr-xr-x +2 root +root +0 .* mnt$'
	assert_line --index 6 --regexp '^-rwxr-xr-x +1 root +root +[0-9]+ .* bin/toybox$'
	local i=7 cmd
	for cmd in sh cat echo test '\[' mount reboot timeout sed sleep; do
		assert_line --index "$i" --regexp "^lrwxrwxrwx +1 root +root +7 .* bin/$cmd -> toybox\$"
		i=$((i + 1))
	done
	assert_line --index 17 --regexp '^-rwxr-xr-x +1 root +root +[0-9]+ .* init$'
	assert_line --index 18 --regexp '^-rwxr-xr-x +1 root +root +[0-9]+ .* bin/check$'
}

@test "initramfs: every entry carries the time 0, so the same inputs give the same bytes" {
	need_tool cpio
	run -0 --separate-stderr "$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64 -c gcc
	run -0 env TZ=UTC cpio --quiet -itv -F "$BUILD/initramfs/x86_64-gcc/initramfs.cpio"
	assert_equal "${#lines[@]}" 19
	local line
	for line in "${lines[@]}"; do
		assert_regex "$line" ' Jan  1  1970 '
	done
}

@test "initramfs: a second run reuses the archive and the toybox" {
	"$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64 -c gcc
	run -0 merged env KPARITY_SRC_QUIET=1 "$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64 -c gcc
	# no TOYBOX, no INITRD step
	assert_output "$BUILD/initramfs/x86_64-gcc/initramfs.cpio"
}

@test "initramfs: each cell's archive carries the toybox of its compiler" {
	local t c
	for t in arm-vexpress arm64-virt x86_64; do
		for c in gcc clang; do
			"$TOP/scripts/initramfs.sh" -o "$BUILD" -t "$t" -c "$c"
			run -0 cmp "$BUILD/toybox/$t-$c/toybox" "$BUILD/initramfs/$t-$c/toybox"
		done
	done
	run -1 cmp -s "$BUILD/toybox/x86_64-gcc/toybox" "$BUILD/toybox/x86_64-clang/toybox"
}

@test "init: check, run by each cell's toybox sh, says so and exits 42" {
	need_tool qemu-arm
	need_tool qemu-aarch64
	local c
	for c in gcc clang; do
		"$TOP/scripts/toybox.sh" -o "$BUILD" -t arm-vexpress -c "$c"
		run -42 qemu-arm "$BUILD/toybox/arm-vexpress-$c/toybox" sh "$TOP/scripts/initramfs/check"
		assert_output "kparity-init: command $TOP/scripts/initramfs/check"
		"$TOP/scripts/toybox.sh" -o "$BUILD" -t arm64-virt -c "$c"
		run -42 qemu-aarch64 "$BUILD/toybox/arm64-virt-$c/toybox" sh "$TOP/scripts/initramfs/check"
		assert_output "kparity-init: command $TOP/scripts/initramfs/check"
		"$TOP/scripts/toybox.sh" -o "$BUILD" -t x86_64 -c "$c"
		run -42 "$BUILD/toybox/x86_64-$c/toybox" sh "$TOP/scripts/initramfs/check"
		assert_output "kparity-init: command $TOP/scripts/initramfs/check"
	done
}

@test "initramfs: an unknown target lists the known ones" {
	run -2 --separate-stderr "$TOP/scripts/initramfs.sh" -o "$BUILD" -t sparc
	assert_equal "$stderr" "initramfs.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "kernel-boot: a kernel that was not built is trouble, not a failed boot" {
	run -2 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$BATS_TEST_TMPDIR" \
		-i "$BUILD/initramfs/x86_64-gcc/initramfs.cpio"
	assert_equal "$stderr" "kernel-boot.sh: no kernel image '$BATS_TEST_TMPDIR/arch/x86/boot/bzImage' (build it first)"
}
