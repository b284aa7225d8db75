#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The whole default matrix, end to end: every target built with gcc and
# clang, x86_64 also with clang-22, booted with KUnit and the kselftest
# disk, diffed and reported. Six to seven tiny kernels cost about 70
# minutes cold on two cores, more than the default suite may take, so
# 'make check-full' runs this file and Documentation/parity.md keeps its
# figures; tests/parity.bats runs the same checks on x86_64 alone.
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

@test "parity matrix: x86_64 with clang-22, against gcc, the reference" {
	# the layouts are the point here: KUnit's tests only, no kselftest disk
	# (the default run below boots every cell with one)
	run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -c gcc,clang-22 -k kunit
	assert_output "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
	local q='[.reference, .findings, (.matrix[0].cells[] | [.name, .build.status, .boot.status, .warnings.warnings, .warnings.errors]),
		(.matrix[0].kabi_vs_ref[] | [.old, .new, .status, .summary.incompatible]), .matrix[0].kabi_versions]'
	run -0 jq -c "$q" "$R"
	assert_output '["gcc",[],["x86_64/gcc","pass","pass",0,0],["x86_64/clang-22","pass","pass",0,0],["gcc","clang-22","pass",0],[]]'
	run -0 grep -c '^| x86_64 | clang-22 | pass ' "$BUILD/report/report.md"
	assert_output "1"
}

@test "parity matrix: every target builds and boots with gcc and clang, layouts compatible" {
	run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD"
	assert_output "parity: PASS 3 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
	run -0 jq -c '[.version, .kernel, .verdict, .failures, .targets, .compilers]' "$R"
	assert_output '[1,"linux-6.1.192","pass",[],["arm-vexpress","arm64-virt","x86_64"],["gcc","clang"]]'
	local q4='.matrix[].cells[] | [.name, .build.status, .boot.status, .warnings.warnings, .warnings.errors] | @tsv'
	run -0 jq -r "$q4" "$R"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\n' \
		arm-vexpress/gcc pass pass 0 0 arm-vexpress/clang pass pass 0 0 \
		arm64-virt/gcc pass pass 0 0 arm64-virt/clang pass pass 0 0 \
		x86_64/gcc pass pass 0 0 x86_64/clang pass pass 0 0)"
}

@test "parity matrix: each boot ran the kernel of its own compiler" {
	# /proc/version names the compiler as Kconfig recorded it; only clang
	# builds say "clang version"
	local q='.matrix[].cells[] | . as $c
		| "\(.name) \(.boot.proc_version | contains($c.compiler_version)) \(.boot.proc_version | test("clang version"))"'
	run -0 jq -r "$q" "$R"
	assert_output "$(printf '%s\n' \
		"arm-vexpress/gcc true false" "arm-vexpress/clang true true" \
		"arm64-virt/gcc true false" "arm64-virt/clang true true" \
		"x86_64/gcc true false" "x86_64/clang true true")"
}

@test "parity matrix: the kabi summaries of the three targets" {
	local q5='.matrix[] | [.name, .kabi.status, .kabi.summary, (.kabi.incompatible | length)]'
	run -0 jq -c "$q5" "$R"
	assert_output "$(printf '%s\n' \
		'["arm-vexpress","pass",{"changed":3,"incompatible":0,"only_old":104,"only_new":2,"unchanged":2935,"suppressed":0},0]' \
		'["arm64-virt","pass",{"changed":5,"incompatible":0,"only_old":125,"only_new":2,"unchanged":3082,"suppressed":0},0]' \
		'["x86_64","pass",{"changed":2,"incompatible":0,"only_old":159,"only_new":0,"unchanged":3476,"suppressed":0},0]')"
	# every changed struct is drawn with the members of both sides
	run -0 jq -c '[.matrix[].kabi.changed[] | select(.kind == "struct")
		| (.gcc.members | length) > 0 and (.clang.members | length) > 0] | unique' "$R"
	assert_output '[true]'
}

@test "parity matrix: the warning difference between gcc and clang" {
	local q6='.matrix[] | [.name, .warnings_diff]'
	run -0 jq -c "$q6" "$R"
	assert_output "$(printf '%s\n' \
		'["arm-vexpress",{"only_gcc":{},"only_clang":{},"gcc":0,"clang":0}]' \
		'["arm64-virt",{"only_gcc":{},"only_clang":{},"gcc":0,"clang":0}]' \
		'["x86_64",{"only_gcc":{},"only_clang":{},"gcc":0,"clang":0}]')"
}

@test "parity matrix: every cell ran the seven KUnit suites, and no test differs between compilers" {
	# KUnit's 95 results come first: the kernel runs them before /init
	local q7='.matrix[].cells[] | [.name, ([.tests.results[:95][].name | split(".")[0]] | unique | join(" "))] | @tsv'
	run -0 jq -r "$q7" "$R"
	local s="bitfields bits-test fortify is_signed_type memcpy overflow stackinit"
	assert_output "$(printf '%s\t%s\n' arm-vexpress/gcc "$s" arm-vexpress/clang "$s" \
		arm64-virt/gcc "$s" arm64-virt/clang "$s" x86_64/gcc "$s" x86_64/clang "$s")"
	run -0 jq -r '.matrix[] | "\(.name) \(.tests.differs) \(.tests.rows | length)"' "$R"
	assert_output "$(printf '%s\n' "arm-vexpress 0 105" "arm64-virt 0 108" "x86_64 0 108")"
}

@test "parity matrix: every cell ran its kselftests from its disk, GCC's and Clang's alike" {
	local t c q='.matrix[].cells[] | select(.name == $n) | .tests.results[95:][] | "\(.name) \(.status)"'
	for t in arm-vexpress arm64-virt x86_64; do
		for c in gcc clang; do
			run -0 grep -c '^kparity-init: ok mount kselftest disk /dev/' "$BUILD/kernel/$t-$c/boot.log"
			assert_output 1
			run -0 jq -r --arg n "$t/$c" "$q" "$R"
			assert_output "$(cat "$TOP/tests/fixtures/kselftest/$t.expected")"
		done
	done
}

@test "parity matrix: the test counts of every cell, and the tests skipped on arm-vexpress" {
	local q8='.matrix[].cells[] | [.name, (.tests.counts | .pass, .fail, .skip, .timeout, ."not-run")] | @tsv'
	run -0 jq -r "$q8" "$R"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		arm-vexpress/gcc 100 0 5 0 0 arm-vexpress/clang 100 0 5 0 0 \
		arm64-virt/gcc 103 0 5 0 0 arm64-virt/clang 103 0 5 0 0 \
		x86_64/gcc 103 0 5 0 0 x86_64/clang 103 0 5 0 0)"
	run -0 sed -n '/^## arm-vexpress$/,/^## arm64-virt$/{/^| stackinit\.[a-z_0-9]* | skip | /p}' "$BUILD/report/report.md"
	assert_output "$(printf '| stackinit.%s | skip | skip |  |\n' \
		test_small_hole_assigned_copy test_big_hole_assigned_copy test_trailing_hole_assigned_copy \
		test_switch_1_none test_switch_2_none)"
}

@test "parity matrix: a second run with nothing changed rebuilds nothing" {
	# KUnit only: the kselftests' 20 s of waiting per boot would add two
	# minutes and nothing to what is checked here (kselftest.bats checks
	# that a second kselftest.sh rebuilds nothing)
	run -0 merged "$TOP/scripts/parity.sh" -o "$BUILD" -k kunit
	refute_line --partial "  CONFIG  "
	refute_line --partial "  INITRD  "
	refute_line --partial "  TOYBOX  "
	assert_line "  BUILD   x86_64/gcc  up to date"
	assert_line "  BUILD   arm-vexpress/clang  up to date"
	assert_line "  BUILD   arm64-virt/gcc  up to date"
	assert_line --index $((${#lines[@]} - 1)) "parity: PASS 3 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
}

@test "parity matrix: the report names every cell's reproducer" {
	run -0 grep -c '^- build .*: `scripts/kernel-build.sh -o ' "$BUILD/report/report.md"
	assert_output "6"
	run -0 grep -c '^- boot .*: `scripts/kernel-boot.sh -t ' "$BUILD/report/report.md"
	assert_output "6"
	run -0 grep -c '^- kabi: `' "$BUILD/report/report.md"
	assert_output "3"
}
