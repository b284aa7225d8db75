#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/kselftest.sh: the list of kselftests per target, the static
# check, real builds of the subset for a GCC and a Clang cell and the ext2
# image they make, and a real boot of x86_64/gcc running them from the
# disk with the results read by ktap.sh: what it reads in the recorded
# console of the x86_64/gcc cell (tests/fixtures/ktap/x86_64-gcc.expected).
#
# The builds go to $KPARITY_BUILD (cached by their stamps); the tests that
# change the list build into their own directory from the same kernel tree
# (KSRC). The boot's kernel comes from kernel-build.sh (cached), or with
# KPARITY_KERNELS=DIR from DIR/x86_64-gcc/, only read.

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$BUILD/cache}
}

# a failed boot shows the end of its console, which holds the cause
teardown() {
	[ -z "${BATS_TEST_COMPLETED:-}" ] && [ -r "${console:-}" ] || return 0
	echo "# the last 60 lines of $console:"
	tail -n 60 "$console" | tr -d '\r'
}

setup() {
	need_tool genext2fs
	need_tool debugfs
	need_tool readelf
	K=$TOP/scripts/kselftest.sh
}

# list TARGET [LIST]: the programs the list runs on TARGET
list() {
	awk -v target="$1" -f "$TOP/scripts/kselftest/kselftest-list.awk" "${2:-$TOP/scripts/targets/kselftest.list}"
}

# elf_static FILE: the library function, run in a shell of its own
elf_static() {
	TOPDIR=$TOP sh -c '. "$TOPDIR/scripts/lib/elf.sh" && elf_static "$1"' sh "$1"
}

# ksrc: the kernel tree of $BUILD, extracted once
ksrc() {
	PROG=kselftest.bats "$TOP/scripts/kernel-src.sh" -o "$BUILD" 2>/dev/null
}

@test "kselftest.list: well formed, and every target runs size, kcmp, timers and futex" {
	local t
	for t in x86_64 arm64-virt arm-vexpress; do
		run -0 --separate-stderr list "$t"
		assert_equal "$stderr" ""
		assert_line --index 0 "size get_size 10"
		assert_line --index 1 "kcmp kcmp_test 20"
		assert_line --index 2 "timers posix_timers 30"
	done
	run -0 list x86_64
	assert_equal "${#lines[@]}" 13
	assert_line --index 3 "futex functional/futex_wait_timeout 20"
	assert_line --index 11 "futex functional/futex_waitv 20"
	assert_line --index 12 "breakpoints breakpoint_test 20"
	run -0 list arm64-virt
	assert_equal "${#lines[@]}" 13
	assert_line --index 3 "futex functional/futex_wait_timeout 20"
	assert_line --index 12 "breakpoints breakpoint_test_arm64 20"
	# 32-bit ARM: the two programs that hand futex_waitv a 32-bit timespec
	run -0 list arm-vexpress
	assert_equal "${#lines[@]}" 10
	assert_line --index 3 "futex functional/futex_wait_wouldblock 20"
	assert_line --index 9 "futex functional/futex_wait 20"
	refute_line --partial futex_waitv
	refute_line --partial futex_wait_timeout
}

@test "kselftest.list: a malformed line is named by file and line, and nothing is printed" {
	local f=$BATS_TEST_TMPDIR/bad.list
	printf '# c\n* size get_size 10\n* timers nanosleep skip\nx86_64 kcmp kcmp_test 5s\n' >"$f"
	run -2 --separate-stderr list x86_64 "$f"
	assert_output ""
	assert_equal "$stderr" "$f:3: a skip needs a reason
$f:4: SECONDS must be a positive number alone, or 'skip REASON', not '5s'"
}

@test "elf_static: a static program passes, a dynamic one and a script do not, each saying why" {
	need_tool cc
	printf 'int main(void) { return 0; }\n' >"$BATS_TEST_TMPDIR/p.c"
	cc -static -o "$BATS_TEST_TMPDIR/static" "$BATS_TEST_TMPDIR/p.c"
	cc -o "$BATS_TEST_TMPDIR/dynamic" "$BATS_TEST_TMPDIR/p.c"
	printf '#!/bin/sh\n' >"$BATS_TEST_TMPDIR/script"
	run -0 elf_static "$BATS_TEST_TMPDIR/static"
	assert_output ""
	run -1 elf_static "$BATS_TEST_TMPDIR/dynamic"
	assert_output "is dynamically linked (it asks for a program interpreter)"
	run -1 elf_static "$BATS_TEST_TMPDIR/script"
	assert_output "is not an ELF file"
}

# built TARGET COMPILER MACHINE: build the cell's image and check it: every
# program static for MACHINE, the guest's list, the image holding the tree
@test "kselftest.sh: x86_64/gcc builds its subset static, and packs it with the guest's list" {
	built x86_64 gcc "Advanced Micro Devices X86-64"
	assert_equal "$(sed -n 3p "$root/kparity-tests.sh")" \
		"ksft 1 size get_size 10 /mnt/size/get_size"
	assert_equal "$(sed -n 15p "$root/kparity-tests.sh")" \
		"ksft 13 breakpoints breakpoint_test 20 /mnt/breakpoints/breakpoint_test"
}

@test "kselftest.sh: arm64-virt/clang builds its subset static, linked by lld" {
	need_tool clang
	need_tool ld.lld
	built arm64-virt clang AArch64
	run -0 readelf -p .comment "$root/kcmp/kcmp_test"
	assert_output --regexp "Linker: [^]]*LLD"
}

built() {
	local t=$1 c=$2 machine=$3 img path
	run -0 --separate-stderr nice -n 10 "$K" -o "$BUILD" -t "$t" -c "$c"
	img=$BUILD/kselftest/$t-$c/kselftest.ext2
	assert_output "$img"
	root=$BUILD/kselftest/$t-$c/root
	# the selftests' own install: their runner and list come along
	[ -f "$root/run_kselftest.sh" ]
	run -0 grep -c '^size:get_size$' "$root/kselftest-list.txt"
	# every program the guest runs: static, for the target's machine
	for path in $(list "$t" | awk '{ print $1 "/" $2 }'); do
		run -0 elf_static "$root/$path"
		run -0 readelf -h "$root/$path"
		assert_line --regexp "^ +Machine: +$machine\$"
	done
	# the guest's list: a plan and one line per program
	run -0 sed -n 2p "$root/kparity-tests.sh"
	assert_output "ksft_plan $(list "$t" | wc -l)"
	# the image holds the tree as installed
	run -0 --separate-stderr debugfs -R "cat /kparity-tests.sh" "$img"
	assert_output "$(cat "$root/kparity-tests.sh")"
	debugfs -R "dump /size/get_size $BATS_TEST_TMPDIR/get_size" "$img" 2>/dev/null
	cmp "$root/size/get_size" "$BATS_TEST_TMPDIR/get_size"
	# a second run is free: the stamp matches, nothing is rebuilt
	run -0 --separate-stderr "$K" -o "$BUILD" -t "$t" -c "$c"
	assert_output "$img"
	assert_equal "$stderr" ""
}

# poked FILE: the symbols of FILE in the 8 bytes PTRACE_POKEDATA writes at
# &trapped (breakpoint_test.c: ptrace(PTRACE_POKEDATA, child_pid, &trapped, 1));
# nm's addresses are 16 hex digits, compared as strings
poked() {
	local t
	t=$(nm "$1" | awk '$3 == "trapped" { print $1 }')
	[ -n "$t" ] || return 1
	nm -n --defined-only "$1" |
		awk -v t="$t" -v e="$(printf '%016x' $((0x$t + 8)))" '$1 >= t && $1 < e { print $3 }'
}

@test "breakpoint_test on the x86_64 disks: the word it pokes at its int 'trapped' covers nr_tests in Clang's build" {
	need_tool clang
	need_tool nm
	local c
	for c in gcc clang; do
		run -0 --separate-stderr nice -n 10 "$K" -o "$BUILD" -t x86_64 -c "$c"
	done
	# GCC leaves 4 bytes of padding after it; Clang puts the counter the
	# parent compares there, which each poke sets to 0
	run -0 poked "$BUILD/kselftest/x86_64-gcc/root/breakpoints/breakpoint_test"
	assert_output trapped
	run -0 poked "$BUILD/kselftest/x86_64-clang/root/breakpoints/breakpoint_test"
	assert_output "$(printf '%s\n' trapped nr_tests)"
}

@test "kselftest.sh: a listed program that was not built stops it, with no image left" {
	local o=$BATS_TEST_TMPDIR/o src
	src=$(ksrc)
	printf '* size nosuch 10\n' >"$BATS_TEST_TMPDIR/l"
	KSRC=$src KPARITY_KSELFTEST_LIST=$BATS_TEST_TMPDIR/l run -1 --separate-stderr "$K" -o "$o" -t x86_64 -c gcc
	assert_output ""
	assert_equal "$stderr" "KSFT    x86_64/gcc (size)
kselftest.sh: kselftest 'size/nosuch' was not built for x86_64/gcc"
	[ ! -e "$o/kselftest/x86_64-gcc/kselftest.ext2" ]
}

@test "kselftest.sh: a listed program that is not a static ELF program is not booted" {
	local o=$BATS_TEST_TMPDIR/o src
	src=$(ksrc)
	printf '* futex run.sh 10\n' >"$BATS_TEST_TMPDIR/l"
	KSRC=$src KPARITY_KSELFTEST_LIST=$BATS_TEST_TMPDIR/l run -1 --separate-stderr nice -n 10 "$K" -o "$o" -t x86_64 -c gcc
	assert_output ""
	assert_equal "$stderr" "KSFT    x86_64/gcc (futex)
kselftest.sh: kselftest 'futex/run.sh' of x86_64/gcc is not an ELF file; not booting it"
	[ ! -e "$o/kselftest/x86_64-gcc/kselftest.ext2" ]
}

@test "kernel-boot.sh: a missing disk image is trouble, named, before QEMU starts" {
	local k=$BATS_TEST_TMPDIR/k
	mkdir -p "$k/arch/x86/boot"
	: >"$k/arch/x86/boot/bzImage"
	: >"$BATS_TEST_TMPDIR/initrd"
	run -2 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$k" \
		-i "$BATS_TEST_TMPDIR/initrd" -d "$BATS_TEST_TMPDIR/none.ext2"
	assert_output ""
	assert_equal "$stderr" "kernel-boot.sh: no kselftest disk image '$BATS_TEST_TMPDIR/none.ext2' (scripts/kselftest.sh makes it)"
	[ ! -e "$k/boot.log" ]
}

@test "kernel-boot.sh: with -l the console, command and verdict go there, not into the kernel's directory" {
	need_tool qemu-system-x86_64
	local k=$BATS_TEST_TMPDIR/k l=$BATS_TEST_TMPDIR/swap/l
	mkdir -p "$k/arch/x86/boot"
	: >"$k/arch/x86/boot/bzImage"
	: >"$BATS_TEST_TMPDIR/initrd"
	: >"$BATS_TEST_TMPDIR/disk.ext2"
	# QEMU refuses the empty image at once: a failed boot, and its files
	run -1 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$k" \
		-i "$BATS_TEST_TMPDIR/initrd" -d "$BATS_TEST_TMPDIR/disk.ext2" -l "$l" -T 10
	assert_output "fail: qemu exited 1"
	# the step line says whose disk the kernel booted (its seconds vary)
	assert_regex "${stderr_lines[0]}" "^BOOT    x86_64/k with the kselftests of ${BATS_TEST_TMPDIR##*/}  FAIL [0-9]+s\$"
	run -0 ls "$l"
	assert_output "$(printf '%s\n' boot.cmd boot.log boot.qemu boot.verdict)"
	run -0 ls "$k"
	assert_output arch
	run -0 grep -c -- "-serial file:$l/boot.log " "$l/boot.cmd"
}

# bats test_tags=kernel
@test "boot: x86_64/gcc runs its kselftests from the disk, and ktap.sh reads every result" {
	need_tool qemu-system-x86_64
	local src k img initrd
	if [ -n "${KPARITY_KERNELS:-}" ]; then
		src=$KPARITY_KERNELS/x86_64-gcc
	else
		echo "# building x86_64/gcc (cached after the first run)" >&3
		nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc -j 2 >/dev/null
		src=$BUILD/kernel/x86_64-gcc
	fi
	k=$BATS_TEST_TMPDIR/kernel
	mkdir -p "$k/arch/x86/boot"
	ln -s "$src/arch/x86/boot/bzImage" "$k/arch/x86/boot/bzImage"
	img=$(nice -n 10 "$K" -o "$BUILD" -t x86_64 -c gcc 2>/dev/null)
	initrd=$("$TOP/scripts/initramfs.sh" -o "$BUILD" -t x86_64 -c gcc 2>/dev/null)
	console=$k/boot.log
	# 22 s on a quiet machine: 120 s, parity.sh's limit, leaves room for load
	run -0 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t x86_64 -k "$k" -i "$initrd" -d "$img" -T 120
	assert_output pass
	run -0 grep -c '^kparity-init: ok mount kselftest disk /dev/vda' "$k/boot.log"
	run -0 "$TOP/scripts/ktap.sh" "$k/boot.log"
	# KUnit's 95 results, then the kselftests in the list's order, each
	# after its program's own results; a note names its console line,
	# which moves with the boot's own messages
	local unline='s/^# line [0-9]+: /# line N: /'
	assert_equal "$(printf '%s\n' "$output" | sed -E "$unline")" \
		"$(sed -E "$unline" "$TOP/tests/fixtures/ktap/x86_64-gcc.expected")"
}
