#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The targets outside the default matrix (DEFAULT=n): riscv64-virt, i386,
# mips-malta and ppc64le-pseries, each built with gcc and clang, booted with its KUnit
# suites, its units' layouts checked and the two builds diffed. Six more
# tiny kernels cost about an hour cold on two cores, more than the default
# suite may take, so 'make check-full' runs this file and
# Documentation/parity.md keeps its figures. The kselftest disks are not
# judged on these targets (TESTS=kunit).
# The tests run in order, on one build directory (cached in
# $KPARITY_BUILD/kernel/ after the first run).

load ../common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
}

setup() {
	need_tool jq
	R=$BUILD/report/report.json
}

# cells: each cell's name, build and boot status, warnings, KUnit counts
# and kabi check summary, one JSON array a line
CELLS='.matrix[].cells[] | [.name, .build.status, .boot.status, .warnings.warnings,
	.tests.counts.pass, .tests.counts.fail, .tests.counts.skip, .check.summary]'

# stderr_has LINE: a line of the last run's stderr is LINE, its leading
# blanks aside (bats drops those of the first line)
stderr_has() {
	local l

	for l in "${stderr_lines[@]}"; do
		[ "${l#"${l%%[! ]*}"}" != "$1" ] || return 0
	done
	printf 'no line "%s" in:\n%s\n' "$1" "$stderr" >&2
	return 1
}

# run_target TARGET: make parity's run of TARGET alone, KUnit judged; it
# must pass
run_target() {
	run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t "$1" -k kunit
	assert_output "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
}

@test "parity targets: riscv64-virt builds and boots with gcc and clang, KUnit alike" {
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

@test "parity targets: a compiler Debian lacks for riscv64 is a SKIP line and a cell 'Not built'" {
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

@test "parity targets: i386 builds and boots with gcc and clang, KUnit alike, alignments apart" {
	run_target i386
	run -0 jq -c "$CELLS" "$R"
	assert_output "$(printf '%s\n' \
		'["i386/gcc","pass","pass",0,88,0,5,{"clashing":0,"incompatible":0,"alike":3561,"units":711}]' \
		'["i386/clang","pass","pass",0,88,0,5,{"clashing":0,"incompatible":0,"alike":3408,"units":704}]')"
	# GCC gives a struct that embeds an aligned member DW_AT_alignment,
	# Clang does not: nothing moves
	run -0 jq -c '.matrix[].kabi.summary, ([.matrix[].kabi.changed[] | [.findings[].what] | unique]
		| group_by(.) | map([.[0], length])), .matrix[].kabi.changed_more' "$R"
	assert_output "$(printf '%s\n' \
		'{"changed":35,"incompatible":0,"only_old":154,"only_new":1,"unchanged":3372,"suppressed":0}' \
		'[[["alignment"],19],[["typedef_only"],1]]' 15)"
}

@test "parity targets: mips-malta builds and boots with gcc and clang, KUnit alike" {
	run_target mips-malta
	run -0 jq -c "$CELLS" "$R"
	assert_output "$(printf '%s\n' \
		'["mips-malta/gcc","pass","pass",2,90,0,5,{"clashing":0,"incompatible":0,"alike":3171,"units":721}]' \
		'["mips-malta/clang","pass","pass",4,90,0,5,{"clashing":0,"incompatible":0,"alike":3049,"units":716}]')"
	# Clang's assembler on 6.1's asmmacro.h (ClangBuiltLinux #1415, fixed
	# by 275aca650e76 in 6.4); Kconfig's two in both cells are the
	# fragment's choices (board and CPU) overriding tinyconfig's
	run -0 jq -c '[.matrix[].cells[].warnings.by_tool | .compiler.warnings, .kconfig.warnings]' "$R"
	assert_output '[0,2,2,2]'
	run -0 jq -c '.matrix[].kabi.summary, [.matrix[].kabi.changed[].name]' "$R"
	assert_output "$(printf '%s\n' \
		'{"changed":3,"incompatible":0,"only_old":123,"only_new":1,"unchanged":3045,"suppressed":0}' \
		'["HUF_ReadDTableX2_Workspace.<anon>","vm_fault","va_list"]')"
}

@test "parity targets: ppc64le-pseries builds and boots with gcc and clang, KUnit alike" {
	run_target ppc64le-pseries
	run -0 jq -c "$CELLS" "$R"
	assert_output "$(printf '%s\n' \
		'["ppc64le-pseries/gcc","pass","pass",4,90,0,5,{"clashing":0,"incompatible":0,"alike":3546,"units":864}]' \
		'["ppc64le-pseries/clang","pass","pass",3,90,0,5,{"clashing":0,"incompatible":0,"alike":3413,"units":856}]')"
	run -0 jq -c '.matrix[].kabi.summary, [.matrix[].kabi.changed[].name], .matrix[].tests.differs' "$R"
	assert_output "$(printf '%s\n' \
		'{"changed":4,"incompatible":0,"only_old":134,"only_new":1,"unchanged":3408,"suppressed":0}' \
		'["HUF_ReadDTableX2_Workspace.<anon>","housekeeping","vm_fault","va_list"]' 0)"
}
