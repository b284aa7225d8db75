#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kselftest.sh - build a cell's kselftests and the ext2 disk they boot on.
#
# The programs of scripts/targets/kselftest.list that run on TARGET are
# built from the kernel tree (kernel-src.sh) with the cell's own compiler,
# statically linked, installed with the selftests' own 'install' (so
# run_kselftest.sh and kselftest-list.txt come along), checked to be
# static, and packed with genext2fs (no root needed) into
# BUILDDIR/kselftest/TARGET-COMPILER/kselftest.ext2, together with
# kparity-tests.sh: one 'ksft' line per program for the guest's /init
# (scripts/initramfs/init.sh), which runs them. The image is written under
# a temporary name and renamed; a stamp of its inputs makes a re-run free.
#
# Exit: 0 ok (the image's path on stdout), 1 a build failed or a program
# is not static, 2 trouble (usage, target, compiler, list, tools).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kselftest.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/elf.sh
. "$TOPDIR/scripts/lib/elf.sh"
LIST="${KPARITY_KSELFTEST_LIST:-$TOPDIR/scripts/targets/kselftest.list}"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET [-c COMPILER]
Build TARGET's kselftests (scripts/targets/kselftest.list) with COMPILER
(default: gcc) and pack them into an ext2 image; print the image's path.
  -o BUILDDIR  where build products go
  -t TARGET    one of: $(known_targets)
  -c COMPILER  one of: $(known_compilers)
Environment:
  KSRC                      the kernel tree (see kernel-src.sh)
  KPARITY_KSELFTEST_LIST    another list of programs (for tests)
  V=1                       show make's commands and output
USAGE
}

# cflags: static, and for Clang the linker of user_ld (the system's ld
# links no other arch)
cflags() {
	if [ -n "$cc_llvm" ]; then
		echo "-static -fuse-ld=$(user_ld)"
	else
		echo "-static"
	fi
}

# clang_cross: for Clang, the target's cross prefix: lib.mk gives Clang
# --target= from it, where its own table names another ABI than the
# target's (x86 for i386, mipsel for big-endian mips)
clang_cross() {
	[ -z "$cc_llvm" ] || [ -z "$t_cross" ] || echo "CROSS_COMPILE=$t_cross"
}

# make_args: the compiler for the selftests' lib.mk
make_args() {
	if [ -n "$cc_llvm" ]; then
		echo "LLVM=$cc_llvm $(clang_cross)"
	else
		echo "CROSS_COMPILE=$cc_cross CC=$cc_bin"
	fi
}

# inputs SRCDIR RUNS: everything the image depends on
inputs() {
	printf 'tree %s %s\n' "$1" "$(tree_version "$1")"
	printf 'cc %s\n' "$("$cc_bin" --version | head -n 1)"
	printf 'make %s CFLAGS=%s\n' "$(make_args)" "$(cflags)"
	printf '%s\n' "$2"
	cksum "$0" "$TOPDIR/scripts/kselftest/kselftest-list.awk" | awk '{ print $1, $2 }'
}

# fail LOG WHAT: the build of WHAT failed; show the log's first error
fail() {
	printf '%s: %s failed for %s/%s; first errors in %s:\n' "$PROG" "$2" "$t_name" "$cc_suffix" "$1" >&2
	grep -m 5 -E 'error|Error [0-9]' "$1" >&2 || tail -n 10 "$1" >&2
	exit 1
}

# build SRCDIR DIR COLLECTIONS: headers, then the collections, installed in DIR/root
build() {
	local src="$1" dir="$2" log="$2/build.log"

	rm -rf "$dir/obj" "$dir/root"
	mkdir -p "$dir/obj"
	: >"$log"
	run_logged "$log" "$TOPDIR/scripts/kernel-make.sh" -t "$t_name" -c "$compiler" \
		"$src" O="$dir/obj" headers ||
		fail "$log" "installing the kernel headers"
	# CFLAGS from the environment: the collections' Makefiles add to it.
	# The programs a collection builds only for 'run_destructive_tests'
	# (TEST_GEN_PROGS_EXTENDED, e.g. timers' clock setters) are not built.
	# shellcheck disable=SC2046 # clang_cross is one word, or none
	run_logged "$log" env CFLAGS="$(cflags)" "$TOPDIR/scripts/kernel-make.sh" \
		-t "$t_name" -c "$compiler" "$src/tools/testing/selftests" \
		O="$dir/obj" ARCH="$t_srcarch" TARGETS="$3" $(clang_cross) \
		TEST_GEN_PROGS_EXTENDED= FORCE_TARGETS=1 -j 2 \
		INSTALL_PATH="$dir/root" install ||
		fail "$log" "building the kselftests ($3)"
}

# check_static ROOT RUNS: every program to run exists and is static
check_static() {
	local root="$1" coll path why

	# shellcheck disable=SC2034 # the seconds are the guest's
	printf '%s\n' "$2" | while read -r coll path _; do
		if [ ! -f "$root/$coll/$path" ]; then
			warn "kselftest '$coll/$path' was not built for $t_name/$cc_suffix"
			exit 1
		fi
		if ! why=$(elf_static "$root/$coll/$path"); then
			warn "kselftest '$coll/$path' of $t_name/$cc_suffix $why; not booting it"
			exit 1
		fi
	done
}

# tests_script RUNS: the guest's list of programs to run, as sh commands
tests_script() {
	printf '# Written by kselftest.sh: the kselftests /init runs.\n'
	printf '%s\n' "$1" | awk '
		{ line[NR] = $0 }
		END {
			print "ksft_plan " NR
			for (i = 1; i <= NR; i++) {
				split(line[i], f, " ")
				name = f[2]
				sub(/.*\//, "", name)
				print "ksft " i " " f[1] " " name " " f[3] " /mnt/" f[1] "/" f[2]
			}
		}'
}

# pack DIR: DIR/root as DIR/kselftest.ext2, its size a power of two (SD
# cards under QEMU must be)
pack() {
	local dir="$1" kb size=1024

	kb=$(du -sk "$dir/root" | awk '{ print $1 }')
	kb=$((kb + kb / 4 + 512))
	while [ "$size" -lt "$kb" ]; do
		size=$((size * 2))
	done
	rm -f "$dir/kselftest.ext2.tmp"
	run_logged "$dir/build.log" genext2fs -b "$size" -N 512 -U -d "$dir/root" "$dir/kselftest.ext2.tmp" ||
		fail "$dir/build.log" "genext2fs"
	mv "$dir/kselftest.ext2.tmp" "$dir/kselftest.ext2"
}

main() {
	local builddir target compiler src dir runs colls stamp want

	cell_opts "$@"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$cc_bin" make genext2fs readelf rsync || exit 2
	[ -z "$cc_llvm" ] || "$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$ld_bin" || exit 2
	[ -r "$LIST" ] || die "cannot read '$LIST'"
	runs=$(kselftest_programs "$target") || exit 2
	[ -n "$runs" ] || die "'$LIST' runs no kselftest on $target"
	colls=$(printf '%s\n' "$runs" | awk '!seen[$1]++ { printf "%s%s", sep, $1; sep = " " }')

	mkdir -p "$builddir" || die "cannot create '$builddir'"
	builddir=$(cd "$builddir" && pwd)
	src=$(KPARITY_SRC_QUIET=1 "$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	dir=$(cell_dir "$builddir" kselftest)
	mkdir -p "$dir" || die "cannot create '$dir'"
	stamp="$dir/.kparity-inputs"
	want=$(inputs "$src" "$runs")
	if [ -f "$dir/kselftest.ext2" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		printf '%s\n' "$dir/kselftest.ext2"
		exit 0
	fi

	step KSFT "$target/$cc_suffix ($colls)"
	rm -f "$stamp" "$dir/kselftest.ext2"
	build "$src" "$dir" "$colls"
	check_static "$dir/root" "$runs" || exit 1
	tests_script "$runs" >"$dir/root/kparity-tests.sh"
	pack "$dir"
	printf '%s\n' "$want" >"$stamp"
	printf '%s\n' "$dir/kselftest.ext2"
}

main "$@"
