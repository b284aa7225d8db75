# SPDX-License-Identifier: GPL-2.0-only
#
# Setup and steps shared by the kabi bats tests.
#
# Fixtures live in tests/fixtures/kabi/ and are always compiled from the
# repository root by their relative path, so that the decl= paths kabi
# prints are the same on every machine.  Everything built goes to
# $BATS_TEST_TMPDIR.
#
# Environment:
#   KABI           the kabi binary (default: build/kabi of this tree)
#   CI             when set, a missing compiler fails instead of skipping
#   KPARITY_BLESS  when set, kabi_assert_expected rewrites the .expected
#                  file with the actual output, for review with git diff

bats_load_library bats-support
bats_load_library bats-assert

KPARITY_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
KABI=${KABI:-$BATS_TEST_DIRNAME/../build/kabi}
KABI_FIXTURES=tests/fixtures/kabi
KABI_ORACLE=$BATS_TEST_DIRNAME/oracle.sh

# kabi_setup
# Usage: call from setup(); fails the test when the kabi binary is missing.
kabi_setup() {
	[ -x "$KABI" ] || fail "kabi is not built: no executable '$KABI' (run make)"
}

# kabi_teardown
# Usage: call from teardown(); when the test failed and its last run
# exited non-zero, print that run's output, which a failed "run -N" does
# not show by itself.
kabi_teardown() {
	[ -z "${BATS_TEST_COMPLETED:-}" ] && [ "${status:-0}" != 0 ] || return 0
	printf 'output of the last run (exit %s):\n%s\n' "$status" "${output-}" >&2
}

# kabi_need_cc
# Usage: kabi_need_cc CC
# Skip the test, with the reason, when compiler CC is not installed; under
# CI fail instead, since CI is expected to have every compiler.
kabi_need_cc() {
	command -v "$1" >/dev/null && return 0
	[ -z "${CI:-}" ] || fail "compiler '$1' not found (CI must provide it)"
	skip "compiler '$1' not found"
}

# kabi_compile
# Usage: kabi_compile FIXTURE CC [FLAG...]
# Compile $KABI_FIXTURES/FIXTURE.c with "CC -g -c -O0 FLAG..." from the
# repository root; the object is $BATS_TEST_TMPDIR/FIXTURE.CC.o.
kabi_compile() {
	local fixture=$1 cc=$2
	shift 2
	(cd "$KPARITY_ROOT" &&
		"$cc" -g -c -O0 "$@" -o "$BATS_TEST_TMPDIR/$fixture.$cc.o" \
			"$KABI_FIXTURES/$fixture.c")
}

# kabi_dump_text
# Usage: kabi_dump_text FIXTURE CC [FLAG...]
# Compile FIXTURE and print kabi's text dump of it.
kabi_dump_text() {
	local fixture=$1 cc=$2
	kabi_compile "$@" || return 2
	"$KABI" dump "$BATS_TEST_TMPDIR/$fixture.$cc.o"
}

# kabi_check_oracle
# Usage: kabi_check_oracle FIXTURE CC [FLAG...]
# Compile FIXTURE, dump it as JSON, and compare kabi's numbers with those
# of the oracle program built from the same source by the same compiler
# with the same flags.  Prints "FIXTURE: N facts agree", or the diff
# (kabi's lines as -, the oracle's as +) and returns 1.
kabi_check_oracle() {
	local fixture=$1 cc=$2 dir
	shift 2
	dir=$BATS_TEST_TMPDIR/oracle.$fixture.$cc
	mkdir -p "$dir"
	kabi_compile "$fixture" "$cc" "$@" || return 2
	"$KABI" dump --json "$BATS_TEST_TMPDIR/$fixture.$cc.o" >"$dir/dump.json" || return 2
	sh "$KABI_ORACLE" view "$dir/dump.json" >"$dir/kabi.facts" || return 2
	sh "$KABI_ORACLE" run "$dir/dump.json" "$KPARITY_ROOT/$KABI_FIXTURES/$fixture.c" \
		"$dir" "$cc" -g -O0 "$@" >"$dir/oracle.facts" || return 2
	diff -u --label kabi --label oracle "$dir/kabi.facts" "$dir/oracle.facts" || return 1
	printf '%s: %s facts agree\n' "$fixture" "$(wc -l <"$dir/kabi.facts")"
}

# kabi_flatten
# Usage: kabi_flatten FILE
# Print a text dump with each member or enumerator line prefixed by the
# kind and name of its type, so that a line-based diff names the type.
kabi_flatten() {
	awk '/^\t/ { sub(/^\t/, ""); print head " | " $0; next } { head = $1 " " $2; print }' "$1"
}

# kabi_diff_compilers
# Usage: kabi_diff_compilers FIXTURE [FLAG...]
# Compile FIXTURE with gcc and with clang, same flags, and print the lines
# in which their text dumps differ ("gcc:   " and "clang: " prefixed),
# then the line count of each.  Returns 1 when they differ.
kabi_diff_compilers() {
	local fixture=$1 status=0 cc
	shift
	for cc in gcc clang; do
		kabi_compile "$fixture" "$cc" "$@" || return 2
		"$KABI" dump "$BATS_TEST_TMPDIR/$fixture.$cc.o" >"$BATS_TEST_TMPDIR/$cc.txt" || return 2
		kabi_flatten "$BATS_TEST_TMPDIR/$cc.txt" >"$BATS_TEST_TMPDIR/$cc.flat"
	done
	diff --unchanged-line-format= --old-line-format='gcc:   %L' \
		--new-line-format='clang: %L' \
		"$BATS_TEST_TMPDIR/gcc.flat" "$BATS_TEST_TMPDIR/clang.flat" || status=$?
	printf '%s: gcc %s lines, clang %s lines\n' "$fixture" \
		"$(wc -l <"$BATS_TEST_TMPDIR/gcc.txt")" "$(wc -l <"$BATS_TEST_TMPDIR/clang.txt")"
	return "$status"
}

# kabi_diff_dwarf_versions
# Usage: kabi_diff_dwarf_versions CC FIXTURE...
# Dump each FIXTURE built by CC with -gdwarf-4 and with -gdwarf-5 and print
# the lines that differ, then one summary line.  Returns 1 when any differ.
kabi_diff_dwarf_versions() {
	local cc=$1 fixture v status=0
	shift
	for fixture in "$@"; do
		for v in 4 5; do
			kabi_compile "$fixture" "$cc" "-gdwarf-$v" || return 2
			"$KABI" dump "$BATS_TEST_TMPDIR/$fixture.$cc.o" >"$BATS_TEST_TMPDIR/v$v.txt" || return 2
			kabi_flatten "$BATS_TEST_TMPDIR/v$v.txt" >"$BATS_TEST_TMPDIR/v$v.flat"
		done
		diff --unchanged-line-format= --old-line-format="$fixture -gdwarf-4: %L" \
			--new-line-format="$fixture -gdwarf-5: %L" \
			"$BATS_TEST_TMPDIR/v4.flat" "$BATS_TEST_TMPDIR/v5.flat" || status=1
	done
	printf '%s: %s fixtures compared\n' "$cc" "$#"
	return "$status"
}

# kabi_assert_expected
# Usage: kabi_assert_expected NAME
# Compare $output with $KABI_FIXTURES/NAME.expected exactly and fail with
# a diff when they differ; with KPARITY_BLESS set, write $output to that
# file first.
kabi_assert_expected() {
	local file=$KPARITY_ROOT/$KABI_FIXTURES/$1.expected
	if [ -n "${KPARITY_BLESS:-}" ]; then
		printf '%s\n' "$output" >"$file"
	fi
	[ "$output" = "$(cat "$file")" ] && return 0
	printf '%s\n' "$output" |
		diff -u --label "$KABI_FIXTURES/$1.expected" --label actual "$file" - |
		fail
}

# kabi_check_spelling
# Usage: kabi_check_spelling FIXTURE CC [FLAG...]
# Compile FIXTURE, dump it as JSON, and check every spelling kabi prints
# against the compiler: a program that includes the fixture asserts, for
# each member, that its declared type is compatible
# (__builtin_types_compatible_p) with kabi's type as written and with
# kabi's resolved type, and for each typedef that it is compatible with
# kabi's resolved type.  kabi's base types become the <stdint.h> ones
# (int32 is int32_t), so fixtures use only base types that those name.
# Prints "FIXTURE: N spellings agree", or each failed check and returns 1.
kabi_check_spelling() {
	local fixture=$1 cc=$2 dir n
	shift 2
	dir=$BATS_TEST_TMPDIR/spelling.$fixture.$cc
	mkdir -p "$dir"
	kabi_compile "$fixture" "$cc" "$@" || return 2
	"$KABI" dump --json "$BATS_TEST_TMPDIR/$fixture.$cc.o" >"$dir/dump.json" || return 2
	# shellcheck disable=SC2016 # jq variables, not shell ones
	jq -r '.types[] | (.kind + " " + .name) as $t
		| if .kind == "typedef" then [$t, .name, .resolved]
		  else .members[] | "__typeof__(((\($t) *)0)->\(.name))" as $m
		       | ([$t + "." + .name + " type", $m, .type],
			  [$t + "." + .name + " resolved", $m, .resolved])
		  end | @tsv' "$dir/dump.json" |
		sed -E 's/\b(u?int(8|16|32|64))\b/\1_t/g' >"$dir/checks.tsv" || return 2
	{
		printf '#include <stdint.h>\n#include "%s"\n' "$KPARITY_ROOT/$KABI_FIXTURES/$fixture.c"
		awk -F '\t' '{ printf "_Static_assert(__builtin_types_compatible_p(%s, %s), \"kabi-spelling: %s\");\n", $2, $3, $1 }' \
			"$dir/checks.tsv"
	} >"$dir/check.c"
	n=$(wc -l <"$dir/checks.tsv")
	if ! "$cc" -fsyntax-only "$@" "$dir/check.c" 2>"$dir/cc.err"; then
		grep -o 'kabi-spelling: [^"]*' "$dir/cc.err" | sort -u
		grep -q 'kabi-spelling: ' "$dir/cc.err" || cat "$dir/cc.err"
		return 1
	fi
	printf '%s: %s spellings agree\n' "$fixture" "$n"
}
