# SPDX-License-Identifier: GPL-2.0-only
#
# probe-cache.sh - where answers are kept: the cache directory (never in
# the source tree, owned like the build tree), its bucket files in the
# format kbuild/cache-format defines, and the audit log.
#
# Sourced by kbuild/probe.sh (which sets PROG and TOPDIR, sources
# scripts/lib/common.sh and owns the option variables); not run.

# shellcheck shell=sh
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck disable=SC2034,SC2154 # state shared with probe.sh and its other parts

# shellcheck source=kbuild/cache-format
. "$TOPDIR/kbuild/cache-format"

# store FILE TEXT: write TEXT to FILE atomically; a concurrent writer of the
# same key writes the same text, and the last rename wins.
store() {
	local file="$1" tmp

	tmp="$file.tmp.$$"
	if ! printf '%s\n' "$2" >"$tmp" 2>/dev/null; then
		rm -f "$tmp"
		verbose "cannot write cache entry '$file'"
		return 0
	fi
	[ -n "$owner" ] || owner_of "$cachedir"
	[ -z "$owner" ] || chown "$owner" "$tmp" 2>/dev/null || :
	# mv would move the file into a directory of that name
	if [ -d "$file" ] || ! mv -f "$tmp" "$file" 2>/dev/null; then
		rm -f "$tmp"
	fi
}

# canon PATH: PATH made absolute and free of symlinks, as far as it exists
canon() {
	local head="$1" tail=""

	case "$head" in
	/*) ;;
	*) head="$PWD/$head" ;;
	esac
	while [ ! -d "$head" ]; do
		tail="/${head##*/}$tail"
		head="${head%/*}"
		[ -n "$head" ] || head=/
	done
	printf '%s%s\n' "$(cd "$head" && pwd -P)" "$tail"
}

# in_srctree PATH: PATH lies inside the kernel source tree
in_srctree() {
	[ -n "$srctree" ] || return 1
	case "$(canon "$1")/" in
	"$(canon "$srctree")"/*) return 0 ;;
	esac
	return 1
}

# owner_of DIR: set owner to the owner of DIR's nearest existing
# ancestor when running as root and that is someone else, and top to it.
# Run as root in a user's build tree (make modules_install), new files go
# to the tree's owner, so the next build as that user can still write.
owner_of() {
	owner=""
	top="$1"
	while [ ! -d "$top" ]; do
		top=$(dirname "$top")
	done
	[ "$(id -u)" = 0 ] || return 0
	owner=$(stat -c '%u:%g' "$top")
	[ "$owner" != 0:0 ] || owner=""
}

# make_dir DIR: mkdir -p DIR, created directories going to $owner
make_dir() {
	local d="$1"

	owner_of "$d"
	mkdir -p "$d" 2>/dev/null || return 1
	[ -n "$owner" ] || return 0
	while [ "$d" != "$top" ] && [ "$d" != / ] && [ "$d" != . ]; do
		chown "$owner" "$d" 2>/dev/null || :
		d=$(dirname "$d")
	done
}

# cache_setup DIR: use DIR for the cache unless it lies in the source tree
cache_setup() {
	local dir="$1"

	cachedir=""
	owner=""
	[ -n "$dir" ] || return 0
	if in_srctree "$dir"; then
		verbose "not caching in the source tree ('$dir')"
		return 0
	fi
	[ -d "$dir" ] || make_dir "$dir" || { verbose "cannot create cache '$dir'"; return 0; }
	cachedir=$(cd "$dir" 2>/dev/null && pwd -P) || {
		cachedir=""
		verbose "cannot use cache '$dir'"
	}
}

# unreadable DIR: an unread^=NAME line for each entry of the cache in DIR
# that make's $(file <) could not read (it stops make on an open or read
# error, and blocks on a FIFO): anything but a readable regular file.
# unread^=* when the whole cache is unusable or holds a name make would not
# ask for; make then leaves the reading to this script, which ignores them.
unreadable() {
	local dir="$1" f name

	[ -n "$dir" ] && [ -e "$dir" ] || return 0
	if [ -z "$cachedir" ] || [ ! -r "$cachedir" ]; then
		verbose "ignoring unreadable cache '$dir'"
		echo 'unread^=*'
		return 0
	fi
	for f in "$cachedir"/*; do
		[ -f "$f" ] && [ -r "$f" ] && continue
		[ -e "$f" ] || [ -L "$f" ] || continue
		name="${f##*/}"
		verbose "ignoring unreadable cache entry '$f'"
		case "$name" in
		*[!A-Za-z0-9._,+=:-]*)
			echo 'unread^=*'
			return 0
			;;
		esac
		printf 'unread^=%s\n' "$name"
	done
}

# scan_bucket MODE FILE: with MODE find, print the answer field of $key's
# record; with MODE keep, print every valid record but $key's. Exit 3
# when FILE holds anything that is not a valid record.
scan_bucket() {
	KP_KEY="$key" awk -F '\t' -v mode="$1" -v magic="$kp_cache_magic" -v tag="$kp_cache_tag" \
		-v answers="$kp_cache_answers" -v stock="$kp_cache_stock" -v reasons="$kp_cache_reasons" \
		-v macros="$kp_cache_macros" -f "$TOPDIR/kbuild/scan-bucket.awk" "$2"
}

# cache_read FILE: set c_answer, c_reason, c_stock from $key's record in
# FILE; anything else is a miss.
cache_read() {
	local file="$1" field rc=0

	[ -e "$file" ] || return 1
	if [ ! -f "$file" ] || [ ! -r "$file" ]; then
		verbose "ignoring unreadable cache entry '$file'"
		return 1
	fi
	field=$(scan_bucket find "$file" 2>/dev/null) || rc=$?
	[ "$rc" = 0 ] || verbose "ignoring corrupt cache entry '$file'"
	[ -n "$field" ] || return 1
	c_answer="${field%%:*}"
	c_stock="${field##*:}"
	c_reason="${field#*:}"
	c_reason="${c_reason%:*}"
}

# cache_write FILE FIELD: put $key's record, answer field FIELD, in FILE.
# Writers of one cache take turns (flock on the directory) and replace the
# file by renaming, so readers see the old file or the new one, never half
# of one, and no writer's record is lost.
cache_write() {
	local file="$1" tmp="$1.tmp.$$"

	[ -n "$owner" ] || owner_of "$cachedir"
	(
		if command -v flock >/dev/null 2>&1; then
			flock -x 9 || :
		fi
		{
			printf '%s\n' "$kp_cache_magic"
			[ ! -f "$file" ] || scan_bucket keep "$file" 2>/dev/null || :
			printf '%s%s\n' "$key" "$2"
		} >"$tmp" 2>/dev/null || { rm -f "$tmp"; exit 1; }
		[ -z "$owner" ] || chown "$owner" "$tmp" 2>/dev/null || :
		if [ -d "$file" ] || ! mv -f "$tmp" "$file" 2>/dev/null; then
			rm -f "$tmp"
			exit 1
		fi
	) 9<"$cachedir" || verbose "cannot write cache entry '$file'"
}

audit_line() {
	local flag

	[ -n "$auditlog" ] || return 0
	flag=$(printf '%s' "$shown" | tr '\t\n' '  ')
	if [ ! -e "$auditlog" ]; then
		make_dir "$(dirname "$auditlog")" || :
		: >>"$auditlog" 2>/dev/null || :
		[ -z "$owner" ] || chown "$owner" "$auditlog" 2>/dev/null || :
	fi
	# One short line in O_APPEND mode: concurrent makes do not mix lines.
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$macro" "$flag" \
		"$(short_version "$tool_version" "$kind")" "$answer" "$reason" "$1" "$stock" \
		>>"$auditlog" 2>/dev/null || verbose "cannot append to audit log '$auditlog'"
}

# valid_bucket NAME: NAME is a plain file name
valid_bucket() {
	case "$1" in
	'' | . | .. | */* | tool-*) return 1 ;;
	esac
}

# answer_probe: answer one probe, from the cache when it has the answer
