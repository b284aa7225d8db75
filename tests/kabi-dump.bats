#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# kabi-dump.bats - `kabi dump` against the compilers themselves.
#
# Each fixture in tests/fixtures/kabi/ is compiled at test time with gcc
# and clang, DWARF 4 and 5, "-g -c -O0".  Three kinds of check:
#
#  - oracle: every size, offset, bit position, enumerator value and base
#    type spelling in the JSON dump equals what a program built from the
#    same source by the same compiler with the same flags computes with
#    sizeof/offsetof/bit probes (tests/oracle.sh; it takes only names from
#    kabi).  The count of agreeing facts is fixed per fixture, so a type
#    that goes missing from the dump fails too.
#  - gcc against clang, and DWARF 4 against DWARF 5: text dumps of one
#    source must be identical, except where the compilers' DWARF says
#    different things about the same layout; each such place is listed
#    at its test.
#  - golden: the text dump (gcc -gdwarf-5) of three fixtures equals
#    tests/fixtures/kabi/NAME.expected.  KPARITY_BLESS=1 rewrites those
#    files from the actual output; read the diff against the C source
#    before keeping it.
#
# Run from anywhere: bats tests/kabi-dump.bats  (KABI=path/to/kabi to test
# another binary).

bats_require_minimum_version 1.5.0

load kabi-helpers

setup() {
	kabi_setup
}

teardown() {
	kabi_teardown
}

# The oracle.  The fact counts are those of a correct dump, one entry per
# type; they are the same for every compiler and DWARF version except in
# layout.c, where gcc's dump has two align= facts more (see the gcc
# against clang tests below).

@test "kabi dump layout.c: gcc -gdwarf-4 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle layout gcc -gdwarf-4
	assert_output "layout: 107 facts agree"
}

@test "kabi dump layout.c: gcc -gdwarf-5 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle layout gcc -gdwarf-5
	assert_output "layout: 107 facts agree"
}

@test "kabi dump layout.c: clang -gdwarf-4 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle layout clang -gdwarf-4
	assert_output "layout: 105 facts agree"
}

@test "kabi dump layout.c: clang -gdwarf-5 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle layout clang -gdwarf-5
	assert_output "layout: 105 facts agree"
}

@test "kabi dump bitfields.c: gcc -gdwarf-4 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle bitfields gcc -gdwarf-4
	assert_output "bitfields: 57 facts agree"
}

@test "kabi dump bitfields.c: gcc -gdwarf-5 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle bitfields gcc -gdwarf-5
	assert_output "bitfields: 57 facts agree"
}

@test "kabi dump bitfields.c: clang -gdwarf-4 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle bitfields clang -gdwarf-4
	assert_output "bitfields: 57 facts agree"
}

@test "kabi dump bitfields.c: clang -gdwarf-5 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle bitfields clang -gdwarf-5
	assert_output "bitfields: 57 facts agree"
}

@test "kabi dump anon.c: gcc -gdwarf-4 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle anon gcc -gdwarf-4
	assert_output "anon: 131 facts agree"
}

@test "kabi dump anon.c: gcc -gdwarf-5 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle anon gcc -gdwarf-5
	assert_output "anon: 131 facts agree"
}

@test "kabi dump anon.c: clang -gdwarf-4 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle anon clang -gdwarf-4
	assert_output "anon: 131 facts agree"
}

@test "kabi dump anon.c: clang -gdwarf-5 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle anon clang -gdwarf-5
	assert_output "anon: 131 facts agree"
}

@test "kabi dump enums.c: gcc -gdwarf-4 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle enums gcc -gdwarf-4
	assert_output "enums: 52 facts agree"
}

@test "kabi dump enums.c: gcc -gdwarf-5 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle enums gcc -gdwarf-5
	assert_output "enums: 52 facts agree"
}

@test "kabi dump enums.c: clang -gdwarf-4 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle enums clang -gdwarf-4
	assert_output "enums: 52 facts agree"
}

@test "kabi dump enums.c: clang -gdwarf-5 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle enums clang -gdwarf-5
	assert_output "enums: 52 facts agree"
}

@test "kabi dump enums.c: gcc -gdwarf-4 -fshort-enums agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle enums gcc -gdwarf-4 -fshort-enums
	assert_output "enums: 52 facts agree"
}

@test "kabi dump enums.c: gcc -gdwarf-5 -fshort-enums agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle enums gcc -gdwarf-5 -fshort-enums
	assert_output "enums: 52 facts agree"
}

@test "kabi dump enums.c: clang -gdwarf-4 -fshort-enums agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle enums clang -gdwarf-4 -fshort-enums
	assert_output "enums: 52 facts agree"
}

@test "kabi dump enums.c: clang -gdwarf-5 -fshort-enums agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle enums clang -gdwarf-5 -fshort-enums
	assert_output "enums: 52 facts agree"
}

@test "kabi dump typedefs.c: gcc -gdwarf-4 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle typedefs gcc -gdwarf-4
	assert_output "typedefs: 76 facts agree"
}

@test "kabi dump typedefs.c: gcc -gdwarf-5 agrees with the oracle" {
	kabi_need_cc gcc
	run -0 kabi_check_oracle typedefs gcc -gdwarf-5
	assert_output "typedefs: 76 facts agree"
}

@test "kabi dump typedefs.c: clang -gdwarf-4 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle typedefs clang -gdwarf-4
	assert_output "typedefs: 76 facts agree"
}

@test "kabi dump typedefs.c: clang -gdwarf-5 agrees with the oracle" {
	kabi_need_cc clang
	run -0 kabi_check_oracle typedefs clang -gdwarf-5
	assert_output "typedefs: 76 facts agree"
}

# gcc against clang.  Both follow the x86_64 psABI wherever C leaves the
# layout to the implementation (bit-field allocation, the size and
# signedness of enums, plain char, long double), so the layouts agree
# everywhere in these fixtures.  What differs is the DWARF: gcc puts
# DW_AT_alignment on a struct whose alignment a member's attribute raised,
# clang only on that member, so only gcc's dump shows align= for
# packed_mixed and alignas_member.

@test "kabi dump layout.c: gcc and clang -gdwarf-4 differ only in align= from member attributes" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -1 kabi_diff_compilers layout -gdwarf-4
	assert_output - <<'OUT'
gcc:   struct alignas_member size=64 align=32 decl=tests/fixtures/kabi/layout.c:55
clang: struct alignas_member size=64 decl=tests/fixtures/kabi/layout.c:55
gcc:   struct packed_mixed size=12 align=4 decl=tests/fixtures/kabi/layout.c:44
clang: struct packed_mixed size=12 decl=tests/fixtures/kabi/layout.c:44
layout: gcc 44 lines, clang 44 lines
OUT
}

@test "kabi dump layout.c: gcc and clang -gdwarf-5 differ only in align= from member attributes" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -1 kabi_diff_compilers layout -gdwarf-5
	assert_output - <<'OUT'
gcc:   struct alignas_member size=64 align=32 decl=tests/fixtures/kabi/layout.c:55
clang: struct alignas_member size=64 decl=tests/fixtures/kabi/layout.c:55
gcc:   struct packed_mixed size=12 align=4 decl=tests/fixtures/kabi/layout.c:44
clang: struct packed_mixed size=12 decl=tests/fixtures/kabi/layout.c:44
layout: gcc 44 lines, clang 44 lines
OUT
}

@test "kabi dump bitfields.c: gcc and clang -gdwarf-4 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers bitfields -gdwarf-4
	assert_output "bitfields: gcc 47 lines, clang 47 lines"
}

@test "kabi dump bitfields.c: gcc and clang -gdwarf-5 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers bitfields -gdwarf-5
	assert_output "bitfields: gcc 47 lines, clang 47 lines"
}

@test "kabi dump anon.c: gcc and clang -gdwarf-4 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers anon -gdwarf-4
	assert_output "anon: gcc 77 lines, clang 77 lines"
}

@test "kabi dump anon.c: gcc and clang -gdwarf-5 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers anon -gdwarf-5
	assert_output "anon: gcc 77 lines, clang 77 lines"
}

@test "kabi dump enums.c: gcc and clang -gdwarf-4 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers enums -gdwarf-4
	assert_output "enums: gcc 41 lines, clang 41 lines"
}

@test "kabi dump enums.c: gcc and clang -gdwarf-5 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers enums -gdwarf-5
	assert_output "enums: gcc 41 lines, clang 41 lines"
}

@test "kabi dump enums.c: gcc and clang -gdwarf-5 -fshort-enums give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers enums -gdwarf-5 -fshort-enums
	assert_output "enums: gcc 41 lines, clang 41 lines"
}

@test "kabi dump typedefs.c: gcc and clang -gdwarf-4 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers typedefs -gdwarf-4
	assert_output "typedefs: gcc 49 lines, clang 49 lines"
}

@test "kabi dump typedefs.c: gcc and clang -gdwarf-5 give the same dump" {
	kabi_need_cc gcc
	kabi_need_cc clang
	run -0 kabi_diff_compilers typedefs -gdwarf-5
	assert_output "typedefs: gcc 49 lines, clang 49 lines"
}

# gcc 12 writes bit-fields with DW_AT_bit_offset under -gdwarf-4 and with
# DW_AT_data_bit_offset under -gdwarf-5; the dump must not show it.

@test "kabi dump: gcc -gdwarf-4 and -gdwarf-5 give the same dumps" {
	kabi_need_cc gcc
	run -0 kabi_diff_dwarf_versions gcc layout bitfields anon enums typedefs
	assert_output "gcc: 5 fixtures compared"
}

@test "kabi dump: clang -gdwarf-4 and -gdwarf-5 give the same dumps" {
	kabi_need_cc clang
	run -0 kabi_diff_dwarf_versions clang layout bitfields anon enums typedefs
	assert_output "clang: 5 fixtures compared"
}

# Golden text dumps, gcc -gdwarf-5.  Regenerate with KPARITY_BLESS=1 and
# check every line against the C source before keeping the result.

@test "kabi dump bitfields.c: text form matches bitfields.expected" {
	kabi_need_cc gcc
	run -0 kabi_dump_text bitfields gcc -gdwarf-5
	kabi_assert_expected bitfields
}

@test "kabi dump anon.c: text form matches anon.expected" {
	kabi_need_cc gcc
	run -0 kabi_dump_text anon gcc -gdwarf-5
	kabi_assert_expected anon
}

@test "kabi dump typedefs.c: text form matches typedefs.expected" {
	kabi_need_cc gcc
	run -0 kabi_dump_text typedefs gcc -gdwarf-5
	kabi_assert_expected typedefs
}

# Enumerators wider than 64 bits: Clang's 16-byte block values, in either
# byte order.

@test "kabi dump wide-enums.c: 128-bit values, signed and unsigned, match wide-enums.expected" {
	kabi_need_cc clang
	run -0 kabi_dump_text wide-enums clang -gdwarf-5 -Werror
	kabi_assert_expected wide-enums
}

@test "kabi dump wide-enums.c: a big-endian target gives the same values" {
	kabi_need_cc clang
	run -0 kabi_dump_text wide-enums clang -gdwarf-5 -Werror --target=aarch64_be-linux-gnu
	kabi_assert_expected wide-enums
}

# Pointers to function and array types through typedefs and qualifiers:
# each spelling kabi prints, as written and resolved, is turned back into
# C and checked against the declared type by the compiler itself
# (kabi_check_spelling).  gcc's DWARF drops the const of "const arr_t"
# (an array typedef under a qualifier): for its four uses the declared
# type has a const that the DWARF, and so kabi, does not.

@test "kabi dump pointers.c: clang agrees with every spelling" {
	kabi_need_cc clang
	run -0 kabi_check_spelling pointers clang
	assert_output "pointers: 54 spellings agree"
}

@test "kabi dump pointers.c: gcc agrees except where its DWARF drops a const" {
	kabi_need_cc gcc
	run -1 kabi_check_spelling pointers gcc
	assert_output - <<'OUT'
kabi-spelling: struct pointers.carr resolved
kabi-spelling: struct pointers.carr type
kabi-spelling: struct pointers.carr2 resolved
kabi-spelling: struct pointers.cv resolved
OUT
}

@test "kabi dump pointers.c: text form matches pointers.expected" {
	kabi_need_cc gcc
	run -0 kabi_dump_text pointers gcc -gdwarf-5
	kabi_assert_expected pointers
}

# Declaration paths: a file is named relative to the shortest compilation
# directory of the input that holds it, whichever unit names it, so a
# header included by units compiled in two directories (glibc's nptl/ and
# its top level) is one type, not "descr.h" and "sub/descr.h".

# kabi_paths_object CC: outer.c compiled in tests/fixtures/kabi-paths,
# sub/inner.c in its sub/, both in one relocatable object
kabi_paths_object() {
	local cc=$1 dir=$KPARITY_ROOT/tests/fixtures/kabi-paths
	(cd "$dir" && "$cc" -g -c outer.c -o "$BATS_TEST_TMPDIR/outer.o") || return 2
	(cd "$dir/sub" && "$cc" -g -c inner.c -o "$BATS_TEST_TMPDIR/inner.o") || return 2
	ld -r "$BATS_TEST_TMPDIR/outer.o" "$BATS_TEST_TMPDIR/inner.o" \
		-o "$BATS_TEST_TMPDIR/both.$cc.o"
}

@test "kabi dump: a header of units compiled in two directories is one type, gcc" {
	kabi_need_cc gcc
	kabi_paths_object gcc
	run -0 "$KABI" dump --type descr "$BATS_TEST_TMPDIR/both.gcc.o"
	assert_output - <<'OUT'
struct descr size=32 decl=sub/descr.h:5
	member tid offset=0 size=4 type="int32"
	member args offset=8 size=24 type="va_list" resolved="struct __va_list_tag [1]"
OUT
}

@test "kabi dump: a header of units compiled in two directories is one type, clang" {
	kabi_need_cc clang
	kabi_paths_object clang
	run -0 "$KABI" dump --type descr "$BATS_TEST_TMPDIR/both.clang.o"
	assert_output - <<'OUT'
struct descr size=32 decl=sub/descr.h:5
	member tid offset=0 size=4 type="int32"
	member args offset=8 size=24 type="va_list" resolved="struct __va_list_tag [1]"
OUT
}

@test "kabi dump: <built-in> is not a path under a relative compilation directory" {
	kabi_need_cc gcc
	local dir=$KPARITY_ROOT/tests/fixtures/kabi-paths
	(cd "$dir" && gcc -g "-fdebug-prefix-map=$dir=dynamic" -c outer.c \
		-o "$BATS_TEST_TMPDIR/mapped.o")
	run -0 "$KABI" dump --kind struct "$BATS_TEST_TMPDIR/mapped.o"
	assert_line "struct __va_list_tag size=24 decl=<built-in>:0"
	assert_line "struct descr size=32 decl=sub/descr.h:5"
}

@test "kabi dump: a compilation directory of . strips nothing from absolute paths" {
	kabi_need_cc gcc
	local dir=$KPARITY_ROOT/tests/fixtures/kabi-paths
	(cd "$dir" && gcc -g "-ffile-prefix-map=$dir=." -c outer.c \
		-o "$BATS_TEST_TMPDIR/dot.o")
	run -0 "$KABI" dump --kind struct --kind typedef "$BATS_TEST_TMPDIR/dot.o"
	assert_line "struct descr size=32 decl=sub/descr.h:5"
	assert_line --regexp '^typedef va_list .* decl=/usr/.*/stdarg\.h:[0-9]+$'
}

# kabi's own reader against libdw's: the same dump (text, and JSON of
# the shared objects) of every fixture, relocatable and linked, from gcc and clang, DWARF 4 and
# 5, 32- and 64-bit DWARF, ELF32 and ELF64, little- and big-endian.  Each case prints a line
# only when the two differ.

# kabi_readers_agree OBJ [--json]: nothing, or the first lines where the
# readers' dumps of OBJ differ
kabi_readers_agree() {
	"$KABI" dump "${@:2}" --reader libdw "$1" >"$1.libdw" || return 2
	"$KABI" dump "${@:2}" --reader own "$1" >"$1.own" || return 2
	diff "$1.libdw" "$1.own" | head -n 5
}

@test "kabi dump: kabi's reader and libdw give the same dumps of every fixture" {
	kabi_need_cc gcc
	kabi_need_cc clang
	local f cc flags o n=0
	for f in "$KPARITY_ROOT/$KABI_FIXTURES"/*.c; do
		f=$(basename "$f" .c)
		for cc in "gcc -gdwarf-4" "gcc -gdwarf-5" "clang -gdwarf-4" "clang -gdwarf-5" \
			"gcc -gdwarf-5 -gdwarf64" "clang -gdwarf-4 -gdwarf64" \
			"clang --target=aarch64_be-linux-gnu" "clang --target=powerpc-linux-gnu -gdwarf-4" \
			"arm-linux-gnueabi-gcc -gdwarf-5"; do
			set -- $cc
			command -v "$1" >/dev/null || continue
			# 32-bit targets have no __int128, GCC 12 no enum
			# with an underlying type (wide-enums.c)
			case "$cc" in
			*powerpc* | arm-*)
				! grep -q __int128 "$KPARITY_ROOT/$KABI_FIXTURES/$f.c" || continue
				;;
			esac
			case "$1.$f" in
			*gcc.wide-enums) continue ;;
			esac
			o=$BATS_TEST_TMPDIR/$f.$n.o
			(cd "$KPARITY_ROOT" && "$@" -g -c -O0 "$KABI_FIXTURES/$f.c" -o "$o") || return 2
			run -0 kabi_readers_agree "$o"
			assert_output ""
			n=$((n + 1))
		done
		(cd "$KPARITY_ROOT" && clang -g -shared -fPIC "$KABI_FIXTURES/$f.c" -o "$BATS_TEST_TMPDIR/$f.so")
		run -0 kabi_readers_agree "$BATS_TEST_TMPDIR/$f.so"
		assert_output ""
		run -0 kabi_readers_agree "$BATS_TEST_TMPDIR/$f.so" --json
		assert_output ""
	done
	[ "$n" -ge 52 ]
}

# Type units: -fdebug-types-section moves each type into a unit of its
# own (.debug_types in DWARF 4, a type unit in DWARF 5, each in a section
# group of an object file), and a unit refers to it by signature through
# a stub.  kabi's reader reads them; libdw's finds no type.

@test "kabi dump: types in type units read like the same types in their unit" {
	kabi_need_cc gcc
	local v kind
	kabi_compile layout gcc -gdwarf-5
	"$KABI" dump "$BATS_TEST_TMPDIR/layout.gcc.o" >"$BATS_TEST_TMPDIR/plain"
	for v in 4 5; do
		for kind in -c -shared; do
			(cd "$KPARITY_ROOT" && gcc -g -gdwarf-$v -fdebug-types-section -fPIC $kind \
				"$KABI_FIXTURES/layout.c" -o "$BATS_TEST_TMPDIR/tu")
			run -0 "$KABI" dump "$BATS_TEST_TMPDIR/tu"
			assert_output "$(cat "$BATS_TEST_TMPDIR/plain")"
		done
	done
	run -0 "$KABI" dump --reader libdw "$BATS_TEST_TMPDIR/tu"
	assert_output ""
}

# --stats: what kabi's reader decoded of each input, counted on stderr.
# tools/kabi/bench/dwalk.c, libdw's walk of every DIE, counts them too.

# stats_dwalk: $BATS_TEST_TMPDIR/dwalk, built from the bench's source
stats_dwalk() {
	cc -std=c11 -O2 "$KPARITY_ROOT/tools/kabi/bench/dwalk.c" -o "$BATS_TEST_TMPDIR/dwalk" -ldw
}

# stats_line OBJ [OPTION...]: "kabi dump --stats OPTION... OBJ"'s stderr, checked to hold every
# DIE that dwalk counts once, decoded, stepped over or not reached; its
# numbers in STATS (units dies decoded stepped not-reached)
stats_line() {
	local re="^kabi: '$1': ([0-9]+) units, ([0-9]+) DIEs: ([0-9]+) decoded, ([0-9]+) stepped over, ([0-9]+) not reached\$"

	run -0 "$KABI" dump "$1"
	local plain=$output
	run -0 --separate-stderr "$KABI" dump --stats "${@:2}" "$1"
	assert_equal "$output" "$plain"
	[[ $stderr =~ $re ]] || fail "not a --stats line: '$stderr'"
	STATS=("${BASH_REMATCH[@]:1}")
	run -0 "$BATS_TEST_TMPDIR/dwalk" "$1"
	assert_equal "${STATS[1]} DIEs" "$output"
	assert_equal $((STATS[2] + STATS[3] + STATS[4])) "${STATS[1]}"
}

@test "kabi dump: --stats counts every DIE; GCC's function bodies are not reached, Clang's stepped over" {
	kabi_need_cc gcc
	kabi_need_cc clang
	stats_dwalk
	(cd "$KPARITY_ROOT" && gcc -g -c -O2 tests/fixtures/kabi-dump/bodies.c -o "$BATS_TEST_TMPDIR/gcc.o")
	stats_line "$BATS_TEST_TMPDIR/gcc.o"
	assert_equal "${STATS[0]}" 1
	# GCC writes DW_AT_sibling: a function's children are jumped over
	[ "${STATS[4]}" -gt 0 ]
	(cd "$KPARITY_ROOT" && clang -g -c -O2 tests/fixtures/kabi-dump/bodies.c -o "$BATS_TEST_TMPDIR/clang.o")
	stats_line "$BATS_TEST_TMPDIR/clang.o"
	# Clang does not: every DIE is reached, those in bodies only stepped over
	assert_equal "${STATS[4]}" 0
	[ "${STATS[3]}" -gt 0 ]
}

@test "kabi dump: --stats on two threads counts what one thread counts" {
	kabi_need_cc gcc
	stats_dwalk
	local i objs=()
	# 64 units: a second thread reads every other one
	for ((i = 0; i < 64; i++)); do
		(cd "$KPARITY_ROOT" && gcc -g -c -O2 -DUNIT=$i tests/fixtures/kabi-dump/bodies.c -o "$BATS_TEST_TMPDIR/u$i.o")
		objs+=("$BATS_TEST_TMPDIR/u$i.o")
	done
	ld -r "${objs[@]}" -o "$BATS_TEST_TMPDIR/all.o"
	stats_line "$BATS_TEST_TMPDIR/all.o" --threads 1
	assert_equal "${STATS[0]}" 64
	local one="${STATS[*]}"
	stats_line "$BATS_TEST_TMPDIR/all.o" --threads 2
	assert_equal "${STATS[*]}" "$one"
}

@test "kabi dump: --stats says when kabi's reader read nothing" {
	kabi_need_cc gcc
	(cd "$KPARITY_ROOT" && gcc -g -c -O2 tests/fixtures/kabi-dump/bodies.c -o "$BATS_TEST_TMPDIR/b.o")
	run -0 --separate-stderr "$KABI" dump --stats --reader libdw "$BATS_TEST_TMPDIR/b.o"
	assert_equal "$stderr" "kabi: '$BATS_TEST_TMPDIR/b.o': no DWARF read by kabi's reader (BTF, or --reader libdw)"
	run -2 --separate-stderr "$KABI" diff --stats "$BATS_TEST_TMPDIR/b.o" "$BATS_TEST_TMPDIR/b.o"
	assert_equal "$stderr" "kabi: diff: option '--stats' does not apply"
}
