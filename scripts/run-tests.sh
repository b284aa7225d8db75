#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-tests.sh - run the Bats suites: once against the normal kabi, once
# against the ASan+UBSan build, and the kabi suites once more under
# valgrind.  Prints "N passed, N failed" last.
#
# Exit: 0 all passed, 1 a test failed, 2 trouble.
set -eu

PROG=run-tests.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [SUITE.bats...]
Run the test suites (default: every tests/*.bats) with BUILDDIR/kabi,
then the kabi suites with the sanitizer build, and the diff, check,
bad-input and command-line suites under valgrind.
USAGE
}

# run_pass NAME KABI SUITE...: one bats run, TAP appended to the log
run_pass() {
	name=$1
	kabi=$2
	shift 2
	printf '  TEST    %s\n' "$name"
	# The TAP stream is shown as it comes, with each test's time, so a
	# run cut short still says how far it got and where the time went.
	# a sanitizer or valgrind report exits 99, which kabi never uses
	{
		rc=0
		ASAN_OPTIONS=exitcode=99:detect_leaks=1 \
		UBSAN_OPTIONS=exitcode=99:print_stacktrace=1 \
		KABI=$kabi KPARITY_BUILD=$build bats --tap --timing "$@" 2>&1 || rc=$?
		echo "$rc" >"$log.$name.rc"
	} | tee "$log.$name"
	rc=$(cat "$log.$name.rc")
	rm -f "$log.$name.rc"
	[ "$rc" -eq 0 ] || printf '  FAIL    %s (bats exit %s)\n' "$name" "$rc"
	cat "$log.$name" >>"$log"
}

count() {
	grep -c "$1" "$log" || true
}

main() {
	build=build
	while getopts o:h opt; do
		case "$opt" in
		o) build=$OPTARG ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))

	top=$(cd "$(dirname "$0")/.." && pwd)
	case "$build" in
	/*) ;;
	*) build=$top/$build ;;
	esac
	[ -x "$build/kabi" ] || die "no '$build/kabi': run 'make' first"
	cd "$top"
	if [ "$#" -eq 0 ]; then
		set -- tests/*.bats
	fi
	mkdir -p "$build/tests"
	log=$build/tests/tap.log
	: >"$log"

	run_pass plain "$build/kabi" "$@"
	kabi_suites=$(for s in "$@"; do case "$s" in *kabi-*.bats) echo "$s" ;; esac; done)
	if [ -n "$kabi_suites" ]; then
		[ -x "$build/asan/kabi" ] || die "no '$build/asan/kabi': run 'make kabi-asan'"
		# shellcheck disable=SC2086 # one word per suite file
		run_pass asan "$build/asan/kabi" $kabi_suites
	fi
	vg_suites=$(for s in "$@"; do case "$s" in *kabi-diff.bats | *kabi-check.bats | *kabi-bad-input.bats | *kabi-cli.bats) echo "$s" ;; esac; done)
	if [ -n "$vg_suites" ]; then
		# shellcheck disable=SC2086
		run_pass valgrind "$top/tests/valgrind-kabi" $vg_suites
	fi

	passed=$(count '^ok [0-9]* [^#]*$')
	skipped=$(count '^ok [0-9]* .*# skip')
	failed=$(count '^not ok')
	printf '%s passed, %s failed, %s skipped\n' "$passed" "$failed" "$skipped"
	[ "$failed" -eq 0 ] || exit 1
	if [ -n "${CI:-}" ] && [ "$skipped" -ne 0 ]; then
		echo "$PROG: tests were skipped in CI" >&2
		exit 1
	fi
}

main "$@"
