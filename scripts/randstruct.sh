#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# randstruct.sh - do GCC and Clang randomize a structure the same way with
# the same seed? From four builds of one tree and configuration, GCC's and
# Clang's, each plain and with CONFIG_RANDSTRUCT_FULL and one seed
# (kconfig/fragments/randstruct.config), print as JSON which structures
# Clang randomized, whether GCC did too, and whether the two gave each the
# same layout (scripts/randstruct/randstruct.jq).
#
# Clang's DWARF describes the layout it made, so kabi's comparison of its
# two builds says which structures it randomized. GCC's plugin shuffles
# members after GCC wrote the DWARF, which keeps the declared order: GCC's
# layouts are asked of GCC itself, by a probe of each header that
# declares such a structure (scripts/randstruct/probe-c.jq), compiled with
# Kbuild's own command for init/main.o in the build's directory; the same
# probe in Clang's build must give what Clang's DWARF says, or the
# structure counts as not probed.
#
# Exit: 0 printed, 1 a comparison failed, 2 usage.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=randstruct.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG [-k KABI] [-n GCC,CLANG] [-s SRCDIR] [-S SEED] [-O FILE] GCC_PLAIN GCC_RAND CLANG_PLAIN CLANG_RAND
Compare four kernel builds (their directories: vmlinux, .config and
Kbuild's command files): GCC's and Clang's, each plain and randomized
with one seed. Print which structures Clang randomized, whether GCC did,
and whether both gave them the same layout, as JSON.
  -k KABI         the kabi binary (default: kabi on PATH)
  -n GCC,CLANG    the two compilers' names for the output (default gcc,clang)
  -s SRCDIR       the kernel tree (default: each build's 'source' link)
  -S SEED         the seed, for the output
  -O FILE         write to FILE (atomically) instead of standard output
Exit: 0 printed, 1 a comparison failed, 2 usage.
USAGE
}

# failed MESSAGE: say it and exit 1
failed() {
	warn "$1"
	exit 1
}

# structs OLD NEW OUT: kabi's comparison of the structures both builds have
structs() {
	local rc=0

	"$kabi" diff --json --only-common --only-layout --kind struct --root "$srcdir" \
		-o "$3" "$1/vmlinux" "$2/vmlinux" || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || [ "$rc" -eq 12 ] ||
		failed "kabi diff of '$1/vmlinux' and '$2/vmlinux' failed (exit $rc)"
}

# dump DIR OUT: the layouts in DIR/vmlinux of the structures Clang
# randomized ($tmp/names, one a line)
dump() {
	local dir="$1" out="$2" name

	set --
	while read -r name; do
		set -- "$@" --type "struct $name"
	done <"$tmp/names"
	"$kabi" dump --json --root "$srcdir" --kind struct "$@" -o "$out" "$dir/vmlinux" ||
		failed "kabi dump of '$dir/vmlinux' failed"
}

# compile_cmd DIR: Kbuild's command that compiled DIR's init/main.o, with
# neither its dependency file nor its object nor what ran after it
compile_cmd() {
	sed -n 's/^\(saved\)\{0,1\}cmd_init\/main\.o := //p' "$1/init/.main.o.cmd" |
		sed 's/ *; .*$//; s/ -Wp,-MMD,[^ ]*//; s/ -c -o init\/main\.o [^ ]*$//'
}

# probe DIR OUT: for each header of $tmp/plain.json's structures, compile
# the probe with DIR's command and append its "STRUCT MEMBER OFFSET" lines
# to OUT; a header that does not compile alone adds none
probe() {
	local dir="$1" out="$2" cmd header n=0

	cmd=$(compile_cmd "$dir")
	[ -n "$cmd" ] || failed "no command of init/main.o in '$dir/init/.main.o.cmd'"
	: >"$out"
	for header in $(jq -r '.types[].decl_file | select(endswith(".h") and (contains("/uapi/") | not))' \
		"$tmp/plain.json" | sort -u); do
		n=$((n + 1))
		jq --arg h "$header" '{types: [.types[] | select(.decl_file == $h)]}' "$tmp/plain.json" |
			jq -r -L "$TOPDIR/scripts/randstruct" --arg header "$srcdir/$header" \
				-f "$TOPDIR/scripts/randstruct/probe-c.jq" >"$tmp/p$n.c"
		(cd "$dir" && eval "$cmd -S -o '$tmp/p$n.s' '$tmp/p$n.c'") >/dev/null 2>&1 || continue
		sed -n 's/^[ \t]*\.ascii[ \t]*"@kparity \(.*\)"$/\1/p' "$tmp/p$n.s" >>"$out"
	done
}

main() {
	local names=gcc,clang seed="" out="" opt d

	kabi=kabi
	srcdir=""
	while getopts hk:n:O:s:S: opt; do
		case "$opt" in
		k) kabi="$OPTARG" ;;
		n) names="$OPTARG" ;;
		O) out="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		S) seed="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ "$#" -ne 4 ] || [ "${names#*,}" = "$names" ]; then
		usage >&2
		exit 2
	fi
	for d; do
		[ -f "$d/vmlinux" ] || die "no kernel build in '$d' (no vmlinux)"
	done
	command -v "$kabi" >/dev/null || die "no kabi '$kabi' (make builds it)"
	[ -n "$srcdir" ] || srcdir=$(cd "$1/source" 2>/dev/null && pwd -P) ||
		die "no kernel tree: '$1/source' is not Kbuild's link to it (-s SRCDIR)"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	structs "$3" "$4" "$tmp/c.json"
	structs "$1" "$2" "$tmp/g.json"
	jq -r '.types[] | select(.status == "changed") | .name' "$tmp/c.json" | sort -u >"$tmp/names"
	if [ -s "$tmp/names" ]; then
		dump "$1" "$tmp/plain.json"
		dump "$4" "$tmp/clang.json"
		probe "$2" "$tmp/gcc.txt"
		probe "$4" "$tmp/clang.txt"
	else
		echo '{"types": []}' >"$tmp/plain.json"
		cp "$tmp/plain.json" "$tmp/clang.json"
		: >"$tmp/gcc.txt"
		: >"$tmp/clang.txt"
	fi
	jq -n --slurpfile c "$tmp/c.json" --slurpfile g "$tmp/g.json" \
		--slurpfile gp "$tmp/plain.json" --slurpfile cr "$tmp/clang.json" \
		--rawfile pg "$tmp/gcc.txt" --rawfile pc "$tmp/clang.txt" \
		--arg gcc "${names%%,*}" --arg clang "${names#*,}" --arg seed "$seed" \
		-L "$TOPDIR/scripts/randstruct" -f "$TOPDIR/scripts/randstruct/randstruct.jq" >"$tmp/out.json"
	if [ -n "$out" ]; then
		mv "$tmp/out.json" "$out"
	else
		cat "$tmp/out.json"
	fi
}

main "$@"
