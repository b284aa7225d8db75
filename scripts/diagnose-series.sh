#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-series.sh - the Clang findings each patch of the tree's applied
# quilt series adds and removes, the way the 0-day bot reports a patch's
# new warnings. The build is replayed first (diagnose.sh: only what changed
# since its last replay); then the series is walked back, last patch first,
# in a copy of the tree made of hard links: each patch's files are put back
# as quilt kept them (.pc/PATCH/), and only the units the patch reaches
# (one of its files is their source or a dependency Kbuild's .cmd files
# list) are replayed without it. A finding is the patch's when the number
# of findings with its kind, flag, file and text differs before and after
# it (a patch that adds lines moves the findings below them, which is not
# a change). New findings that GCC's log of the build has at the same line
# are not listed: what remains is Clang's own.
#
# What a patch changes in Kconfig or a Makefile reaches no unit: the
# replay takes the build's commands and configuration as they are.
#
# The result goes to OUTDIR/series.json and series.md (Documentation/
# diagnose.md), and the listing to stdout.
#
# Exit: 0 the walk ran, whatever it found; 2 trouble (usage, no build or
# no applied series, the replay's own trouble).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=diagnose-series.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
LIB="$TOPDIR/scripts/diagnose"

usage() {
	cat <<USAGE
usage: $PROG [-O ROOT] [-o OUTDIR] [-c clang|clang-N] [-W LEVEL] [-j N]
       [-f PATCH] (-C CELL | BUILD_DIR)
List, for each patch applied to the kernel tree of the GCC build BUILD_DIR
(or the parity cell CELL, x86_64-gcc), the Clang findings it adds (+) and
removes (-), and the units it reaches.
  -O ROOT    kparity's build directory (default: build)
  -o OUTDIR  where the replay and the walk go (default: diagnose.sh's)
  -c CLANG   clang (the one LLVM=1|-N|DIR/ names, default) or clang-N
  -W LEVEL   the kernel's W= warning level (default: 1; '' the build's own)
  -j N       Clang jobs (default: the number of CPUs)
  -f PATCH   walk back to PATCH only: the patches before it are not listed
USAGE
}

# applied SRC: the patches applied to SRC, in order (quilt's .pc)
applied() {
	[ -s "$1/.pc/applied-patches" ] ||
		die "'$1' has no applied quilt series (no .pc/applied-patches); nothing to walk"
	grep -v -e '^$' "$1/.pc/applied-patches"
}

# patch_files SRC PATCH: the files PATCH changes, relative to the tree, from
# quilt's copies of them in SRC/.pc/PATCH
patch_files() {
	[ -d "$1/.pc/$2" ] || die "'$1/.pc/applied-patches' names '$2', but '$1/.pc/$2' is missing"
	(cd "$1/.pc/$2" && find . -type f ! -name .timestamp | sed 's|^\./||' | LC_ALL=C sort)
}

# subject SRC PATCH: the patch's Subject: without its [PATCH] tag, from the
# patch file quilt took it from; its name when that file is gone
subject() {
	local dir f s=""

	dir=$(cat "$1/.pc/.quilt_patches" 2>/dev/null || echo patches)
	case "$dir" in /*) f="$dir/$2" ;; *) f="$1/$dir/$2" ;; esac
	[ ! -f "$f" ] || s=$(sed -n '/^$/q; s/^Subject: *//p' "$f" | head -n 1 | sed 's/^\[[^]]*\] *//')
	printf '%s\n' "${s:-$2}"
}

# unpatch SRC SHADOW PATCH FILE...: put FILE back in SHADOW as it was before
# PATCH (quilt's rule: an empty copy is a file the patch created). The
# link is removed first, so the tree the shadow links to is never written.
unpatch() {
	local src="$1" shadow="$2" p="$3" f

	shift 3
	for f in "$@"; do
		rm -f "$shadow/$f"
		if [ -s "$src/.pc/$p/$f" ]; then
			mkdir -p "$(dirname "$shadow/$f")"
			cp "$src/.pc/$p/$f" "$shadow/$f"
		fi
	done
}

# reached WALK FILE...: WALK/reached, the indexes of the units made from one
# of the tree's FILEs (deps.tsv of the replay)
reached() {
	local walk="$1"

	shift
	printf "$srcdir/%s\n" "$@" >"$walk/files"
	awk -F '\t' 'NR == FNR { f[$0] = 1; next } ($2 in f) { print $1 }' \
		"$walk/files" "$out/deps.tsv" | LC_ALL=C sort -n -u >"$walk/reached"
}

# parse DIR WALK NAME: WALK/NAME.tsv, diagnose-parse.awk's records of the
# reached units' results in DIR
parse() {
	local i

	: >"$2/$3.status"
	: >"$2/$3.outputs"
	while read -r i; do
		cat "$1/$i.rc" >>"$2/$3.status"
		printf '%s\n' "$1/$i.out" >>"$2/$3.outputs"
	done <"$2/reached"
	# shellcheck disable=SC2046 # plain file names, one per unit
	awk -v src="$srcdir" -f "$LIB/diagnose-parse.awk" "$2/$3.status" $(cat "$2/$3.outputs") >"$2/$3.tsv"
}

# unshadow FILE...: the shadow tree's paths in FILE made the tree's again
unshadow() {
	local f

	for f in "$@"; do
		awk -v from="$shadow/" -v to="$srcdir/" '{
			while ((i = index($0, from)) > 0)
				$0 = substr($0, 1, i - 1) to substr($0, i + length(from))
			print
		}' "$f" >"$f.tmp"
		mv "$f.tmp" "$f"
	done
}

# replay_reached WALK: replay the reached units in the shadow tree into
# WALK/units, their results then as the tree's paths would give them
replay_reached() {
	local walk="$1" i

	rm -rf "$walk/units" "$walk/crash"
	mkdir -p "$walk/units" "$walk/crash"
	awk -F '\t' 'NR == FNR { r[$1] = 1; next } ($1 in r)' "$walk/reached" "$out/commands.tsv" |
		awk -F '\t' -v OFS='\t' -v from="$srcdir/" -v to="$shadow/" '{
			for (n = 3; n <= 4; n++)
				while ((i = index($n, from)) > 0)
					$n = substr($n, 1, i - 1) to substr($n, i + length(from))
			print
		}' >"$walk/commands.tsv"
	awk -F '\t' -v out="$walk" -v verbose="${V:-0}" -f "$LIB/diagnose-mk.awk" \
		"$walk/commands.tsv" >"$walk/replay.mk"
	run_logged "$walk/replay.log" make -k -j "$jobs" -f "$walk/replay.mk" ||
		die "the replay's make failed; see '$walk/replay.log'"
	while read -r i; do
		unshadow "$walk/units/$i.out" "$walk/units/$i.rc"
	done <"$walk/reached"
}

# walk: walk the applied series back, down to $first when set, one line
# of JSON per patch in OUT/series/patches.jsonl (last patch first)
walk() {
	local w="$out/series" p n k total files i

	rm -rf "$w"
	mkdir -p "$w/walk"
	printf '%s\n' "$series" | awk '{ print NR "\t" $0 }' >"$w/applied"
	shadow="$w/tree"
	# hard links where the output shares the tree's file system, else a copy
	if cp -al "$srcdir" "$shadow" 2>/dev/null; then
		step SHADOW "$srcdir (hard links)"
	else
		rm -rf "$shadow"
		step SHADOW "$srcdir (a copy: '$w' is on another file system)"
		cp -a "$srcdir" "$shadow" || die "cannot copy '$srcdir' into '$shadow'"
	fi
	cp -R "$out/units" "$w/cur"
	: >"$w/patches.jsonl"
	total=$(wc -l <"$w/applied")
	k=$total
	# last first: each step takes one patch out of the shadow tree
	LC_ALL=C sort -r -n "$w/applied" | cut -f2- | while IFS= read -r p; do
		files=$(patch_files "$srcdir" "$p")
		# shellcheck disable=SC2086 # plain paths from the kernel tree
		reached "$w/walk" $files
		n=$(wc -l <"$w/walk/reached")
		parse "$w/cur" "$w/walk" after
		# shellcheck disable=SC2086
		unpatch "$srcdir" "$shadow" "$p" $files
		if [ "$n" -gt 0 ]; then
			step WALK "$k/$total $p: $n unit$([ "$n" -eq 1 ] || echo s)"
			replay_reached "$w/walk"
			while read -r i; do
				cp "$w/walk/units/$i.out" "$w/walk/units/$i.rc" "$w/cur/"
			done <"$w/walk/reached"
		else
			step WALK "$k/$total $p: no unit"
		fi
		parse "$w/cur" "$w/walk" before
		awk -F '\t' 'NR == FNR { r[$1] = 1; next } ($1 in r) { print $3 }' \
			"$w/walk/reached" "$out/commands.tsv" >"$w/walk/units.list"
		jq -n -c -R --arg patch "$p" --arg subject "$(subject "$srcdir" "$p")" \
			--argjson index "$k" --arg src "$srcdir" \
			--rawfile files "$w/walk/files" --rawfile units "$w/walk/units.list" \
			--rawfile after "$w/walk/after.tsv" --rawfile before "$w/walk/before.tsv" \
			--rawfile gcc_tsv "$out/gcc.tsv" \
			-L "$LIB" -f "$LIB/diagnose-patch.jq" >>"$w/patches.jsonl"
		[ "$p" != "$first" ] || break
		k=$((k - 1))
	done
	step CLEAN "$shadow"
	rm -rf "$shadow"
}

main() {
	local opt compiler=clang cell="" wlevel=1 root=build b dopts series

	out=""
	jobs=$(nproc)
	first=""
	while getopts C:c:f:hj:o:O:W: opt; do
		case "$opt" in
		f) first="$OPTARG" ;;
		C) cell="$OPTARG" ;;
		c) compiler="$OPTARG" ;;
		j) jobs="$OPTARG" ;;
		o) out="$OPTARG" ;;
		O) root="$OPTARG" ;;
		W) wlevel="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ -n "$cell" ]; then
		[ $# -eq 0 ] || die "-C names the cell to walk; no BUILD_DIR with it"
		cell=$(named_cell "$root" "$cell") || exit 2
		set -- "$cell"
	fi
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq make || exit 2
	b="$1"
	[ -d "$b" ] || die "no build directory '$b'"
	srcdir=$(readlink -f "$b/source" 2>/dev/null) ||
		die "'$b' has no 'source' link to its kernel tree"
	[ -f "$srcdir/Makefile" ] || die "'$srcdir' is not a kernel tree (no Makefile)"
	series=$(applied "$srcdir")
	[ -z "$first" ] || printf '%s\n' "$series" | grep -q -x -F -e "$first" ||
		die "-f names '$first', which '$srcdir' has not applied"
	if [ -z "$out" ]; then
		compiler_select "$compiler"
		out="$(tree_root "$root")/diagnose/$(basename "$(cd "$b" && pwd)")-$cc_suffix${wlevel:+-w$wlevel}"
	fi
	dopts="-O $root -c $compiler -j $jobs -o $out"
	# shellcheck disable=SC2086 # options without blanks
	"$TOPDIR/scripts/diagnose.sh" $dopts -W "$wlevel" "$b" >&2 || exit 2
	out=$(cd "$out" && pwd)
	walk
	jq -s --arg cell "$(basename "$(cd "$b" && pwd)")" --arg level "$wlevel" \
		--arg clang "$(jq -r .clang.version "$out/diagnose.json")" \
		--arg kernel "$(jq -r .kernel "$out/diagnose.json")" \
		'{schema: 1, kernel: $kernel, cell: $cell, level: $level, clang: $clang,
		  patches: sort_by(.index)}' "$out/series/patches.jsonl" >"$out/series.json.tmp"
	mv "$out/series.json.tmp" "$out/series.json"
	jq -r -L "$LIB" -f "$LIB/diagnose-series-md.jq" "$out/series.json" >"$out/series.md.tmp"
	mv "$out/series.md.tmp" "$out/series.md"
	jq -r -L "$LIB" -f "$LIB/diagnose-series-text.jq" "$out/series.json"
}

main "$@"
