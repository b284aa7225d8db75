#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz.sh - build kabi's libFuzzer harnesses (clang, ASan+UBSan), make a
# seed corpus from the test fixtures (GCC and Clang, DWARF 4 and 5, ELF32
# and ELF64, little- and big-endian), and run each harness for a while.
#
# Crashes, leaks and sanitizer reports fail the run; the reproducer is
# kept in BUILDDIR/fuzz/artifacts/.
#
# With -c FILE it corrupts a real input instead: N times, a few random
# bytes of one of FILE's DWARF sections are overwritten in a copy (and
# put back after), BUILDDIR/kabi dumps the copy, and each run must end in
# exit 0 with nothing on stderr, or exit 1 with one line; a signal or a
# second line fails.  Each corruption is in BUILDDIR/fuzz/corrupt.log.
#
# Exit: 0 nothing found, 1 a harness or corruption found something, 2
# trouble.
set -eu

PROG=fuzz.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t SECONDS] [HARNESS...]
       $PROG [-o BUILDDIR] -c FILE [-n RUNS] [-s SEED]
Build and run the kabi fuzz harnesses (default: read diff info) for
SECONDS each (default: 120, or \$FUZZ_TIME).
  -c FILE   dump RUNS corrupted copies of FILE (an ELF file with DWARF)
            with BUILDDIR/kabi instead (default 300 runs, seed 1)
USAGE
}

# build_harness NAME: compile tools/kabi/fuzz/fuzz-NAME.c with kabi's sources
build_harness() {
	srcs=$(find "$TOPDIR/tools/kabi" -maxdepth 1 -name '*.c' ! -name main.c | sort)
	step FUZZCC "$1"
	# shellcheck disable=SC2086 # one word per source file
	clang -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-I "$TOPDIR/tools/kabi" "$TOPDIR/tools/kabi/fuzz/fuzz-$1.c" $srcs \
		-ldw -lelf -lbpf -o "$fuzzdir/fuzz-$1"
}

# seed CC OUT SRC FLAGS...: one corpus object; a missing cross compiler
# only means a smaller corpus
seed() {
	cc=$1
	out=$2
	src=$3
	shift 3
	command -v "$cc" >/dev/null 2>&1 || return 0
	"$cc" -g -c "$@" "$src" -o "$out" 2>/dev/null || step SKIP "$out"
}

# info_seed OBJ FLAGS OUT: the sections kabi's decoder reads from OBJ,
# joined as the info harness takes them (a flags byte first)
info_seed() {
	obj=$1
	flags=$2
	out=$3
	{
		# shellcheck disable=SC2059 # the flags byte is an escape
		printf "$flags"
		for sec in .debug_info .debug_abbrev .debug_str .debug_line_str .debug_str_offsets; do
			[ "$sec" = .debug_info ] || printf 'KABI-FUZZ-SPLIT'
			objcopy -O binary --only-section="$sec" "$obj" "$fuzzdir/sec.tmp" 2>/dev/null &&
				cat "$fuzzdir/sec.tmp"
		done
	} >"$out"
	rm -f "$fuzzdir/sec.tmp"
}

# make_info_corpus: the decoder's corpus, from the read corpus' objects
# and a shared object of each fixture (relocations applied)
make_info_corpus() {
	mkdir -p "$fuzzdir/corpus-info"
	for o in "$corpus"/*.o; do
		case "$o" in
		*-ppc32be.o | *-a64be.o) f='\001' ;;
		*) f='\000' ;;
		esac
		info_seed "$o" "$f" "$fuzzdir/corpus-info/$(basename "$o" .o)"
	done
	# the shared objects' seeds count what is read (flags bit 1, as
	# kabi dump --stats does) with DWARF 5
	for src in "$TOPDIR"/tests/fixtures/kabi/*.c; do
		b=$(basename "$src" .c)
		for v in 4 5; do
			clang -g -gdwarf-$v -shared -fPIC "$src" -o "$fuzzdir/so.tmp" 2>/dev/null || continue
			f='\000'
			[ "$v" = 4 ] || f='\002'
			info_seed "$fuzzdir/so.tmp" "$f" "$fuzzdir/corpus-info/$b-so$v"
		done
	done
	rm -f "$fuzzdir/so.tmp"
}

make_corpus() {
	corpus=$fuzzdir/corpus-read
	mkdir -p "$corpus" "$fuzzdir/corpus-diff"
	for src in "$TOPDIR"/tests/fixtures/kabi/*.c "$TOPDIR"/tests/fixtures/kabi-diff/layout.c; do
		b=$(basename "$src" .c)
		seed gcc "$corpus/$b-gcc5.o" "$src" -gdwarf-5
		seed gcc "$corpus/$b-gcc4.o" "$src" -gdwarf-4
		seed clang "$corpus/$b-clang5.o" "$src" -gdwarf-5
		seed clang "$corpus/$b-clang4.o" "$src" -gdwarf-4
		seed clang "$corpus/$b-ppc32be.o" "$src" --target=powerpc-linux-gnu -gdwarf-4
		seed clang "$corpus/$b-a64be.o" "$src" --target=aarch64_be-linux-gnu
		seed arm-linux-gnueabi-gcc "$corpus/$b-arm32.o" "$src"
	done
	# BTF of the GCC objects, raw, as pahole writes it for a kernel
	for o in "$corpus"/*-gcc5.o; do
		pahole -J --btf_gen_floats --btf_encode_detached="${o%.o}.btf" "$o" 2>/dev/null ||
			step SKIP "${o%.o}.btf"
	done
	make_info_corpus
	# the diff harness takes two objects joined by its separator
	for a in "$corpus"/*-gcc5.o; do
		b=${a%-gcc5.o}-clang4.o
		[ -f "$b" ] || continue
		{ cat "$a"; printf 'KABI-FUZZ-SPLIT'; cat "$b"; } >"$fuzzdir/corpus-diff/$(basename "$a" .o).pair"
		[ -f "${a%.o}.btf" ] || continue
		{ cat "$a"; printf 'KABI-FUZZ-SPLIT'; cat "${a%.o}.btf"; } >"$fuzzdir/corpus-diff/$(basename "$a" .o)-btf.pair"
	done
}

run_harness() {
	name=$1
	step FUZZ "$name  ${seconds}s"
	rc=0
	"$fuzzdir/fuzz-$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix="$fuzzdir/artifacts/$name-" \
		"$fuzzdir/corpus-$name" >"$fuzzdir/$name.log" 2>&1 || rc=$?
	grep -E '^stat::(number_of_executed_units|peak_rss_mb)|cov: ' "$fuzzdir/$name.log" | tail -n 3 >&2 || :
	if [ "$rc" -ne 0 ]; then
		step FAIL "$name: see $fuzzdir/$name.log and $fuzzdir/artifacts/"
		found=1
	fi
}

# dwarf_sections FILE: "NAME OFFSET SIZE" (decimal) of each DWARF section
# of FILE that kabi reads
dwarf_sections() {
	LC_ALL=C readelf -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' |
		awk '$1 ~ /^\.debug_(info|abbrev|str|line|line_str|str_offsets)$/ { print $1, $4, $5 }' |
		while read -r name off size; do
			echo "$name $((0x$off)) $((0x$size))"
		done
}

# corrupt_run I NAME OFF LEN BYTES: one corrupted dump of $copy; 0 ok
corrupt_run() {
	printf '%s' "$(dd if="$copy" bs=1 skip="$3" count="$4" status=none | od -An -to1 -v |
		tr -s ' \n' ' ' | sed 's/ \([0-7]*\)/\\\1/g')" >"$fuzzdir/orig"
	# shellcheck disable=SC2059 # the bytes are octal escapes
	printf "$5" | dd of="$copy" bs=1 seek="$3" conv=notrunc status=none
	rc=0
	"$kabi" dump "$copy" >/dev/null 2>"$fuzzdir/corrupt.err" || rc=$?
	lines=$(wc -l <"$fuzzdir/corrupt.err")
	# shellcheck disable=SC2059
	printf "$(cat "$fuzzdir/orig")" | dd of="$copy" bs=1 seek="$3" conv=notrunc status=none
	printf '%s: %s, %s bytes at file offset %s: exit %s, %s lines: %s\n' "$1" "$2" "$4" "$3" "$rc" "$lines" \
		"$(head -n 1 "$fuzzdir/corrupt.err")" >>"$log"
	case "$rc.$lines" in
	0.0) nread=$((nread + 1)) ;;
	1.1) nrefused=$((nrefused + 1)) ;;
	*) return 1 ;;
	esac
}

# corrupt FILE RUNS SEED: RUNS corrupted dumps of FILE
corrupt() {
	kabi=$build/kabi
	[ -x "$kabi" ] || die "no '$kabi': run 'make O=$build' first"
	[ -f "$1" ] || die "no '$1'"
	copy=$fuzzdir/corrupt.elf
	log=$fuzzdir/corrupt.log
	: >"$log"
	cp "$1" "$copy"
	dwarf_sections "$copy" >"$fuzzdir/sections"
	[ -s "$fuzzdir/sections" ] || die "'$1' has no DWARF section kabi reads"
	# each run: a section, a place in it, 1 to 8 bytes
	awk -v n="$2" -v seed="$3" '{ s[NR] = $0 } END { srand(seed); for (i = 1; i <= n; i++) {
		split(s[int(rand() * NR) + 1], f, " "); len = int(rand() * 8) + 1
		b = ""; for (k = 0; k < len; k++) b = b sprintf("\\%03o", int(rand() * 256))
		print i, f[1], f[2] + int(rand() * (f[3] - len)), len, b } }' "$fuzzdir/sections" >"$fuzzdir/plan"
	nread=0 nrefused=0 bad=0
	step CORRUPT "$2 runs on $1"
	while read -r i name off len bytes; do
		corrupt_run "$i" "$name" "$off" "$len" "$bytes" || bad=$((bad + 1))
	done <"$fuzzdir/plan"
	rm -f "$copy"
	printf 'corrupt: %s runs: %s read, %s refused with one line, %s bad; %s\n' \
		"$2" "$nread" "$nrefused" "$bad" "$log"
	[ "$bad" -eq 0 ]
}

main() {
	build=build
	seconds=${FUZZ_TIME:-120}
	file=
	runs=300
	seed=1
	while getopts o:t:c:n:s:h opt; do
		case "$opt" in
		o) build=$OPTARG ;;
		t) seconds=$OPTARG ;;
		c) file=$OPTARG ;;
		n) runs=$OPTARG ;;
		s) seed=$OPTARG ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	case "$runs.$seed" in
	*[!0-9.]* | .* | *.) die "-n and -s take numbers, not '$runs' and '$seed'" ;;
	esac
	if [ -n "$file" ]; then
		mkdir -p "$build/fuzz"
		fuzzdir=$(cd "$build/fuzz" && pwd)
		build=$(cd "$build" && pwd)
		corrupt "$file" "$runs" "$seed"
		return
	fi
	[ "$#" -gt 0 ] || set -- read diff info
	case "$seconds" in
	'' | *[!0-9]*) die "-t needs a number of seconds, not '$seconds'" ;;
	esac
	command -v clang >/dev/null 2>&1 || die "no clang (Debian package clang)"

	mkdir -p "$build/fuzz/artifacts"
	fuzzdir=$(cd "$build/fuzz" && pwd)
	make_corpus
	found=0
	for h in "$@"; do
		[ -f "$TOPDIR/tools/kabi/fuzz/fuzz-$h.c" ] || die "unknown harness '$h' (read, diff, info)"
		build_harness "$h"
		run_harness "$h"
	done
	[ "$found" -eq 0 ]
}

main "$@"
