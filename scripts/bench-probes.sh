#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-probes.sh - what the Kbuild probes cost a no-op rebuild: the tiny
# x86_64 tree built with clang, stock Kbuild against the kparity overlay
# with a warm cache, several runs each, alternating. Prints each run's
# time, the median ratio (overlay / stock), and how many compiler and
# linker processes each spawned for probes (counted with strace).
#
# KERNEL chooses the kernel tree (scripts/trees/, default 6.1), as for the
# parity run. The kernel is built in the tree's overlay-test/ (tree_root:
# BUILDDIR/overlay-test/ for the default tree, BUILDDIR/6.12/overlay-test/
# for 6.12) through the overlay first, from the .config of the tree's
# parity cell (BUILDDIR/kernel/x86_64-clang/, x86_64-clang-N with
# LLVM=-N), when it is not there.
# Stock and overlay answer the probes that shape this configuration's
# command lines alike, so neither rebuilds anything after the other: the
# script checks that vmlinux is untouched by the runs.
#
# Exit: 0 measured, 1 a build failed or a run was not a no-op, 2 trouble.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=bench-probes.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# The target whose tiny Clang build is timed.
BENCH_TARGET=x86_64

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-n RUNS]
Time no-op rebuilds of the tree's overlay-test/ in BUILDDIR (tiny x86_64,
LLVM=1) with stock Kbuild and with the overlay (warm cache), RUNS of each
(default 5).
Environment:
  LLVM=1|-N|DIR/  the clang (default 1)
  KERNEL=TREE     the kernel tree: $(known_trees) (default: $DEFAULT_TREE)
USAGE
}

# kmake MODE ARGS...: make in the kernel tree for $objdir, MODE stock or
# overlay; output to $log
kmake() {
	local mode="$1"

	shift
	if [ "$mode" = overlay ]; then
		set -- MAKEFILES="$TOPDIR/kbuild/overlay.mk" "$@"
	fi
	"$TOPDIR/scripts/kernel-make.sh" -t "$t_name" -c clang "$srcdir" O="$objdir" \
		-j "$(nproc)" "$@" >>"$log" 2>&1
}

# prepare: a complete overlay build with a warm cache in $objdir
prepare() {
	local from

	from="$(cell_dir "$builddir")/.config"

	if [ ! -f "$objdir/.config" ]; then
		[ -f "$from" ] || die "no '$from': run 'make parity' first"
		mkdir -p "$objdir"
		cp "$from" "$objdir/.config"
		step CONFIG "overlay-test"
		kmake overlay olddefconfig || { tail -n 20 "$log" >&2; exit 1; }
	fi
	step BUILD "overlay-test (overlay, fills the cache)"
	kmake overlay || { tail -n 20 "$log" >&2; exit 1; }
	[ -f "$objdir/vmlinux" ] || die "make left no '$objdir/vmlinux'"
}

# now_ms: wall clock in milliseconds
now_ms() {
	date +%s%3N
}

# timed MODE: one no-op rebuild; print its milliseconds
timed() {
	local start

	start=$(now_ms)
	kmake "$1"
	echo $(($(now_ms) - start))
}

# probe_processes MODE: compiler and linker runs of one no-op rebuild that
# are probes: those working in a probe's scratch directory (stock
# Kbuild's .tmp_PID, the overlay's kparity-probe.*), and linker runs with
# flags before "-v" (ld-option). Kbuild's other runs ("--version", "-dM
# -E", checksyscalls) happen with and without the overlay alike.
probe_processes() {
	local mode="$1" trace="$objdir/.kparity-bench.strace"

	rm -f "$trace"
	set --
	[ "$mode" != overlay ] || set -- MAKEFILES="$TOPDIR/kbuild/overlay.mk"
	strace -f -qq -s 4096 -e trace=execve -e signal=none -o "$trace" \
		"$TOPDIR/scripts/kernel-make.sh" -t "$t_name" -c clang "$srcdir" O="$objdir" \
		-j "$(nproc)" "$@" >>"$log" 2>&1
	grep -E 'execve\("[^"]*/(clang|ld\.lld)[^"/]*", ' "$trace" | grep -v ' = -1 ' |
		grep -c -E -e '\.tmp_|kparity-probe\.' -e '\["[^"]*", "[^"]*".*, "-v"\]' || :
	rm -f "$trace"
}

main() {
	local opt runs=5 i s o stock="" overlay="" ms mo before

	builddir=build
	while getopts hn:o: opt; do
		case "$opt" in
		n) runs="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	is_positive "$runs" || die "-n needs a positive number, not '$runs'"
	command -v strace >/dev/null || die "cannot find strace (scripts/deps.sh check)"
	load_target "$BENCH_TARGET"
	compiler_select clang

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	objdir="$(tree_root "$builddir")/overlay-test"
	mkdir -p "$objdir"
	objdir=$(cd "$objdir" && pwd)
	log="$objdir/bench.log"
	: >"$log"

	prepare
	kmake overlay KPARITY_AUDIT=1 ||
		die "audit run failed; see '$log'"
	# A disagreement (the overlay probes a link-only flag such as
	# --ld-path= in a link, stock compile-only) need not change any
	# object's command line; the vmlinux check after the runs decides.
	if ! "$TOPDIR/scripts/probe-audit.sh" "$objdir" >/dev/null; then
		step NOTE "overlay and stock disagree on some probes (scripts/probe-audit.sh '$objdir')"
	fi
	before=$(stat -c %Y "$objdir/vmlinux")

	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		s=$(timed stock) || die "stock run failed; see '$log'"
		o=$(timed overlay) || die "overlay run failed; see '$log'"
		printf '  RUN     %d  stock %d ms  overlay %d ms\n' "$i" "$s" "$o"
		stock="$stock $s"
		overlay="$overlay $o"
	done
	# shellcheck disable=SC2086 # one word per run
	ms=$(median $stock)
	# shellcheck disable=SC2086
	mo=$(median $overlay)
	printf '  PROBES  stock %d processes  overlay %d processes\n' \
		"$(probe_processes stock)" "$(probe_processes overlay)"
	if [ "$(stat -c %Y "$objdir/vmlinux")" != "$before" ]; then
		printf '%s: vmlinux was rebuilt: the runs were not no-ops\n' "$PROG" >&2
		exit 1
	fi
	printf 'median stock %s ms, overlay %s ms, ratio %s (target <= 0.65)\n' \
		"$ms" "$mo" "$(awk -v a="$mo" -v b="$ms" 'BEGIN { printf "%.2f", a / b }')"
}

main "$@"
