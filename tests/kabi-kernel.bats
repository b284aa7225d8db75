#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kabi on a real kernel: the tiny x86_64 6.1 tree built with gcc and with
# clang (cached in $KPARITY_BUILD/kernel/ after the first run).

load common

setup_file() {
	local build=${KPARITY_BUILD:-$TOP/build}

	for cc in gcc clang; do
		echo "# building x86_64/$cc (cached after the first run)" >&3
		"$TOP/scripts/kernel-build.sh" -o "$build" -t x86_64 -c "$cc" >/dev/null
	done
	export GCC_VM=$build/kernel/x86_64-gcc/vmlinux
	export CLANG_VM=$build/kernel/x86_64-clang/vmlinux
	export KSRC_DIR
	KSRC_DIR=$("$TOP/scripts/kernel-src.sh" -o "$build")
}

@test "kabi kernel: every struct and union size agrees with pahole, gcc build" {
	need_tool pahole
	run -0 "$TOP/tests/pahole-sizes.sh" "$KABI" "$GCC_VM"
	assert_output "compared 1926"
}

@test "kabi kernel: every struct and union size agrees with pahole, clang build" {
	need_tool pahole
	run -0 "$TOP/tests/pahole-sizes.sh" "$KABI" "$CLANG_VM"
	assert_output "compared 1889"
}

@test "kabi kernel: gcc against clang completes with the known report" {
	run -4 "$KABI" diff --root "$KSRC_DIR" "$GCC_VM" "$CLANG_VM"
	expect_file "$BATS_TEST_DIRNAME/fixtures/kabi-kernel/x86_64-gcc-clang.expected"
}

@test "kabi kernel: gcc against clang, shared types only and layout only, exits 0" {
	run -0 "$KABI" diff --only-common --only-layout --root "$KSRC_DIR" "$GCC_VM" "$CLANG_VM"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3478 unchanged, 0 suppressed, 159 on one side left out"
}

# btf_of VMLINUX OUT: the BTF pahole makes of VMLINUX's DWARF, with the
# flags Linux 6.1's build gives pahole 1.24 (scripts/pahole-flags.sh):
# what CONFIG_DEBUG_INFO_BTF would embed, without building the kernel
# again (pahole's complaints about Clang's DW_TAG_label go to a file)
btf_of() {
	pahole -J --btf_gen_floats -j --lang_exclude=rust --btf_encode_detached="$2" "$1" \
		2>"$BATS_TEST_TMPDIR/pahole.err"
}

@test "kabi kernel: the gcc cell's DWARF and its BTF diff to nothing" {
	need_tool pahole
	btf_of "$GCC_VM" "$BATS_TEST_TMPDIR/gcc.btf"
	run -0 "$KABI" diff "$GCC_VM" "$BATS_TEST_TMPDIR/gcc.btf"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3643 unchanged, 0 suppressed"
}

@test "kabi kernel: the clang cell's DWARF and its BTF diff to nothing" {
	need_tool pahole
	btf_of "$CLANG_VM" "$BATS_TEST_TMPDIR/clang.btf"
	run -0 "$KABI" diff "$CLANG_VM" "$BATS_TEST_TMPDIR/clang.btf"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3484 unchanged, 0 suppressed"
}

@test "kabi kernel: declarations are relative to the source tree" {
	run -0 "$KABI" dump --root "$KSRC_DIR" --type task_struct --kind struct "$GCC_VM"
	assert_line --index 0 "struct task_struct size=6208 align=64 decl=include/linux/sched.h:737"
}

@test "kabi kernel: dump is byte-identical between runs" {
	"$KABI" dump "$CLANG_VM" >"$BATS_TEST_TMPDIR/1"
	"$KABI" dump "$CLANG_VM" >"$BATS_TEST_TMPDIR/2"
	run -0 cmp "$BATS_TEST_TMPDIR/1" "$BATS_TEST_TMPDIR/2"
	assert_output ""
}

# pahole_names VMLINUX: every struct and union name pahole sees, sorted
pahole_names() {
	pahole --sizes "$1" 2>/dev/null | awk '{ print $1 }' | sort -u
}

@test "kabi kernel: types reported only in the gcc build are absent from clang's per pahole" {
	need_tool pahole
	"$KABI" diff --json --kind struct --kind union "$GCC_VM" "$CLANG_VM" >"$BATS_TEST_TMPDIR/d.json" || :
	jq -r '.types[] | select(.status == "only_old") | .name
		| select(test("^[A-Za-z_][A-Za-z0-9_]*$"))' "$BATS_TEST_TMPDIR/d.json" | sort -u >"$BATS_TEST_TMPDIR/only"
	pahole_names "$GCC_VM" >"$BATS_TEST_TMPDIR/gcc"
	pahole_names "$CLANG_VM" >"$BATS_TEST_TMPDIR/clang"
	run -0 wc -l <"$BATS_TEST_TMPDIR/only"
	assert_output "37"
	# all in gcc's, none in clang's
	run -0 comm -23 "$BATS_TEST_TMPDIR/only" "$BATS_TEST_TMPDIR/gcc"
	assert_output ""
	run -0 comm -12 "$BATS_TEST_TMPDIR/only" "$BATS_TEST_TMPDIR/clang"
	assert_output ""
}

@test "kabi kernel: output does not depend on the number of threads" {
	"$KABI" dump --threads 1 "$CLANG_VM" >"$BATS_TEST_TMPDIR/1"
	"$KABI" dump --threads 4 "$CLANG_VM" >"$BATS_TEST_TMPDIR/4"
	run -0 cmp "$BATS_TEST_TMPDIR/1" "$BATS_TEST_TMPDIR/4"
	assert_output ""
	"$KABI" diff --threads 1 --json "$GCC_VM" "$CLANG_VM" >"$BATS_TEST_TMPDIR/d1" || :
	"$KABI" diff --threads 3 --json "$GCC_VM" "$CLANG_VM" >"$BATS_TEST_TMPDIR/d3" || :
	run -0 cmp "$BATS_TEST_TMPDIR/d1" "$BATS_TEST_TMPDIR/d3"
	assert_output ""
}

@test "kabi kernel: check finds no type the units of a cell lay out differently" {
	run -0 "$KABI" check "$GCC_VM"
	assert_output "summary: 0 with different layouts (0 incompatible), 3637 alike, 725 units"
	run -0 "$KABI" check "$CLANG_VM"
	assert_output "summary: 0 with different layouts (0 incompatible), 3478 alike, 720 units"
}

@test "kabi kernel: check --by-name finds a name defined twice, whatever the threads" {
	run -12 "$KABI" check --by-name --root "$KSRC_DIR" --threads 1 "$GCC_VM"
	local one=$output
	assert_line --index 0 "struct irq_info"
	assert_line --index 1 "	layout 1 at drivers/tty/serial/8250/8250_core.c:83: size 32, 1 unit: drivers/tty/serial/8250/8250_core.c"
	assert_line --index 2 "	layout 2 at arch/x86/include/asm/pci_x86.h:74: size 16, 1 unit: arch/x86/pci/irq.c"
	# zstd's and lz4's U32 typedefs are laid out alike: no clash
	assert_line "summary: 1 with different layouts (1 incompatible), 3631 alike, 725 units"
	# 725 units on 4 threads: each thread's counts merged
	run -12 "$KABI" check --by-name --root "$KSRC_DIR" --threads 4 "$GCC_VM"
	assert_output "$one"
}
