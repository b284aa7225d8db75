#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/compiler-bugs.sh: the known-compiler-bug cases with this machine's
# compilers, and the runner on crafted cases in tests/fixtures/compiler-bugs/.

load common

FIX=tests/fixtures/compiler-bugs

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$TOP"
	[ "$(uname -m)" = x86_64 ] || skip "the expected output is that of an x86_64 host"
	need_tool gcc
	need_tool jq
	GCC=gcc-$(gcc -dumpversion | cut -d . -f 1)
}

# fixture DIR [ARG...]: the runner on tests/fixtures/compiler-bugs/DIR with the
# native gcc only, on one job so that stderr comes in a fixed order
fixture() {
	local dir=$1
	shift
	KABI=$KABI scripts/compiler-bugs.sh -o "$T" -d "$FIX/$dir" -c "$GCC" -T x86_64 -j 1 "$@"
}

@test "compiler-bugs: every recorded result holds with gcc 12, clang 14 and clang 19 on x86_64, arm and aarch64" {
	local tool f targets ncases=0 nresults=0

	for tool in gcc-12 clang-14 clang-19 arm-linux-gnueabi-gcc-12 aarch64-linux-gnu-gcc-12 \
		qemu-arm qemu-aarch64; do
		need_tool "$tool"
	done
	[ -x "$KABI" ] || fail "no '$KABI' for the layout cases: run 'make'"
	for f in tests/compiler-bugs/*.c tests/compiler-bugs/*.S; do
		targets=$(sed -n 's/^ \* check-targets: //p' "$f")
		set -- ${targets:-x86_64 arm aarch64}
		ncases=$((ncases + 1))
		nresults=$((nresults + 3 * $#))
	done

	KABI=$KABI run -0 --separate-stderr scripts/compiler-bugs.sh -o "$T" -c gcc-12 -c clang-14 -c clang-19
	assert_line "compiler-bugs: $nresults results from $ncases cases and 9 compilers: $nresults expected, 0 CHANGED, 0 malformed"
	expect_file "$BATS_TEST_DIRNAME/fixtures/compiler-bugs/matrix.expected"
	assert_equal "$(cat "$T/compiler-bugs/matrix.txt"
		printf '\nhistory: the first version measured with each outcome\n'
		cat "$T/compiler-bugs/history.txt")" "$output"

	local q='.compilers[] | "\(.target) \(.name) \(.command)"'
	run -0 jq -r "$q" "$T/compiler-bugs/matrix.json"
	assert_output - <<'OUT'
x86_64 gcc-12 gcc-12
x86_64 clang-14 clang-14
x86_64 clang-19 clang-19
arm gcc-12 arm-linux-gnueabi-gcc-12
arm clang-14 clang-14 --target=arm-linux-gnueabi
arm clang-19 clang-19 --target=arm-linux-gnueabi
aarch64 gcc-12 aarch64-linux-gnu-gcc-12
aarch64 clang-14 clang-14 --target=aarch64-linux-gnu
aarch64 clang-19 clang-19 --target=aarch64-linux-gnu
OUT
	# every case ran with all three compilers on each of its targets
	local q='[.results | group_by(.case, .target)[] | length] | unique'
	run -0 jq -c "$q" "$T/compiler-bugs/matrix.json"
	assert_output "[3]"
	run -0 jq -c '.summary' "$T/compiler-bugs/matrix.json"
	assert_output "{\"cases\":$ncases,\"compilers\":9,\"results\":$nresults,\"expected\":$nresults,\"changed\":0,\"malformed\":0}"
}

@test "compiler-bugs: every installed compiler gives the recorded result, and the history says when each changed" {
	[ -x "$KABI" ] || fail "no '$KABI' for the layout cases: run 'make'"
	KABI=$KABI run -0 --separate-stderr scripts/compiler-bugs.sh -o "$T"
	assert_line --regexp '^compiler-bugs: [0-9]+ results from [0-9]+ cases and [0-9]+ compilers: [0-9]+ expected, 0 CHANGED, 0 malformed$'
	# each history line: case, family, targets, then VERSION OUTCOME -> ...
	local bad='NF < 4 || $2 !~ /^(gcc|clang)$/ || $4 !~ /^[0-9][0-9.]* / { print "bad: " $0 }'
	run -0 awk -F '  +' "$bad" "$T/compiler-bugs/history.txt"
	assert_output ""
}

@test "compiler-bugs: every kind of outcome, as recorded" {
	run -0 --separate-stderr fixture outcomes
	assert_output - <<OUT
case            target  $GCC
accept          x86_64  accept
continued       x86_64  accept
crash           x86_64  crash 11
layout          x86_64  layout 16
layout-missing  x86_64  layout missing
ranges          x86_64  accept
reject          x86_64  reject
warn            x86_64  warn
wrong-code      x86_64  wrong-code 3
compiler-bugs: 9 results from 9 cases and 1 compiler: 9 expected, 0 CHANGED, 0 malformed
OUT
	# (bats reads stderr with read -d '', which drops the first line's indent)
	assert_equal "${stderr_lines[0]}" "CASES   x86_64 $GCC"
	assert_equal "${stderr_lines[1]}" "  MATRIX  $T/compiler-bugs/matrix.txt"
	assert_equal "${stderr_lines[2]}" "  HISTORY $T/compiler-bugs/history.txt"
	assert_equal "${#stderr_lines[@]}" 3
}

@test "compiler-bugs: --json prints matrix.json, one object per result" {
	run -0 --separate-stderr fixture outcomes --json
	assert_equal "$output" "$(cat "$T/compiler-bugs/matrix.json")"
	local q='.results[] | "\(.case) \(.outcome) \(.mark) \(.recorded) \(.recorded_at)"'
	run -0 jq -r "$q" "$T/compiler-bugs/matrix.json"
	assert_output - <<OUT
accept accept expected accept $FIX/outcomes/accept.c:8
continued accept expected accept $FIX/outcomes/continued.c:11
crash crash 11 expected crash 11 $FIX/outcomes/crash.c:9
layout layout 16 expected layout 16 $FIX/outcomes/layout.c:9
layout-missing layout missing expected layout missing $FIX/outcomes/layout-missing.c:9
ranges accept expected accept $FIX/outcomes/ranges.c:13
reject reject expected reject /fixture error/ $FIX/outcomes/reject.c:8
warn warn expected warn /fixture warning/ $FIX/outcomes/warn.c:8
wrong-code wrong-code 3 expected wrong-code 3 $FIX/outcomes/wrong-code.c:9
OUT
	local q='.results[] | select(.case == "reject") | .diagnostic'
	run -0 jq -r "$q" "$T/compiler-bugs/matrix.json"
	assert_output 'reject.c:11:2: error: #error "fixture error"'
}

@test "compiler-bugs: a result unlike the record is CHANGED, with what was recorded, and exits 1" {
	run -1 --separate-stderr fixture changed
	assert_output - <<OUT
case               target  $GCC
as-recorded        x86_64  accept
other-diagnostic   x86_64  reject CHANGED
unrecorded         x86_64  accept CHANGED
wrong-expectation  x86_64  accept CHANGED
CHANGED other-diagnostic x86_64 $GCC: reject, recorded reject /fixture error one/ ($FIX/changed/other-diagnostic.c:8)
	other-diagnostic.c:11:2: error: #error "fixture error two"
CHANGED unrecorded x86_64 $GCC: accept, nothing recorded for $GCC ($(gcc -dumpfullversion), $FIX/changed/unrecorded.c)
CHANGED wrong-expectation x86_64 $GCC: accept, recorded reject /this compiler refuses the case/ ($FIX/changed/wrong-expectation.c:8)
compiler-bugs: 4 results from 4 cases and 1 compiler: 1 expected, 3 CHANGED, 0 malformed
OUT
	run -0 jq -c '.summary' "$T/compiler-bugs/matrix.json"
	assert_output '{"cases":4,"compilers":1,"results":4,"expected":1,"changed":3,"malformed":0}'
}

@test "compiler-bugs: a compile that hangs is reported as a timeout, not waited for" {
	local start=$SECONDS

	run -1 --separate-stderr fixture timeout -t 1
	assert_output - <<OUT
case    target  $GCC
sleeps  x86_64  timeout CHANGED
CHANGED sleeps x86_64 $GCC: timeout, recorded accept ($FIX/timeout/sleeps.c:9)
compiler-bugs: 1 result from 1 case and 1 compiler: 0 expected, 1 CHANGED, 0 malformed
OUT
	# the command sleeps for 300 s
	[ $((SECONDS - start)) -lt 60 ]
}

@test "compiler-bugs: malformed case files are named with file and line, skipped, and fail the run" {
	local m=$FIX/malformed

	run -1 --separate-stderr fixture malformed
	assert_output - <<OUT
case  target  $GCC
good  x86_64  accept
malformed $m/bad-family.c:8: a selector starts with a compiler family (gcc, clang or *), not 'icc'
malformed $m/bad-outcome.c:8: unknown outcome 'acept' (known: accept warn reject wrong-code crash layout timeout)
malformed $m/bad-regex.c:8: grep -E cannot compile the pattern /error: [unclosed/
malformed $m/bad-selector.c:8: '14' in a selector is neither a version range (<17, >=14.0.6) nor a target (x86_64 arm aarch64)
malformed $m/bad-target.c:8: unknown target 'riscv64' (known: x86_64 arm aarch64)
malformed $m/dangling-continuation.c:8: 'check-command' continues past the end of the header
malformed $m/duplicate-tag.c:8: second 'check-command' (first at line 7)
malformed $m/measure-mismatch.c:8: outcome 'wrong-code' cannot come from 'check-measure: diagnostics' (it gives accept warn reject timeout)
malformed $m/no-colon.c:5: expected 'check-KEY: VALUE'
malformed $m/no-command.c:2: no 'check-command' tag
malformed $m/no-header.c:1: no header: a /* ... */ comment with check- tags
malformed $m/no-source.c:2: no 'check-source' tag: say where the knowledge comes from
malformed $m/tag-after-header.c:11: tag after the header comment
malformed $m/unknown-tag.c:2: no 'check-name' tag
malformed $m/unknown-tag.c:5: unknown tag 'check-nmae' (known: name source command targets measure expect)
malformed $m/unterminated-pattern.c:8: a pattern is written /ERE/, not '/no closing slash'
compiler-bugs: 1 result from 1 case and 1 compiler: 1 expected, 0 CHANGED, 15 malformed
OUT
	assert_equal "${stderr_lines[0]}" "compiler-bugs.sh: $m/bad-family.c:8: a selector starts with a compiler family (gcc, clang or *), not 'icc'"
	assert_equal "${stderr_lines[15]}" "compiler-bugs.sh: $m/unterminated-pattern.c:8: a pattern is written /ERE/, not '/no closing slash'"
	assert_equal "${stderr_lines[16]}" "  CASES   x86_64 $GCC"
	assert_equal "${#stderr_lines[@]}" 19
	local q='.malformed[] | select(.file | endswith("/duplicate-tag.c"))'
	run -0 jq -c "$q" "$T/compiler-bugs/matrix.json"
	assert_output "{\"file\":\"$m/duplicate-tag.c\",\"line\":8,\"message\":\"second 'check-command' (first at line 7)\"}"
}

@test "compiler-bugs: V=1 shows each command so that it can be run again by hand" {
	V=1 run -0 --separate-stderr fixture outcomes accept
	assert_equal "${stderr_lines[1]}" "  (cd '$TOP/$FIX/outcomes' && CC='$GCC' CFLAGS='-O2 -ffreestanding -fno-pie -fno-stack-protector' LDFLAGS='-static -nostdlib' SRC='accept.c' OUT='$T/compiler-bugs/work/x86_64-$GCC/accept' START='$T/compiler-bugs/work/x86_64-$GCC/start.o' TARGET=x86_64 sh -c '\$CC \$CFLAGS -c \"\$SRC\" -o \"\$OUT.o\"')"
}

@test "compiler-bugs: bad options, unknown names and no compiler are trouble (exit 2)" {
	run -2 --separate-stderr scripts/compiler-bugs.sh -x
	assert_equal "${stderr_lines[0]}" "usage: compiler-bugs.sh [-o BUILDDIR] [-d DIR] [-t SECONDS] [-j N] [-c COMPILER]..."
	run -2 --separate-stderr scripts/compiler-bugs.sh -o "$T" -T riscv64
	assert_equal "$stderr" "compiler-bugs.sh: unknown target 'riscv64' (known: x86_64 arm aarch64)"
	run -2 --separate-stderr scripts/compiler-bugs.sh -o "$T" -t 0
	assert_equal "$stderr" "compiler-bugs.sh: the time limit must be a positive number of seconds, not '0'"
	run -2 --separate-stderr scripts/compiler-bugs.sh -o "$T" -d "$T/none"
	assert_equal "$stderr" "compiler-bugs.sh: no case directory '$T/none'"
	run -2 --separate-stderr fixture outcomes no-such-case
	assert_equal "$stderr" "compiler-bugs.sh: no case 'no-such-case' in '$FIX/outcomes'"
	run -2 --separate-stderr scripts/compiler-bugs.sh -o "$T" -d "$FIX/changed" -c no-such-cc
	assert_equal "$stderr" "compiler-bugs.sh: no working compiler found among: no-such-cc"
}

@test "make: help lists the compiler-bugs target" {
	run -0 make -C "$TOP" --no-print-directory help
	assert_line "  compiler-bugs     run the compiler-bug cases with every installed compiler"
	assert_line "                    and target"
}
