#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-diff.sh - the layout stage: compare the vmlinux of a target built
# with two compilers. One kabi read of the pair (kabi diff --json
# --layouts: the findings and both layouts of each changed type) is kept
# in BUILDDIR/diff/ and read again only when an image or kabi is newer;
# the comparison's result is one JSON file (Documentation/parity.md,
# "kabi"): its status, kabi's summary, the types that differ
# incompatibly and the changed types the report draws, each with both
# layouts, and the command that reproduces it.
#
# What a difference means is the comparison's KIND: ref (NEW against the
# reference compiler: a type whose layout differs incompatibly fails the
# comparison) or version (two versions of one compiler, or one Clang with
# and without its assembler: every change is a finding, none fails).
#
# Exit: 0 compared and passed, or skipped because a cell has no successful
# build (the result says so); 1 the comparison failed (kabi found types
# that differ incompatibly, with KIND ref, or kabi itself failed); 2
# trouble (usage, unknown target or compiler, no kabi).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-diff.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# the most changed types whose layouts the report draws per comparison
PICTURES=20

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET [-k ref|version] [-s SRCDIR] [-O FILE] OLD NEW
Compare the layouts of TARGET's vmlinux built with compiler OLD and with
compiler NEW (the cells BUILDDIR/kernel/TARGET-*), and write the result.
  -k KIND    ref (default: an incompatible difference fails) or version
             (every difference is a finding, none fails)
  -s SRCDIR  the kernel tree, for declaration paths relative to it
  -O FILE    where the result goes (default:
             BUILDDIR/diff/TARGET.OLD.NEW.result.json, each compiler
             named as its build is: clang-22 for clang with LLVM=-22)
Environment: LLVM=1|-N|DIR/ selects the clang, as for kernel-build.sh.
Exit: 0 passed or skipped, 1 failed, 2 trouble.
USAGE
}

# shown PATH: PATH as the caller named the build directory, for commands
shown() {
	case "$1" in
	"$abuild"/*) printf '%s/%s\n' "$builddir" "${1#"$abuild"/}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# newer A B: A exists and was modified after B
newer() {
	[ -e "$1" ] && [ -n "$(find "$1" -prune -newer "$2")" ]
}

# result STATUS REASON [DIFF]: write the result file; from DIFF (kabi's
# JSON) when there is one
result() {
	local tmp="$out.tmp"

	if [ $# -gt 2 ]; then
		jq -L "$TOPDIR/scripts/kernel-diff" --arg status "$1" --arg reason "$2" \
			--argjson cap "$PICTURES" --arg repro "$repro" \
			--arg old "$old" --arg new "$new" \
			-f "$TOPDIR/scripts/kernel-diff/kabi-result.jq" "$3" >"$tmp"
	else
		jq -n --arg status "$1" --arg reason "$2" --arg repro "$repro" \
			--arg old "$old" --arg new "$new" \
			'{old: $old, new: $new, status: $status, reason: $reason, summary: null,
			  incompatible: [], changed: [], changed_more: 0, reproduce: $repro}' >"$tmp"
	fi
	mv "$tmp" "$out"
}

# read_pair OLDIMG NEWIMG: kabi's JSON of the pair in $raw, read afresh
# unless it is newer than both images and than kabi; kabi's exit status
read_pair() {
	local rc=0

	if newer "$raw" "$1" && newer "$raw" "$2" && newer "$raw" "$kabi"; then
		return 0
	fi
	rm -f "$raw"
	"$kabi" diff --json --layouts ${srcdir:+--root "$srcdir"} -o "$raw.tmp" "$1" "$2" 2>"$raw.err" || rc=$?
	if [ $((rc & 3)) -ne 0 ]; then
		rm -f "$raw.tmp"
		return "$rc"
	fi
	mv "$raw.tmp" "$raw"
	rm -f "$raw.err"
}

main() {
	local opt kind=ref dir olddir newdir oldbuild newbuild rc=0 n why

	builddir="" target="" srcdir="" out=""
	while getopts hk:o:O:s:t: opt; do
		case "$opt" in
		k) kind="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		O) out="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 2 ] || [ -z "$builddir" ] || [ -z "$target" ]; then
		usage >&2
		exit 2
	fi
	case "$kind" in
	ref | version) ;;
	*) die "-k takes ref or version, not '$kind'" ;;
	esac
	old="$1"
	new="$2"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq || exit 2
	abuild=$(abspath "$builddir") || die "no build directory '$builddir'"
	kabi="$abuild/kabi"
	[ -x "$kabi" ] || die "no '$builddir/kabi': run 'make' first"
	load_target "$target"
	compiler_select "$old"
	olddir=$(cell_dir "$abuild")
	oldbuild=$cc_suffix
	compiler_select "$new"
	newdir=$(cell_dir "$abuild")
	newbuild=$cc_suffix
	# Kbuild links each O= directory's source to its tree
	[ -n "$srcdir" ] || [ ! -d "$olddir/source" ] || srcdir=$(cd "$olddir/source" && pwd -P)
	if [ -n "$srcdir" ]; then
		[ -d "$srcdir" ] || die "no kernel tree '$srcdir'"
		srcdir=$(cd "$srcdir" && pwd)
	fi

	dir="$(tree_root "$abuild")/diff"
	mkdir -p "$dir" || die "cannot create '$dir'"
	# named by the builds, not the compilers' names: clang with LLVM=-22
	# is another build than clang, whose kept read must not stand for it
	raw="$dir/$target.$oldbuild.$newbuild.json"
	[ -n "$out" ] || out="$dir/$target.$oldbuild.$newbuild.result.json"
	repro="$builddir/kabi diff${srcdir:+ --root $(shown "$srcdir")} $(shown "$olddir/vmlinux") $(shown "$newdir/vmlinux")"

	for dir in "$olddir" "$newdir"; do
		if ! cell_built "$dir"; then
			step KABI "$target $old vs $new  skipped: $(shown "$dir") has no successful build"
			result skipped "a build failed"
			return 0
		fi
		if why=$(dwarf_unfaithful "$dir"); then
			step KABI "$target $old vs $new  skipped: $why"
			result skipped "$why"
			return 0
		fi
	done
	read_pair "$olddir/vmlinux" "$newdir/vmlinux" || rc=$?
	if [ $((rc & 3)) -ne 0 ]; then
		step KABI "$target $old vs $new  FAIL: kabi exited $rc"
		sed 's/^/  /' "$raw.err" >&2
		result fail "kabi diff failed (exit $rc)"
		return 1
	fi
	step KABI "$target $old vs $new  $(jq -r '.summary |
		"\(.changed) changed (\(.incompatible) incompatible), \(.only_old) only in old, \(.only_new) only in new, \(.unchanged) unchanged"' "$raw")"
	n=$(jq '.summary.incompatible' "$raw")
	if [ "$kind" = ref ] && [ "$n" -gt 0 ]; then
		result fail "layouts differ incompatibly" "$raw"
		return 1
	fi
	result pass "" "$raw"
}

main "$@"
