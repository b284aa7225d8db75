#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# target-check.sh: the per-target data files and their check.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	S=$TOP/scripts/target-check.sh
}

# good NAME: a valid target file T/NAME.target, with extra lines appended
good() {
	local name=$1
	shift
	{
		echo '# SPDX-License-Identifier: GPL-2.0-only'
		echo 'ARCH=arm64'
		echo 'BASE_CONFIG=tinyconfig'
		echo 'FRAGMENTS="arm64-virt.config debug-info.config"'
		echo 'IMAGE=arch/arm64/boot/Image'
		echo 'QEMU=qemu-system-aarch64'
		echo 'QEMU_MACHINE=virt'
		echo 'CONSOLE=ttyAMA0'
		printf '%s\n' "$@"
	} >"$T/$name.target"
}

@test "target: the known targets are the files in scripts/targets" {
	run -0 "$S" -l
	assert_output "$(printf '%s\n' arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "target: every shipped target file passes the check" {
	for t in arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64; do
		run -0 --separate-stderr "$S" "$t"
		assert_output "$TOP/scripts/targets/$t.target"
		assert_equal "$stderr" ""
	done
}

@test "target: every fragment a target names exists" {
	for f in "$TOP"/scripts/targets/*.target "$TOP"/scripts/targets/host/*.target; do
		for frag in $(. "$f" && echo "$FRAGMENTS"); do
			assert [ -f "$TOP/kconfig/fragments/$frag" ]
		done
	done
}

@test "target: an unknown target lists the known ones" {
	run -2 --separate-stderr "$S" sparc
	assert_output ""
	assert_equal "$stderr" "target-check.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "target: a name with a slash is not a path" {
	run -2 --separate-stderr "$S" ../targets/x86_64
	assert_equal "$stderr" "target-check.sh: unknown target '../targets/x86_64' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "target: a host target is found under host/, checked for its own keys, and not listed" {
	run -0 --separate-stderr "$S" um
	assert_output "$TOP/scripts/targets/host/um.target"
	assert_equal "$stderr" ""
	mkdir "$T/host"
	printf '%s\n' ARCH=um BASE_CONFIG=tinyconfig FRAGMENTS=um.config IMAGE=linux >"$T/host/uml.target"
	good x86
	run -0 "$S" -d "$T" uml
	assert_output "$T/host/uml.target"
	run -0 "$S" -d "$T" -l
	assert_output "x86"
	echo QEMU=qemu-system-x86_64 >>"$T/host/uml.target"
	run -2 --separate-stderr "$S" -d "$T" uml
	assert_equal "$stderr" "target-check.sh: $T/host/uml.target:5: unknown key 'QEMU'"
	printf '%s\n' ARCH=um IMAGE=linux >"$T/host/uml.target"
	run -2 --separate-stderr "$S" -d "$T" uml
	assert_equal "${stderr_lines[0]}" "target-check.sh: $T/host/uml.target: missing key 'BASE_CONFIG'"
}

@test "target: load_target says whether a target runs on the host" {
	run -0 sh -c '. "$1/scripts/lib/common.sh"; TOPDIR=$1 PROG=t; . "$1/scripts/lib/target.sh"
		load_target um; echo "$t_arch $t_host $t_image [$t_qemu]"
		load_target x86_64; echo "$t_arch [$t_host] $t_qemu"' sh "$TOP"
	assert_output "$(printf '%s\n' 'um 1 linux []' 'x86_64 [] qemu-system-x86_64')"
}

@test "target: a minimal file with only the required keys passes" {
	good min
	run -0 "$S" -d "$T" min
	assert_output "$T/min.target"
}

@test "target: an unknown key is refused with its line" {
	good typo 'QEMU_MACHNE=virt'
	run -2 --separate-stderr "$S" -d "$T" typo
	assert_output ""
	assert_equal "$stderr" "target-check.sh: $T/typo.target:9: unknown key 'QEMU_MACHNE'"
}

@test "target: each missing required key gets one line" {
	printf 'ARCH=arm\nIMAGE=zImage\nQEMU=qemu-system-arm\n' >"$T/short.target"
	run -2 --separate-stderr "$S" -d "$T" short
	assert_equal "$stderr" "$(printf '%s\n' \
		"target-check.sh: $T/short.target: missing key 'BASE_CONFIG'" \
		"target-check.sh: $T/short.target: missing key 'FRAGMENTS'" \
		"target-check.sh: $T/short.target: missing key 'QEMU_MACHINE'" \
		"target-check.sh: $T/short.target: missing key 'CONSOLE'")"
}

@test "target: a value that would expand in the shell is refused" {
	good expand 'APPEND=$(reboot)'
	run -2 --separate-stderr "$S" -d "$T" expand
	assert_equal "$stderr" "target-check.sh: $T/expand.target:9: APPEND: value must be a plain word or \"words\", not '\$(reboot)'"
}

@test "target: a key set twice is refused" {
	good twice 'ARCH=arm'
	run -2 --separate-stderr "$S" -d "$T" twice
	assert_equal "$stderr" "target-check.sh: $T/twice.target:9: key 'ARCH' set again (first at line 2)"
}

@test "target: a line that is not KEY=value is refused" {
	good shell 'export ARCH'
	run -2 --separate-stderr "$S" -d "$T" shell
	assert_equal "$stderr" "target-check.sh: $T/shell.target:9: not a KEY=value line: 'export ARCH'"
}

@test "target: the caller's name prefixes the messages" {
	run -2 --separate-stderr "$S" -p kernel-build.sh sparc
	assert_equal "$stderr" "kernel-build.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "target: kernel-build.sh refuses an unknown target and compiler" {
	run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$T" -t sparc -c gcc
	assert_equal "$stderr" "kernel-build.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
	run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$T" -t x86_64 -c icc
	assert_equal "$stderr" "kernel-build.sh: unknown compiler 'icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas)"
}

@test "target: a cell Debian has no compiler for is one line, exit 2" {
	run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$T" -t riscv64-virt -c gcc-11
	assert_output ""
	assert_equal "$stderr" "kernel-build.sh: no riscv64-virt/gcc-11 cell: Debian has no gcc-11 for riscv (NO_COMPILERS in riscv64-virt.target)"
}

@test "target: deps.sh installs what the run's targets name, every one for all" {
	TARGETS=riscv64-virt run -0 "$TOP/scripts/deps.sh" --list parity
	assert_output "$(printf '%s\n' clang clang-19 coreutils gcc gcc-riscv64-linux-gnu genext2fs jq \
		libc6-dev-riscv64-cross lld lld-19 llvm llvm-19 qemu-system-misc quilt rsync sqlite3)"
	TARGETS=all run -0 "$TOP/scripts/deps.sh" --list parity
	assert_line qemu-system-x86
	assert_line qemu-system-misc
	assert_line libc6-dev-armel-cross
	run -0 "$TOP/scripts/deps.sh" --list parity
	refute_line qemu-system-misc
	assert_line qemu-system-arm
}

@test "target: deps.sh leaves out a compiler a target cannot have" {
	TARGETS=riscv64-virt COMPILERS=gcc-11,gcc-12 run -0 "$TOP/scripts/deps.sh" --list compilers
	assert_output "$(printf '%s\n' gcc-12 gcc-12-riscv64-linux-gnu)"
}

@test "target: deps.sh refuses an unknown target of TARGETS" {
	TARGETS=sparc run -2 --separate-stderr "$TOP/scripts/deps.sh" --list parity
	assert_output ""
	assert_equal "$stderr" "deps.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "target: a missing compiler names its Debian package" {
	run -2 --separate-stderr env LLVM=-99 "$TOP/scripts/kernel-build.sh" -o "$T" -t x86_64 -c clang
	assert_equal "$stderr" "$(printf '%s\n' \
		"kernel-build.sh: cannot find 'clang-99' (Debian package: clang-99)" \
		"kernel-build.sh: cannot find 'ld.lld-99' (Debian package: lld-99)")"
}
