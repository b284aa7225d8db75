#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/lib/target.sh: known_targets, load_target and compiler_select.

load common

setup() {
	T=$BATS_TEST_TMPDIR
}

# in_sh CODE: run CODE in a POSIX sh that has sourced both libraries, as
# a script does (die and load_target exit the shell)
in_sh() {
	PROG=lib-test TOPDIR="$TOP" sh -c \
		'. "$TOPDIR/scripts/lib/common.sh" && . "$TOPDIR/scripts/lib/target.sh" && eval "$1"' sh "$1"
}

# selected: what compiler_select set, one variable a line
SELECTED='printf "%s\n" "cc=$cc_bin" "ld=$ld_bin" "cross=$cc_cross" "llvm=$cc_llvm" "suffix=$cc_suffix"'

# fake_llvm DIR VERSION: a DIR/clang that says it is VERSION
fake_llvm() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho %s\n' "$2" >"$1/clang"
	chmod +x "$1/clang"
}

@test "known_targets: the target files' names on one line" {
	run -0 in_sh known_targets
	assert_output "arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64"
}

@test "load_target: every key of a target, as t_* variables" {
	run -0 in_sh 'load_target arm-vexpress; printf "%s\n" "$t_name" "$t_arch" "$t_srcarch" \
		"$t_cross" "$t_base" "$t_fragments" "$t_defconfigs" "$t_image" "$t_dtb" "$t_qemu" \
		"$t_qemu_machine" "[$t_qemu_cpu]" "$t_qemu_memory" "$t_console" "[$t_append]"'
	assert_output "$(printf '%s\n' arm-vexpress arm arm arm-linux-gnueabi- tinyconfig \
		'arm-vexpress.config debug-info.config kunit.config' 'vexpress_defconfig multi_v7_defconfig' \
		arch/arm/boot/zImage arch/arm/boot/dts/vexpress-v2p-ca9.dtb qemu-system-arm \
		vexpress-a9 '[]' 256M ttyAMA0 '[]')"
}

@test "default_targets: every target but those whose file says DEFAULT=n" {
	run -0 in_sh default_targets
	assert_output "arm-vexpress arm64-virt x86_64"
}

@test "load_target: a target's packages, missing compilers, lld floor and DEFAULT" {
	run -0 in_sh 'load_target riscv64-virt; printf "%s\n" "$t_packages" "$t_no_compilers" "$t_lld_min" "$t_default"; \
		load_target x86_64; printf "%s\n" "$t_packages" "[$t_no_compilers]" "[$t_lld_min]" "$t_default"'
	assert_output "$(printf '%s\n' 'qemu-system-misc libc6-dev-riscv64-cross' gcc-11 15 n \
		qemu-system-x86 '[]' '[]' y)"
}

@test "target_words: all is every target, commas are spaces, repeats go" {
	run -0 in_sh 'target_words "x86_64,all riscv64-virt"'
	assert_output "x86_64 arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt"
}

@test "target_words: default is the targets without DEFAULT=n" {
	run -0 in_sh 'target_words "riscv64-virt,default x86_64"'
	assert_output "riscv64-virt arm-vexpress arm64-virt x86_64"
}

@test "target_skip: a compiler of NO_COMPILERS says why, another is no skip" {
	run -0 in_sh 'load_target riscv64-virt; target_skip gcc-11'
	assert_output "Debian has no gcc-11 for riscv (NO_COMPILERS in riscv64-virt.target)"
	run -1 in_sh 'load_target riscv64-virt; target_skip gcc'
	assert_output ""
}

@test "target_compilers: the run's compilers a target may have, in order" {
	run -0 in_sh 'target_compilers riscv64-virt "gcc-11 clang gcc"; target_compilers x86_64 "gcc-11 clang gcc"'
	assert_output "$(printf '%s\n' 'clang gcc' 'gcc-11 clang gcc')"
}

@test "user_ld: lld for Clang, unless the target's LLD_MIN is newer than the cell's lld" {
	local v
	for v in 14.0.6 15.0.6; do
		printf '#!/bin/sh\necho "Debian LLD %s (compatible with GNU linkers)"\n' "$v" >"$T/ld.lld-$v"
		chmod +x "$T/ld.lld-$v"
	done
	run -0 in_sh "load_target riscv64-virt; compiler_select clang; ld_bin=$T/ld.lld-14.0.6; user_ld;
		ld_bin=$T/ld.lld-15.0.6; user_ld; compiler_select gcc; user_ld;
		load_target x86_64; compiler_select clang; ld_bin=$T/ld.lld-14.0.6; user_ld"
	assert_output "$(printf '%s\n' bfd lld bfd lld)"
}

@test "cell_dtb: the target's device tree, or the file of its name in a vendor's directory (6.5 on)" {
	mkdir -p "$T/k61/arch/arm/boot/dts" "$T/k612/arch/arm/boot/dts/arm" "$T/none"
	touch "$T/k61/arch/arm/boot/dts/vexpress-v2p-ca9.dtb" "$T/k612/arch/arm/boot/dts/arm/vexpress-v2p-ca9.dtb"
	run -0 in_sh "load_target arm-vexpress; cell_dtb '$T/k61'; cell_dtb '$T/k612'"
	assert_output "$(printf '%s\n' "$T/k61/arch/arm/boot/dts/vexpress-v2p-ca9.dtb" "$T/k612/arch/arm/boot/dts/arm/vexpress-v2p-ca9.dtb")"
	run -1 in_sh "load_target arm-vexpress; cell_dtb '$T/none'"
	assert_output ""
	run -0 in_sh "load_target x86_64; cell_dtb '$T/none'"
	assert_output ""
}

@test "load_target: SRCARCH where the kernel's directory is not ARCH" {
	run -0 in_sh 'load_target x86_64; echo "$t_arch $t_srcarch [$t_cross] [$t_dtb] $t_qemu_cpu"'
	assert_output "x86_64 x86 [] [] qemu64"
}

@test "load_target: leaves none of the keys set, even ones set before" {
	run -0 in_sh 'ARCH=sparc; CROSS_COMPILE=x-; load_target arm64-virt; echo "[${ARCH-unset}] [${CROSS_COMPILE-unset}] [${IMAGE-unset}]"'
	assert_output "[unset] [unset] [unset]"
}

@test "load_target: a target loaded after another keeps none of its values" {
	run -0 in_sh 'load_target arm-vexpress; load_target arm64-virt; echo "[$t_dtb] $t_qemu_cpu"'
	assert_output "[] cortex-a57"
}

@test "load_target: an unknown target exits 2 with the known ones" {
	run -2 --separate-stderr in_sh 'load_target sparc; echo after'
	assert_output ""
	assert_equal "$stderr" "lib-test: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "compiler_select: gcc takes the target's cross prefix" {
	run -0 in_sh "load_target arm64-virt; compiler_select gcc; $SELECTED"
	assert_output "$(printf '%s\n' cc=aarch64-linux-gnu-gcc ld=aarch64-linux-gnu-ld \
		cross=aarch64-linux-gnu- llvm= suffix=gcc)"
}

@test "compiler_select: gcc for a native target, or with no target loaded" {
	run -0 in_sh "load_target x86_64; compiler_select gcc; $SELECTED"
	assert_output "$(printf '%s\n' cc=gcc ld=ld cross= llvm= suffix=gcc)"
	run -0 in_sh "compiler_select gcc; $SELECTED"
	assert_output "$(printf '%s\n' cc=gcc ld=ld cross= llvm= suffix=gcc)"
}

@test "compiler_select: gcc ignores the caller's LLVM" {
	LLVM=-19 run -0 in_sh "load_target arm-vexpress; compiler_select gcc; $SELECTED"
	assert_output "$(printf '%s\n' cc=arm-linux-gnueabi-gcc ld=arm-linux-gnueabi-ld \
		cross=arm-linux-gnueabi- llvm= suffix=gcc)"
}

@test "compiler_select: clang is LLVM=1 by default and with LLVM=1" {
	run -0 in_sh "unset LLVM; load_target arm64-virt; compiler_select clang; $SELECTED"
	assert_output "$(printf '%s\n' cc=clang ld=ld.lld cross= llvm=1 suffix=clang)"
	LLVM=1 run -0 in_sh "compiler_select clang; $SELECTED"
	assert_output "$(printf '%s\n' cc=clang ld=ld.lld cross= llvm=1 suffix=clang)"
}

@test "compiler_select: clang with LLVM=-N and clang-N name the same build" {
	LLVM=-19 run -0 in_sh "compiler_select clang; $SELECTED"
	assert_output "$(printf '%s\n' cc=clang-19 ld=ld.lld-19 cross= llvm=-19 suffix=clang-19)"
	run -0 in_sh "unset LLVM; compiler_select clang-19; $SELECTED"
	assert_output "$(printf '%s\n' cc=clang-19 ld=ld.lld-19 cross= llvm=-19 suffix=clang-19)"
}

@test "compiler_select: clang-N wins over the caller's LLVM" {
	LLVM=-14 run -0 in_sh "compiler_select clang-19; $SELECTED"
	assert_output "$(printf '%s\n' cc=clang-19 ld=ld.lld-19 cross= llvm=-19 suffix=clang-19)"
}

@test "compiler_select: LLVM=DIR/ runs DIR/clang and names the build by its major version" {
	fake_llvm "$T/llvm/bin" 17.0.6
	LLVM="$T/llvm/bin/" run -0 in_sh "compiler_select clang; $SELECTED"
	assert_output "$(printf '%s\n' "cc=$T/llvm/bin/clang" "ld=$T/llvm/bin/ld.lld" cross= \
		"llvm=$T/llvm/bin/" suffix=clang-17)"
}

@test "compiler_select: LLVM=DIR/ without a clang in it exits 2" {
	mkdir "$T/empty"
	LLVM="$T/empty/" run -2 --separate-stderr in_sh 'compiler_select clang; echo after'
	assert_output ""
	assert_equal "$stderr" "lib-test: cannot find '$T/empty/clang' (LLVM=$T/empty/)"
}

@test "compiler_select: an LLVM that is none of 1, -N, DIR/ exits 2" {
	LLVM=yes run -2 --separate-stderr in_sh 'compiler_select clang; echo after'
	assert_output ""
	assert_equal "$stderr" "lib-test: LLVM='yes' is none of 1, -VERSION, DIR/"
}

@test "compiler_select: an unknown compiler exits 2 with the known ones" {
	local known="gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas"
	for c in icc clang-x clang-19a gcc-9 clang-17 all; do
		run -2 --separate-stderr in_sh "compiler_select $c; echo after"
		assert_output ""
		assert_equal "$stderr" "lib-test: unknown compiler '$c' (known: $known)"
	done
}

@test "compiler_select: gcc-N runs the target's gcc-N, named gcc-N" {
	run -0 in_sh "load_target arm-vexpress; compiler_select gcc-11; $SELECTED; echo ias=\$cc_ias"
	assert_output "$(printf '%s\n' cc=arm-linux-gnueabi-gcc-11 ld=arm-linux-gnueabi-ld \
		cross=arm-linux-gnueabi- llvm= suffix=gcc-11 ias=)"
	run -0 in_sh "load_target x86_64; compiler_select gcc-12; $SELECTED"
	assert_output "$(printf '%s\n' cc=gcc-12 ld=ld cross= llvm= suffix=gcc-12)"
}

@test "compiler_select: clang-gas is LLVM=1 with GNU as through the cross prefix" {
	run -0 in_sh "unset LLVM; load_target arm-vexpress; compiler_select clang-gas; $SELECTED; echo ias=\$cc_ias"
	assert_output "$(printf '%s\n' cc=clang ld=ld.lld cross=arm-linux-gnueabi- llvm=1 \
		suffix=clang-gas ias=0)"
}

@test "compiler_select: a target's CLANG_CROSS gives Clang its cross prefix, for the binutils Kbuild still runs" {
	run -0 in_sh "unset LLVM; load_target ppc64le-pseries; compiler_select clang-19; $SELECTED"
	assert_output "$(printf '%s\n' cc=clang-19 ld=ld.lld-19 cross=powerpc64le-linux-gnu- llvm=-19 suffix=clang-19)"
	run -0 in_sh "unset LLVM; load_target arm64-virt; compiler_select clang-19; $SELECTED"
	assert_output "$(printf '%s\n' cc=clang-19 ld=ld.lld-19 cross= llvm=-19 suffix=clang-19)"
}

@test "compiler_words: all is the version matrix, commas and repeats are fine" {
	run -0 in_sh 'compiler_words "gcc,clang all gcc-11"'
	assert_output "gcc clang gcc-11 gcc-12 clang-13 clang-14 clang-15 clang-16 clang-19 clang-22"
	run -2 --separate-stderr in_sh 'compiler_words "gcc icc"; echo after'
	assert_equal "$stderr" "lib-test: unknown compiler 'icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas all)"
}

@test "compiler_packages: cross packages only for a cross target" {
	run -0 in_sh 'compiler_packages gcc-11 arm-linux-gnueabi-'
	assert_output "$(printf '%s\n' gcc-11 gcc-11-arm-linux-gnueabi)"
	run -0 in_sh 'compiler_packages gcc-11 ""'
	assert_output "gcc-11"
	run -0 in_sh 'compiler_packages clang-22 aarch64-linux-gnu-'
	assert_output "$(printf '%s\n' clang-22 lld-22 llvm-22)"
}

@test "compiler_identity: the compiler and linker with links followed, LLVM_IAS and cross prefix" {
	fake_llvm "$T/llvm/bin" 17.0.6
	mv "$T/llvm/bin/clang" "$T/llvm/bin/clang-17"
	ln -s clang-17 "$T/llvm/bin/clang"
	printf '#!/bin/sh\n' >"$T/llvm/bin/ld.lld"
	chmod +x "$T/llvm/bin/ld.lld"
	LLVM="$T/llvm/bin/" run -0 in_sh 'load_target arm-vexpress; compiler_identity clang'
	assert_output "$T/llvm/bin/clang-17 $T/llvm/bin/ld.lld ias= cross="
	LLVM="$T/llvm/bin/" run -0 in_sh 'load_target arm-vexpress; compiler_identity clang-gas'
	assert_output "$(readlink -f "$(command -v clang)") $(readlink -f "$(command -v ld.lld)") ias=0 cross=arm-linux-gnueabi-"
}

@test "compiler_identity: nothing for a compiler without its linker" {
	fake_llvm "$T/llvm/bin" 17.0.6
	LLVM="$T/llvm/bin/" run -0 --separate-stderr in_sh 'compiler_identity clang; echo "rc=$?"'
	assert_output "rc=0"
	assert_equal "$stderr" ""
}

@test "compiler_aliases: gcc is gcc-12 and clang is clang-14, as Debian 12 installs them" {
	local tool
	for tool in gcc-12 clang-14 ld.lld-14 arm-linux-gnueabi-gcc-12; do
		need_tool "$tool"
	done
	run -0 in_sh 'unset LLVM; for t in x86_64 arm-vexpress; do load_target $t
		for c in gcc gcc-12 gcc-11 clang clang-14 clang-22 clang-gas; do echo "$t $c: $(compiler_aliases $c)"; done; done'
	assert_output "$(printf '%s\n' "x86_64 gcc: gcc-12" "x86_64 gcc-12: gcc" "x86_64 gcc-11: " \
		"x86_64 clang: clang-14" "x86_64 clang-14: clang" "x86_64 clang-22: " "x86_64 clang-gas: " \
		"arm-vexpress gcc: gcc-12" "arm-vexpress gcc-12: gcc" "arm-vexpress gcc-11: " \
		"arm-vexpress clang: clang-14" "arm-vexpress clang-14: clang" "arm-vexpress clang-22: " \
		"arm-vexpress clang-gas: ")"
}

@test "compiler_aliases: clang with LLVM=-19 is clang-19" {
	need_tool clang-19
	need_tool ld.lld-19
	LLVM=-19 run -0 in_sh 'load_target x86_64; compiler_aliases clang; compiler_aliases clang-19'
	assert_output "$(printf '%s\n' clang-19 clang)"
}

@test "matrix_reference: gcc-12, else gcc, else the first" {
	run -0 in_sh 'matrix_reference "clang gcc gcc-12"; matrix_reference "clang gcc"; matrix_reference "clang-19 clang-22"'
	assert_output "$(printf '%s\n' gcc-12 gcc clang-19)"
}

@test "matrix_pairs: every compiler against the reference, clang versions in order, the IAS twin" {
	run -0 in_sh 'matrix_pairs "gcc-12 clang-22 clang-13 clang-gas clang" ""'
	assert_output - <<'OUT'
gcc-12 clang-22 ref
gcc-12 clang-13 ref
gcc-12 clang-gas ref
gcc-12 clang ref
clang-13 clang-22 version
clang clang-gas version
OUT
	# two compilers: no version chain; a twin under the name the run kept
	run -0 in_sh 'matrix_pairs "gcc clang-gas clang-14" "clang=clang-14"'
	assert_output - <<'OUT'
gcc clang-gas ref
gcc clang-14 ref
clang-14 clang-gas version
OUT
	run -0 in_sh 'matrix_pairs "gcc" ""'
	assert_output ""
}

@test "matrix_dedupe: names of one compiler are built once, the versioned name kept" {
	need_tool gcc-12
	[ "$(readlink -f "$(command -v gcc)")" = "$(readlink -f "$(command -v gcc-12)")" ] ||
		skip "gcc is not gcc-12 here"
	local code='matrix_dedupe "gcc gcc-12 clang-19" "x86_64"; echo "$m_compilers|$m_aliases"'
	run -0 --separate-stderr in_sh "$code"
	assert_output "gcc-12 clang-19|gcc=gcc-12"
	# bats trims the first line's indent in $stderr
	assert_equal "$stderr" "ALIAS   gcc = gcc-12 (the same compiler and linker): built once, as gcc-12"
}

@test "kselftest_collections: each collection once, in the list's order" {
	printf '%s\n' '# c' '*  timers  posix_timers  30' 'x86_64  size  get_size  10' \
		'*  timers  nanosleep  skip too long' 'arm64-virt  futex  futex_wait  10' \
		'*  kcmp  kcmp_test  20' >"$T/list"
	export KPARITY_KSELFTEST_LIST="$T/list"
	run -0 in_sh 'kselftest_collections x86_64'
	assert_output "$(printf '%s\n' timers size kcmp)"
}

@test "differences_list: KPARITY_TEST_DIFFERENCES is the list, and a malformed one is named" {
	printf '%s\n' 'x86_64 kselftest:timers/nanosleep' >"$T/bad"
	export KPARITY_TEST_DIFFERENCES="$T/bad"
	run -2 --separate-stderr in_sh differences_list
	assert_output ""
	assert_equal "$stderr" "lib-test: '$T/bad': malformed line (want TARGET TEST REFERENCE REASON): x86_64 kselftest:timers/nanosleep"
	export KPARITY_TEST_DIFFERENCES="$T/none"
	run -2 --separate-stderr in_sh differences_list
	assert_equal "$stderr" "lib-test: cannot read '$T/none'"
}
