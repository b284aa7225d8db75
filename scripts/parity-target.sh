#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# parity-target.sh - the stages of a parity run that take one target's
# cells together, once every cell of it has been built and booted: the
# layout comparisons of the compiler matrix's pairs (scripts/kernel-diff.sh),
# the swapped boots where a kselftest differs (scripts/kernel-swap.sh), and
# the target's row of report.json, its tests judged against the tree's
# known differences (scripts/parity/parity-target.jq and
# parity-tests-target.jq). parity.sh runs it for each target; it also
# runs alone on the cells of a run, to redo a target's row.
#
# It reads CELLS/TARGET-COMPILER.json (parity.sh's build_cell) and writes
# into CELLS:
#   TARGET.kabi.json      the first comparison with the reference compiler
#                         (the report's kabi column; null without one)
#   TARGET.vs-ref.json    every comparison with the reference
#   TARGET.versions.json  the other comparisons (versions of one compiler)
#   TARGET.swap.json      {status, reason, pairs}: the 2x2 boots, or why
#                         there are none; null when no kselftest is judged
#   TARGET.randstruct.json  what GCC and Clang randomized with a seed
#                         fragment's seed (randstruct.sh), or null
#   TARGET.target.json    the target's row
#
# Nothing found here fails the run: what differs is in the files, and
# scripts/parity/parity-failures.jq reads it from the rows.
#
# Exit: 0 the row is written; 2 trouble (usage, unknown target, a stage
# that could not run).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=parity-target.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET -c COMPILERS [-a ALIASES] [-k KINDS] [-s SRCDIR] [-T SECONDS] CELLS
Compare TARGET's cells in the directory CELLS (a parity run's report/cells)
and write the target's row of the report, CELLS/TARGET.target.json.
  -c COMPILERS  the run's compilers, separated by spaces
  -a ALIASES    the run's aliases, OLD=NEW words (matrix_dedupe)
  -k KINDS      the tests judged: empty, 'kunit' or 'kunit kselftest'
                (default: kunit kselftest)
  -s SRCDIR     the kernel tree, for declaration paths
  -T SECONDS    time limit of each swapped boot (default: 120)
Exit: 0 written, 2 trouble.
USAGE
}

# compare: the layout comparisons of the target's cells, one kernel-diff.sh
# per pair of matrix_pairs, into TARGET.kabi.json, .vs-ref.json and
# .versions.json
compare() {
	local old new kind f

	: >"$cells/$target.ref.list"
	: >"$cells/$target.version.list"
	matrix_pairs "$(target_compilers "$target" "$compilers")" "$aliases" >"$cells/$target.pairs"
	while read -r old new kind; do
		f="$cells/$target.$old.$new.kabi.json"
		"$TOPDIR/scripts/kernel-diff.sh" -o "$build" -t "$target" -k "$kind" \
			${srcdir:+-s "$srcdir"} -O "$f" "$old" "$new" </dev/null || [ $? -eq 1 ] ||
			die "the layout stage failed on $target, $old vs $new"
		printf '%s\n' "$f" >>"$cells/$target.$kind.list"
	done <"$cells/$target.pairs"
	# shellcheck disable=SC2046 # one word per file
	jq -s '.' $(cat "$cells/$target.ref.list") </dev/null >"$cells/$target.vs-ref.json"
	# shellcheck disable=SC2046 # one word per file
	jq -s '.' $(cat "$cells/$target.version.list") </dev/null >"$cells/$target.versions.json"
	jq '.[0] // null | if . then del(.old, .new) else . end' "$cells/$target.vs-ref.json" \
		>"$cells/$target.kabi.json"
}

# swap: where a kselftest differs between the reference's cell and another
# compiler's, boot each of the two kernels with the other's disk
# (kernel-swap.sh), into TARGET.swap.json; a swap that could not run says
# why in it
swap() {
	local out="$cells/$target.swap.json" rc=0

	case " $kinds " in
	*" kselftest "*) ;;
	*) echo null >"$out"; return 0 ;;
	esac
	logged "$cells/$target.swap.err" "$TOPDIR/scripts/kernel-swap.sh" -o "$build" -t "$target" \
		-r "$(matrix_reference "$compilers")" -c "$(target_compilers "$target" "$compilers")" \
		-T "$limit" -O "$cells/$target.pairs.json" "$cells" || rc=$?
	if [ "$rc" -eq 0 ]; then
		jq '{status: "pass", reason: null} + .' "$cells/$target.pairs.json" >"$out"
	else
		# the trouble that stopped it is its last message
		jq -n --arg r "$(stage_reason "$cells/$target.swap.err" "$rc" kernel-swap.sh last)" \
			'{status: "fail", reason: $r, pairs: []}' >"$out"
	fi
}

# randomized: for a run whose fragments give a seed (randstruct), which
# structures GCC and Clang randomized with it and whether alike
# (randstruct.sh), into TARGET.randstruct.json; null for any other run, or
# without a GCC and a Clang cell that build the fragment. Each compiler's
# plain build, what tells which structures it randomized, is kernel-build.sh
# without the seed's fragment (in the run's place without it): built the
# first time, up to date after.
randomized() {
	local out="$cells/$target.randstruct.json" seed c g="" l="" f="" v

	echo null >"$out"
	seed=$(fragment_seed)
	[ -n "$seed" ] || return 0
	f=$(seed_fragment)
	for c in $(target_compilers "$target" "$compilers"); do
		compiler_select "$c"
		! fragment_unfit "$f" "$srcdir" >/dev/null || continue
		if [ -z "$cc_llvm" ]; then
			[ -n "$g" ] || g=$c
		else
			[ -n "$l" ] || l=$c
		fi
	done
	if [ -z "$g" ] || [ -z "$l" ]; then
		step RANDOM "$target  no table: no GCC and Clang cell of the run builds $(basename "$f")"
		return 0
	fi
	set --
	for c in "$g" "$l"; do
		v=$(KCONFIG_ADD=$(plain_words) "$TOPDIR/scripts/kernel-build.sh" -o "$build" -t "$target" -c "$c") ||
			die "cannot build $target/$c without $(basename "$f")"
		set -- "$@" "$(dirname "$v")"
		v=$("$TOPDIR/scripts/kernel-build.sh" -o "$build" -t "$target" -c "$c") ||
			die "cannot build $target/$c"
		set -- "$@" "$(dirname "$v")"
	done
	"$TOPDIR/scripts/randstruct.sh" -k "$build/kabi" ${srcdir:+-s "$srcdir"} -n "$g,$l" \
		-S "$seed" -O "$out" "$@" || die "the randomized layouts of $target could not be compared"
}

# row: the target's row of report.json from its cells, comparisons and
# swaps, its tests judged against the known differences
row() {
	local c known

	known=$(differences_list) || exit 2
	set --
	for c in $(target_compilers "$target" "$compilers"); do
		set -- "$@" "$cells/$target-$c.json"
	done
	jq -s --arg target "$target" --slurpfile kabi "$cells/$target.kabi.json" \
		-f "$TOPDIR/scripts/parity/parity-target.jq" "$@" |
		jq --slurpfile vr "$cells/$target.vs-ref.json" \
			--slurpfile vv "$cells/$target.versions.json" \
			--slurpfile sw "$cells/$target.swap.json" \
			--slurpfile rs "$cells/$target.randstruct.json" \
			'. + {kabi_vs_ref: $vr[0], kabi_versions: $vv[0], swap: $sw[0], randstruct: $rs[0]}' |
		jq --rawfile known "$known" -f "$TOPDIR/scripts/parity/parity-tests-target.jq" \
			>"$cells/$target.target.json.tmp" || die "cannot assemble the results of $target"
	mv "$cells/$target.target.json.tmp" "$cells/$target.target.json"
}

main() {
	local opt

	build=""
	target=""
	compilers=""
	aliases=""
	kinds="kunit kselftest"
	srcdir=""
	limit=120
	while getopts a:c:hk:o:s:t:T: opt; do
		case "$opt" in
		a) aliases="$OPTARG" ;;
		c) compilers="$OPTARG" ;;
		k) kinds="$OPTARG" ;;
		o) build="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ -z "$build" ] || [ -z "$target" ] || [ -z "$compilers" ] || [ "$#" -ne 1 ]; then
		usage >&2
		exit 2
	fi
	cells="$1"
	load_target "$target"
	[ -d "$cells" ] || die "no cells directory '$cells'"
	compare
	swap
	randomized
	row
}

main "$@"
