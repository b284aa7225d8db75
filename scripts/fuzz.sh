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
# Exit: 0 nothing found, 1 a harness found something, 2 trouble.
set -eu

PROG=fuzz.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t SECONDS] [HARNESS...]
Build and run the kabi fuzz harnesses (default: read diff) for SECONDS
each (default: 120, or \$FUZZ_TIME).
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

main() {
	build=build
	seconds=${FUZZ_TIME:-120}
	while getopts o:t:h opt; do
		case "$opt" in
		o) build=$OPTARG ;;
		t) seconds=$OPTARG ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ "$#" -gt 0 ] || set -- read diff
	case "$seconds" in
	'' | *[!0-9]*) die "-t needs a number of seconds, not '$seconds'" ;;
	esac
	command -v clang >/dev/null 2>&1 || die "no clang (Debian package clang)"

	mkdir -p "$build/fuzz/artifacts"
	fuzzdir=$(cd "$build/fuzz" && pwd)
	make_corpus
	found=0
	for h in "$@"; do
		[ -f "$TOPDIR/tools/kabi/fuzz/fuzz-$h.c" ] || die "unknown harness '$h' (read, diff)"
		build_harness "$h"
		run_harness "$h"
	done
	[ "$found" -eq 0 ]
}

main "$@"
