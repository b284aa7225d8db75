#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# series-check.sh - apply the quilt series to a pristine copy of the files
# it touches and report, patch by patch, whether it applies exactly, with
# an offset, only with fuzz, with rejected hunks, or not at all because a
# file it changes is missing.
#
# The copy holds only the files the series touches, taken from the tree as
# it was before any patch: a file an applied patch changed comes from
# quilt's backup in .pc/. Patches are applied in order with patch(1) to the
# copy (so each one sees its predecessors' work, which --dry-run cannot
# show); the tree itself is never written. A rejected hunk is dropped and
# the next patch goes on.
#
# File names are read from every unified format (a/ b/, quilt's
# TREE.orig/ TREE/, git's), and every complaint of patch(1) counts: "can't
# find file to patch", hunks ignored or FAILED, a malformed patch.
#
# With -c, the tree's scripts/checkpatch.pl checks every patch as well.
#
# Exit: 0 every patch applies (offsets allowed) and, with -c, is clean, 1 a
# patch needs fuzz, has a rejected or ignored hunk, misses a file or has
# no file, or (-c) checkpatch complains, 2 trouble
# (usage, no tree, an interrupted push, wrong kernel version).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-check.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/series.sh
. "$TOPDIR/scripts/lib/series.sh"

usage() {
	cat <<USAGE
usage: $PROG [-c] [-j] [-o BUILDDIR] [-s SRCDIR] [-p PATCHDIR]
Check that every patch of PATCHDIR/series (default: the series of the tree, patches/TREE/) applies to
the pristine kernel tree, one line per patch:
  NAME: applies | offset | fuzz | rejected | missing | failed  [details]
then a summary line.
  -c          also run the tree's scripts/checkpatch.pl on every patch:
              'NAME: checkpatch: N errors, M warnings' for each that is
              not clean, then 'checkpatch: K of N patches clean'
  -j          the report as JSON instead
  -o BUILDDIR where the default tree is (default: build; see kernel-src.sh)
  -s SRCDIR   the tree (default: the one kernel-src.sh gives)
USAGE
}

# original SRCDIR FILE: the path of FILE as it was before any patch, or
# nothing when it did not exist.
original() {
	local srcdir="$1" file="$2" name

	for name in $(applied_names "$srcdir"); do
		if [ -e "$srcdir/.pc/$name/$file" ]; then
			[ ! -s "$srcdir/.pc/$name/$file" ] || printf '%s\n' "$srcdir/.pc/$name/$file"
			return 0
		fi
	done
	[ ! -e "$srcdir/$file" ] || printf '%s\n' "$srcdir/$file"
}

# copy_tree SRCDIR PATCHDIR DEST NAME...: DEST gets the pristine version of
# every file the patches touch.
copy_tree() {
	local srcdir="$1" patchdir="$2" dest="$3" name file from files

	shift 3
	for name in "$@"; do
		[ -r "$patchdir/$name" ] || continue
		files=$(patch_files "$patchdir/$name") || continue
		for file in $files; do
			[ ! -e "$dest/$file" ] || continue
			from=$(original "$srcdir" "$file")
			[ -n "$from" ] || continue
			mkdir -p "$dest/$(dirname "$file")"
			cp "$from" "$dest/$file"
		done
	done
}

# check_one DEST PATCHFILE: apply one patch in DEST; print its result line
# as 'STATUS<tab>DETAIL;DETAIL...' (scripts/series/patch-report.awk).
check_one() {
	local dest="$1" patchfile="$2" file missing="" files out rc=0

	# A patch whose files cannot be told (said on stderr) is left to
	# patch(1), which fails it.
	files=$(patch_files "$patchfile") || :
	for file in $files; do
		[ -e "$dest/$file" ] && continue
		created_files "$patchfile" | grep -qxF "$file" && continue
		missing="$missing${missing:+;}$file missing"
	done
	out=$(cd "$dest" && patch -p1 -N -f -r - --no-backup-if-mismatch <"$patchfile" 2>&1) || rc=$?
	printf '%s\n' "$out" |
		awk -v rc="$rc" -v missing="$missing" -f "$TOPDIR/scripts/series/patch-report.awk"
}

# checkpatch SRCDIR PATCHFILE: 'clean', or checkpatch's 'N errors, M
# warnings' (its checks counted as warnings). The patch goes by its
# absolute path: checkpatch takes a relative one that git lists (a patch
# in a kparity checkout) for a source file and checks its diff lines as
# code ("trailing whitespace" for every blank context line).
checkpatch() {
	local out

	if out=$(perl "$1/scripts/checkpatch.pl" --root="$1" -q --no-summary \
		--ignore UNKNOWN_COMMIT_ID "$2" 2>&1); then
		echo clean
		return 0
	fi
	printf '%s\n' "$out" | awk '
		/^ERROR:/ { e++ } /^(WARNING|CHECK):/ { w++ }
		END { printf "%d error%s, %d warning%s\n", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s" }'
}

# checkpatch_text reads 'NAME<tab>RESULT' lines.
checkpatch_text() {
	awk -F '\t' '
		{ n++ }
		$2 == "clean" { clean++; next }
		{ print $1 ": checkpatch: " $2 }
		END { printf "checkpatch: %d of %d patches clean\n", clean, n }'
}

# report_text and report_json read 'NAME<tab>STATUS<tab>DETAILS' lines.
report_text() {
	awk -F '\t' '
		{ n++; count[$2]++
		  line = $1 ": " $2
		  if ($3 != "") { gsub(/;/, ", ", $3); line = line " (" $3 ")" }
		  print line }
		END {
			printf "%d patches: %d applies, %d offset, %d fuzz, %d rejected, %d missing%s\n",
				n, count["applies"], count["offset"], count["fuzz"], count["rejected"], count["missing"],
				count["failed"] ? ", " count["failed"] " failed" : ""
		}'
}

report_json() {
	local kernel="$1" name status details sep="" d dsep

	printf '{"kernel":%s,"patches":[' "$(json_str "$kernel")"
	while IFS="$(printf '\t')" read -r name status details; do
		printf '%s{"name":%s,"status":%s,"details":[' "$sep" "$(json_str "$name")" "$(json_str "$status")"
		dsep=""
		if [ -n "$details" ]; then
			printf '%s\n' "$details" | tr ';' '\n' >"$tmp/details"
			while read -r d; do
				printf '%s%s' "$dsep" "$(json_str "$d")"
				dsep=,
			done <"$tmp/details"
		fi
		printf ']}'
		sep=,
	done
	printf ']'
	if [ -s "$tmp/checkpatch" ]; then
		printf ',"checkpatch":['
		sep=""
		while IFS="$(printf '\t')" read -r name d; do
			printf '%s{"name":%s,"result":%s}' "$sep" "$(json_str "$name")" "$(json_str "$d")"
			sep=,
		done <"$tmp/checkpatch"
		printf ']'
	fi
	printf '}\n'
}

main() {
	local builddir=build srcdir="" patchdir="" json=0 opt name result
	local bad=0 cp=0

	[ "${1:-}" != --help ] || { usage; exit 0; }
	while getopts chjo:p:s: opt; do
		case "$opt" in
		c) cp=1 ;;
		j) json=1 ;;
		o) builddir="$OPTARG" ;;
		p) patchdir="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" patch || exit 2
	[ "$json" = 0 ] || "$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq || exit 2
	open_series "$builddir"
	# The half-written files of an interrupted push are no pristine tree.
	check_interrupted "$srcdir" "$patchdir"
	if name=$(local_changes "$srcdir" "$patchdir"); then
		die "$(changes_msg "$srcdir" "$name")"
	fi

	tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-check.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 2' HUP INT TERM
	mkdir "$tmp/tree"
	# shellcheck disable=SC2046 # patch names have no blanks
	copy_tree "$srcdir" "$patchdir" "$tmp/tree" $(series_names "$patchdir/series")

	: >"$tmp/results"
	for name in $(series_names "$patchdir/series"); do
		if [ -r "$patchdir/$name" ]; then
			result=$(check_one "$tmp/tree" "$patchdir/$name")
		else
			result=$(printf 'failed\tno patch file (quilt refresh writes it)')
		fi
		printf '%s\t%s\n' "$name" "$result" >>"$tmp/results"
		case "$result" in
		applies* | offset*) ;;
		*) bad=1 ;;
		esac
	done
	: >"$tmp/checkpatch"
	if [ "$cp" = 1 ]; then
		[ -f "$srcdir/scripts/checkpatch.pl" ] ||
			die "-c: '$srcdir' has no scripts/checkpatch.pl"
		srcdir=$(cd "$srcdir" && pwd)
		for name in $(series_names "$patchdir/series"); do
			[ -r "$patchdir/$name" ] || continue
			result=$(checkpatch "$srcdir" "$patchdir/$name")
			printf '%s\t%s\n' "$name" "$result" >>"$tmp/checkpatch"
			[ "$result" = clean ] || bad=1
		done
	fi
	if [ "$json" = 1 ]; then
		report_json "$(tree_version "$srcdir" || :)" <"$tmp/results"
	else
		report_text <"$tmp/results"
		[ "$cp" = 0 ] || checkpatch_text <"$tmp/checkpatch"
	fi
	return "$bad"
}

main "$@"
