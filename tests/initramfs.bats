#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# initramfs.sh and the test init: one archive per target, built without
# root, whose init runs on the target's architecture.

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
}

@test "initramfs: every target's archive holds the init, its command and the console" {
	need_tool cpio
	for t in arm-vexpress arm64-virt x86_64; do
		run -0 --separate-stderr "$TOP/scripts/initramfs.sh" -o "$BUILD" -t "$t"
		assert_output "$BUILD/initramfs/$t/initramfs.cpio"
		run -0 cpio --quiet -itv -F "$BUILD/initramfs/$t/initramfs.cpio"
		assert_line --index 0 --regexp '^drwxr-xr-x +2 root +root +0 .* dev$'
		assert_line --index 1 --regexp '^crw------- +1 root +root +5, +1 .* dev/console$'
		assert_line --index 5 --regexp '^-rwxr-xr-x +1 root +root +[0-9]+ .* init$'
		assert_line --index 6 --regexp '^-rwxr-xr-x +1 root +root +[0-9]+ .* bin/check$'
		[ "${#lines[@]}" -eq 7 ]
	done
}

@test "initramfs: a second run reuses the archive" {
	"$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64
	run -0 merged "$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64
	# the tree's line, and no INITRD step
	assert_output "$(printf '%s\n' "  SRC     linux-6.1.192" "$BUILD/initramfs/x86_64/initramfs.cpio")"
}

@test "initramfs: each init is a static executable for its target" {
	for t in arm-vexpress:ARM arm64-virt:AArch64 x86_64:'Advanced Micro Devices X86-64'; do
		"$TOP/scripts/initramfs.sh" -o "$BUILD" -t "${t%%:*}"
		run -0 readelf -h "$BUILD/initramfs/${t%%:*}/init"
		assert_line --regexp "^ +Machine: +${t#*:}\$"
		assert_line --regexp '^ +Type: +EXEC '
		run -0 readelf -l "$BUILD/initramfs/${t%%:*}/init"
		refute_line --partial 'INTERP'
	done
}

@test "initramfs: run as a command, init says so and exits 42, on every arch" {
	need_tool qemu-arm
	need_tool qemu-aarch64
	"$TOP/scripts/initramfs.sh" -o "$BUILD" -t arm-vexpress
	run -42 qemu-arm "$BUILD/initramfs/arm-vexpress/init" /bin/check
	assert_output "kparity-init: command /bin/check"
	"$TOP/scripts/initramfs.sh" -o "$BUILD" -t arm64-virt
	run -42 qemu-aarch64 "$BUILD/initramfs/arm64-virt/init" /bin/check
	assert_output "kparity-init: command /bin/check"
	"$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64
	run -42 "$BUILD/initramfs/x86_64/init" /bin/check
	assert_output "kparity-init: command /bin/check"
}

@test "initramfs: an unknown target lists the known ones" {
	run -2 --separate-stderr "$TOP/scripts/initramfs.sh" -o "$BUILD" -t sparc
	assert_equal "$stderr" "initramfs.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt x86_64)"
}

@test "kernel-boot: a kernel that was not built is trouble, not a failed boot" {
	run -2 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$BATS_TEST_TMPDIR" \
		-i "$BUILD/initramfs/x86_64/initramfs.cpio"
	assert_equal "$stderr" "kernel-boot.sh: no kernel image '$BATS_TEST_TMPDIR/arch/x86/boot/bzImage' (build it first)"
}
