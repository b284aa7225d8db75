#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-swap.sh - the kernel or the test program? For a target whose
# kselftests differ between the reference compiler's cell and another
# compiler's, boot each of the two kernels with the other compiler's
# kselftest disk. With the two cells' own boots that is a 2x2 of kernel
# compiler by test compiler, and scripts/kernel-swap/kernel-swap.jq says
# for each test that differs which side carries the difference.
#
# CELLS is the directory of parity.sh's cell files, CELLS/TARGET-COMPILER.json
# (their tests, and whether they booted); the kernels, disks and initramfs
# are those the parity run made in BUILDDIR (the cells' kernel, kselftest
# and initramfs directories, scripts/lib/target.sh: cell_dir). Each kernel
# boots with its own cell's initramfs and the other cell's disk, its
# console in SWAP/TESTS-tests/, SWAP being the kernel's cell_dir swap
# (kernel-boot.sh -l), so that the cell's own console stays. Only the tests that differ (or are
# known differences, the DIFFERENCES of the run's kernel tree,
# scripts/trees/TREE.tree: scripts/targets/test-differences.list for 6.1) and are
# kselftests call for a swap: KUnit's run inside the kernel, with no disk
# to swap. Where none differs, nothing boots.
#
# Prints {"pairs": [PAIR...]}, one PAIR per compiler whose kselftests
# differ from the reference's (Documentation/parity.md, "SWAP"), or with
# -O writes it to FILE (whole, or not at all).
#
# Exit: 0 ok (whatever the swapped boots found), 2 trouble (usage, a
# missing cell file, tools).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-swap.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET -r REFERENCE -c COMPILERS [-T SECONDS] [-O FILE] CELLS
Boot each kernel of TARGET with the other compiler's kselftest disk, for
every compiler of COMPILERS whose kselftests differ from REFERENCE's in
the cell files of CELLS; print the 2x2 of each differing test as JSON.
  -o BUILDDIR   the parity run's build directory
  -r REFERENCE  the compiler every other one is compared with
  -c COMPILERS  the compilers of the run, separated by spaces
  -T SECONDS    time limit for each boot (default: 120)
  -O FILE       write the JSON to FILE, not to the standard output
USAGE
}

# cell COMPILER [PART]: the directory of PART of COMPILER's cell of TARGET
cell() {
	compiler_select "$1"
	cell_dir "$builddir" "${2:-kernel}"
}

# suffix COMPILER: the name of COMPILER's build (clang-19 for LLVM=-19)
suffix() {
	compiler_select "$1"
	printf '%s\n' "$cc_suffix"
}

# differing REF-CELL OTHER-CELL: the kselftests that differ between the two
# cells (or are known differences), one a line, judged as parity.sh does
differing() {
	jq -n --arg target "$target" --slurpfile a "$1" --slurpfile b "$2" \
		'{name: $target, cells: [$a[0], $b[0]]}' >"$work/pair.json" &&
		jq --rawfile known "$DIFFERENCES" -f "$TOPDIR/scripts/parity/parity-tests-target.jq" \
			"$work/pair.json" >"$work/rows.json" &&
		jq -r --arg colls "$colls" '($colls | split("\n")) as $c
			| .tests.rows // [] | .[]
			| select(.parity == "differs" or .parity == "known")
			| select(.test | split(".")[0] | IN($c[]))
			| .test' "$work/rows.json"
}

# swap_boot KERNEL TESTS DIR: boot KERNEL's kernel with the disk of TESTS's
# cell, its console and results in DIR; write DIR/boot.json
swap_boot() {
	local k="$1" d="$2" dir="$3" disk initrd kdir verdict rc=0 hang="" start secs

	kdir=$(cell "$k")
	rm -rf "$dir"
	mkdir -p "$dir" || die "cannot create '$dir'"
	start=$(date +%s)
	if ! cell_built "$kdir"; then
		rc=1
		verdict="fail: no kernel of $target/$(suffix "$k") built"
	elif ! disk=$("$TOPDIR/scripts/kselftest.sh" -o "$builddir" -t "$target" -c "$d"); then
		rc=1
		verdict="fail: no kselftest disk of $target/$(suffix "$d")"
	elif ! initrd=$("$TOPDIR/scripts/initramfs.sh" -o "$builddir" -t "$target" -c "$k"); then
		rc=1
		verdict="fail: no initramfs of $target/$(suffix "$k")"
	else
		set -- -t "$target" -k "$kdir" -i "$initrd" -d "$disk" -l "$dir" -T "$limit"
		verdict=$("$TOPDIR/scripts/kernel-boot.sh" "$@") || rc=$?
		[ "$rc" -ne 2 ] || exit 2
		[ -n "$verdict" ] || verdict="fail: kernel-boot.sh exited $rc"
		# the command as the user would type it, from where the run began
		printf '%s\n' "scripts/kernel-boot.sh $*" | sed "s|$builddir/|$given/|g" >"$dir/reproduce"
	fi
	secs=$(($(date +%s) - start))
	case "$verdict" in
	"fail: hang:"*) hang=-t ;;
	esac
	if [ -f "$dir/boot.log" ]; then
		"$TOPDIR/scripts/ktap.sh" $hang "$dir/boot.log" >"$dir/tests.lines"
	else
		echo "# no console log '$dir/boot.log'" >"$dir/tests.lines"
	fi
	jq -R -s --arg kinds "kunit kselftest" --arg kselftest "$(printf '%s\n' "$colls" | tr '\n' ' ')" \
		-f "$TOPDIR/scripts/parity/parity-tests.jq" "$dir/tests.lines" >"$dir/tests.json"
	jq -n --arg kernel "$k" --arg tests "$d" --arg verdict "$verdict" --argjson seconds "$secs" \
		--arg console "${dir#"$builddir"/}/boot.log" \
		--arg reproduce "$(cat "$dir/reproduce" 2>/dev/null || :)" \
		--slurpfile results "$dir/tests.json" \
		'{kernel: $kernel, tests: $tests, status: (if $verdict == "pass" then "pass" else "fail" end),
		  verdict: $verdict, seconds: $seconds, console: $console,
		  reproduce: (if $reproduce == "" then null else $reproduce end),
		  results: $results[0]}' >"$dir/boot.json"
}

# pair OTHER: the PAIR of the reference and OTHER, when their kselftests
# differ, into $work/pairs/OTHER.json
pair() {
	local o="$1" a="$cells/$target-$ref.json" b="$cells/$target-$1.json" names rdir odir

	[ -r "$a" ] || die "cannot read '$a'"
	[ -r "$b" ] || die "cannot read '$b'"
	names=$(differing "$a" "$b") || die "cannot compare the tests of '$a' and '$b'"
	[ -n "$names" ] || return 0
	step SWAP "$target $ref vs $o: kselftests that differ: $(printf '%s\n' "$names" | wc -l); each kernel boots the other's disk"
	rdir="$(cell "$ref" swap)/$(suffix "$o")-tests"
	odir="$(cell "$o" swap)/$(suffix "$ref")-tests"
	swap_boot "$ref" "$o" "$rdir"
	swap_boot "$o" "$ref" "$odir"
	jq -n --arg ref "$ref" --arg other "$o" --arg names "$names" \
		--slurpfile refcell "$a" --slurpfile othercell "$b" \
		--slurpfile refkernel "$rdir/boot.json" --slurpfile otherkernel "$odir/boot.json" \
		-f "$TOPDIR/scripts/kernel-swap/kernel-swap.jq" >"$work/pairs/$o.json"
}

main() {
	local opt c out=""

	builddir="" given="" target="" ref="" compilers="" limit=120
	while getopts c:ho:O:r:t:T: opt; do
		case "$opt" in
		c) compilers="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		O) out="$OPTARG" ;;
		r) ref="$OPTARG" ;;
		t) target="$OPTARG" ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 1 ] || [ -z "$builddir" ] || [ -z "$target" ] || [ -z "$ref" ] || [ -z "$compilers" ]; then
		usage >&2
		exit 2
	fi
	is_positive "$limit" || die "-T needs a positive number of seconds, not '$limit'"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq || exit 2
	[ -d "$1" ] || die "no cell directory '$1'"
	[ -d "$builddir" ] || die "no build directory '$builddir'"
	DIFFERENCES=$(differences_list) || exit 2
	cells=$(cd "$1" && pwd)
	if [ -n "$out" ]; then
		c=$out
		out=$(abspath "$c") || die "cannot write '$c': no such directory"
	fi
	given=${builddir%/}
	builddir=$(cd "$builddir" && pwd)
	load_target "$target"
	colls=$(kselftest_collections "$target") || exit 2
	work=$(mktemp -d "${TMPDIR:-/tmp}/kernel-swap.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 2' HUP INT TERM
	mkdir "$work/pairs"

	for c in $compilers; do
		[ "$c" = "$ref" ] || pair "$c"
	done
	set -- "$work"/pairs/*.json
	if [ -e "$1" ]; then
		jq -s '{pairs: .}' "$@" >"$work/out.json"
	else
		echo '{"pairs": []}' >"$work/out.json"
	fi
	if [ -z "$out" ]; then
		cat "$work/out.json"
	else
		cp "$work/out.json" "$out.tmp" || die "cannot write '$out.tmp'"
		mv "$out.tmp" "$out" || die "cannot write '$out'"
	fi
}

main "$@"
