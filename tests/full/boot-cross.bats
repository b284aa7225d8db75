#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Real boots of the cross targets' cells, as tests/boot.bats boots
# x86_64's: each tiny kernel costs about ten minutes cold on two cores, so
# 'make check-full' runs them, not the default suite.

load ../common
load ../boot

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$BUILD/cache}
}

setup() {
	need_tool qemu-system-arm
	need_tool qemu-system-aarch64
}

# bats test_tags=kernel
@test "boot cross: arm-vexpress/clang passes with the toybox /init its compiler built" {
	passed arm-vexpress clang
}

# bats test_tags=kernel
@test "boot cross: arm64-virt/gcc passes with the toybox /init its compiler built" {
	passed arm64-virt gcc
}
