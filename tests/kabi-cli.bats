#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kabi's command line: verbs, help, usage errors and output files.

load common

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "kabi cli: no verb prints usage on stderr and exits 2" {
	run -2 --separate-stderr "$KABI"
	assert_output ""
	[ "${stderr_lines[0]}" = "usage: kabi [--version] [--help] VERB [ARGS]" ]
}

@test "kabi cli: unknown verb exits 2 and names it" {
	run -2 --separate-stderr "$KABI" frob
	assert_output ""
	[ "${stderr_lines[0]}" = "kabi: unknown verb 'frob'" ]
	[ "${stderr_lines[1]}" = "usage: kabi [--version] [--help] VERB [ARGS]" ]
}

@test "kabi cli: --help lists the verbs on stdout" {
	run -0 "$KABI" --help
	assert_output - <<'OUT'
usage: kabi [--version] [--help] VERB [ARGS]
Dump and diff struct, union, enum and typedef layouts from DWARF or BTF.
Verbs:
  dump   print the types of one or more builds
  diff   compare the types of two builds
  check  find the types one build sees with different layouts
  help   show the usage of a verb
See 'kabi help VERB' and kabi(1).
OUT
}

@test "kabi cli: help VERB and VERB --help print the same usage" {
	run -0 "$KABI" help diff
	local help=$output
	assert_line --index 0 "usage: kabi diff [--json [--layouts]] [--only-layout] [--only-common]"
	assert_line "Exit status: 0 identical, bits 1 error, 2 usage, 4 changes, 8 incompatible."
	run -0 "$KABI" diff --help
	assert_output "$help"
}

@test "kabi cli: help check names its exit bits" {
	run -0 "$KABI" help check
	local help=$output
	assert_line --index 0 "usage: kabi check [--json] [--by-name] [--root DIR]... [--type NAME]..."
	assert_line "Exit status: 0 none found, bits 1 error, 2 usage, 4 found, 8 incompatible."
	run -0 "$KABI" check --help
	assert_output "$help"
}

@test "kabi cli: help of an unknown verb exits 2" {
	run -2 --separate-stderr "$KABI" help frob
	[ "${stderr_lines[0]}" = "kabi: unknown verb 'frob'" ]
}

@test "kabi cli: --version names elfutils" {
	run -0 "$KABI" --version
	assert_regex "$output" '^kabi [0-9.]+ \(elfutils 0\.[0-9]+\)$'
}

@test "kabi cli: diff needs exactly two inputs" {
	run -2 --separate-stderr "$KABI" diff one.o
	[ "${stderr_lines[0]}" = "kabi: diff: expected OLD and NEW" ]
	run -2 --separate-stderr "$KABI" diff a b c
	[ "${stderr_lines[0]}" = "kabi: diff: expected OLD and NEW" ]
}

@test "kabi cli: dump needs an input" {
	run -2 --separate-stderr "$KABI" dump
	[ "${stderr_lines[0]}" = "kabi: dump: expected at least one FILE" ]
}

@test "kabi cli: unknown option and option of another verb exit 2" {
	run -2 --separate-stderr "$KABI" dump --bogus x.o
	[ "$stderr" = "kabi: dump: unknown or incomplete option '--bogus'" ]
	run -2 --separate-stderr "$KABI" dump --only-layout x.o
	[ "$stderr" = "kabi: dump: option '--only-layout' does not apply" ]
	run -2 --separate-stderr "$KABI" diff --kind class a.o b.o
	[ "$stderr" = "kabi: diff: unknown kind 'class' (struct, union, enum, typedef)" ]
}

@test "kabi cli: each verb takes exactly the options of its table" {
	local opt
	for opt in --only-layout --only-common --layouts "--suppressions=x.supp"; do
		run -2 --separate-stderr "$KABI" dump --json "$opt" x.o
		[ "$stderr" = "kabi: dump: option '${opt%%=*}' does not apply" ]
	done
	for opt in --json "--output=x" -ox "--root=." "--threads=1"; do
		run -2 --separate-stderr "$KABI" help "$opt"
		case $opt in
		-o*) [ "$stderr" = "kabi: help: option '--output' does not apply" ] ;;
		*) [ "$stderr" = "kabi: help: option '${opt%%=*}' does not apply" ] ;;
		esac
	done
}

@test "kabi cli: -o writes the same bytes as stdout" {
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	run -0 "$KABI" dump "$T/a.o"
	local want=$output
	run -0 "$KABI" dump -o "$T/out.txt" "$T/a.o"
	assert_output ""
	[ "$(cat "$T/out.txt")" = "$want" ]
}

@test "kabi cli: -o onto a device writes into it and leaves it a device" {
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	# a null device of the test's own: the machine's /dev/null is not
	# put at risk by the code under test
	mknod "$T/null" c 1 3 2>/dev/null || skip "mknod of a character device is not permitted here"
	run -0 "$KABI" dump -o "$T/null" "$T/a.o"
	assert_output ""
	run -0 "$KABI" diff -o "$T/null" "$T/a.o" "$T/a.o"
	assert_output ""
	run -0 stat -c '%F %t,%T' "$T/null"
	assert_output "character special file 1,3"
	# and a directory there is one line, as any file that cannot be written
	run -1 --separate-stderr "$KABI" dump -o "$T" "$T/a.o"
	assert_equal "$stderr" "kabi: cannot write '$T': Is a directory"
}

@test "kabi cli: -o into a missing directory fails cleanly" {
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	run -1 --separate-stderr "$KABI" dump -o "$T/no/such/out.txt" "$T/a.o"
	[ "$stderr" = "kabi: cannot write '$T/no/such/out.txt': No such file or directory" ]
}

@test "kabi cli: dump --kind and --type select types" {
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	run -0 "$KABI" dump --kind struct --type holder --type small "$T/a.o"
	assert_output - <<'OUT'
struct holder size=12 decl=tests/fixtures/kabi-diff/enums.c:22
	member s offset=0 size=4 type="enum small"
	member c offset=4 size=1 type="int8"
	member n offset=8 size=4 type="enum negative"
OUT
	run -0 "$KABI" dump --type "enum small" --type wide "$T/a.o"
	assert_output - <<'OUT'
enum small size=4 underlying="uint32" decl=tests/fixtures/kabi-diff/enums.c:8
	enumerator SMALL_A value=0
	enumerator SMALL_B value=1
enum wide size=4 underlying="uint32" decl=tests/fixtures/kabi-diff/enums.c:18
	enumerator WIDE_TOP value=2147483648
OUT
}

@test "kabi cli: an object without named types dumps nothing and diffs empty" {
	printf 'int main(void) { return 0; }\n' >"$T/plain.c"
	cc_obj gcc "$T/plain.o" "$T/plain.c"
	run -0 --separate-stderr "$KABI" dump "$T/plain.o"
	assert_output ""
	[ "$stderr" = "" ]
	run -0 "$KABI" diff "$T/plain.o" "$T/plain.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed"
	# an empty side against a full one (an undefined pointer offset, found by fuzzing)
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	run -4 "$KABI" diff --kind struct "$T/plain.o" "$T/a.o"
	assert_output - <<'OUT'
struct holder at tests/fixtures/kabi-diff/enums.c:22
	only in new
summary: 0 changed (0 incompatible), 0 only in old, 1 only in new, 0 unchanged, 0 suppressed
OUT
}

@test "kabi cli: --threads takes a positive number" {
	run -2 --separate-stderr "$KABI" dump --threads 0 x.o
	[ "$stderr" = "kabi: dump: --threads takes a number from 1 to 1024, not '0'" ]
	run -2 --separate-stderr "$KABI" diff --threads two a.o b.o
	[ "$stderr" = "kabi: diff: --threads takes a number from 1 to 1024, not 'two'" ]
}

@test "kabi cli: --reader takes own or libdw, for dump and diff" {
	run -2 --separate-stderr "$KABI" dump --reader elfutils x.o
	[ "$stderr" = "kabi: dump: --reader takes own or libdw, not 'elfutils'" ]
	run -2 --separate-stderr "$KABI" diff --reader= a.o b.o
	[ "$stderr" = "kabi: diff: --reader takes own or libdw, not ''" ]
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	run -0 "$KABI" dump --reader libdw "$T/a.o"
	local libdw=$output
	run -0 "$KABI" dump --reader own "$T/a.o"
	assert_output "$libdw"
	run -0 "$KABI" diff --reader libdw "$T/a.o" "$T/a.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 4 unchanged, 0 suppressed"
}

@test "kabi cli: a --type that matches nothing is a usage error, dump and diff" {
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	run -2 --separate-stderr "$KABI" dump --type holdre "$T/a.o"
	assert_output ""
	[ "$stderr" = "kabi: dump: --type 'holdre' matches no type" ]
	run -2 --separate-stderr "$KABI" dump --type holdre --type "union holder" "$T/a.o"
	[ "$stderr" = "kabi: dump: --type 'holdre' (and every other --type) matches no type" ]
	run -2 --separate-stderr "$KABI" dump --kind struct --type small "$T/a.o"
	assert_output ""
	[ "$stderr" = "kabi: dump: --type 'small' matches no type of the --kind given" ]
	run -2 --separate-stderr "$KABI" diff --type "union holder" "$T/a.o" "$T/a.o"
	assert_output ""
	[ "$stderr" = "kabi: diff: --type 'union holder' matches no type" ]
	run -2 --separate-stderr "$KABI" diff -o "$T/d.txt" --type nothing "$T/a.o" "$T/a.o"
	[ "$stderr" = "kabi: diff: --type 'nothing' matches no type" ]
	[ ! -e "$T/d.txt" ]
}

@test "kabi cli: --type names need not all match, and match on either side of a diff" {
	cc_obj gcc "$T/a.o" tests/fixtures/kabi-diff/enums.c
	printf 'int main(void) { return 0; }\n' >"$T/plain.c"
	cc_obj gcc "$T/plain.o" "$T/plain.c"
	run -4 "$KABI" diff --type "union holder" --type holder "$T/a.o" "$T/plain.o"
	assert_output - <<'OUT'
struct holder at tests/fixtures/kabi-diff/enums.c:22
	only in old
summary: 0 changed (0 incompatible), 1 only in old, 0 only in new, 0 unchanged, 0 suppressed
OUT
}
