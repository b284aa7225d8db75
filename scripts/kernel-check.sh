#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-check.sh - the check stage: kabi check of one cell's vmlinux, the
# types its compilation units see with more than one layout, as one JSON
# result (Documentation/parity.md, CELL's "check"): kabi check --json
# turned into {status, reason, summary, clashes, reproduce} by
# scripts/parity/parity-check.jq. Whether a clash fails a parity run is
# decided across the target's cells (parity-failures.jq), not here.
#
# Exit: 0 checked (clashes or none) and the result written, or skipped
# where the DWARF does not describe the layouts (dwarf_unfaithful); 1 kabi check
# failed (the result says why); 2 trouble (usage, unknown target or
# compiler, no kabi, a cell without a successful build).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-check.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET [-c COMPILER] [-s SRCDIR] -O FILE
Check the layouts of the types TARGET's vmlinux built with COMPILER
(default: gcc; the cell BUILDDIR/kernel/TARGET-*) sees in its units,
and write the result to FILE.
  -s SRCDIR  the kernel tree, for declaration paths relative to it
             (default: the cell's source link)
Environment: LLVM=1|-N|DIR/ selects the clang, as for kernel-build.sh.
Exit: 0 checked, 1 kabi check failed, 2 trouble.
USAGE
}

main() {
	local opt builddir="" target="" compiler=gcc srcdir="" out="" abuild dir rc=0 repro why

	while getopts c:ho:O:s:t: opt; do
		case "$opt" in
		c) compiler="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		O) out="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 0 ] || [ -z "$builddir" ] || [ -z "$target" ] || [ -z "$out" ]; then
		usage >&2
		exit 2
	fi
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq || exit 2
	abuild=$(abspath "$builddir") || die "no build directory '$builddir'"
	[ -x "$abuild/kabi" ] || die "no '$builddir/kabi': run 'make' first"
	load_target "$target"
	cell_select "$compiler"
	dir=$(cell_dir "$abuild")
	cell_built "$dir" || die "no successful build of $target/$cc_suffix in '$dir'"
	# Kbuild links each O= directory's source to its tree
	[ -n "$srcdir" ] || [ ! -d "$dir/source" ] || srcdir=$(cd "$dir/source" && pwd -P)
	repro="$builddir/kabi check${srcdir:+ --root $srcdir} ${dir#"$abuild"/}/vmlinux"

	if why=$(dwarf_unfaithful "$dir"); then
		jq -n --arg repro "$repro" --arg reason "$why" \
			'{status: "skipped", reason: $reason, summary: null, clashes: [], reproduce: $repro}' >"$out.tmp"
		mv "$out.tmp" "$out"
		step CHECK "$target/$cc_suffix  skipped: $why"
		exit 0
	fi
	"$abuild/kabi" check --json ${srcdir:+--root "$srcdir"} -o "$out.raw" "$dir/vmlinux" 2>"$out.err" || rc=$?
	case "$rc" in
	0 | 4 | 12)
		jq --arg repro "$repro" -f "$TOPDIR/scripts/parity/parity-check.jq" "$out.raw" >"$out.tmp"
		rc=0
		;;
	*)
		jq -n --arg repro "$repro" --arg reason "kabi check exited $rc: $(head -n 1 "$out.err")" \
			'{status: "fail", reason: $reason, summary: null, clashes: [], reproduce: $repro}' >"$out.tmp"
		rc=1
		;;
	esac
	rm -f "$out.raw" "$out.err"
	mv "$out.tmp" "$out"
	step CHECK "$target/$cc_suffix  $(jq -r 'if .status == "pass"
		then "\(.summary.clashing) clashing, \(.summary.incompatible) incompatible, \(.summary.alike) alike in \(.summary.units) units"
		else "FAIL: \(.reason)" end' "$out")"
	exit "$rc"
}

main "$@"
