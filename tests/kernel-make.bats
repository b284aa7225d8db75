#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/kernel-make.sh, the one way the scripts run the kernel's make:
# what reaches make's command line and environment, with a make that only
# prints them.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/bin"
	# one argument a line, then the environment variables make would read
	cat >"$T/bin/make" <<'MAKE'
#!/bin/sh
for a in "$@"; do echo "arg $a"; done
env | grep -E '^(MAKE[A-Z]*|MFLAGS|GNUMAKEFLAGS|KBUILD_[A-Z_]*|KC[A-Z]*FLAGS|ARCH|CROSS_COMPILE|LLVM|LLVM_IAS|CC|LD|V|CFLAGS|CCACHE_DIR)=' | sort | sed 's/^/env /'
MAKE
	chmod +x "$T/bin/make"
}

@test "kernel-make: the caller's make and Kbuild settings never reach make" {
	run -0 env PATH="$T/bin:$PATH" MAKEFLAGS=" -j8 --jobserver-auth=3,4" MAKELEVEL=1 MFLAGS=-j8 \
		MAKEFILES=/x.mk MAKEOVERRIDES='O=x' KBUILD_OUTPUT=/o2 KBUILD_EXTRA_WARN=1 KCFLAGS=-O3 \
		CFLAGS=-static CCACHE_DIR=/c "$TOP/scripts/kernel-make.sh" /src O=/o headers
	assert_output - <<'OUT'
arg -C
arg /src
arg O=/o
arg headers
env CCACHE_DIR=/c
env CFLAGS=-static
OUT
}

@test "kernel-make: the exported toolchain goes first on the command line, the caller's words after" {
	run -0 env PATH="$T/bin:$PATH" ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- CC="ccache arm-linux-gnueabi-gcc" \
		V=1 "$TOP/scripts/kernel-make.sh" /src O=/o "CC=ccache clang" -j 2
	assert_output - <<'OUT'
arg -C
arg /src
arg ARCH=arm
arg CROSS_COMPILE=arm-linux-gnueabi-
arg CC=ccache arm-linux-gnueabi-gcc
arg O=/o
arg CC=ccache clang
arg -j
arg 2
arg V=1
OUT
}

@test "kernel-make: -t and -c give the cell's toolchain, whatever the environment says" {
	run -0 env PATH="$T/bin:$PATH" ARCH=x86 CC=gcc LLVM=-19 \
		"$TOP/scripts/kernel-make.sh" -t arm64-virt -c clang /src O=/o
	assert_output - <<'OUT'
arg -C
arg /src
arg ARCH=arm64
arg LLVM=-19
arg O=/o
OUT
	run -0 env PATH="$T/bin:$PATH" "$TOP/scripts/kernel-make.sh" -t arm-vexpress -c clang-gas /src
	assert_output - <<'OUT'
arg -C
arg /src
arg ARCH=arm
arg CROSS_COMPILE=arm-linux-gnueabi-
arg LLVM=1
arg LLVM_IAS=0
OUT
	run -0 env PATH="$T/bin:$PATH" "$TOP/scripts/kernel-make.sh" -t x86_64 -c gcc-11 /src
	assert_output - <<'OUT'
arg -C
arg /src
arg ARCH=x86_64
arg CC=gcc-11
OUT
}

@test "kernel-make: make's exit status is the script's" {
	printf '#!/bin/sh\nexit 3\n' >"$T/bin/make"
	run -3 env PATH="$T/bin:$PATH" "$TOP/scripts/kernel-make.sh" /src
}

@test "kernel-make: no directory, or -t without -c, is a usage error" {
	run -2 --separate-stderr "$TOP/scripts/kernel-make.sh"
	assert_equal "${stderr_lines[0]}" "usage: kernel-make.sh [-t TARGET -c COMPILER] DIR [MAKE-ARG...]"
	run -2 --separate-stderr "$TOP/scripts/kernel-make.sh" -t x86_64 /src
	assert_equal "${stderr_lines[0]}" "usage: kernel-make.sh [-t TARGET -c COMPILER] DIR [MAKE-ARG...]"
	run -2 --separate-stderr "$TOP/scripts/kernel-make.sh" -t sparc -c gcc /src
	assert_equal "$stderr" "kernel-make.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}
