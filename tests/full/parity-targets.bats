#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The targets outside the default matrix (DEFAULT=n) but riscv64-virt
# (tests/parity-riscv.bats, in the default suite): i386, mips-malta and
# ppc64le-pseries, each built with gcc and clang, booted with its KUnit
# suites, its units' layouts checked and the two builds diffed. Six more
# tiny kernels cost about an hour cold on two cores, more than the default
# suite may take, so 'make check-full' runs this file and
# Documentation/parity.md keeps its figures. The kselftest disks are not
# judged on these targets (TESTS=kunit).
# The tests run in order, on one build directory (cached in
# $KPARITY_BUILD/kernel/ after the first run).

load ../common
load ../parity

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
}

setup() {
	need_tool jq
	R=$BUILD/report/report.json
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
