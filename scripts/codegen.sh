#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# codegen.sh - how big each compiler's kernel is: for every target, the
# vmlinux of each compiler's cell against the reference's (GCC 12, as
# parity.sh's matrix has it), by ELF section (.text, .rodata, .data, .bss)
# and per symbol through the tree's own scripts/bloat-o-meter -c, whose
# totals and largest growths and shrinks per category (functions, data,
# read-only data) go into the result (scripts/codegen/bloat.awk).
#
# The cells are parity's (make parity first); nothing is built here. A
# cell that has not built is one line on stderr and its rows are left
# out; Documentation/codegen.md describes the result.
#
# Exit: 0 every target measured, 1 a cell or a target could not be
# measured (the others were), 2 trouble (usage, unknown target or
# compiler, tools, nothing measured).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=codegen.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t TARGETS] [-c COMPILERS] [-n TOP] [-O FILE]
Compare the size of each compiler's vmlinux with the reference's, by
section and per symbol (the tree's scripts/bloat-o-meter), on the cells
of a parity run.
  -o BUILDDIR   the parity run's build directory (default: build)
  -t TARGETS    targets, separated by spaces or commas (default: all of
                $(known_targets))
  -c COMPILERS  compilers (default: gcc clang); the first of gcc-12 and
                gcc among them is the reference, else the first
  -n TOP        the largest growths and shrinks kept per category
                (default: 20)
  -O FILE       where the JSON result goes (default:
                BUILDDIR/report/codegen.json)
Environment: LLVM=1|-N|DIR/ selects the clang, as for parity.sh.
Exit: 0 measured, 1 a cell could not be measured, 2 trouble.
USAGE
}

# sections VMLINUX: its section sizes, as JSON
sections() {
	readelf -SW "$1" | awk -f "$TOPDIR/scripts/codegen/sections.awk"
}

# cell COMPILER: the cell of the loaded target built with COMPILER in
# $kdir; fails, saying so, when it has not built
cell() {
	compiler_select "$1"
	kdir=$(cell_dir "$abuild")
	cell_built "$kdir" && return 0
	warn "no built cell $t_name/$cc_suffix in '$(cell_dir "$builddir")' (make parity TARGETS=$t_name first)"
	return 1
}

# compare TARGET REF NEW: the JSON of NEW's vmlinux against REF's, each
# named as its build is (clang-22 for clang with LLVM=-22), into
# $work/TARGET.NEW.json
compare() {
	local refdir src old

	cell "$2" || return 1
	refdir=$kdir
	old=$cc_suffix
	cell "$3" || return 1
	src=$(cd "$refdir/source" 2>/dev/null && pwd -P) ||
		die "cell '$refdir' has no 'source' link to its kernel tree"
	[ -f "$src/scripts/bloat-o-meter" ] || die "'$src' has no scripts/bloat-o-meter"
	python3 "$src/scripts/bloat-o-meter" -c ${t_cross:+-p "$t_cross"} \
		"$refdir/vmlinux" "$kdir/vmlinux" >"$work/bloat.txt" 2>"$work/bloat.err" ||
		die "bloat-o-meter failed on $1 ($2 vs $3): $(head -n 1 "$work/bloat.err")"
	awk -v top="$top" -f "$TOPDIR/scripts/codegen/bloat.awk" "$work/bloat.txt" >"$work/bloat.json" ||
		die "cannot read bloat-o-meter's output for $1 ($2 vs $3)"
	jq -n --arg old "$old" --arg new "$cc_suffix" --argjson a "$(sections "$refdir/vmlinux")" \
		--argjson b "$(sections "$kdir/vmlinux")" --slurpfile bloat "$work/bloat.json" \
		'{old: $old, new: $new, sections: {old: $a, new: $b}, symbols: $bloat[0]}' \
		>"$work/$1.$3.json"
}

# measure TARGET: every compiler against the reference on TARGET, into
# $work/TARGET.json; fails when one could not be measured
measure() {
	local c rc=0

	load_target "$1"
	set --
	for c in $compilers; do
		[ "$c" = "$ref" ] && continue
		if compare "$t_name" "$ref" "$c"; then
			set -- "$@" "$work/$t_name.$c.json"
		else
			rc=1
		fi
	done
	[ "$#" -gt 0 ] || return 1
	jq -s --arg target "$t_name" '{target: $target, comparisons: .}' "$@" >"$work/$t_name.json"
	return "$rc"
}

# table FILE: the result as text, a row per comparison
table() {
	jq -r -f "$TOPDIR/scripts/codegen/table.jq" "$1"
}

main() {
	local opt t rc=0 c

	builddir=build targets="" compilers="gcc clang" top=20 out=""
	while getopts c:ho:n:O:t: opt; do
		case "$opt" in
		c) compilers=$(words "$OPTARG") ;;
		o) builddir="$OPTARG" ;;
		n) top="$OPTARG" ;;
		O) out="$OPTARG" ;;
		t) targets=$(words "$OPTARG") ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ "$#" -eq 0 ] || { usage >&2; exit 2; }
	is_positive "$top" || die "-n needs a positive number, not '$top'"
	[ -n "$targets" ] || targets=$(default_targets)
	for t in $targets; do
		"$TOPDIR/scripts/target-check.sh" -p "$PROG" "$t" >/dev/null || exit 2
	done
	for c in $compilers; do
		[ -n "$(compiler_line "$c")" ] || die "unknown compiler '$c' (known: $(known_compilers))"
	done
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq readelf python3 || exit 2
	[ -d "$builddir" ] || die "no build directory '$builddir' (make parity first)"
	abuild=$(cd "$builddir" && pwd)
	out=$(report_file "$abuild" "$out" codegen.json) || exit
	ref=$(matrix_reference "$compilers")
	work=$(mktemp -d "${TMPDIR:-/tmp}/codegen.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 2' HUP INT TERM

	set --
	for t in $targets; do
		measure "$t" || rc=1
		[ ! -f "$work/$t.json" ] || set -- "$@" "$work/$t.json"
	done
	[ "$#" -gt 0 ] || die "nothing measured: no target has a built cell of $ref and of another compiler"
	jq -s --arg reference "$ref" '{version: 2, reference: $reference, targets: .}' "$@" \
		>"$out.tmp" || die "cannot write '$out.tmp'"
	mv "$out.tmp" "$out" || die "cannot write '$out'"
	table "$out"
	return "$rc"
}

main "$@"
