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
# Exit: 0 every patch applies (offsets allowed), 1 a patch needs fuzz, has
# a rejected hunk or misses a file, 2 trouble.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-check.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=/dev/null # series-lib.sh is checked on its own
. "$TOPDIR/scripts/series-lib.sh"

usage() {
	cat <<USAGE
usage: $PROG [-j] [-o BUILDDIR] [-s SRCDIR] [-p PATCHDIR]
Check that every patch of PATCHDIR/series (default: patches/) applies to
the pristine kernel tree, one line per patch:
  NAME: applies | offset | fuzz | rejected | missing  [details]
then a summary line.
  -j          the report as JSON instead
  -o BUILDDIR where the default tree is (default: build; see kernel-src.sh)
  -s SRCDIR   the tree (default: the one kernel-src.sh gives)
USAGE
}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
}

# created PATCHFILE: the files PATCHFILE creates (its old side is /dev/null).
created() {
	awk '/^--- / { old = $2 } /^\+\+\+ / { if (old == "/dev/null") { f = $2; sub(/^b\//, "", f); print f } }' "$1"
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
	local srcdir="$1" patchdir="$2" dest="$3" name file from

	shift 3
	for name in "$@"; do
		[ -r "$patchdir/$name" ] || die "cannot read '$patchdir/$name' (named in '$patchdir/series')"
		for file in $(patch_files "$patchdir/$name"); do
			[ ! -e "$dest/$file" ] || continue
			from=$(original "$srcdir" "$file")
			[ -n "$from" ] || continue
			mkdir -p "$dest/$(dirname "$file")"
			cp "$from" "$dest/$file"
		done
	done
}

# check_one DEST PATCHFILE: apply one patch in DEST; print its result line
# as 'STATUS<tab>DETAIL;DETAIL...' where a DETAIL is 'FILE hunk N offset K',
# 'FILE hunk N fuzz F', 'FILE hunk N rejected' or 'FILE missing'.
check_one() {
	local dest="$1" patchfile="$2" file missing=""

	for file in $(patch_files "$patchfile"); do
		[ -e "$dest/$file" ] && continue
		created "$patchfile" | grep -qxF "$file" && continue
		missing="$missing${missing:+;}$file missing"
	done
	(cd "$dest" && { patch -p1 -N -f -r - --no-backup-if-mismatch <"$patchfile" 2>&1 || :; }) |
		awk -v missing="$missing" '
		/^patching file / { file = substr($0, 15); sub(/^'"'"'/, "", file); sub(/'"'"'$/, "", file); next }
		/^Hunk #[0-9]+ FAILED/ {
			n = $2; sub(/#/, "", n)
			d = d (d == "" ? "" : ";") file " hunk " n " rejected"; rej = 1; next
		}
		/^Hunk #[0-9]+ succeeded/ {
			n = $2; sub(/#/, "", n)
			if (match($0, /with fuzz [0-9]+/)) {
				d = d (d == "" ? "" : ";") file " hunk " n " fuzz " substr($0, RSTART + 10, RLENGTH - 10); fz = 1
			} else if (match($0, /offset -?[0-9]+ line/)) {
				d = d (d == "" ? "" : ";") file " hunk " n " offset " substr($0, RSTART + 7, RLENGTH - 12); off = 1
			}
		}
		END {
			if (missing != "") { status = "missing"; d = missing (d == "" ? "" : ";") d }
			else if (rej) status = "rejected"
			else if (fz) status = "fuzz"
			else if (off) status = "offset"
			else status = "applies"
			printf "%s\t%s\n", status, d
		}'
}

# json_str TEXT: TEXT as a JSON string (names and paths: no control chars).
json_str() {
	printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

# report_text and report_json read 'NAME<tab>STATUS<tab>DETAILS' lines.
report_text() {
	awk -F '\t' '
		{ n++; count[$2]++
		  line = $1 ": " $2
		  if ($3 != "") { gsub(/;/, ", ", $3); line = line " (" $3 ")" }
		  print line }
		END {
			printf "%d patches: %d applies, %d offset, %d fuzz, %d rejected, %d missing\n",
				n, count["applies"], count["offset"], count["fuzz"], count["rejected"], count["missing"]
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
	printf ']}\n'
}

main() {
	local builddir=build srcdir="" patchdir="$TOPDIR/patches" json=0 opt name result
	local bad=0

	while getopts hjo:p:s: opt; do
		case "$opt" in
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
	open_series "$builddir"

	tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-check.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 2' HUP INT TERM
	mkdir "$tmp/tree"
	# shellcheck disable=SC2046 # patch names have no blanks
	copy_tree "$srcdir" "$patchdir" "$tmp/tree" $(series_names "$patchdir/series")

	: >"$tmp/results"
	for name in $(series_names "$patchdir/series"); do
		result=$(check_one "$tmp/tree" "$patchdir/$name")
		printf '%s\t%s\n' "$name" "$result" >>"$tmp/results"
		case "$result" in
		applies* | offset*) ;;
		*) bad=1 ;;
		esac
	done
	if [ "$json" = 1 ]; then
		report_json "$(tree_version "$srcdir")" <"$tmp/results"
	else
		report_text <"$tmp/results"
	fi
	return "$bad"
}

main "$@"
