#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# One target outside the default matrix in the default suite: riscv64-virt
# (DEFAULT=n), built with gcc and clang, booted with its KUnit suites, its
# units' layouts checked and the two builds diffed, and a compiler Debian
# lacks for it skipped with the reason. The other such targets are
# tests/full/parity-targets.bats's. Two more tiny kernels and their
# toyboxes, cold: about ten minutes on two cores.
# The tests run in order, on one build directory (cached in
# $KPARITY_BUILD/kernel/ after the first run); tests/parity.bats runs
# after this file, so the report left behind is x86_64's.

load common
load parity

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
}

setup() {
	need_tool jq
	R=$BUILD/report/report.json
}

@test "parity riscv64: riscv64-virt builds and boots with gcc and clang, KUnit alike" {
	run_target riscv64-virt
	run -0 jq -c "$CELLS" "$R"
	assert_output "$(printf '%s\n' \
		'["riscv64-virt/gcc","pass","pass",0,90,0,5,{"clashing":0,"incompatible":0,"alike":3140,"units":639}]' \
		'["riscv64-virt/clang","pass","pass",0,90,0,5,{"clashing":0,"incompatible":0,"alike":3022,"units":631}]')"
	run -0 jq -c '.matrix[].kabi.summary, [.matrix[].kabi.changed[].name], .matrix[].tests.differs' "$R"
	assert_output "$(printf '%s\n' \
		'{"changed":5,"incompatible":0,"only_old":119,"only_new":1,"unchanged":3016,"suppressed":0}' \
		'["HUF_ReadDTableX2_Workspace.<anon>","gnet_stats_basic_sync","pcpu_lstats","vm_fault","va_list"]' 0)"
}

@test "parity riscv64: a compiler Debian lacks for riscv64 is a SKIP line and a cell 'Not built'" {
	run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t riscv64-virt -c gcc,gcc-11,clang -k kunit
	assert_output "parity: PASS 1 targets x 3 compilers built and booted (1 not built, Debian has no compiler for them), no incompatible layout difference; report in $BUILD/report/report.html"
	stderr_has "SKIP    riscv64-virt/gcc-11  Debian has no gcc-11 for riscv (NO_COMPILERS in riscv64-virt.target)"
	run -0 jq -c '.skipped, [.matrix[].cells[].name]' "$R"
	assert_output "$(printf '%s\n' \
		'[{"target":"riscv64-virt","compiler":"gcc-11","reason":"Debian has no gcc-11 for riscv (NO_COMPILERS in riscv64-virt.target)"}]' \
		'["riscv64-virt/gcc","riscv64-virt/clang"]')"
	run -0 grep -A2 '^## Not built' "$BUILD/report/report.md"
	assert_output "$(printf '%s\n' '## Not built' '' '- riscv64-virt/gcc-11: Debian has no gcc-11 for riscv (NO_COMPILERS in riscv64-virt.target)')"
}
