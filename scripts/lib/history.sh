# SPDX-License-Identifier: GPL-2.0-only
#
# history.sh - what the scripts that read or write the history database
# share (scripts/history.sh, scripts/compiler-bisect.sh,
# scripts/reproduce.sh); sourced, not run. Needs TOPDIR, and
# scripts/lib/tree.sh sourced (scripts/lib/target.sh sources it).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh

# history_db
# Usage: db=$(history_db)
# Prints the database's path: $KPARITY_HISTORY_DB, else
# ${XDG_DATA_HOME:-~/.local/share}/kparity/results.db.
history_db() {
	printf '%s\n' "${KPARITY_HISTORY_DB:-${XDG_DATA_HOME:-$HOME/.local/share}/kparity/results.db}"
}

# series_list PATCHDIR
# Usage: series_list "$k_series" >FILE
# Prints "SHA256 NAME" for each patch of PATCHDIR/series, in its order:
# the sha256 of the patch file, or of "missing NAME" for a patch the
# series names but the directory lacks. Prints nothing when there is no
# series or it names no patch.
series_list() {
	local p="$1" names f

	[ -f "$p/series" ] || return 0
	names=$(sed -n 's/^[ \t]*\([^# \t][^ \t]*\).*/\1/p' "$p/series")
	# a patch name is one word: quilt's series has no other kind
	for f in $names; do
		if [ -f "$p/$f" ]; then
			printf '%s %s\n' "$(sha256sum "$p/$f" | cut -c-64)" "$f"
		else
			printf '%s %s\n' "$(printf 'missing %s\n' "$f" | sha256sum | cut -c-64)" "$f"
		fi
	done
}

# series_sum PATCHDIR
# Usage: sum=$(series_sum "$k_series")
# Prints the series' checksum as KCIDB defines a patchset hash: the
# sha256 of the newline-terminated sha256 of each patch (series_list), in
# the order of PATCHDIR/series. Prints nothing when there is no series or
# it names no patch.
series_sum() {
	local l

	l=$(series_list "$1")
	[ -n "$l" ] || return 0
	printf '%s\n' "$l" | cut -c-64 | sha256sum | cut -c-64
}

# tree_series_sum [VERSION]
# Usage: sum=$(tree_series_sum "$(tree_version "$srcdir")")
# Prints series_sum of the series of the kernel tree of Linux VERSION
# (VERSION.PATCHLEVEL[.SUBLEVEL]), or without VERSION of the run's tree
# (tree_name); nothing for a tree scripts/trees/ has no file for.
tree_series_sum() {
	tree_series series_sum "$@"
}

# tree_series_list [VERSION]
# Usage: tree_series_list >FILE
# Prints series_list of the series of that tree, as tree_series_sum.
tree_series_list() {
	tree_series series_list "$@"
}

# tree_series FUNCTION [VERSION]: FUNCTION (series_sum, series_list) of
# the series of the tree of VERSION, or of the run's tree
tree_series() {
	local fn="$1" name

	shift
	if [ -n "${1:-}" ]; then
		name=$(printf '%s\n' "$1" | cut -d . -f 1-2)
	else
		name=$(tree_name)
	fi
	[ -f "$TOPDIR/scripts/trees/$name.tree" ] || return 0
	# shellcheck disable=SC2154 # load_tree (scripts/lib/tree.sh) sets it
	(load_tree "$name" && "$fn" "$k_series")
}
