# SPDX-License-Identifier: GPL-2.0-only
#
# series-lib.sh - what the quilt series tools share; sourced, not run.
#
# The caller sets PROG and TOPDIR and defines die(). The series file may pin
# the kernel it is for with a line '# Kernel: VERSION.PATCHLEVEL.SUBLEVEL';
# a tree of another version is refused.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh

QUILT_BACKUP=/usr/share/quilt/scripts/backup-files

# series_names FILE: the patch names in a quilt series file, in order.
series_names() {
	awk '/^[ \t]*(#|$)/ { next } { print $1 }' "$1"
}

# series_pin FILE: the kernel version FILE pins, or nothing.
series_pin() {
	sed -n 's/^# Kernel: *\([0-9][0-9.]*\) *$/\1/p' "$1" | head -n 1
}

# tree_version DIR: VERSION.PATCHLEVEL.SUBLEVEL of DIR's Makefile, or
# nothing when DIR has none.
tree_version() {
	[ -f "$1/Makefile" ] || return 0
	awk -F' *= *' '
		$1 == "VERSION" { v = $2 }
		$1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 }
		$1 == "EXTRAVERSION" { exit }
		END { if (v != "" && p != "" && s != "") print v "." p "." s }' "$1/Makefile"
}

# check_pin SERIES SRCDIR: die (exit 2) unless SRCDIR is the kernel SERIES
# pins; a series without a pin fits any tree.
check_pin() {
	local pin have

	pin=$(series_pin "$1")
	[ -n "$pin" ] || return 0
	have=$(tree_version "$2")
	[ "$have" = "$pin" ] && return 0
	die "'$1' is for Linux $pin, but '$2' is ${have:+Linux }${have:-not a kernel tree}"
}

# quilt_setup PATCHDIR: export what quilt needs to use PATCHDIR's series
# with its state in the tree's .pc/, whatever ~/.quiltrc says.
quilt_setup() {
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" quilt || exit 2
	QUILT_PATCHES="$1"
	QUILT_PC=.pc
	QUILT_REFRESH_ARGS="-p ab --no-timestamps --no-index"
	QUILT_DIFF_ARGS="-p ab --no-timestamps --no-index"
	# The C function of each hunk in its @@ line, as git shows it.
	QUILT_DIFF_OPTS=-p
	export QUILT_PATCHES QUILT_PC QUILT_REFRESH_ARGS QUILT_DIFF_ARGS QUILT_DIFF_OPTS
}

# q SRCDIR ARG...: quilt ARG... in SRCDIR, without a quiltrc.
q() {
	local srcdir="$1"

	shift
	(cd "$srcdir" && quilt --quiltrc /dev/null "$@")
}

# applied_names SRCDIR: the patches applied to SRCDIR, from quilt's record.
applied_names() {
	if [ -f "$1/.pc/applied-patches" ]; then
		cat "$1/.pc/applied-patches"
	fi
}

# interrupted SRCDIR: the patch whose push was interrupted (its backups are
# in .pc/ but quilt never recorded it as applied), or nothing.
interrupted() {
	local dir name

	[ -d "$1/.pc" ] || return 0
	for dir in "$1"/.pc/*/; do
		[ -d "$dir" ] || continue
		name=$(basename "$dir")
		grep -qxF "$name" "$1/.pc/applied-patches" 2>/dev/null || {
			printf '%s\n' "$name"
			return 0
		}
	done
}

# recover_hint SRCDIR PATCH: the command that undoes PATCH's interrupted push.
recover_hint() {
	printf "(cd '%s' && %s -r -t -B .pc/%s/ -)" "$1" "$QUILT_BACKUP" "$2"
}

# sums PATCHDIR NAME...: one 'CKSUM SIZE NAME' line per patch file.
sums() {
	local dir="$1" name

	shift
	for name in "$@"; do
		if [ -f "$dir/$name" ]; then
			printf '%s %s\n' "$(cksum <"$dir/$name")" "$name"
		else
			printf 'missing %s\n' "$name"
		fi
	done
}

# record SRCDIR PATCHDIR: remember the files of the applied patches.
record() {
	# shellcheck disable=SC2046 # patch names have no blanks
	sums "$2" $(applied_names "$1") >"$1/.pc/kparity-sums.tmp"
	mv "$1/.pc/kparity-sums.tmp" "$1/.pc/kparity-sums"
}

# stale_patch SRCDIR PATCHDIR: the first patch applied to SRCDIR that
# changed or left the series in PATCHDIR since it was applied, or nothing.
# A patch has left the series when the series no longer has it at its
# place (renamed, dropped or moved); it has changed when its file is not
# the one recorded in .pc/kparity-sums as applied. A tree without that
# record (patched by quilt alone) is taken to hold the files it names.
stale_patch() {
	local srcdir="$1" dir="$2" name want n=0

	for name in $(applied_names "$srcdir"); do
		n=$((n + 1))
		want=$(series_names "$dir/series" | sed -n "${n}p")
		if [ "$name" != "$want" ] ||
			{ [ -f "$srcdir/.pc/kparity-sums" ] &&
				! grep -qxF "$(sums "$dir" "$name")" "$srcdir/.pc/kparity-sums"; }; then
			printf '%s\n' "$name"
			return 0
		fi
	done
}

# applied_below SRCDIR NAME: the applied patch just below NAME, or nothing
# when NAME is the first.
applied_below() {
	applied_names "$1" | awk -v name="$2" '$0 == name { print prev; exit } { prev = $0 }'
}

# pop_from SRCDIR NAME: pop NAME and every patch above it. quilt restores
# their files from its backups (-f: whatever the patch files now say) and
# touches them, so make rebuilds what used them.
pop_from() {
	local below

	below=$(applied_below "$1" "$2")
	if [ -z "$below" ]; then
		q "$1" pop -a -f -q >/dev/null
	else
		q "$1" pop -f -q "$below" >/dev/null
	fi
}

# patch_files PATCHFILE: the files a patch touches, one per line.
patch_files() {
	sed -n 's|^+++ b/\([^\t]*\).*|\1|p' "$1"
}

# patch_subject PATCHFILE: the Subject of a patch in kernel format.
patch_subject() {
	sed -n 's/^Subject: *\(\[PATCH[^]]*\] *\)\{0,1\}//p' "$1" | head -n 1
}

# local_changes SRCDIR: print 'FILE (in PATCH)' for the first local change
# in a file the series works on, and return 0; return 1 when there is none.
# A file an applied patch touches must hold what the patch left (quilt
# diff -z is empty). A file only unapplied patches touch must be as the
# tarball had it, when kernel-src.sh left its checksums in SRCDIR.sums.
local_changes() {
	local srcdir="$1" name file want

	for name in $(applied_names "$srcdir"); do
		file=$(q "$srcdir" diff -z -P "$name" 2>/dev/null |
			sed -n 's|^+++ b/\([^\t]*\).*|\1|p' | head -n 1)
		if [ -n "$file" ]; then
			printf '%s (in %s)\n' "$file" "$name"
			return 0
		fi
	done
	[ -f "$srcdir.sums" ] || return 1
	for name in $(series_names "$QUILT_PATCHES/series"); do
		grep -qxF "$name" "$srcdir/.pc/applied-patches" 2>/dev/null && continue
		[ -f "$QUILT_PATCHES/$name" ] || continue
		for file in $(patch_files "$QUILT_PATCHES/$name"); do
			want=$(awk -v f="./$file" '$2 == f { print $1; exit }' "$srcdir.sums")
			[ -n "$want" ] || continue
			# A file an applied patch changed is that patch's business.
			[ -z "$(find "$srcdir/.pc" -path "$srcdir/.pc/*/$file" 2>/dev/null | head -n 1)" ] || continue
			[ "$(md5sum <"$srcdir/$file" 2>/dev/null | cut -d' ' -f1)" = "$want" ] && continue
			printf '%s (in %s)\n' "$file" "$name"
			return 0
		done
	done
	return 1
}

# open_series
# Usage: open_series BUILDDIR   (with the caller's srcdir and patchdir set)
# Check $patchdir/series and make patchdir absolute; without srcdir,
# extract the tree under BUILDDIR; check the tree against the series' pin.
open_series() {
	[ -f "$patchdir/series" ] || die "cannot read '$patchdir/series'"
	patchdir=$(cd "$patchdir" && pwd)
	if [ -z "$srcdir" ]; then
		srcdir=$(KPARITY_SRC_QUIET=1 "$TOPDIR/scripts/kernel-src.sh" -o "$1") || exit 2
	fi
	[ -d "$srcdir" ] || die "'$srcdir' is not a directory"
	check_pin "$patchdir/series" "$srcdir"
}
