#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-diagnose.sh - what 'make diagnose' costs against a Clang build:
# the tiny x86_64 GCC cell replayed through clang -fsyntax-only
# (scripts/diagnose.sh, the build's own warning level) against a cold
# build of the Clang cell's configuration with the same Clang
# (scripts/kernel-build.sh from an empty directory, without ccache), both
# with the same make jobs, alternating, RUNS times each. The figure is
# the ratio of their CPU time (user + system, children included), as GNU
# time reports it: on two cores wall time mostly measures the machine.
#
# The GCC cell is built first when it is not there (make parity builds
# it). The cold builds configure the target for Clang as kernel-build.sh
# always does, in BUILDDIR/bench/diagnose/; the table goes to
# BUILDDIR/bench/diagnose.json as well.
#
# Exit: 0 the ratio meets the target, 1 it does not, or a build or
# replay failed, 2 trouble.
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu
PROG=bench-diagnose.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
TIME=/usr/bin/time
# The target whose tiny cells are measured.
BENCH_TARGET=x86_64
# A replay costs at most this share of a Clang build's CPU time.
RATIO_MAX=0.5

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-n RUNS] [-j JOBS]
Replay BUILDDIR/kernel/$BENCH_TARGET-gcc through Clang's diagnostics and build the
Clang cell's configuration cold, RUNS times each (default 3), alternating,
with JOBS make jobs (default: the number of cores). Prints each run, then
the medians and the CPU-time ratio replay / build (target <= $RATIO_MAX).
Environment: LLVM=1|-N|DIR/ picks the Clang of both (default 1)
USAGE
}

# timed LOG CMD...: run CMD with its output in LOG; print "WALL CPU" in
# seconds, CPU being user plus system time of CMD and its children
timed() {
	local log="$1" t

	shift
	t="$log.time"
	if ! "$TIME" -f '%e %U %S' -o "$t" "$@" >"$log" 2>&1; then
		rm -f "$t"
		return 1
	fi
	awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }' "$t"
	rm -f "$t"
}

# cold_build: one Clang build of the cell's configuration from nothing
cold_build() {
	rm -rf "$scratch/kernel"
	timed "$scratch/build.log" env CCACHE_DISABLE=1 KSRC="$srcdir" \
		"$TOPDIR/scripts/kernel-build.sh" -o "$scratch" -t "$BENCH_TARGET" -c clang -j "$jobs" ||
		{ tail -n 20 "$scratch/build.log" >&2; warn "the cold Clang build failed; see '$scratch/build.log'"; return 1; }
}

# replay: one replay of the GCC cell
replay() {
	rm -rf "$scratch/replay"
	timed "$scratch/replay.log" "$TOPDIR/scripts/diagnose.sh" -O "$builddir" -c clang -j "$jobs" \
		-o "$scratch/replay" "$(load_target "$BENCH_TARGET" && compiler_select gcc && cell_dir "$builddir")" ||
		{ tail -n 20 "$scratch/replay.log" >&2; warn "the replay failed; see '$scratch/replay.log'"; return 1; }
}

main() {
	local opt runs=3 i b r bw="" bc="" rw="" rc="" mbw mbc mrw mrc ratio met

	builddir=build
	jobs=$(nproc)
	while getopts hj:n:o: opt; do
		case "$opt" in
		j) jobs="$OPTARG" ;;
		n) runs="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	is_positive "$runs" || die "-n needs a positive number, not '$runs'"
	is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	[ -x "$TIME" ] || die "cannot find GNU time at '$TIME' (scripts/deps.sh check)"
	load_target "$BENCH_TARGET"
	compiler_select clang
	command -v "$cc_bin" >/dev/null || die "cannot find '$cc_bin' (LLVM=${LLVM:-1})"

	"$TOPDIR/scripts/kernel-build.sh" -o "$builddir" -t "$BENCH_TARGET" -c gcc -j "$jobs" >/dev/null ||
		die "cannot build the $BENCH_TARGET/gcc cell in '$builddir'"
	srcdir=$(KPARITY_SRC_QUIET=1 "$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	mkdir -p "$builddir/bench/diagnose"
	scratch=$(cd "$builddir/bench/diagnose" && pwd)
	step BENCH "tiny $BENCH_TARGET, $cc_bin, -j$jobs, $runs run(s) of each"

	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		b=$(cold_build) || exit 1
		r=$(replay) || exit 1
		printf '  RUN     %d  build %s s (CPU %s s)  replay %s s (CPU %s s)\n' "$i" \
			"${b% *}" "${b#* }" "${r% *}" "${r#* }"
		bw="$bw ${b% *}"
		bc="$bc ${b#* }"
		rw="$rw ${r% *}"
		rc="$rc ${r#* }"
	done
	# shellcheck disable=SC2086 # one word per run
	mbw=$(median $bw)
	# shellcheck disable=SC2086
	mbc=$(median $bc)
	# shellcheck disable=SC2086
	mrw=$(median $rw)
	# shellcheck disable=SC2086
	mrc=$(median $rc)
	ratio=$(awk -v a="$mrc" -v b="$mbc" 'BEGIN { printf "%.2f", a / b }')
	met=$(awk -v r="$ratio" -v m="$RATIO_MAX" 'BEGIN { print (r <= m) ? "true" : "false" }')
	jq -n --arg target "$BENCH_TARGET" --arg clang "$("$cc_bin" --version | head -n 1)" \
		--argjson jobs "$jobs" --argjson runs "$runs" \
		--argjson bw "$mbw" --argjson bc "$mbc" --argjson rw "$mrw" --argjson rc "$mrc" \
		--argjson ratio "$ratio" --argjson max "$RATIO_MAX" --argjson met "$met" \
		'{target: $target, clang: $clang, jobs: $jobs, runs: $runs,
		  build: {wall: $bw, cpu: $bc}, replay: {wall: $rw, cpu: $rc},
		  ratio_cpu: $ratio, target_max: $max, met: $met}' >"$builddir/bench/diagnose.json.tmp"
	mv "$builddir/bench/diagnose.json.tmp" "$builddir/bench/diagnose.json"
	printf 'median build %s s (CPU %s s), replay %s s (CPU %s s), CPU ratio %s (target <= %s: %s)\n' \
		"$mbw" "$mbc" "$mrw" "$mrc" "$ratio" "$RATIO_MAX" "$(if [ "$met" = true ]; then echo met; else echo missed; fi)"
	[ "$met" = true ]
}

main "$@"
