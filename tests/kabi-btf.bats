#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kabi reading BTF: the fixtures' BTF (pahole, from GCC's and Clang's
# DWARF) gives the model their DWARF gives, raw or in an ELF section, split
# on a base; and bad BTF ends in one line and exit 1.
# About 3 s, cold or not: the fixtures are a few small units.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	need_tool pahole
}

# btf_of CC FIXTURE: $T/FIXTURE-CC.o with DWARF and $T/FIXTURE-CC.btf,
# the raw BTF pahole makes of it (the kernel's pahole flags: floats too)
btf_of() {
	cc_obj "$1" "$T/$2-$1.o" "tests/fixtures/kabi/$2.c"
	pahole -J --btf_gen_floats --btf_encode_detached="$T/$2-$1.btf" "$T/$2-$1.o"
}

# le32 N: N as four little-endian bytes, in printf's escapes
le32() {
	printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}

# raw_btf OUT STRINGS WORD...: a BTF file of the type WORDs (u32 each)
# and the string section STRINGS (printf escapes, NULs included)
raw_btf() {
	local out=$1 strs=$2 types="" slen
	shift 2
	for w in "$@"; do types="$types$(le32 "$w")"; done
	slen=$(printf "$strs" | wc -c)
	# shellcheck disable=SC2059 # the escapes are the data
	printf "\\237\\353\\001\\000$(le32 24)$(le32 0)$(le32 $(($# * 4)))$(le32 $(($# * 4)))$(le32 "$slen")$types$strs" >"$out"
}

# bad FILE MESSAGE [OPTION...]: dump fails with exit 1, only MESSAGE said
bad() {
	local f=$1 m=$2
	shift 2
	run -1 --separate-stderr "$KABI" dump "$@" "$f"
	assert_output ""
	[ "$stderr" = "$m" ] || {
		printf 'expected: %s\nactual:   %s\n' "$m" "$stderr" >&2
		return 1
	}
}

@test "kabi btf: DWARF and BTF of each fixture, GCC and Clang, diff to nothing" {
	for cc in gcc clang; do
		for f in anon bitfields enums pointers; do
			btf_of "$cc" "$f"
			run -0 "$KABI" diff "$T/$f-$cc.o" "$T/$f-$cc.btf"
			assert_line --index 0 --regexp '^summary: 0 changed \(0 incompatible\), 0 only in old, 0 only in new, [1-9][0-9]* unchanged, 0 suppressed$'
		done
	done
}

@test "kabi btf: a struct without members (found by fuzzing)" {
	raw_btf "$T/empty.btf" '\000e\000' 1 $((4 << 24)) 0
	run -0 "$KABI" dump "$T/empty.btf"
	assert_output "struct e size=0"
}

@test "kabi btf: function-local types and per-unit anonymous enum copies are normalised" {
	for cc in gcc clang; do
		cc_obj "$cc" "$T/a.o" tests/fixtures/kabi-btf/unit-a.c
		cc_obj "$cc" "$T/b.o" tests/fixtures/kabi-btf/unit-b.c
		ld -r "$T/a.o" "$T/b.o" -o "$T/ab.o"
		pahole -J --btf_encode_detached="$T/ab.btf" "$T/ab.o"
		# what DWARF alone gives: the enum twice, the local struct not
		run -0 "$KABI" dump --kind enum --kind struct "$T/ab.o"
		assert_output - <<'OUT'
enum <anon:MODE_A> size=4 underlying="uint32" decl=tests/fixtures/kabi-btf/units.h:3
	enumerator MODE_A value=0
	enumerator MODE_B value=1
enum kp_mode_t.<anon> size=4 underlying="uint32" decl=tests/fixtures/kabi-btf/units.h:3
	enumerator MODE_A value=0
	enumerator MODE_B value=1
OUT
		run -0 "$KABI" diff "$T/ab.o" "$T/ab.btf"
		assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3 unchanged, 0 suppressed"
		run -0 "$KABI" dump --type local_rec "$T/ab.btf"
		assert_line --index 0 "struct local_rec size=16"
	done
}

@test "kabi btf: the dump of BTF is the DWARF dump without what BTF lacks" {
	btf_of gcc bitfields
	run -0 "$KABI" dump "$T/bitfields-gcc.btf"
	expect_file tests/fixtures/kabi-btf/bitfields.expected
}

@test "kabi btf: --format picks the .BTF section of a file that has DWARF too" {
	btf_of clang anon
	cp "$T/anon-clang.o" "$T/both.o"
	objcopy --add-section .BTF="$T/anon-clang.btf" "$T/both.o"
	"$KABI" dump "$T/anon-clang.btf" >"$T/raw.dump"
	run -0 "$KABI" dump --format btf "$T/both.o"
	assert_output "$(cat "$T/raw.dump")"
	run -0 "$KABI" dump --format dwarf "$T/both.o"
	assert_line --partial 'decl=tests/fixtures/kabi/anon.c:'
}

@test "kabi btf: a change between two builds' BTF is found" {
	btf_of gcc pointers
	cc_obj gcc "$T/wide.o" tests/fixtures/kabi/pointers.c -Dint=long
	pahole -J --btf_encode_detached="$T/wide.btf" "$T/wide.o"
	run -4 "$KABI" diff --only-common "$T/pointers-gcc.btf" "$T/wide.btf"
	assert_line --regexp '^summary: [1-9][0-9]* changed'
}

@test "kabi btf: a layout check of DWARF against BTF sees a changed member" {
	btf_of gcc bitfields
	cc_obj gcc "$T/other.o" tests/fixtures/kabi/bitfields.c -Dshort=int
	run -12 "$KABI" diff --only-common "$T/other.o" "$T/bitfields-gcc.btf"
	assert_line --regexp '^summary: [1-9][0-9]* changed'
}

@test "kabi btf: split BTF is read on its base, and only its own types dumped" {
	btf_of gcc enums
	btf_of gcc pointers
	pahole -J --btf_base "$T/enums-gcc.btf" --btf_encode_detached="$T/split.btf" "$T/pointers-gcc.o"
	"$KABI" dump "$T/pointers-gcc.btf" >"$T/whole.dump"
	run -0 "$KABI" dump --base-btf "$T/enums-gcc.btf" "$T/split.btf"
	assert_output "$(cat "$T/whole.dump")"
}

@test "kabi btf bad input: bad magic" {
	printf 'BTF?this is not btf at all, not even a little' >"$T/magic.btf"
	bad "$T/magic.btf" "kabi: cannot read '$T/magic.btf': not an ELF file" --format dwarf
	bad "$T/magic.btf" "kabi: cannot read '$T/magic.btf': not BTF (bad magic 0x5442, want 0xeb9f)" --format btf
}

@test "kabi btf bad input: truncated header" {
	printf '\237\353\001\000\030\000' >"$T/short.btf"
	bad "$T/short.btf" "kabi: cannot read '$T/short.btf': truncated BTF header (6 bytes of 24)"
}

@test "kabi btf bad input: a section past the end of the data" {
	raw_btf "$T/cut.btf" '\000' 0 $((2 << 24)) 0
	head -c 30 "$T/cut.btf" >"$T/cut2.btf"
	bad "$T/cut2.btf" "kabi: cannot read '$T/cut2.btf': BTF type section past the end of the data (truncated?)"
}

@test "kabi btf bad input: a type ID out of range" {
	# [1] PTR to type 5 of 1
	raw_btf "$T/range.btf" '\000' 0 $((2 << 24)) 5
	bad "$T/range.btf" "kabi: cannot read '$T/range.btf': type ID 1 refers to type ID 5, past the last (1) (split BTF without its base? name it with --base-btf)"
}

@test "kabi btf bad input: a type loop" {
	# [1] STRUCT s { [2] m; }  [2] CONST -> [3]  [3] VOLATILE -> [2]
	raw_btf "$T/loop.btf" '\000s\000m\000' \
		1 $((4 << 24 | 1)) 8 3 2 0 \
		0 $((10 << 24)) 3 \
		0 $((9 << 24)) 2
	bad "$T/loop.btf" "kabi: cannot read '$T/loop.btf': type reference loop through qualifiers at type ID 2"
}

@test "kabi btf bad input: a string offset past the end" {
	# [1] STRUCT named at offset 40 of 3 bytes of strings
	raw_btf "$T/str.btf" '\000s\000' 40 $((4 << 24)) 0
	bad "$T/str.btf" "kabi: cannot read '$T/str.btf': type ID 1 names string offset 40, which is past the end of the strings (split BTF without its base? name it with --base-btf)"
}

@test "kabi btf bad input: a string offset into the middle of a string" {
	# [1] STRUCT named at offset 2, inside "ab"
	raw_btf "$T/mid.btf" '\000ab\000' 2 $((4 << 24)) 0
	bad "$T/mid.btf" "kabi: cannot read '$T/mid.btf': type ID 1 names string offset 2, which is not the start of a string (split BTF without its base? name it with --base-btf)"
}

@test "kabi btf bad input: a module's split BTF without its base" {
	btf_of gcc enums
	btf_of gcc pointers
	pahole -J --btf_base "$T/enums-gcc.btf" --btf_encode_detached="$T/split.btf" "$T/pointers-gcc.o"
	printf 'vermagic=6.1.0 SMP mod_unload\000' >"$T/modinfo"
	objcopy --strip-debug --add-section .modinfo="$T/modinfo" \
		--add-section .BTF="$T/split.btf" "$T/pointers-gcc.o" "$T/mod.ko"
	bad "$T/mod.ko" "kabi: cannot read '$T/mod.ko': a module's BTF is split BTF: name its kernel's BTF with --base-btf FILE"
	run -0 "$KABI" dump --base-btf "$T/enums-gcc.btf" "$T/mod.ko"
}

@test "kabi btf bad input: a module's base from another kernel" {
	btf_of gcc enums
	btf_of gcc pointers
	btf_of gcc anon
	pahole -J --btf_base "$T/enums-gcc.btf" --btf_encode_detached="$T/split.btf" "$T/pointers-gcc.o"
	run -1 --separate-stderr "$KABI" dump --base-btf "$T/anon-gcc.btf" "$T/split.btf"
	assert_output ""
	[[ "$stderr" == "kabi: cannot read '$T/split.btf': type ID "*"; split BTF that does not fit base '$T/anon-gcc.btf' ("*" types): is the base another kernel's?" ]]
}

@test "kabi btf: a GCC kernel's BTF against a Clang module: qualifier-only changes, none with --only-layout" {
	cc_obj gcc "$T/kernel.o" tests/fixtures/kabi-diff/qualifiers.c
	pahole -J --btf_gen_floats --btf_encode_detached="$T/kernel.btf" "$T/kernel.o"
	cc_obj clang "$T/module.o" tests/fixtures/kabi-diff/qualifiers.c
	run -4 "$KABI" diff --only-common "$T/kernel.btf" "$T/module.o"
	assert_output - <<'OUT'
struct vm_fault
	member <anon>: type "const struct vm_fault.<anon@0>" -> "struct vm_fault.<anon@0>" (qualifiers only)
	member key: type "const const_key_t" -> "const_key_t" (typedef only, resolved "const uint32 [4]")
typedef const_key_t
	chain "uint32 [4]" -> "const key_t" (qualifiers only, resolved "uint32 [4]" -> "const uint32 [4]")
summary: 2 changed (0 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed, 1 on one side left out
OUT
	run -0 "$KABI" diff --only-common --only-layout "$T/kernel.btf" "$T/module.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3 unchanged, 0 suppressed, 1 on one side left out"
}

# dup_kernel_btf CC: $T/kernel.btf, the BTF of two units that define
# struct dma_chan and struct chan_stats differently, linked as a kernel
# links them
dup_kernel_btf() {
	cc_obj "$1" "$T/engine.o" tests/fixtures/kabi-diff/dup-engine.c
	cc_obj "$1" "$T/dma.o" tests/fixtures/kabi-diff/dup-dma.c
	ld -r "$T/engine.o" "$T/dma.o" -o "$T/kernel.o"
	pahole -J --btf_encode_detached="$T/kernel.btf" "$T/kernel.o"
}

@test "kabi btf: a name the kernel's BTF defines twice: --only-common compares the module's with its own" {
	for cc in gcc clang; do
		dup_kernel_btf "$cc"
		run -0 "$KABI" dump --kind struct "$T/kernel.btf"
		assert_output - <<'OUT'
struct chan_stats size=16
	member bytes offset=0 size=8 type="int64"
	member count offset=8 size=8 type="int64"
struct chan_stats size=24
	member bytes offset=0 size=8 type="int64"
	member count offset=8 size=8 type="int64"
	member errors offset=16 size=8 type="int64"
struct dma_chan size=16
	member lock offset=0 size=4 type="int32"
	member device_id offset=8 size=8 type="const char *"
struct dma_chan size=24
	member device offset=0 size=8 type="struct dma_device *"
	member chan_id offset=8 size=4 type="int32"
	member client_count offset=12 size=4 type="int32"
	member private offset=16 size=8 type="void *"
OUT
		cc_obj "$cc" "$T/module.o" tests/fixtures/kabi-diff/dup-module.c
		run -0 "$KABI" diff --only-common "$T/kernel.btf" "$T/module.o"
		assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 2 unchanged, 0 suppressed, 2 on one side left out"
	done
}

@test "kabi btf: a changed type of a name the kernel's BTF defines twice is compared with the closest layout" {
	dup_kernel_btf gcc
	cc_obj gcc "$T/module.o" tests/fixtures/kabi-diff/dup-module.c -DNEW
	# BTF names no file: struct chan_stats meets kernel/dma.c's, which
	# has three of its four members (against DWARF, the header's: see
	# kabi-diff.bats)
	run -12 "$KABI" diff --only-common "$T/kernel.btf" "$T/module.o"
	assert_output - <<'OUT'
struct chan_stats
	size 24 -> 32 [incompatible]
	member drops: added at offset=24, type "int64"
struct dma_chan
	size 24 -> 32 [incompatible]
	member private: offset 16 -> 24 [incompatible]
	member table_count: added at offset=16, type "int32"
summary: 2 changed (2 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed, 2 on one side left out
OUT
}
