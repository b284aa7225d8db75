#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The speed half of make codegen on real cells: the um (User-Mode Linux)
# kernels of GCC and Clang, built by kernel-build.sh (some minutes each
# cold on two cores, so 'make check-full' runs this, not the default
# suite), booted by codegen-speed.sh with the short protocol: 3 runs each
# and the A/A control, tcrypt's ChaCha20 (mode 214) only.

load ../common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$BUILD/cache}
}

setup() {
	need_tool jq
	need_tool clang
	T=$BATS_TEST_TMPDIR
}

# bats test_tags=kernel
@test "codegen speed: the um cells of gcc and clang build, ARCH=um" {
	for c in gcc clang; do
		run -0 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t um -c "$c"
		assert_output "$BUILD/kernel/um-$c/vmlinux"
		run -0 grep -x 'CONFIG_CRYPTO_TEST=y' "$BUILD/kernel/um-$c/.config"
		[ -x "$BUILD/kernel/um-$c/linux" ]
	done
}

# bats test_tags=kernel
@test "codegen speed: the short protocol times chacha20-generic at each block size" {
	[ -f "$BUILD/kernel/um-clang/.kparity-built" ] || skip "the um cells did not build"
	run -0 --separate-stderr env KPARITY_KVM_DEVICE="$T/kvm" "$TOP/scripts/codegen-speed.sh" -o "$BUILD" -n 3 -m 214 -O "$T/codegen.json"
	assert_equal "${lines[0]}" "um: clang against gcc, 3 runs each and 3 of gcc as the A/A control (tcrypt modes 214, 1 s per size)"
	assert_equal "${#lines[@]}" 9
	assert_equal "${stderr_lines[0]}" "codegen-speed.sh: no usable KVM: no writable '$T/kvm'; timing natively as User-Mode Linux"
	prog='.speed | [.runs, .modes, (.benchmarks | map(.benchmark)),
		(.benchmarks | map([.samples.ref, .samples.new, .samples.aa] | map(length)) | unique),
		(.benchmarks | map(.ratio > 0.5 and .ratio < 2) | unique)]'
	run -0 jq -c "$prog" "$T/codegen.json"
	assert_output '[3,[214],["chacha20-generic-enc/256/16","chacha20-generic-enc/256/64","chacha20-generic-enc/256/128","chacha20-generic-enc/256/256","chacha20-generic-enc/256/1024","chacha20-generic-enc/256/1420","chacha20-generic-enc/256/4096"],[[3,3,3]],[true]]'
}
