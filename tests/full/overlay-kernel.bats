#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The tiny x86_64 kernel built with clang through the overlay: the same
# command lines as the stock build, the same layouts, and it boots. ccache
# serves the compiles, but the link, BTF and the boot cost minutes, so
# 'make check-full' runs it; tests/kbuild-*.bats check the overlay's
# answers in the real tree.

load ../kbuild-helpers

setup_file() {
	kbuild_setup_file
}

setup() {
	T="$BATS_TEST_TMPDIR"
}

@test "overlay: the tiny x86_64 kernel builds with clang, matches the stock build's layout and boots" {
	local obj="$BUILD_DIR/overlay-test" ref="$BUILD_DIR/kernel/x86_64-clang" cc
	[ -f "$ref/vmlinux" ] || "$TOP/scripts/kernel-build.sh" -o "$BUILD_DIR" -t x86_64 -c clang >/dev/null
	mkdir -p "$obj"
	[ -f "$obj/.config" ] || cp "$ref/.config" "$obj/.config"
	touch "$T/mark"
	# the stock build's CC (through ccache where it was), so that the
	# two builds' commands can be compared
	cc=$(sed -n '1s/^cmd_init\/main\.o := \(\(ccache \)\{0,1\}clang\) .*/\1/p' "$ref/init/.main.o.cmd")
	# as kernel-build.sh does: ccache keys objects on the command, not the
	# directory, so whatever the stock build compiled is served from it
	export CCACHE_NOHASHDIR=1
	run -0 kmake "$obj" LLVM=1 CC="$cc" olddefconfig
	run -0 kmake "$obj" LLVM=1 CC="$cc" -j "$(nproc)"
	assert [ -f "$obj/vmlinux" ]
	run -0 find "$KSRC_DIR" -newer "$T/mark"
	assert_output ""
	# every object was compiled with the stock build's command line
	run -0 "$TOP/tests/cmd-diff.sh" "$ref" "$obj"
	assert_output ""
	run "$KABI" diff "$ref/vmlinux" "$obj/vmlinux"
	assert [ $((status & 8)) -eq 0 ]
	assert [ $((status & 3)) -eq 0 ]
	assert_line --regexp '^summary: [0-9]+ changed \(0 incompatible\)'
	# boots in QEMU as the parity run boots the stock build
	local initrd
	initrd=$("$TOP/scripts/initramfs.sh" -o "$BUILD_DIR" -t x86_64 2>/dev/null)
	run -0 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$obj" -i "$initrd"
	assert_output pass
}
