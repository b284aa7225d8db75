#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# pahole-sizes.sh - an independent check of kabi's struct and union sizes:
# compare 'kabi dump --json' with 'pahole --sizes' on one vmlinux.
#
# pahole --sizes prints one "name size holes" line per struct and union (per
# CU for Clang builds, hence the sort -u). Names that either tool sees with
# two different sizes are ambiguous and left out. Prints one line per
# disagreement and, last, "compared N"; exit 1 when anything disagrees.
set -eu

PROG=pahole-sizes.sh

usage() {
	echo "usage: $PROG KABI VMLINUX" >&2
	exit 2
}

unique_sizes() {
	sort -u "$1" | awk '{ n[$1]++; s[$1] = $2 }
		END { for (k in n) if (n[k] == 1) print k, s[k] }' | sort
}

main() {
	[ "$#" -eq 2 ] || usage
	kabi=$1
	vmlinux=$2
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT

	"$kabi" dump --json --kind struct --kind union "$vmlinux" >"$tmp/kabi.json"
	jq -r '.types[] | select(.name | test("^[A-Za-z_][A-Za-z0-9_]*$"))
		| select(.size != null) | "\(.name) \(.size)"' "$tmp/kabi.json" >"$tmp/k.raw"
	pahole --sizes "$vmlinux" 2>"$tmp/pahole.err" | awk '{ print $1, $2 }' >"$tmp/p.raw"
	unique_sizes "$tmp/k.raw" >"$tmp/k"
	unique_sizes "$tmp/p.raw" >"$tmp/p"
	join "$tmp/k" "$tmp/p" >"$tmp/both"
	bad=$(awk '$2 != $3 { print "size differs: " $1 " kabi=" $2 " pahole=" $3 }' "$tmp/both")
	[ -z "$bad" ] || echo "$bad"
	echo "compared $(wc -l <"$tmp/both")"
	[ -z "$bad" ]
}

main "$@"
