# SPDX-License-Identifier: GPL-2.0-only
#
# probe-ident.sh - who answers a probe: the real tool behind a command
# (past ccache and its masquerade links), its version and target, and the
# hash a cached answer is keyed on.
#
# Sourced by kbuild/probe.sh (which sets PROG and TOPDIR, sources
# scripts/lib/common.sh and owns the option variables); not run.

# shellcheck shell=sh
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck disable=SC2034,SC2154 # state shared with probe.sh and its other parts

# The identity cache, CACHEDIR/tool-NAME: this magic line, then id,
# version and machine lines. Only this file reads and writes it.
TOOL_MAGIC='kparity-probe 1'

NL='
'

is_wrapper() {
	case "${1##*/}" in
	ccache | sccache | distcc | icecc | buildcache) return 0 ;;
	esac
	return 1
}

# find_real NAME: set real_run (what to run) and real_path (the binary)
# for NAME, looking past ccache's masquerade symlinks in PATH.
find_real() {
	local name="$1" dir resolved

	case "$name" in
	*/*)
		real_run="$name"
		real_path=$(readlink -f "$name") || return 1
		return 0
		;;
	esac
	local IFS=:
	for dir in $PATH; do
		[ -x "${dir:-.}/$name" ] || continue
		resolved=$(readlink -f "${dir:-.}/$name") || continue
		is_wrapper "$resolved" && continue
		real_run="${dir:-.}/$name"
		real_path="$resolved"
		return 0
	done
	return 1
}

# file_name TEXT: TEXT with '/' and blanks made '_', for a file name
file_name() {
	local IFS='/ 	'

	set -f
	# shellcheck disable=SC2086 # split on the separators on purpose
	set -- $1
	set +f
	IFS=_
	printf '%s\n' "$*"
}

# tool_identity CMD: set tool_run_words and tool_id for the
# command CMD ("ccache clang", "clang-19", "/opt/llvm/bin/clang ..."): the
# real binary, the words to run it with, and what identifies its answers.
tool_identity() {
	local word rest="" seen=""

	tool_id=""
	for word in $1; do
		if [ -z "$seen" ]; then
			case "$word" in
			*=*) continue ;;
			esac
			is_wrapper "$word" && continue
			seen="$word"
		else
			rest="$rest $word"
		fi
	done
	[ -n "$seen" ] || return 1
	find_real "$seen" || return 1
	tool_run_words="$real_run$rest"
	# Path, size, mtime and inode: an upgrade, an update-alternatives
	# switch or a swapped symlink all change at least one of them.
	tool_id="$real_path $(stat -L -c '%s %Y %i' "$real_path")$rest"
}

# tool_facts: set tool_version and tool_machine for tool_run_words, from
# the identity cache when it has them, so a warm cache runs no tool.
tool_facts() {
	local file="" line v="" m="" k=""

	if [ -n "$cachedir" ]; then
		file="$cachedir/tool-$(file_name "$tool_id")"
		if [ -f "$file" ] && [ -r "$file" ]; then
			{
				IFS= read -r line && [ "$line" = "$TOOL_MAGIC" ] &&
					IFS= read -r k && IFS= read -r v && IFS= read -r m
			} <"$file" || :
			if [ "$k" = "id $tool_id" ] && [ -n "${v#version }" ] && [ -n "${m#machine }" ]; then
				tool_version="${v#version }"
				tool_machine="${m#machine }"
				return 0
			fi
			verbose "ignoring unusable cache entry '$file'"
		fi
	fi
	# shellcheck disable=SC2086 # the tool's words split on purpose
	tool_version=$(LC_ALL=C $tool_run_words --version 2>/dev/null | sed -n 1p) || :
	tool_machine=-
	# The target only matters for the cache key.
	# shellcheck disable=SC2086
	[ -z "$file" ] || tool_machine=$(LC_ALL=C $tool_run_words -dumpmachine 2>/dev/null) || :
	[ -n "$tool_version" ] || tool_version=unknown
	[ -n "$tool_machine" ] || tool_machine=unknown
	[ -z "$file" ] ||
		store "$file" "$TOOL_MAGIC${NL}id $tool_id${NL}version $tool_version${NL}machine $tool_machine"
}

# tool_kind VERSION-LINE: print clang, gcc, lld, gnu-ld or other
tool_kind() {
	case "$1" in
	*clang*) echo clang ;;
	*LLD*) echo lld ;;
	*"GNU ld"* | *"GNU gold"*) echo gnu-ld ;;
	*gcc* | *GCC*) echo gcc ;;
	*) echo other ;;
	esac
}

# short_version VERSION-LINE KIND: "clang-14.0.6", "gcc-12.2.0": the last
# number with a dot in the line
short_version() {
	local w v=""

	set -f
	for w in $1; do
		w="${w#"${w%%[0-9]*}"}"
		w="${w%%[!0-9.]*}"
		case "$w" in
		[0-9]*.[0-9]*) v="${w%.}" ;;
		esac
	done
	set +f
	printf '%s-%s\n' "$2" "${v:-unknown}"
}

# identify CMD: set tool_run_words, tool_id, tool_version, tool_machine,
# kind and tool_hash (what the cache keys on) for the command CMD; 1 when
# there is no such tool
identify() {
	tool_identity "$1" || return 1
	tool_facts
	kind=$(tool_kind "$tool_version")
	tool_hash=$(printf 'id %s\nversion %s\nmachine %s\n' "$tool_id" "$tool_version" "$tool_machine" | md5sum)
	tool_hash="${tool_hash%% *}"
}

# identities NAME TOOL...: one NAME^=HASH,VERSION line per tool
identities() {
	while [ $# -ge 2 ]; do
		if identify "$2"; then
			printf '%s^=%s,%s\n' "$1" "$tool_hash" "$(short_version "$tool_version" "$kind")"
		else
			printf '%s^=-\n' "$1"
		fi
		shift 2
	done
}
