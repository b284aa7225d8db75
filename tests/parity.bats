#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The parity run end to end on x86_64: built with gcc and clang (cached in
# $KPARITY_BUILD/kernel/ after the first run), booted with its KUnit suites
# and its kselftest disk (the default, TESTS=all), diffed, reported. The
# same checks on every target are tests/full/parity-matrix.bats.
# The tests run in order; the full run comes after the failing ones so
# that its report is the one left behind.

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
}

setup() {
	need_tool jq
	R=$BUILD/report/report.json
}

@test "parity: an unknown target lists the known ones" {
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64,sparc
	assert_output ""
	assert_equal "$stderr" "parity.sh: unknown target 'sparc' (known: arm-vexpress arm64-virt i386 mips-malta ppc64le-pseries riscv64-virt x86_64)"
}

@test "parity: a target none of the run's compilers can build is refused before a build" {
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64,riscv64-virt -c gcc-11
	assert_output ""
	assert_equal "$stderr" "parity.sh: no compiler of the run can build riscv64-virt: Debian has no gcc-11 for riscv (NO_COMPILERS in riscv64-virt.target)"
}

@test "parity: an unknown compiler lists the known ones" {
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -c gcc,icc
	assert_equal "$stderr" "parity.sh: unknown compiler 'icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas all)"
}

@test "parity: a name for a compiler already in the run is built once, as the versioned name" {
	need_tool gcc-12
	need_tool clang-14
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$BATS_TEST_TMPDIR" -t x86_64,arm-vexpress \
		-c gcc,gcc-12,clang-14,clang,clang-gas
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 3
	# bats drops the blanks that begin the first line
	assert_equal "${stderr_lines[0]}" "ALIAS   gcc = gcc-12 (the same compiler and linker): built once, as gcc-12"
	assert_equal "${stderr_lines[1]}" "  ALIAS   clang = clang-14 (the same compiler and linker): built once, as clang-14"
	assert_equal "${stderr_lines[2]}" "parity.sh: no '$BATS_TEST_TMPDIR/kabi': run 'make' first"
}

@test "parity: DIST must name an engine, before anything is built" {
	run -2 --separate-stderr env DIST=sccache "$TOP/scripts/parity.sh" -o "$BATS_TEST_TMPDIR" -t x86_64 -c gcc
	assert_output ""
	assert_equal "$stderr" "parity.sh: DIST='sccache' is none of distcc, icecc"
}

@test "parity: an unknown option is a usage error" {
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -x
	assert_equal "${stderr_lines[1]}" "usage: parity.sh [-o BUILDDIR] [-t TARGETS] [-c COMPILERS] [-T SECONDS] [-k TESTS] [-j JOBS]"
}

@test "parity: -j takes a positive number of make jobs, before anything is built" {
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$BATS_TEST_TMPDIR" -t x86_64 -c gcc -j x
	assert_output ""
	assert_equal "$stderr" "parity.sh: -j needs a positive number, not 'x'"
}

@test "parity: make parity passes TARGETS, COMPILERS and TESTS through" {
	run -0 make -C "$TOP" --no-print-directory O="$BUILD" parity TARGETS=x86_64 COMPILERS=gcc TESTS=none
	assert_line --index $((${#lines[@]} - 1)) "parity: PASS 1 targets x 1 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
	local q1='[.targets, .compilers, .verdict, (.matrix[0].cells | map(.name)), .matrix[0].kabi, .matrix[0].cells[0].tests, .matrix[0].tests, .tests, .test_kinds]'
	run -0 jq -c "$q1" "$R"
	assert_output '[["x86_64"],["gcc"],"pass",["x86_64/gcc"],null,null,null,"none",[]]'
}

@test "parity: a boot that does not finish in time fails the run, which goes on" {
	run -1 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -T 1
	assert_output "parity: FAIL x86_64/gcc boot: hang: no verdict from the guest before the time limit (and 1 more); report in $BUILD/report/report.html"
	run -0 jq -r '.failures[]' "$R"
	assert_output "$(printf '%s\n' \
		"x86_64/gcc boot: hang: no verdict from the guest before the time limit" \
		"x86_64/clang boot: hang: no verdict from the guest before the time limit")"
	local q2='[.verdict, (.matrix[0].cells[] | [.build.status, .boot.status, .boot.reason]), .matrix[0].kabi.status]'
	run -0 jq -c "$q2" "$R"
	assert_output '["fail",["pass","fail","hang: no verdict from the guest before the time limit"],["pass","fail","hang: no verdict from the guest before the time limit"],"pass"]'
	run -0 grep -c '^Boot x86_64/.* failed: hang' "$BUILD/report/report.md"
	assert_output "2"
	# where each hung guest stopped in its tests is not judged
	run -0 jq -c '.matrix[0].tests.differs' "$R"
	assert_output "0"
}

@test "parity: a build that cannot start fails its cell, the others go on" {
	# KUnit only: the other cell's boot need not wait for the kselftests
	run -1 --separate-stderr env LLVM=-99 "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k kunit
	assert_output "parity: FAIL x86_64/clang-99 build: kernel-build.sh: cannot find 'clang-99' (Debian package: clang-99); report in $BUILD/report/report.html"
	local q3='.matrix[0] | [(.cells[] | [.name, .build.status, .boot.status]), .kabi.status, .kabi.reason]'
	run -0 jq -c "$q3" "$R"
	assert_output '[["x86_64/gcc","pass","pass"],["x86_64/clang-99","fail","skipped"],"skipped","a build failed"]'
	# the kinds of tests judged, for the history: a failed cell has no results that say
	run -0 jq -c '[.tests, .test_kinds]' "$R"
	assert_output '["kunit",["kunit"]]'
}

@test "parity: x86_64 builds and boots with gcc and clang, layouts compatible" {
	run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64
	assert_output "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
	run -0 jq -c '[.version, .kernel, .verdict, .failures, .targets, .compilers, .tests, .test_kinds]' "$R"
	assert_output '[1,"linux-6.1.192","pass",[],["x86_64"],["gcc","clang"],"all",["kunit","kselftest"]]'
	local q4='.matrix[].cells[] | [.name, .build.status, .boot.status, .warnings.warnings, .warnings.errors] | @tsv'
	run -0 jq -r "$q4" "$R"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\n' x86_64/gcc pass pass 0 0 x86_64/clang pass pass 0 0)"
}

@test "parity: each boot ran the kernel of its own compiler" {
	# /proc/version names the compiler as Kconfig recorded it; only clang
	# builds say "clang version"
	local q='.matrix[].cells[] | . as $c
		| "\(.name) \(.boot.proc_version | contains($c.compiler_version)) \(.boot.proc_version | test("clang version"))"'
	run -0 jq -r "$q" "$R"
	assert_output "$(printf '%s\n' "x86_64/gcc true false" "x86_64/clang true true")"
	# the version string is the tree's, not the clock's (reproduce.sh)
	local when
	when=$(LC_ALL=C date -u -d "@$(stat -c %Y "$BUILD/src/linux-source-6.1/Makefile")")
	q='.matrix[].cells[].boot.proc_version
		| startswith("Linux version 6.1.192 (kparity@kparity) ") and endswith(" #1 " + $when)'
	run -0 jq -r --arg when "$when" "$q" "$R"
	assert_output "$(printf 'true\ntrue')"
}

@test "parity: the kabi summary, every changed struct drawn with both sides" {
	local q5='.matrix[] | [.name, .kabi.status, .kabi.summary, (.kabi.incompatible | length)]'
	run -0 jq -c "$q5" "$R"
	assert_output '["x86_64","pass",{"changed":2,"incompatible":0,"only_old":159,"only_new":0,"unchanged":3476,"suppressed":0},0]'
	run -0 jq -c '[.matrix[].kabi.changed[] | select(.kind == "struct")
		| (.gcc.members | length) > 0 and (.clang.members | length) > 0] | unique' "$R"
	assert_output '[true]'
}

@test "parity: each cell's kabi check, its units' layouts of every type alike" {
	run -0 jq -c '.matrix[].cells[] | [.name, .check.status, .check.summary, .check.clashes]' "$R"
	assert_output "$(printf '%s\n' \
		'["x86_64/gcc","pass",{"clashing":0,"incompatible":0,"alike":3637,"units":725},[]]' \
		'["x86_64/clang","pass",{"clashing":0,"incompatible":0,"alike":3478,"units":720},[]]')"
	run -0 grep '^- kabi check ' "$BUILD/report/report.md"
	assert_output "$(printf '%s\n' \
		'- kabi check x86_64/gcc: 0 types with several layouts (0 incompatible), 3637 alike in 725 units' \
		'- kabi check x86_64/clang: 0 types with several layouts (0 incompatible), 3478 alike in 720 units' \
		"- kabi check x86_64/gcc: \`$BUILD/kabi check --root $BUILD/src/linux-source-6.1 kernel/x86_64-gcc/vmlinux\`" \
		"- kabi check x86_64/clang: \`$BUILD/kabi check --root $BUILD/src/linux-source-6.1 kernel/x86_64-clang/vmlinux\`")"
}

@test "parity: the warning difference between gcc and clang" {
	run -0 jq -c '.matrix[] | [.name, .warnings_diff]' "$R"
	assert_output '["x86_64",{"only_gcc":{},"only_clang":{},"gcc":0,"clang":0}]'
}

@test "parity: both cells ran the seven KUnit suites, and no test differs between compilers" {
	# KUnit's 95 results come first: the kernel runs them before /init
	local q7='.matrix[].cells[] | [.name, ([.tests.results[:95][].name | split(".")[0]] | unique | join(" "))] | @tsv'
	run -0 jq -r "$q7" "$R"
	local s="bitfields bits-test fortify is_signed_type memcpy overflow stackinit"
	assert_output "$(printf '%s\t%s\n' x86_64/gcc "$s" x86_64/clang "$s")"
	run -0 jq -r '.matrix[] | "\(.name) \(.tests.differs) \(.tests.rows | length)"' "$R"
	assert_output "x86_64 0 108"
}

@test "parity: both cells ran their kselftests from their disks, GCC's and Clang's alike" {
	local c q='.matrix[].cells[] | select(.name == $n) | .tests.results[95:][] | select(.test == null) | "\(.name) \(.status)"'
	for c in gcc clang; do
		run -0 grep -c '^kparity-init: ok mount kselftest disk /dev/' "$BUILD/kernel/x86_64-$c/boot.log"
		assert_output 1
		run -0 jq -r --arg n "x86_64/$c" "$q" "$R"
		assert_output "$(cat "$TOP/tests/fixtures/kselftest/x86_64.expected")"
	done
}

@test "parity: the test counts of both cells" {
	local q8='.matrix[].cells[] | [.name, (.tests.counts | .pass, .fail, .skip, .timeout, ."not-run")] | @tsv'
	run -0 jq -r "$q8" "$R"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' x86_64/gcc 102 1 5 0 0 x86_64/clang 102 1 5 0 0)"
}

@test "parity: breakpoint_test is the known difference, and its 2x2 puts it on the Clang-built program" {
	run -0 jq -c '.matrix[].tests.rows[0] | [.test, .parity, .status, .runner, .subtests.differ, .subtests.count]' "$R"
	assert_output '["breakpoints.breakpoint_test","known",{"gcc":"fail","clang":"fail"},{"gcc":"pass","clang":"pass"},106,110]'
	# each kernel booted with the other cell's disk, and both ran it
	local q='.matrix[] | [.swap.status, (.swap.pairs[] | .reference, .other, (.boots[] | [.kernel, .tests, .verdict, .console]),
		(.tests | keys), (.tests[] | .carrier, .counts))]'
	run -0 jq -c "$q" "$R"
	assert_output '["pass","gcc","clang",["gcc","clang","pass","swap/x86_64-gcc/clang-tests/boot.log"],["clang","gcc","pass","swap/x86_64-clang/gcc-tests/boot.log"],["breakpoints.breakpoint_test"],"tests",{"tests":106}]'
	run -0 grep -c '^breakpoints.breakpoint_test, kernel by test program: differs with the clang-built test program on either kernel: user-space code generation$' "$BUILD/report/report.md"
	assert_output 1
}

@test "parity: a second run with nothing changed rebuilds nothing" {
	# KUnit only: the kselftests' waiting adds nothing to what is checked
	# here (kselftest.bats checks that a second kselftest.sh rebuilds nothing)
	run -0 merged "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k kunit
	refute_line --partial "  CONFIG  "
	refute_line --partial "  INITRD  "
	refute_line --partial "  TOYBOX  "
	assert_line "  BUILD   x86_64/gcc  up to date"
	assert_line "  BUILD   x86_64/clang  up to date"
	assert_line --index $((${#lines[@]} - 1)) "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
	# the same series as the last run's: no patch is new, none walked
	refute_line --partial "  SERIES  "
	run -0 jq -c '[.series_new, ([.matrix[].name] | length)]' "$R"
	assert_output '[null,1]'
	run -0 wc -l <"$BUILD/report/series.list"
	assert_output "$(grep -c '^0' "$TOP/patches/6.1/series")"
}

@test "parity: parity-target.sh alone writes the run's row of x86_64 again, byte for byte" {
	local cells=$BUILD/report/cells
	cp "$cells/x86_64.target.json" "$BATS_TEST_TMPDIR/row.json"
	rm "$cells/x86_64.target.json"
	run -0 --separate-stderr "$TOP/scripts/parity-target.sh" -o "$BUILD" -t x86_64 -c "gcc clang" \
		-k kunit -s "$BUILD/src/linux-source-6.1" "$cells"
	assert_output ""
	run -0 cmp "$BATS_TEST_TMPDIR/row.json" "$cells/x86_64.target.json"
}

@test "parity: parity-cell.sh alone builds nothing again and writes the cell as the run did" {
	local cells=$BUILD/report/cells prog='[.name, .build.status, .build.make_seconds, .boot.status,
		.tests.counts, .check.summary, .warnings.warnings, .proof]'
	run -0 jq -c "$prog" "$cells/x86_64-clang.json"
	local before=$output
	rm "$cells/x86_64-clang.json"
	run -0 --separate-stderr "$TOP/scripts/parity-cell.sh" -o "$BUILD" -t x86_64 -c clang \
		-k kunit -s "$BUILD/src/linux-source-6.1" "$cells"
	assert_output ""
	run -0 jq -c "$prog" "$cells/x86_64-clang.json"
	assert_output "$before"
}

@test "parity: the report names every cell's reproducer" {
	run -0 grep -c '^- build .*: `scripts/kernel-build.sh -o ' "$BUILD/report/report.md"
	assert_output "2"
	run -0 grep -c '^- boot .*: `scripts/kernel-boot.sh -t ' "$BUILD/report/report.md"
	assert_output "2"
	run -0 grep -c '^- kabi: `' "$BUILD/report/report.md"
	assert_output "1"
}
# blocked_run FIFO ARGS...: start parity.sh ARGS... in the background, in a
# process group of its own (as a terminal runs a command) whose id is left
# in $run_pid, with a 'timeout' on PATH that says "ready" on FIFO and then
# blocks: the run stops at its first boot, after the build. When parity.sh
# ends, "ended STATUS" follows on FIFO.
blocked_run() {
	local fifo="$1" bin="$BATS_TEST_TMPDIR/bin"

	shift
	mkdir -p "$bin"
	mkfifo "$BATS_TEST_TMPDIR/never"
	cat >"$bin/timeout" <<'FAKE'
#!/bin/sh
echo ready >"$KP_TEST_FIFO"
# nobody writes here: blocks until a signal ends it
read -r _ <"$KP_TEST_NEVER"
FAKE
	chmod +x "$bin/timeout"
	set -m
	{
		rc=0
		PATH="$bin:$PATH" KP_TEST_FIFO="$fifo" KP_TEST_NEVER="$BATS_TEST_TMPDIR/never" \
			"$TOP/scripts/parity.sh" "$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
		echo "ended $rc" >"$fifo"
	} &
	run_pid=$!
	set +m
}

# report_sums: the checksums of the report's files
report_sums() {
	cksum "$BUILD/report/report.json" "$BUILD/report/report.md" "$BUILD/report/report.html"
}

@test "parity: Ctrl-C says interrupted, exits 130 and keeps the last report" {
	local fifo="$BATS_TEST_TMPDIR/fifo" line before
	before=$(report_sums)
	mkfifo "$fifo"
	# held open both ways, so neither side's open blocks
	exec 4<>"$fifo"
	blocked_run "$fifo" -o "$BUILD" -t x86_64 -c gcc
	read -r -t 300 line <&4 || line="nothing in 300 s"
	assert_equal "$line" ready
	kill -INT -- "-$run_pid"
	read -r -t 300 line <&4 || line="nothing in 300 s"
	wait "$run_pid"
	exec 4>&-
	assert_equal "$line" "ended 130"
	run -0 cat "$BATS_TEST_TMPDIR/out"
	assert_output "parity: interrupted; $BUILD/report/ holds the last complete run's report"
	run -0 report_sums
	assert_output "$before"
	assert [ ! -e "$BUILD/report/report.json.tmp" ]
}

@test "parity: a second run on the same build directory is refused in one line" {
	local fifo="$BATS_TEST_TMPDIR/fifo" line before
	before=$(report_sums)
	mkfifo "$fifo"
	exec 4<>"$fifo"
	blocked_run "$fifo" -o "$BUILD" -t x86_64 -c gcc
	read -r -t 300 line <&4 || line="nothing in 300 s"
	assert_equal "$line" ready
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -c gcc
	kill -INT -- "-$run_pid"
	read -r -t 300 line <&4 || line="nothing in 300 s"
	wait "$run_pid"
	exec 4>&-
	assert_equal "$stderr" "parity.sh: another parity run is using '$BUILD' (it holds '$BUILD/parity.lock'); wait for it to end"
	assert_output ""
	assert_equal "$line" "ended 130"
	run -0 report_sums
	assert_output "$before"
}
