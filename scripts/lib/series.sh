# SPDX-License-Identifier: GPL-2.0-only
#
# series.sh - what the quilt series tools share; sourced, not run.
#
# The caller sets PROG and TOPDIR; this file sources scripts/lib/common.sh
# (die, warn, step, tree_version, ...) and scripts/lib/tree.sh itself.
# Each kernel tree has its series, patches/TREE/ (scripts/trees/TREE.tree
# says where); the series file may pin the kernel it is for with a line
# '# Kernel: VERSION.PATCHLEVEL.SUBLEVEL', and a tree of another version
# is refused.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh

# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/tree.sh
. "$TOPDIR/scripts/lib/tree.sh"

QUILT_BACKUP=/usr/share/quilt/scripts/backup-files

# series_dir SRCDIR: the patch directory of SRCDIR's kernel tree (the
# SERIES of scripts/trees/VERSION.PATCHLEVEL.tree); nothing, and failure,
# when no tree file is for SRCDIR's version. Dies when SRCDIR is no kernel
# tree, or when KERNEL names another tree than SRCDIR is.
series_dir() {
	local have tree

	have=$(tree_version "$1") || die "'$1' is not a kernel tree"
	tree=$(tree_for_version "$have") || return 1
	[ -z "${KERNEL:-}" ] || [ "$KERNEL" = "$tree" ] ||
		die "KERNEL=$KERNEL, but '$1' is Linux $have"
	(load_tree "$tree" && printf '%s\n' "$k_series")
}

# series_names FILE: the patch names in a quilt series file, in order.
series_names() {
	awk '/^[ \t]*(#|$)/ { next } { print $1 }' "$1"
}

# check_pin SERIES SRCDIR: die (exit 2) unless SRCDIR is the kernel SERIES
# pins; a series without a pin fits any tree.
check_pin() {
	local pin have

	pin=$(series_pin "$1")
	[ -n "$pin" ] || return 0
	have=$(tree_version "$2") || :
	[ "$have" = "$pin" ] && return 0
	die "'$1' is for Linux $pin, but '$2' is ${have:+Linux }${have:-not a kernel tree}"
}

# quilt_setup PATCHDIR: export what quilt needs to use PATCHDIR's series
# with its state in the tree's .pc/; scripts/quiltrc has the rest.
quilt_setup() {
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" quilt || exit 2
	QUILT_PATCHES="$1"
	export QUILT_PATCHES
}

# q SRCDIR ARG...: quilt ARG... in SRCDIR, with the shipped quiltrc
# whatever ~/.quiltrc says.
q() {
	local srcdir="$1"

	shift
	(cd "$srcdir" && QUILTRC="$TOPDIR/scripts/quiltrc" quilt --quiltrc "$TOPDIR/scripts/quiltrc" "$@")
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

# interrupted_pop SRCDIR PATCHDIR: the top patch when its pop was
# interrupted, or nothing. quilt restores a patch's files from its backups
# before it records the patch as popped, so such a patch is still applied
# but some file it touches (as applied: the copy in .pc/.kparity/, else
# its file in PATCHDIR) has no backup left in .pc/PATCH/.
interrupted_pop() {
	local top patchfile files file

	top=$(applied_names "$1" | tail -n 1)
	[ -n "$top" ] || return 0
	patchfile="$1/.pc/.kparity/$top"
	[ -f "$patchfile" ] || patchfile="$2/$top"
	[ -f "$patchfile" ] || return 0
	files=$(patch_files "$patchfile" 2>/dev/null) || return 0
	for file in $files; do
		[ -e "$1/.pc/$top/$file" ] && continue
		printf '%s\n' "$top"
		return 0
	done
}

# recover_hint SRCDIR PATCH: the command that undoes PATCH's interrupted push.
recover_hint() {
	printf "(cd '%s' && %s -r -t -B .pc/%s/ -)" "$1" "$QUILT_BACKUP" "$2"
}

# recorded SRCDIR PATCHDIR: SRCDIR/.pc/.kparity/ holds exactly the files
# record would write.
recorded() {
	local name n=0

	[ -d "$1/.pc/.kparity" ] && [ ! -e "$1/.pc/kparity-sums" ] || return 1
	for name in $(applied_names "$1"); do
		[ -f "$2/$name" ] || continue
		cmp -s "$2/$name" "$1/.pc/.kparity/$name" || return 1
		n=$((n + 1))
	done
	[ "$(find "$1/.pc/.kparity" -mindepth 1 | wc -l)" -eq "$n" ]
}

# record SRCDIR PATCHDIR: keep a copy of every applied patch's file, as
# applied, in SRCDIR/.pc/.kparity/: what tells a patch changed in the
# series since (a git pull) from work done in the tree. A record that is
# already right is left alone: a build that finds nothing newer in the
# tree than its last success need not build.
record() {
	local pc="$1/.pc" name

	! recorded "$1" "$2" || return 0
	rm -rf "$pc/.kparity.tmp" "$pc/kparity-sums"
	mkdir "$pc/.kparity.tmp"
	for name in $(applied_names "$1"); do
		[ ! -f "$2/$name" ] || cp "$2/$name" "$pc/.kparity.tmp/$name"
	done
	rm -rf "$pc/.kparity"
	mv "$pc/.kparity.tmp" "$pc/.kparity"
}

# patch_files PATCHFILE: the files a patch touches, one per line, as
# 'patch -p1' names them, whatever the prefix ('a/', 'b/',
# 'linux-source-6.1.orig/'). Says why on stderr and returns 1 when it
# cannot tell: callers must not read an empty answer as "nothing".
patch_files() {
	local why

	why=$(awk -f "$TOPDIR/scripts/series/patch-files.awk" "$1" 2>&1 >/dev/null) && {
		awk -f "$TOPDIR/scripts/series/patch-files.awk" "$1"
		return 0
	}
	warn "cannot tell the files '$1' touches: line $why"
	return 1
}

# created_files PATCHFILE: the files PATCHFILE creates.
created_files() {
	awk -v only=created -f "$TOPDIR/scripts/series/patch-files.awk" "$1" 2>/dev/null
}

# patch_subject PATCHFILE: the Subject of a patch in kernel format.
patch_subject() {
	sed -n 's/^Subject: *\(\[PATCH[^]]*\] *\)\{0,1\}//p' "$1" | head -n 1
}

# after_state SRCDIR NAME FILE: where FILE is as applied patch NAME left
# it: the backup of the first applied patch above NAME that has one, else
# the tree.
after_state() {
	local above

	for above in $(applied_names "$1" | awk -v name="$2" 'found; $0 == name { found = 1 }'); do
		if [ -e "$1/.pc/$above/$3" ]; then
			printf '%s\n' "$1/.pc/$above/$3"
			return 0
		fi
	done
	printf '%s\n' "$1/$3"
}

# present FILE: does FILE exist? quilt's empty backup in .pc/ stands for
# a file that did not.
present() {
	case "$1" in
	*/.pc/*) [ -s "$1" ] ;;
	*) [ -e "$1" ] ;;
	esac
}

# same_file A B: are A and B both absent, or both there and the same?
same_file() {
	if present "$1"; then
		present "$2" && cmp -s "$1" "$2"
	else
		! present "$2"
	fi
}

# holds SRCDIR NAME PATCHFILE: does the tree hold exactly what PATCHFILE
# makes of the files applied patch NAME backed up? Applies PATCHFILE to a
# copy of quilt's backups and compares with the state after NAME; this is
# what 'quilt diff -z' measures, for any patch file.
holds() {
	local srcdir="$1" name="$2" patchfile="$3" dir tmp file ok=0

	[ -f "$patchfile" ] || return 1
	dir="$srcdir/.pc/$name"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-holds.XXXXXX")
	(cd "$dir" && find . -type f ! -name .timestamp) | sed 's|^\./||' >"$tmp/list"
	# Every file the patch touches has its backup.
	if patch_files "$patchfile" >"$tmp/files" 2>/dev/null &&
		! grep -vxF -f "$tmp/list" "$tmp/files" >/dev/null; then
		mkdir "$tmp/tree"
		while read -r file; do
			[ -s "$dir/$file" ] || continue
			mkdir -p "$tmp/tree/$(dirname "$file")"
			cp "$dir/$file" "$tmp/tree/$file"
		done <"$tmp/list"
		if patch -d "$tmp/tree" -p1 -s -f -E -r - --no-backup-if-mismatch \
			<"$patchfile" >/dev/null 2>&1; then
			while read -r file; do
				same_file "$tmp/tree/$file" "$(after_state "$srcdir" "$name" "$file")" || {
					ok=1
					break
				}
			done <"$tmp/list"
		else
			ok=1
		fi
	else
		ok=1
	fi
	rm -rf "$tmp"
	return "$ok"
}

# patch_states SRCDIR PATCHDIR: 'NAME STATE' for every applied patch:
#   ok       at its place in the series, and the tree holds its file
#            exactly (pushed by kernel-patch.sh or by quilt itself)
#   stale    changed or left the series since it was applied; the tree
#            holds exactly the file as applied, so popping loses nothing
#   new      no file: made by 'quilt new', never refreshed
#   edited   the tree holds changes that no patch file has: edits not
#            refreshed yet (or on top of a version the series lost)
# new and edited are a maintainer's work: nothing may pop them.
patch_states() {
	local srcdir="$1" dir="$2" name want n=0 state

	for name in $(applied_names "$srcdir"); do
		n=$((n + 1))
		want=$(series_names "$dir/series" | sed -n "${n}p")
		if [ "$name" = "$want" ] && holds "$srcdir" "$name" "$dir/$name"; then
			state=ok
		elif holds "$srcdir" "$name" "$srcdir/.pc/.kparity/$name"; then
			state=stale
		elif [ ! -f "$dir/$name" ] && [ ! -f "$srcdir/.pc/.kparity/$name" ]; then
			state=new
		else
			state=edited
		fi
		printf '%s %s\n' "$name" "$state"
	done
}

# stale_patch SRCDIR PATCHDIR: the first applied patch that changed or
# left the series since it was applied, or nothing.
stale_patch() {
	patch_states "$1" "$2" | awk '$2 == "stale" { print $1; exit }'
}

# unsaved SRCDIR PATCHDIR [SKIP]: print the applied patches holding work
# no patch file has, as 'NAME (why), ...', and return 0; return 1 when
# there are none. SKIP is a patch not to count (one the caller refreshes).
unsaved() {
	local list

	list=$(patch_states "$1" "$2" | awk -v skip="${3:-}" '
		$1 == skip { next }
		$2 == "new" { l = l sep $1 " (no patch file: quilt new, never refreshed)"; sep = ", " }
		$2 == "edited" { l = l sep $1 " (edits not refreshed)"; sep = ", " }
		END { print l }')
	[ -n "$list" ] || return 1
	printf '%s\n' "$list"
}

# unsaved_msg SRCDIR LIST: the one line that stops a tool on unsaved work,
# with the commands that keep it and the one that drops it.
unsaved_msg() {
	local keep

	keep=$(printf '%s\n' "$2" | grep -o '[^ ,(]* (' | awk '{ printf " && quilt refresh %s", $1 }')
	printf "'%s' has work no patch file holds: %s; keep it with 'cd %s%s', or drop it with 'scripts/kernel-patch.sh --discard -s %s'" \
		"$1" "$2" "$1" "$keep" "$1"
}

# check_unsaved SRCDIR PATCHDIR [SKIP]: die with unsaved_msg on unsaved work.
check_unsaved() {
	local list

	if list=$(unsaved "$@"); then
		die "$(unsaved_msg "$1" "$list")"
	fi
}

# applied_below SRCDIR NAME: the applied patch just below NAME, or nothing
# when NAME is the first.
applied_below() {
	applied_names "$1" | awk -v name="$2" '$0 == name { print prev; exit } { prev = $0 }'
}

# pop_from SRCDIR NAME: pop NAME and every patch above it. quilt restores
# their files from its backups (-f: whatever the patch files now say) and
# touches them, so make rebuilds what used them. Callers make sure first
# that nothing popped holds unsaved work (check_unsaved).
pop_from() {
	local below

	below=$(applied_below "$1" "$2")
	if [ -z "$below" ]; then
		q "$1" pop -a -f -q >/dev/null
	else
		q "$1" pop -f -q "$below" >/dev/null
	fi
}

# local_changes SRCDIR [PATCHDIR]: print 'FILE (in PATCH)' for the first
# file that a patch of PATCHDIR (default: QUILT_PATCHES) not applied yet
# touches and that is not as the tarball had it (when kernel-src.sh left
# its checksums in SRCDIR.sums), and return 0; return 1 when there is none.
# Edits to applied patches' files are patch_states' business.
local_changes() {
	local srcdir="$1" dir="${2:-${QUILT_PATCHES:-}}" name file want files

	[ -f "$srcdir.sums" ] || return 1
	for name in $(series_names "$dir/series"); do
		grep -qxF "$name" "$srcdir/.pc/applied-patches" 2>/dev/null && continue
		[ -f "$dir/$name" ] || continue
		files=$(patch_files "$dir/$name") || continue
		for file in $files; do
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

# use_patchdir SRCDIR PATCHDIR: make quilt in SRCDIR use PATCHDIR. quilt
# takes its patch directory from .pc/.quilt_patches before QUILT_PATCHES,
# so a tree patched from elsewhere would silently keep its old one. A
# directory that no longer exists (the checkout moved), or whose series
# moved into DIR below it (one series per tree), is replaced, with a note;
# another one is refused while patches from it are applied.
use_patchdir() {
	local srcdir="$1" dir="$2" old

	[ -f "$srcdir/.pc/.quilt_patches" ] || return 0
	old=$(cat "$srcdir/.pc/.quilt_patches")
	case "$old" in
	/*) ;;
	*) old="$srcdir/$old" ;;
	esac
	[ -d "$old" ] && [ "$(cd "$old" && pwd -P)" = "$(cd "$dir" && pwd -P)" ] && return 0
	# a series that moved into a directory of its tree (patches/ to
	# patches/6.1/): the old directory holds no series any more
	if [ -d "$old" ] && [ ! -f "$old/series" ] &&
		[ "$(cd "$old" && pwd -P)" = "$(cd "$dir/.." && pwd -P)" ]; then
		warn "'$srcdir' was patched from '$old', whose series moved to '$dir'; using '$dir'"
		printf '%s\n' "$dir" >"$srcdir/.pc/.quilt_patches"
		return 0
	fi
	if [ -d "$old" ] && [ -n "$(applied_names "$srcdir")" ]; then
		die "'$srcdir' was patched from '$old', not '$dir'; use -p '$old', or pop its patches first ('cd $srcdir && quilt pop -a')"
	fi
	[ -d "$old" ] || warn "'$srcdir' was patched from '$old', which is gone; using '$dir'"
	printf '%s\n' "$dir" >"$srcdir/.pc/.quilt_patches"
}

# open_series
# Usage: open_series BUILDDIR   (with the caller's srcdir and patchdir set)
# Check $patchdir/series and make patchdir absolute; without srcdir,
# extract the tree under BUILDDIR, which must exist (a mistyped O= must
# not receive a 1.5 GB tree); check the tree against the series' pin.
open_series() {
	if [ -z "$srcdir" ]; then
		[ -d "$1" ] || die "'$1' is not a directory (O= names an existing build directory)"
		srcdir=$(KPARITY_SRC_QUIET=1 "$TOPDIR/scripts/kernel-src.sh" -o "$1") || exit 2
	fi
	[ -d "$srcdir" ] || die "'$srcdir' is not a directory"
	need_patchdir "$srcdir"
	check_pin "$patchdir/series" "$srcdir"
}

# need_patchdir SRCDIR: $patchdir made absolute: the caller's (-p), or
# else the series of SRCDIR's tree; dies when there is none.
need_patchdir() {
	local rc=0

	if [ -z "$patchdir" ]; then
		patchdir=$(series_dir "$1") || rc=$?
		# series_dir said why it refused (2)
		[ "$rc" -ne 2 ] || exit 2
		[ "$rc" -eq 0 ] ||
			die "no series for '$1': scripts/trees/ has no file for Linux $(tree_version "$1")"
	fi
	[ -f "$patchdir/series" ] || die "cannot read '$patchdir/series'"
	patchdir=$(cd "$patchdir" && pwd)
}

# changes_msg SRCDIR LIST: the one line that stops a tool on changes in
# files the series is still to patch (LIST from local_changes).
changes_msg() {
	printf "'%s' has changes no patch holds in files the series is still to patch: %s; save them if they are yours, then extract the tree afresh ('make series-tree FRESH=1 DISCARD=1'); a push interrupted and then retried with 'quilt push' leaves such changes too" \
		"$1" "$2"
}

# check_interrupted SRCDIR PATCHDIR: die when a push or a pop was
# interrupted in SRCDIR, with the ways to undo or finish it.
check_interrupted() {
	local name

	name=$(interrupted "$1")
	[ -z "$name" ] ||
		die "a push of '$name' was interrupted in '$1'; undo it with 'scripts/kernel-patch.sh -r -s $1' or $(recover_hint "$1" "$name")"
	name=$(interrupted_pop "$1" "$2")
	[ -z "$name" ] ||
		die "$(pop_msg "$1" "$name")"
}

# pop_msg SRCDIR NAME: the line for NAME's interrupted pop.
pop_msg() {
	printf "a pop of '%s' was interrupted in '%s'; finish it with 'scripts/kernel-patch.sh -r -s %s' or (cd '%s' && quilt pop -f)" \
		"$2" "$1" "$1" "$1"
}

# fail MSG...
# Usage: fail "cannot pop '$name' from '$srcdir'"
# Like die, for a check that failed: exit 1.
fail() {
	warn "$@"
	exit 1
}
