#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# codegen-speed.sh - how fast each compiler's kernel code is: the GCC and
# the Clang cell of the host target um (User-Mode Linux, which runs the
# kernel's own code at the host's speed as a process, not under an
# emulator) boot alternately, RUNS times each, each boot running one of
# tcrypt's speed tests on the generic C crypto code in its initcall; a
# third run-set of the GCC cell is the A/A control, whose spread is the
# harness's noise. scripts/codegen/tcrypt.awk reads each console,
# scripts/codegen/speed-stats.awk compares the samples (medians, the ratio
# Clang/GCC with a bootstrap interval, a rank test, the verdict), and
# scripts/codegen/speed-table.jq prints the table. Nothing is built here:
# scripts/kernel-build.sh -t um -c gcc and -c clang build the cells.
#
# Before, one line says whether KVM could time the x86_64 cells natively
# instead: /dev/kvm, then a probe boot of the x86_64/gcc cell under
# -accel kvm with a time limit.
#
# The samples and the statistics go into the .speed member of codegen.json
# (its size comparisons, when the file has them, are kept); the format is
# in Documentation/codegen.md.
#
# Exit: 0 measured, 1 a boot failed or gave no number, 2 trouble (usage,
# a cell not built, tools).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=codegen-speed.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# tcrypt's speed tests run by default: SHA-256 (304) and ChaCha20 (214),
# each of its block sizes for -S seconds
MODES="304 214"
# how long a probe boot of the x86_64 cell under KVM may take to print
KVM_PROBE_SECONDS=20

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-n RUNS] [-m MODES] [-S SECONDS] [-c CPU] [-T LIMIT] [-O FILE]
Time the kernel code of the GCC and the Clang cell of the host target um
(User-Mode Linux): RUNS boots of each, alternately, and RUNS of the GCC
cell again as the A/A control, each running tcrypt's speed tests.
  -o BUILDDIR  where the cells are (default: build)
  -n RUNS      runs of each kernel (default: 10; at least 2)
  -m MODES     tcrypt speed modes, one boot each per run (default: $MODES)
  -S SECONDS   tcrypt.sec: how long each block size is timed (default: 1)
  -c CPU       pin every boot to CPU with taskset (default: none)
  -T LIMIT     time limit of one boot in seconds (default: 300)
  -O FILE      where the JSON result goes (default:
               BUILDDIR/report/codegen.json; its size results are kept)
Environment: LLVM=1|-N|DIR/ selects the clang, as for kernel-build.sh;
KPARITY_KVM_DEVICE the KVM device probed (default: /dev/kvm).
Exit: 0 measured, 1 a boot failed, 2 trouble.
USAGE
}

# kvm_probe: one line on stderr: could KVM time the x86_64 cells natively?
# A present /dev/kvm is not enough (a guest may hang): a probe boot of the
# x86_64/gcc cell must print its banner within KVM_PROBE_SECONDS.
kvm_probe() {
	local dev="${KPARITY_KVM_DEVICE:-/dev/kvm}" kdir rc=0

	if [ ! -c "$dev" ] || [ ! -w "$dev" ]; then
		warn "no usable KVM: no writable '$dev'; timing natively as User-Mode Linux"
		return 0
	fi
	kdir=$(load_target x86_64 && compiler_select gcc && cell_dir "$abuild")
	if ! cell_built "$kdir" || ! command -v qemu-system-x86_64 >/dev/null; then
		warn "KVM not probed: no built x86_64/gcc cell or no qemu-system-x86_64; timing natively as User-Mode Linux"
		return 0
	fi
	timeout -k 2 "$KVM_PROBE_SECONDS" qemu-system-x86_64 -accel kvm -M q35 -m 256M -nodefaults \
		-display none -no-reboot -serial stdio -kernel "$kdir/arch/x86/boot/bzImage" \
		-append "console=ttyS0 panic=-1" </dev/null >"$work/kvm.log" 2>&1 || rc=$?
	if grep -q '^Linux version' "$work/kvm.log"; then
		warn "KVM works (a probe boot of x86_64/gcc printed its banner), but this protocol times User-Mode Linux"
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		warn "no usable KVM: a probe boot of x86_64/gcc under -accel kvm printed nothing in ${KVM_PROBE_SECONDS}s; timing natively as User-Mode Linux"
	else
		warn "no usable KVM: a probe boot of x86_64/gcc under -accel kvm failed ($(head -n 1 "$work/kvm.log")); timing natively as User-Mode Linux"
	fi
}

# cell COMPILER: the um cell of COMPILER, in $kdir and $cc_suffix; dies
# when it has not built
cell() {
	compiler_select "$1"
	kdir=$(cell_dir "$abuild")
	cell_built "$kdir" && [ -x "$kdir/$t_image" ] && return 0
	die "no built cell um/$cc_suffix in '$kdir' (scripts/kernel-build.sh -o $builddir -t um -c $1 first)"
}

# boot KDIR GROUP RUN MODE: one boot of the um kernel in KDIR running the
# tcrypt speed test MODE; its numbers go to the samples as GROUP's. Fails,
# saying why, when the boot did not end as it should.
boot() {
	local kdir="$1" group="$2" run="$3" mode="$4" token log name rc=0

	case "$group" in
	ref) name="um/$ref" ;;
	new) name="um/$new" ;;
	aa) name="um/$ref (A/A)" ;;
	esac
	token="$(date +%s)-$$-$run-$group-$mode"
	log="$work/console"
	# shellcheck disable=SC2086 # APPEND: a word per kernel parameter
	set -- "$kdir/$t_image" $t_append panic=-1 "kparity.token=$token" \
		"tcrypt.mode=$mode" "tcrypt.sec=$sec"
	[ -z "$cpu" ] || set -- taskset -c "$cpu" "$@"
	# the missing root ends the kernel in a panic once every initcall,
	# tcrypt's among them, has run; UML then aborts: no core file
	# shellcheck disable=SC3045 # dash's and bash's ulimit have -c
	# (the subshell's own report of the abort goes nowhere)
	(ulimit -c 0 && timeout --foreground -k 5 "$limit" "$@" </dev/null >"$log" 2>&1) 2>/dev/null || rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		warn "$name run $run, tcrypt mode $mode: no end within ${limit}s"
		return 1
	fi
	awk -v token="$token" -f "$TOPDIR/scripts/codegen/tcrypt.awk" "$log" >"$work/numbers" 2>"$work/why" || {
		warn "$name run $run, tcrypt mode $mode: $(head -n 1 "$work/why")"
		return 1
	}
	awk -v g="$group" '{ print $1, g, $2 }' "$work/numbers" >>"$work/samples"
}

# round RUN: one run of every kernel and every mode, the order of the
# kernels turned by one each run, so that no kernel always follows another
round() {
	local i g order mode rc=0

	case $(($1 % 3)) in
	1) order="ref new aa" ;;
	2) order="new aa ref" ;;
	0) order="aa ref new" ;;
	esac
	for g in $order; do
		for mode in $modes; do
			case "$g" in
			new) boot "$newdir" "$g" "$1" "$mode" || rc=1 ;;
			*) boot "$refdir" "$g" "$1" "$mode" || rc=1 ;;
			esac
		done
	done
	i=$1
	step RUN "$i of $runs"
	return "$rc"
}

# result: codegen.json with .speed set, its other members kept
result() {
	awk -f "$TOPDIR/scripts/codegen/speed-stats.awk" "$work/samples" >"$work/stats" 2>"$work/why" ||
		die "cannot compare the samples ($(sed -n "1s|^$work/samples: ||p" "$work/why"))"
	jq -n --arg ref "$ref" --arg new "$new" --arg kvm "${kvm#"$PROG: "}" --argjson runs "$runs" \
		--argjson sec "$sec" --arg modes "$modes" --arg cpu "$cpu" \
		--slurpfile stats "$work/stats" --rawfile samples "$work/samples" \
		-f "$TOPDIR/scripts/codegen/speed-json.jq" >"$work/speed.json" ||
		die "cannot write the result"
	if [ -f "$out" ]; then
		jq --slurpfile s "$work/speed.json" '. + {version: 2, speed: $s[0]}' "$out" >"$out.tmp"
	else
		jq -n --arg ref "$ref" --slurpfile s "$work/speed.json" \
			'{version: 2, reference: $ref, speed: $s[0]}' >"$out.tmp"
	fi || { rm -f "$out.tmp"; die "cannot write '$out.tmp'"; }
	mv "$out.tmp" "$out" || die "cannot write '$out'"
}

main() {
	local opt i c rc=0

	builddir=build runs=10 modes="$MODES" sec=1 cpu="" limit=300 out=""
	while getopts c:hm:n:o:O:S:T: opt; do
		case "$opt" in
		c) cpu="$OPTARG" ;;
		m) modes=$(words "$OPTARG") ;;
		n) runs="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		O) out="$OPTARG" ;;
		S) sec="$OPTARG" ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ "$#" -eq 0 ] || { usage >&2; exit 2; }
	if ! is_positive "$runs" || [ "$runs" -lt 2 ]; then
		die "-n needs a number of runs of at least 2, not '$runs'"
	fi
	is_positive "$sec" || die "-S needs a positive number of seconds, not '$sec'"
	is_positive "$limit" || die "-T needs a positive number of seconds, not '$limit'"
	for i in $modes; do
		is_positive "$i" || die "-m: '$i' is not a tcrypt mode number"
	done
	[ -n "$modes" ] || die "-m names no tcrypt mode"
	case "$cpu" in
	'') ;;
	*[!0-9]*) die "-c needs a CPU number, not '$cpu'" ;;
	esac
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq timeout ${cpu:+taskset} || exit 2
	[ -d "$builddir" ] || die "no build directory '$builddir'"
	abuild=$(cd "$builddir" && pwd)
	out=$(report_file "$abuild" "$out" codegen.json) || exit
	work=$(mktemp -d "${TMPDIR:-/tmp}/codegen-speed.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 2' HUP INT TERM

	load_target um
	ref=gcc
	cell gcc
	refdir=$kdir
	cell clang
	newdir=$kdir
	new=$cc_suffix
	kvm=$(kvm_probe 2>&1)
	printf '%s\n' "$kvm" >&2

	: >"$work/samples"
	i=1
	while [ "$i" -le "$runs" ]; do
		round "$i" || rc=1
		i=$((i + 1))
	done
	[ -s "$work/samples" ] || die "no boot gave a number"
	result
	jq -r -f "$TOPDIR/scripts/codegen/speed-table.jq" "$out"
	return "$rc"
}

main "$@"
