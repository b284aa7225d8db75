#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench.sh - kabi against pahole, codiff and abidiff on a distro vmlinux
# pair, a pair of distro kernels far apart (6.1 and 6.12) and the tiny
# parity kernel's GCC/Clang pair, in one run, and kabi check against kabi
# dump of the same input. Tools alternate, each measured RUNS times under
# GNU time (abidiff once, under a timeout); the table gives median wall
# time, CPU time (user + system) and peak RSS, the ratios kabi / anchor
# and whether they meet the targets; on the distro pair kabi also reads
# with libdw (--reader libdw) and on one thread against a bare libdw walk
# of every DIE. Then the correctness checks: kabi's output does not
# depend on the run, the thread count or the reader, kabi counts the DIEs
# libdw walks (kabi dump --stats, which says how many its reader
# decoded), and every struct codiff reports as changed is reported by
# kabi or explained. --btf-only measures the BTF rows alone.
#
# Exit: 0 every target met and every check passed, 1 a target or check
# missed, 2 trouble (a tool or input missing, kabi failed, fetch failed).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=bench.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/debcache.sh
. "$TOPDIR/scripts/lib/debcache.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/measure.sh
. "$TOPDIR/scripts/lib/measure.sh"
TIME=/usr/bin/time

# The distro pair: Debian's debug vmlinux of two consecutive ABIs.
PKG_PREFIX=linux-image-6.1.0-
PKG_SUFFIX=-cloud-amd64-dbg
# The far pair: the distro pair's new kernel against Debian 12's newest
# 6.12 (linux-image-6.12.N+deb12-cloud-amd64-dbg, bookworm-security).
FAR_PREFIX=linux-image-6.12.
FAR_SUFFIX=+deb12-cloud-amd64-dbg
# Targets, kabi / anchor, on the distro pair: dump (two threads) against
# pahole, with at most DUMP_CPU_MAX seconds of CPU; dump on one thread
# against a bare libdw walk (tools/kabi/bench/dwalk.c); diff against codiff.
DUMP_WALL_MAX=0.10
DUMP_RSS_MAX=0.03
DUMP_CPU_MAX=1.2
WALK_WALL_MAX=1.0
DIFF_WALL_MAX=0.05
DIFF_RSS_MAX_KB=1048576
# kabi check against kabi dump of the same input, on both distro kernels.
CHECK_WALL_MAX=1.2
# kabi dump of the new ABI's BTF (its linux-image vmlinuz) against pahole -F btf.
BTF_WALL_MAX=0.5
BTF_RSS_MAX=1.0
# A BTF dump takes tens of milliseconds, GNU time's clock ticks in ten:
# each BTF measurement is this many runs in a row, divided.
BTF_REPEAT=20
ABIDIFF_FACTOR=50

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-n RUNS] [-t SECONDS] [--tiny-only | --btf-only] [OLD NEW | BTF]
Benchmark BUILDDIR/kabi against pahole, codiff and abidiff.
  -o BUILDDIR   build area (default: build); kabi is BUILDDIR/kabi, the
                report BUILDDIR/bench/bench.json
  -n RUNS       runs of each measurement (default 3); abidiff runs once
  -t SECONDS    abidiff's time limit (default 300); reaching it is a result
  --tiny-only   only the small pair: no distro download, no targets
  --btf-only    only the BTF rows: kabi dump, pahole -F btf and bpftool
                on BTF (default: the distro kernel's; a file given has
                no targets)
  OLD NEW       the small pair (default: the tiny kernel's GCC and Clang
                vmlinux under BUILDDIR/kernel/x86_64-*/)
Environment: KPARITY_CACHE_DIR (default BUILDDIR/cache) keeps the distro
vmlinux pair; KPARITY_BENCH_ABI="N M" picks its two ABI numbers,
KPARITY_BENCH_FAR=V the 6.12 version of the far pair (118 for 6.12.118).
USAGE
}

# ---- inputs ---------------------------------------------------------------

# vmlinux_path ABI: where the cache keeps that ABI's debug vmlinux
vmlinux_path() {
	echo "$cache/dbg/$PKG_PREFIX$1$PKG_SUFFIX/usr/lib/debug/boot/vmlinux-6.1.0-$1-cloud-amd64"
}

# pick_abis: two consecutive ABI numbers, cached ones first, else the
# highest pair the archive has
pick_abis() {
	local nums n prev=""

	if [ -n "${KPARITY_BENCH_ABI:-}" ]; then
		echo "$KPARITY_BENCH_ABI"
		return
	fi
	nums=$(find "$cache/dbg" -mindepth 1 -maxdepth 1 -type d -name "$PKG_PREFIX*$PKG_SUFFIX" 2>/dev/null |
		sed -n "s|.*/$PKG_PREFIX\\([0-9]*\\)$PKG_SUFFIX\$|\\1|p" | sort -n)
	for n in $nums; do
		if [ -n "$prev" ] && [ "$n" -eq $((prev + 1)) ] && [ -f "$(vmlinux_path "$prev")" ] &&
			[ -f "$(vmlinux_path "$n")" ]; then
			set -- "$prev" "$n"
		fi
		prev=$n
	done
	if [ $# -eq 2 ]; then
		echo "$1 $2"
		return
	fi
	nums=$(apt-cache search --names-only "^${PKG_PREFIX}[0-9]+$PKG_SUFFIX\$" 2>/dev/null |
		sed -n "s|^$PKG_PREFIX\\([0-9]*\\)$PKG_SUFFIX .*|\\1|p" | sort -n)
	prev=""
	for n in $nums; do
		[ -z "$prev" ] || [ "$n" -ne $((prev + 1)) ] || set -- "$prev" "$n"
		prev=$n
	done
	[ $# -eq 2 ] || die "no two consecutive $PKG_PREFIX*$PKG_SUFFIX packages in apt-cache (apt-get update?)"
	echo "$1 $2"
}

# fetch ABI: download and extract that ABI's vmlinux into the cache once
fetch() {
	fetch_pkg "$PKG_PREFIX$1$PKG_SUFFIX" "$(vmlinux_path "$1")"
}

# fetch_pkg PKG FILE: download PKG and extract FILE (in the cache) once
fetch_pkg() {
	local pkg="$1" want="$2" deb tmp

	[ ! -f "$want" ] || return 0
	deb=$(deb_fetch "$cache/dbg" "$pkg")
	step EXTRACT "$pkg"
	tmp="$cache/dbg/.$pkg.tmp"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "./${want#"$cache/dbg/$pkg/"}" ||
		die "cannot extract the vmlinux from '$deb'"
	rm -rf "$cache/dbg/$pkg"
	mv "$tmp" "$cache/dbg/$pkg"
}

# far_path V: where the cache keeps 6.12.V's debug vmlinux
far_path() {
	echo "$cache/dbg/$FAR_PREFIX$1$FAR_SUFFIX/usr/lib/debug/boot/vmlinux-6.12.$1+deb12-cloud-amd64"
}

# pick_far: the 6.12 version of the far pair: the cached one, else the
# highest the archive has
pick_far() {
	local v

	if [ -n "${KPARITY_BENCH_FAR:-}" ]; then
		echo "$KPARITY_BENCH_FAR"
		return
	fi
	v=$(find "$cache/dbg" -mindepth 1 -maxdepth 1 -type d -name "$FAR_PREFIX*$FAR_SUFFIX" 2>/dev/null |
		sed -n "s|.*/$FAR_PREFIX\([0-9]*\)+deb12-cloud-amd64-dbg\$|\1|p" | sort -n | tail -n 1)
	if [ -z "$v" ] || [ ! -f "$(far_path "$v")" ]; then
		v=$(apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-cloud-amd64-dbg$' 2>/dev/null |
			sed -n 's|^linux-image-6\.12\.\([0-9]*\)+deb12-cloud-amd64-dbg .*|\1|p' | sort -n | tail -n 1)
	fi
	[ -n "$v" ] || die "no $FAR_PREFIX*$FAR_SUFFIX package in apt-cache (bookworm-security in sources.list?)"
	echo "$v"
}

# fetch_far V: download and extract 6.12.V's vmlinux into the cache once
fetch_far() {
	fetch_pkg "$FAR_PREFIX$1$FAR_SUFFIX" "$(far_path "$1")"
}

# build_dwalk: BUILDDIR/bench/dwalk, the bare libdw walk
build_dwalk() {
	dwalk="$outdir/dwalk"
	${CC:-cc} -std=c11 -O2 -Wall "$TOPDIR/tools/kabi/bench/dwalk.c" -o "$dwalk" -ldw ||
		die "cannot build '$dwalk' (libdw-dev: scripts/deps.sh build)"
}

# info_bytes PAIR: .debug_info size of the pair's new side
info_bytes() {
	case "$1" in
	distro) echo "$info_distro" ;;
	far) echo "$info_far" ;;
	*) echo "$info_tiny" ;;
	esac
}

# debug_info_bytes FILE: size of FILE's .debug_info section
debug_info_bytes() {
	local hex

	hex=$(LC_ALL=C readelf -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' |
		awk '$1 == ".debug_info" { print $5; exit }')
	echo $((0x${hex:-0}))
}

# ---- measuring: scripts/lib/measure.sh, and ----------------------------

# kabi_ok TAG: the last kabi run of TAG succeeded (a diff's change bits
# are success), or trouble
kabi_ok() {
	local st

	st=$(awk -v t="$1" '$1 == t { s = $2 } END { print s }' "$results")
	case "$st" in
	0 | 4 | 8 | 12) ;;
	*)
		sed 's/^/    /' "$work/$1.err" >&2
		die "kabi failed ($1, exit $st)"
		;;
	esac
}

# ---- the runs -------------------------------------------------------------

# runs_readers PAIR OLD NEW: the distro pair's extra measurements of one
# round: kabi reading with libdw, kabi on one thread, the bare libdw walk
runs_readers() {
	local pair="$1" old="$2" new="$3"

	measure "kabi-dump-libdw-$pair" /dev/null "$kabi" dump --reader libdw "$new"
	kabi_ok "kabi-dump-libdw-$pair"
	measure "kabi-dump1-$pair" /dev/null "$kabi" dump --threads 1 "$new"
	kabi_ok "kabi-dump1-$pair"
	measure "walk-$pair" /dev/null "$dwalk" "$new"
	measure "kabi-diff-libdw-$pair" /dev/null "$kabi" diff --reader libdw "$old" "$new"
	kabi_ok "kabi-diff-libdw-$pair"
}

# runs PAIR OLD NEW: RUNS rounds of kabi dump, pahole, kabi check, kabi
# diff, codiff (on the distro pair runs_readers too), every tool writing into
# /dev/null, so that only the tools are timed; the outputs the checks
# read come from runs of their own, not timed: kabi's of every round (the
# identity check), codiff's of the first.  abidiff once, but not on the
# far pair, where its time limit would be all it measures.
runs() {
	local pair="$1" old="$2" new="$3" i=1 st

	while [ "$i" -le "$nruns" ]; do
		step RUN "$pair $i/$nruns"
		measure "kabi-dump-$pair" /dev/null "$kabi" dump "$new"
		kabi_ok "kabi-dump-$pair"
		measure "pahole-$pair" /dev/null pahole "$new"
		measure "kabi-check-$pair" /dev/null "$kabi" check "$new"
		kabi_ok "kabi-check-$pair"
		measure "kabi-diff-$pair" /dev/null "$kabi" diff "$old" "$new"
		kabi_ok "kabi-diff-$pair"
		measure "codiff-$pair" /dev/null codiff "$old" "$new"
		[ "$pair" != distro ] || runs_readers "$pair" "$old" "$new"
		"$kabi" dump "$new" >"$work/kabi-dump-$pair.out.$i" 2>"$work/kabi-out.err" ||
			die "kabi failed (kabi-dump-$pair, exit $?)"
		st=0
		"$kabi" diff "$old" "$new" >"$work/kabi-diff-$pair.out.$i" 2>"$work/kabi-out.err" || st=$?
		case "$st" in
		0 | 4 | 8 | 12) ;;
		*) die "kabi failed (kabi-diff-$pair, exit $st)" ;;
		esac
		i=$((i + 1))
	done
	codiff "$old" "$new" >"$work/codiff-$pair.out.1" 2>"$work/codiff-out.err" || :
	"$kabi" dump --stats "$new" >/dev/null 2>"$work/stats-$pair" ||
		die "kabi failed (kabi dump --stats, exit $?)"
	"$dwalk" "$new" >"$work/dwalk-$pair" || die "dwalk failed on '$new'"
	[ "$pair" != far ] || return 0
	step RUN "$pair abidiff (at most $abi_timeout s)"
	measure "abidiff-$pair" /dev/null timeout "$abi_timeout" abidiff "$old" "$new"
}

# runs_btf VMLINUX: RUNS rounds of kabi, pahole and bpftool reading the
# BTF of VMLINUX (each BTF_REPEAT times in a row, all into /dev/null, so
# that only the tools are timed), then the check that kabi's output,
# kept from one more run, did not change
runs_btf() {
	local i=1

	while [ "$i" -le "$nruns" ]; do
		step RUN "btf $i/$nruns"
		measure_rep kabi-dump-btf /dev/null "$BTF_REPEAT" "$kabi" dump "$1"
		kabi_ok kabi-dump-btf
		"$kabi" dump "$1" >"$work/kabi-dump-btf.out.$i" 2>"$work/kabi-dump-btf.err" ||
			die "kabi failed (kabi-dump-btf, exit $?)"
		measure_rep pahole-btf /dev/null "$BTF_REPEAT" pahole -F btf "$1"
		measure_rep bpftool-btf /dev/null "$BTF_REPEAT" bpftool btf dump file "$1" format c
		i=$((i + 1))
	done
	check_same_btf
}

# ---- checks ---------------------------------------------------------------

# check NAME PASS DETAIL: record one check
check() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$checks"
}

# check_same PAIR OLD NEW: dump and diff output identical across runs,
# with one thread, and with --reader libdw
check_same() {
	local pair="$1" old="$2" new="$3" verb f bad=""
	local name="$pair: kabi dump and diff byte-identical over $nruns runs, --threads 1 and --reader libdw"

	step CHECK "$pair: output across runs, --threads 1 and --reader libdw"
	"$kabi" dump --threads 1 "$new" >"$work/kabi-dump-$pair.out.t1" 2>"$work/t1.err" ||
		die "kabi dump --threads 1 failed on '$new'"
	"$kabi" diff --threads 1 "$old" "$new" >"$work/kabi-diff-$pair.out.t1" 2>"$work/t1.err" || :
	"$kabi" dump --reader libdw "$new" >"$work/kabi-dump-$pair.out.libdw" 2>"$work/t1.err" ||
		die "kabi dump --reader libdw failed on '$new'"
	"$kabi" diff --reader libdw "$old" "$new" >"$work/kabi-diff-$pair.out.libdw" 2>"$work/t1.err" || :
	for verb in dump diff; do
		for f in "$work/kabi-$verb-$pair".out.*; do
			cmp -s "$f" "$work/kabi-$verb-$pair.out.1" || bad="$bad ${f##*/}"
		done
	done
	if [ -z "$bad" ]; then
		check "$name" pass ""
	else
		check "$name" fail "differs:$bad"
	fi
}

# check_same_btf: kabi's dump of BTF byte-identical across runs
check_same_btf() {
	local f bad=""

	for f in "$work"/kabi-dump-btf.out.*; do
		cmp -s "$f" "$work/kabi-dump-btf.out.1" || bad="$bad ${f##*/}"
	done
	if [ -z "$bad" ]; then
		check "btf: kabi dump byte-identical over $nruns runs" pass ""
	else
		check "btf: kabi dump byte-identical over $nruns runs" fail "differs:$bad"
	fi
}

# dies PAIR: the DIE counts of kabi dump --stats on PAIR's new input,
# "dies decoded stepped not-reached", or nothing when it gave none
dies() {
	sed -n 's/^kabi: .*: [0-9]* units, \([0-9]*\) DIEs: \([0-9]*\) decoded, \([0-9]*\) stepped over, \([0-9]*\) not reached$/\1 \2 \3 \4/p' \
		"$work/stats-$1"
}

# dies_json PAIR: the counts of dies PAIR as a JSON object
dies_json() {
	# shellcheck disable=SC2046 # four numbers
	set -- $(dies "$1")
	[ $# -eq 4 ] || set -- null null null null
	printf '{"dies":%s,"decoded":%s,"stepped_over":%s,"not_reached":%s}' "$1" "$2" "$3" "$4"
}

# check_dies PAIR: kabi's reader counts every DIE that libdw walks
check_dies() {
	local kabi_n walk_n name="$1: kabi dump --stats counts the DIEs libdw walks"

	kabi_n=$(dies "$1" | cut -d ' ' -f 1)
	walk_n=$(sed -n 's/^\([0-9]*\) DIEs$/\1/p' "$work/dwalk-$1")
	if [ -n "$kabi_n" ] && [ "$kabi_n" = "$walk_n" ]; then
		check "$name" pass ""
	else
		check "$name" fail "kabi: ${kabi_n:-none}, dwalk: ${walk_n:-none}"
	fi
}

# codiff_structs FILE: the structs (and unions) a codiff report lists
codiff_structs() {
	sed -n 's/^  struct \([A-Za-z_][A-Za-z0-9_]*\) *|.*/\1/p' "$1" | sort -u
}

# check_codiff PAIR OLD NEW: kabi reports every struct codiff reports,
# or the struct is local to functions, or pahole lays it out alike in both
check_codiff() {
	local pair="$1" old="$2" new="$3" names n reported="" local_only="" same="" missed="" st
	local name="$pair: every struct codiff reports as changed is reported by kabi"

	if [ "$(status "codiff-$pair")" != 0 ]; then
		check "$name" skip "codiff: $(result "codiff-$pair")"
		return
	fi
	names=$(codiff_structs "$work/codiff-$pair.out.1")
	if [ -z "$names" ]; then
		check "$name" pass "codiff reports none"
		return
	fi
	step CHECK "$pair: codiff's structs in kabi's report"
	set --
	for n in $names; do
		set -- "$@" --type "struct $n" --type "union $n"
	done
	st=0
	"$kabi" dump "$@" "$old" "$new" >"$work/codiff-types-$pair" 2>"$work/t1.err" || st=$?
	# 2: no --type selects a type, every struct codiff names is local to
	# a function; the loop below says so
	[ "$st" = 0 ] || [ "$st" = 2 ] || die "kabi dump --type failed: $(head -n 1 "$work/t1.err")"
	{ pahole "$old" >"$work/pahole-$pair.old" && pahole "$new" >"$work/pahole-$pair.new"; } ||
		die "pahole cannot read the $pair pair"
	awk -f "$TOPDIR/scripts/bench/pahole-same.awk" "$work/pahole-$pair.old" \
		"$work/pahole-$pair.new" >"$work/pahole-same-$pair"
	for n in $names; do
		# a change inside an anonymous member is reported under its path
		if grep -Eq "^(struct|union) $n([ .]|\$)" "$work/kabi-diff-$pair.out.1"; then
			reported="$reported $n"
		elif ! grep -Eq "^(struct|union) $n( |\$)" "$work/codiff-types-$pair"; then
			local_only="$local_only $n"
		elif grep -Eqx "(struct|union) $n" "$work/pahole-same-$pair"; then
			same="$same $n"
		else
			missed="$missed $n"
		fi
	done
	[ "$(echo "$reported" | wc -w)" -le 20 ] || reported=" $(echo "$reported" | wc -w) structs"
	[ -z "$same" ] || same=" ${local_only:+and }$(echo "$same" | wc -w) laid out alike by pahole in both, every member at its offset with its size (codiff lists a struct where a unit uses it in one input only, or where only the types of its members changed)"
	if [ -n "$missed" ]; then
		check "$name" fail "missed:$missed"
	else
		check "$name" pass "reported:${reported:- none}; explained:$local_only${local_only:+ (no file-scope definition in either input: defined inside a function, which kabi does not read; codiff pairs same-name local structs of different functions)}$same"
	fi
}

# ---- report ---------------------------------------------------------------

# completed TAG: TAG's first run finished with an answer (abidiff's
# change bits are answers), not an error, a crash or the time limit
completed() {
	case "$(status "$1")" in
	0 | 4 | 8 | 12) return 0 ;;
	*) return 1 ;;
	esac
}

# row ID LABEL KTAG ATAG TOOL: one table row and its JSON object; the
# target text and verdict come from $target and $verdict
row() {
	local id="$1" label="$2" ktag="$3" atag="$4" tool="$5"
	local kw kc kr aw="" ac="" ar="" res rw rr shown

	kw=$(run_median "$ktag" 3)
	kc=$(run_median "$ktag" 4)
	kr=$(run_median "$ktag" 5)
	res=$(result "$atag")
	if completed "$atag"; then
		aw=$(run_median "$atag" 3)
		ac=$(run_median "$atag" 4)
		ar=$(run_median "$atag" 5)
	fi
	shown=${aw:--}
	rw=$(ratio "$kw" "$aw")
	rr=$(ratio "$kr" "$ar")
	if [ "$res" = timeout ]; then
		# the time limit is a lower bound of abidiff's time
		shown=">$abi_timeout"
		rw="<$(ratio "$kw" "$abi_timeout")"
	fi
	printf '%-14s %7s %7s %7s | %-7s %7s %7s %7s | %7s %6s  %s\n' "$label" "$kw" "$kc" "$(mb "$kr")" \
		"$tool" "$shown" "${ac:--}" "$(mb "$ar")" "$rw" "$rr" "$verdict${target:+ ($target)}"
	completed "$atag" || printf '%-14s %s %s\n' "" "$tool:" "$res"
	printf '%s{"id":"%s","kabi":{"wall_s":%s,"cpu_s":%s,"rss_kb":%s},"anchor":{"tool":"%s","result":"%s","wall_s":%s,"cpu_s":%s,"rss_kb":%s},"wall_ratio":%s,"rss_ratio":%s,"target":"%s","verdict":"%s"}\n' \
		"$json_sep" "$id" "$kw" "$kc" "$kr" "$tool" "$res" "$(jnum "$aw")" "$(jnum "$ac")" "$(jnum "$ar")" \
		"$(jnum "${rw#<}")" "$(jnum "$rr")" "$target" "$verdict" >>"$json_rows"
	json_sep=","
}

# targets_dump PAIR, targets_diff PAIR, targets_abidiff PAIR: set
# $target and $verdict for a row, and count misses
targets_dump() {
	local rw rr

	target="wall <= $DUMP_WALL_MAX, rss <= $DUMP_RSS_MAX, cpu <= $DUMP_CPU_MAX s"
	rw=$(ratio "$(run_median "kabi-dump-$1" 3)" "$(run_median "pahole-$1" 3)")
	rr=$(ratio "$(run_median "kabi-dump-$1" 5)" "$(run_median "pahole-$1" 5)")
	[ "$(status "pahole-$1")" = 0 ] && le "$rw" "$DUMP_WALL_MAX" && le "$rr" "$DUMP_RSS_MAX" &&
		le "$(run_median "kabi-dump-$1" 4)" "$DUMP_CPU_MAX" && verdict=PASS || verdict=FAIL
}

# targets_walk PAIR: kabi's dump on one thread against the bare libdw walk
targets_walk() {
	local rw

	target="wall <= $WALK_WALL_MAX"
	rw=$(ratio "$(run_median "kabi-dump1-$1" 3)" "$(run_median "walk-$1" 3)")
	[ "$(status "walk-$1")" = 0 ] && le "$rw" "$WALK_WALL_MAX" && verdict=PASS || verdict=FAIL
}

targets_btf() {
	local rw rr

	target="wall <= $BTF_WALL_MAX, rss <= $BTF_RSS_MAX"
	rw=$(ratio "$(run_median kabi-dump-btf 3)" "$(run_median pahole-btf 3)")
	rr=$(ratio "$(run_median kabi-dump-btf 5)" "$(run_median pahole-btf 5)")
	[ "$(status pahole-btf)" = 0 ] && le "$rw" "$BTF_WALL_MAX" && le "$rr" "$BTF_RSS_MAX" && verdict=PASS || verdict=FAIL
}

# targets_check PAIR: kabi check against kabi dump of the same input
targets_check() {
	local rw

	target="wall <= $CHECK_WALL_MAX"
	rw=$(ratio "$(run_median "kabi-check-$1" 3)" "$(run_median "kabi-dump-$1" 3)")
	le "$rw" "$CHECK_WALL_MAX" && verdict=PASS || verdict=FAIL
}

targets_diff() {
	local rw

	target="wall <= $DIFF_WALL_MAX, kabi rss <= 1 GB"
	rw=$(ratio "$(run_median "kabi-diff-$1" 3)" "$(run_median "codiff-$1" 3)")
	[ "$(status "codiff-$1")" = 0 ] && le "$rw" "$DIFF_WALL_MAX" &&
		le "$(run_median "kabi-diff-$1" 5)" "$DIFF_RSS_MAX_KB" && verdict=PASS || verdict=FAIL
}

targets_abidiff() {
	local kw aw

	target="${ABIDIFF_FACTOR}x faster"
	kw=$(run_median "kabi-diff-$1" 3)
	aw=$(run_median "abidiff-$1" 3)
	case "$(result "abidiff-$1")" in
	timeout) aw=$abi_timeout ;;
	ok | "exit 4" | "exit 8" | "exit 12") ;;
	*) aw="" ;;
	esac
	[ -n "$aw" ] && le "$(awk -v k="$kw" -v f="$ABIDIFF_FACTOR" 'BEGIN { print k * f }')" "$aw" &&
		verdict=PASS || verdict=FAIL
}

# report_btf: the BTF rows; targets unless the BTF was given ($btf_given)
report_btf() {
	target="" verdict=info
	[ "$btf_given" = 1 ] || targets_btf
	[ "$verdict" != FAIL ] || fails=$((fails + 1))
	row dump-btf-pahole "dump btf" kabi-dump-btf pahole-btf pahole
	target="" verdict=info
	row dump-btf-bpftool "dump btf" kabi-dump-btf bpftool-btf bpftool
}

# report_row ID LABEL KTAG ATAG TOOL TARGETS: one row, its verdict by
# TARGETS (a targets_ function, or "" for info), its miss counted
report_row() {
	target="" verdict=info
	[ -z "$6" ] || "$6" "$7"
	[ "$verdict" != FAIL ] || fails=$((fails + 1))
	row "$1" "$2" "$3" "$4" "$5"
}

# report_pair PAIR: the rows of PAIR; targets on the distro pair, whose
# rows include kabi with libdw and on one thread, and check's on the far
# pair too
report_pair() {
	local p="$1" t="" c=""

	[ "$p" != distro ] || t=1
	[ "$p" = tiny ] || c=targets_check
	report_row "dump-$p" "dump $p" "kabi-dump-$p" "pahole-$p" pahole "${t:+targets_dump}" "$p"
	report_row "check-$p" "check $p" "kabi-check-$p" "kabi-dump-$p" dump "$c" "$p"
	if [ -n "$t" ]; then
		report_row "dump-$p-libdw" "dump libdw" "kabi-dump-libdw-$p" "pahole-$p" pahole "" "$p"
		report_row "dump-$p-1thread" "dump 1 thread" "kabi-dump1-$p" "walk-$p" dwalk targets_walk "$p"
	fi
	report_row "diff-$p-codiff" "diff $p" "kabi-diff-$p" "codiff-$p" codiff "${t:+targets_diff}" "$p"
	[ -z "$t" ] || report_row "diff-$p-libdw" "diff libdw" "kabi-diff-libdw-$p" "codiff-$p" codiff "" "$p"
	[ "$p" = far ] ||
		report_row "diff-$p-abidiff" "diff $p" "kabi-diff-$p" "abidiff-$p" abidiff "${t:+targets_abidiff}" "$p"
}

# report PAIRS BTF: the table (BTF 1: with the BTF rows), the checks,
# bench.json; exit status
report() {
	local pairs="$1" btf="$2" p label tmp name pass detail first=1

	fails=0
	json_rows="$work/rows.json"
	: >"$json_rows"
	json_sep=""
	printf '\n%-14s %7s %7s %7s | %-7s %7s %7s %7s | %7s %6s  %s\n' row "wall s" "cpu s" "rss MB" \
		anchor "wall s" "cpu s" "rss MB" "wall x" "rss x" verdict
	for p in $pairs; do
		report_pair "$p"
		[ "$p" != distro ] || [ "$btf" != 1 ] || report_btf
	done
	[ -n "$pairs" ] || [ "$btf" != 1 ] || report_btf

	if [ -n "$pairs" ]; then
		printf '\nkabi dump peak RSS:'
		for p in $pairs; do
			printf ' %s %s MB (.debug_info %s MB);' "$p" "$(mb "$(run_median "kabi-dump-$p" 5)")" \
				"$(mb "$(($(info_bytes "$p") / 1024))")"
		done
		printf '\n'
		report_dies "$pairs"
	fi
	printf '\n'
	while IFS="$(printf '\t')" read -r name pass detail; do
		printf 'check %-4s %s\n' "$(echo "$pass" | tr '[:lower:]' '[:upper:]')" "$name"
		[ -z "$detail" ] || printf '           %s\n' "$detail"
		[ "$pass" != fail ] || fails=$((fails + 1))
	done <"$checks"

	tmp="$outdir/.bench.json.$$"
	{
		printf '{"version":1,"runs":%d,"btf_repeat":%d,"abidiff_timeout_s":%d,"load":"%s",\n"rows":[\n' \
			"$nruns" "$BTF_REPEAT" "$abi_timeout" "$load"
		cat "$json_rows"
		printf '],\n"memory":{'
		for p in $pairs; do
			[ "$first" = 1 ] || printf ','
			first=0
			printf '"%s":{"kabi_dump_rss_kb":%s,"debug_info_bytes":%s}' "$p" \
				"$(run_median "kabi-dump-$p" 5)" "$(info_bytes "$p")"
		done
		printf '},\n"dies":{'
		first=1
		for p in $pairs; do
			[ "$first" = 1 ] || printf ','
			first=0
			printf '"%s":%s' "$p" "$(dies_json "$p")"
		done
		printf '},\n"checks":['
		first=1
		while IFS="$(printf '\t')" read -r name pass detail; do
			[ "$first" = 1 ] || printf ','
			first=0
			printf '{"name":%s,"result":"%s","detail":%s}' "$(json_str "$name")" "$pass" "$(json_str "$detail")"
		done <"$checks"
		printf '],\n"verdict":"%s"}\n' "$([ "$fails" -eq 0 ] && echo PASS || echo FAIL)"
	} >"$tmp"
	mv "$tmp" "$outdir/bench.json"
	if [ "$fails" -eq 0 ]; then
		printf 'bench: PASS; %s\n' "$outdir/bench.json"
		return 0
	fi
	printf 'bench: FAIL (%d missed); %s\n' "$fails" "$outdir/bench.json"
	return 1
}

# report_dies PAIRS: what kabi's reader read of each pair's new input
report_dies() {
	local p n

	printf 'kabi dump DIEs:'
	for p in $1; do
		# shellcheck disable=SC2046 # four numbers
		set -- $(dies "$p")
		n=${1:-0}
		[ "$n" -gt 0 ] || n=1
		printf ' %s %s, decoded %s (%s%%), stepped over %s, not reached %s (%s%%);' "$p" "${1:--}" \
			"${2:--}" "$(percent "${2:-0}" "$n")" "${3:--}" "${4:--}" "$(percent "${4:-0}" "$n")"
	done
	printf '\n'
}

# percent A B: A / B in percent, no decimals
percent() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", 100 * a / b }'
}

# distro_btf: the distro kernel's BTF (its linux-image vmlinuz's), made once
distro_btf() {
	local abis

	abis=$(pick_abis)
	# shellcheck disable=SC2086 # two numbers
	set -- $abis
	image_vmlinux "$cache" "6.1.0-$2-cloud-amd64"
}

# btf_only [FILE]: the BTF rows alone, on FILE or the distro kernel's BTF
btf_only() {
	local f

	if [ $# -eq 1 ]; then
		f=$1
		btf_given=1
		[ -f "$f" ] || die "no '$f'"
	else
		f=$(distro_btf)
	fi
	runs_btf "$f"
	report "" 1
}

# bench_pairs OLD NEW: the distro pair (unless $tiny_only) with the BTF
# rows, and the small pair OLD NEW
bench_pairs() {
	local old="$1" new="$2" abis far pairs t

	for t in "$old" "$new"; do
		[ -f "$t" ] || die "no '$t' (make parity builds the tiny kernel)"
	done
	build_dwalk
	pairs=tiny
	info_tiny=$(debug_info_bytes "$new")
	tiny_old=$old tiny_new=$new
	if [ "$tiny_only" = 0 ]; then
		abis=$(pick_abis)
		far=$(pick_far)
		# shellcheck disable=SC2086 # two numbers
		set -- $abis
		fetch "$1"
		fetch "$2"
		fetch_far "$far"
		distro_old=$(vmlinux_path "$1")
		distro_new=$(vmlinux_path "$2")
		far_old=$distro_new far_new=$(far_path "$far")
		info_distro=$(debug_info_bytes "$distro_new")
		info_far=$(debug_info_bytes "$far_new")
		pairs="distro far tiny"
		runs distro "$distro_old" "$distro_new"
		runs far "$far_old" "$far_new"
		runs_btf "$(image_vmlinux "$cache" "6.1.0-$2-cloud-amd64")"
	fi
	runs tiny "$old" "$new"
	for t in $pairs; do
		check_same "$t" "$(pair_old "$t")" "$(pair_new "$t")"
		check_dies "$t"
		check_codiff "$t" "$(pair_old "$t")" "$(pair_new "$t")"
	done
	report "$pairs" "$([ "$tiny_only" = 0 ] && echo 1 || echo 0)"
}

# pair_old PAIR, pair_new PAIR: the inputs of PAIR
pair_old() {
	case "$1" in
	distro) echo "$distro_old" ;;
	far) echo "$far_old" ;;
	*) echo "$tiny_old" ;;
	esac
}

pair_new() {
	case "$1" in
	distro) echo "$distro_new" ;;
	far) echo "$far_new" ;;
	*) echo "$tiny_new" ;;
	esac
}

main() {
	local builddir=build btf=0 old="" new="" t

	tiny_only=0
	nruns=3
	abi_timeout=300
	btf_given=0
	while [ $# -gt 0 ]; do
		case "$1" in
		-o) [ $# -ge 2 ] || die "-o needs a directory"; builddir=$2; shift 2 ;;
		-n) [ $# -ge 2 ] || die "-n needs a number"; nruns=$2; shift 2 ;;
		-t) [ $# -ge 2 ] || die "-t needs a number of seconds"; abi_timeout=$2; shift 2 ;;
		--tiny-only) tiny_only=1; shift ;;
		--btf-only) btf=1; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		-*) usage >&2; exit 2 ;;
		*) break ;;
		esac
	done
	is_positive "$nruns" || die "-n needs a positive number, not '$nruns'"
	is_positive "$abi_timeout" || die "-t needs a positive number of seconds, not '$abi_timeout'"
	if [ "$btf" = 1 ]; then
		{ [ "$tiny_only" = 0 ] && [ $# -le 1 ]; } || { usage >&2; exit 2; }
	else
		case $# in
		0)
			old="$(load_target x86_64 && compiler_select gcc && cell_dir "$builddir")/vmlinux"
			new="$(load_target x86_64 && compiler_select clang && cell_dir "$builddir")/vmlinux"
			;;
		2) old=$1 new=$2 ;;
		*) usage >&2; exit 2 ;;
		esac
	fi

	kabi="$builddir/kabi"
	[ -x "$kabi" ] || die "no '$kabi': run 'make' first"
	for t in pahole codiff abidiff timeout readelf bpftool; do
		command -v "$t" >/dev/null || die "cannot find $t (scripts/deps.sh bench)"
	done
	[ -x "$TIME" ] || die "cannot find GNU time at $TIME (scripts/deps.sh bench)"

	outdir="$builddir/bench"
	work="$outdir/work"
	rm -rf "$work"
	mkdir -p "$work"
	results="$work/results"
	checks="$work/checks"
	: >"$results"
	: >"$checks"
	load=$(cut -d ' ' -f 1-3 /proc/loadavg)
	cache=$(cache_dir "$builddir")
	if [ "$btf" = 1 ]; then
		btf_only "$@"
	else
		bench_pairs "$old" "$new"
	fi
}

main "$@"
