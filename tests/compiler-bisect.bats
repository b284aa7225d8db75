#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# compiler-bisect.sh: the first installed compiler version that changes a
# result, with real compilers; each answer kept in the history database
# and not asked again.

load common

setup() {
	need_tool jq
	need_tool sqlite3
	T=$BATS_TEST_TMPDIR
	B=$TOP/scripts/compiler-bisect.sh
	export KPARITY_HISTORY_DB=$T/results.db
}

@test "compiler-bisect: clang 22 changes how arm64 refuses a global register variable" {
	need_tool clang-19
	need_tool clang-22
	run -0 --separate-stderr "$B" -o "$T/b" -c clang-19,clang-22 -t aarch64 probe:global-register-var
	assert_output "compiler-bisect: probe:global-register-var on aarch64 changes at clang-22 ($(clang-22 --version | head -n 1)): clang-19 'reject: fatal error: error in backend: Invalid register name \"x19\".' -> clang-22 'reject: error: register 'x19' unsuitable for global register variables on this target'"
	# the second time, both answers come from the database
	run -0 --separate-stderr "$B" -o "$T/b" -c clang-19,clang-22 -t aarch64 probe:global-register-var
	run -0 grep -c -e '\[run 1\]$' <<<"$stderr"
	assert_output 2
}

# a GCC cell of one unit: init/main.o's command, a .config, the tree
fake_cell() {
	mkdir -p "$T/tree/init" "$T/tree/scripts" "$T/cell/init"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION =\n' >"$T/tree/Makefile"
	printf 'int main_unit;\n' >"$T/tree/init/main.c"
	printf 'char s[4] = "abcd";\nint f(void);\nint f(void) { return s[0]; }\n' >"$T/tree/u.c"
	printf 'cmd_init/main.o := gcc -Wp,-MMD,init/.main.o.d -Wall -O2 -c -o init/main.o %s/init/main.c ; ./tools/objtool/objtool --x init/main.o\n' \
		"$T/tree" >"$T/cell/init/.main.o.cmd"
	printf '#\n# Linux/x86_64 6.1.192 Kernel Configuration\n#\n' >"$T/cell/.config"
	ln -s "$T/tree" "$T/cell/source"
}

@test "compiler-bisect: a unit compiled with a GCC cell's command names the first Clang that warns" {
	need_tool clang-19
	need_tool clang-22
	fake_cell
	run -0 --separate-stderr "$B" -o "$T/b" -c clang-19,clang-22 -k "$T/cell" \
		unit:u.c:-Wunterminated-string-initialization
	assert_output "compiler-bisect: unit:u.c:-Wunterminated-string-initialization W=1 on x86_64 changes at clang-22 ($(clang-22 --version | head -n 1)): clang-19 'absent' -> clang-22 'present'"
	run -0 sqlite3 "$KPARITY_HISTORY_DB" "SELECT c.name, x.key, x.state, x.detail FROM cell c JOIN result x ON x.cell = c.id;"
	assert_output "$(printf '%s\n' \
		'x86_64/clang-19|unit:u.c:-Wunterminated-string-initialization W=1|absent|0 other diagnostics' \
		'x86_64/clang-22|unit:u.c:-Wunterminated-string-initialization W=1|present|1 diagnostics')"
}

@test "compiler-bisect: at W=0 the same unit has no such warning with any Clang" {
	need_tool clang-19
	need_tool clang-22
	fake_cell
	run -1 --separate-stderr "$B" -o "$T/b" -c clang-19,clang-22 -k "$T/cell" -W 0 \
		unit:u.c:-Wunterminated-string-initialization
	assert_output "compiler-bisect: unit:u.c:-Wunterminated-string-initialization W=0 on x86_64: clang-19 and clang-22 agree (absent); no change found"
}

# report NAME COMPILER FILTER: a parity report of one cell, x86_64 built by
# COMPILER (its --version as the compiler_version), FILTER applied
report() {
	mkdir -p "$T/$1/report"
	jq --arg c "$2" --arg v "$("$2" --version | head -n 1)" '
		.compilers = ["clang"] | .matrix[0].kabi = null
		| .matrix[0].cells = [.matrix[0].cells[1] | .name = "x86_64/\($c)" | .compiler_version = $v] | '"$3" \
		"$TOP/tests/fixtures/report/report.json" >"$T/$1/report/report.json"
}

@test "compiler-bisect: a parity cell's warning, answered by the runs history recorded" {
	need_tool clang-19
	need_tool clang-22
	report r1 clang-19 .
	report r2 clang-22 '.matrix[0].cells[0].warnings.by_flag = {"-Wfoo": 1}'
	"$TOP/scripts/history.sh" record "$T/r1/report/report.json" 2>/dev/null
	"$TOP/scripts/history.sh" record "$T/r2/report/report.json" 2>/dev/null
	run -0 --separate-stderr "$B" -o "$T/b" -c clang-19,clang-22 warning:-Wfoo
	assert_output "compiler-bisect: warning:-Wfoo on x86_64 changes at clang-22 ($(clang-22 --version | head -n 1)): clang-19 'absent' -> clang-22 'present'"
	assert_equal "$stderr" "$(printf '%s\n' "BISECT  clang-19 (19.1.7): absent [run 1]" "  BISECT  clang-22 (22.1.8): present [run 2]")"
}

@test "compiler-bisect: bad predicates and lists are one line" {
	run -2 --separate-stderr "$B" -o "$T/b" nonsense
	assert_equal "$stderr" "compiler-bisect: unknown predicate 'nonsense' (probe:CASE, unit:FILE, build, boot, test:NAME, warning:FLAG, kabi:TYPE)"
	run -2 --separate-stderr "$B" -o "$T/b" probe:no-such-case
	assert_equal "$stderr" "compiler-bisect: no compiler-bug case 'no-such-case' in tests/compiler-bugs/"
	run -2 --separate-stderr "$B" -o "$T/b" -c clang-19 probe:global-register-var
	assert_equal "$stderr" "compiler-bisect: fewer than two installed compilers of 'clang-19' to walk: clang-19"
	run -2 --separate-stderr "$B" -o "$T/b" -k "$T/none" unit:u.c
	assert_equal "$stderr" "compiler-bisect: '$T/none' is no built GCC cell (no init/.main.o.cmd)"
}
