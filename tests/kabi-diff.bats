#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kabi diff: exact reports and exit bits on real objects from both compilers.

load common

FIX=tests/fixtures/kabi-diff

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "kabi diff: identical inputs report nothing and exit 0" {
	cc_obj gcc "$T/a.o" "$FIX/layout.c"
	run -0 "$KABI" diff "$T/a.o" "$T/a.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 14 unchanged, 0 suppressed"
}

@test "kabi diff: every kind of change, gcc" {
	cc_obj gcc "$T/old.o" "$FIX/layout.c"
	cc_obj gcc "$T/new.o" "$FIX/layout.c" -DNEW
	run -12 "$KABI" diff "$T/old.o" "$T/new.o"
	expect_file "$BATS_TEST_DIRNAME/fixtures/kabi-diff/layout.expected"
}

@test "kabi diff: every kind of change, clang, same report as gcc" {
	cc_obj clang "$T/old.o" "$FIX/layout.c"
	cc_obj clang "$T/new.o" "$FIX/layout.c" -DNEW
	run -12 "$KABI" diff "$T/old.o" "$T/new.o"
	assert_output "$(cat "$BATS_TEST_DIRNAME/fixtures/kabi-diff/layout.expected")"
}

@test "kabi diff: gcc against clang of one file is empty" {
	cc_obj gcc "$T/g.o" "$FIX/layout.c"
	cc_obj clang "$T/c.o" "$FIX/layout.c"
	run -0 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 14 unchanged, 0 suppressed"
}

@test "kabi diff: DWARF 4 against DWARF 5 is empty" {
	cc_obj gcc "$T/4.o" "$FIX/layout.c" -gdwarf-4
	cc_obj clang "$T/5.o" "$FIX/layout.c" -gdwarf-5
	run -0 "$KABI" diff "$T/4.o" "$T/5.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 14 unchanged, 0 suppressed"
}

@test "kabi diff: --only-layout drops the typedef-only change" {
	cc_obj gcc "$T/old.o" "$FIX/layout.c"
	cc_obj gcc "$T/new.o" "$FIX/layout.c" -DNEW
	run -4 "$KABI" diff --only-layout --type typed "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
struct typed at tests/fixtures/kabi-diff/layout.c:47
	member flags: type "int32" -> "u32" (resolved "int32" -> "uint32")
summary: 1 changed (0 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed
OUT
}

@test "kabi diff: a typedef-only change alone exits 4" {
	cc_obj gcc "$T/old.o" "$FIX/typedef.c"
	cc_obj gcc "$T/new.o" "$FIX/typedef.c" -DNEW
	run -4 "$KABI" diff "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
struct req at tests/fixtures/kabi-diff/typedef.c:15
	member len: type "size_t" -> "__kernel_size_t" (typedef only, resolved "uint64")
summary: 1 changed (0 incompatible), 0 only in old, 0 only in new, 3 unchanged, 0 suppressed
OUT
	run -0 "$KABI" diff --only-layout "$T/old.o" "$T/new.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 4 unchanged, 0 suppressed"
}

@test "kabi diff: -fshort-enums on one side is an incompatible enum size change" {
	cc_obj clang "$T/int.o" "$FIX/enums.c"
	cc_obj gcc "$T/short.o" "$FIX/enums.c" -fshort-enums
	run -12 "$KABI" diff "$T/int.o" "$T/short.o"
	expect_file "$BATS_TEST_DIRNAME/fixtures/kabi-diff/enums.expected"
}

@test "kabi diff: --kind and --type select what is compared" {
	cc_obj gcc "$T/old.o" "$FIX/layout.c"
	cc_obj gcc "$T/new.o" "$FIX/layout.c" -DNEW
	run -4 "$KABI" diff --kind enum "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
enum moved at tests/fixtures/kabi-diff/layout.c:66
	enumerator MV_Y: value 2 -> 3
enum state at tests/fixtures/kabi-diff/layout.c:57
	enumerator ST_C: added, value 2
summary: 2 changed (0 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed
OUT
	run -12 "$KABI" diff --type "struct grows" --type word_t "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
struct grows at tests/fixtures/kabi-diff/layout.c:21
	size 16 -> 24 [incompatible]
	member b: offset 8 -> 16 [incompatible]
	member inserted: added at offset=8, type "int64"
typedef word_t at tests/fixtures/kabi-diff/layout.c:76
	chain "int32" -> "int64" (resolved "int32" -> "int64")
summary: 2 changed (1 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed
OUT
}

@test "kabi diff: suppressions hide matching types and are counted" {
	cc_obj gcc "$T/old.o" "$FIX/layout.c"
	cc_obj gcc "$T/new.o" "$FIX/layout.c" -DNEW
	run -12 "$KABI" diff --kind struct --suppressions "$BATS_TEST_DIRNAME/fixtures/kabi-diff/layout.supp" "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
struct bits at tests/fixtures/kabi-diff/layout.c:38
	member hi: bitfield offset=0 bit_offset=3 bit_size=5 -> offset=0 bit_offset=3 bit_size=6 [incompatible]
struct shrinks at tests/fixtures/kabi-diff/layout.c:30
	member dropped: removed from offset=1, type "int8"
summary: 2 changed (1 incompatible), 0 only in old, 0 only in new, 2 unchanged, 4 suppressed
OUT
}

@test "kabi diff: a bad suppressions file is an error naming the line" {
	printf '[suppress_type]\n  name = x\n  has_size_change = maybe\n' >"$T/bad.supp"
	cc_obj gcc "$T/a.o" "$FIX/layout.c"
	run -1 --separate-stderr "$KABI" diff --suppressions "$T/bad.supp" "$T/a.o" "$T/a.o"
	assert_output ""
	[ "$stderr" = "kabi: cannot parse '$T/bad.supp': line 3: has_size_change takes yes or no, not 'maybe'" ]
	printf '[suppress_function]\n' >"$T/fn.supp"
	run -1 --separate-stderr "$KABI" diff --suppressions "$T/fn.supp" "$T/a.o" "$T/a.o"
	[ "$stderr" = "kabi: cannot parse '$T/fn.supp': line 1: unsupported section '[suppress_function]' (only [suppress_type])" ]
}

@test "kabi diff: --json holds the same findings and summary" {
	need_tool jq
	cc_obj gcc "$T/old.o" "$FIX/layout.c"
	cc_obj gcc "$T/new.o" "$FIX/layout.c" -DNEW
	run -12 "$KABI" diff --json -o "$T/d.json" "$T/old.o" "$T/new.o"
	assert_output ""
	run -0 jq -c '.summary' "$T/d.json"
	assert_output '{"changed":7,"incompatible":2,"only_old":1,"only_new":1,"unchanged":6,"suppressed":0}'
	local grows='.types[] | select(.name == "grows") | .findings[]
		| [.what, .subject, .old, .new, .type, .incompatible] | @tsv'
	run -0 jq -r "$grows" "$T/d.json"
	assert_output - <<'OUT'
size		16	24		true
offset	b	8	16		true
member_added	inserted		offset=8	int64	false
OUT
}

@test "kabi diff: --layouts gives each changed type the layouts kabi dump prints" {
	need_tool jq
	cc_obj gcc "$T/old.o" "$FIX/layout.c"
	cc_obj gcc "$T/new.o" "$FIX/layout.c" -DNEW
	run -12 "$KABI" diff --json --layouts -o "$T/d.json" "$T/old.o" "$T/new.o"
	assert_output ""
	"$KABI" dump --json --type "struct grows" -o "$T/old.dump" "$T/old.o"
	"$KABI" dump --json --type "struct grows" -o "$T/new.dump" "$T/new.o"
	run -0 jq -c --slurpfile o "$T/old.dump" --slurpfile n "$T/new.dump" \
		'.types[] | select(.name == "grows") | [.old_layout == $o[0].types[0], .new_layout == $n[0].types[0]]' "$T/d.json"
	assert_output '[true,true]'
	# one-sided types have one layout, which the dump gives already
	prog='[.types[] | select(.status == "changed") | has("old_layout") and has("new_layout")] | unique'
	run -0 jq -c "$prog" "$T/d.json"
	assert_output '[true]'
	prog='[.types[] | select(.status != "changed") | has("old_layout") or has("new_layout")] | unique'
	run -0 jq -c "$prog" "$T/d.json"
	assert_output '[false]'
	# without it the report is as it was
	run -12 "$KABI" diff --json -o "$T/plain.json" "$T/old.o" "$T/new.o"
	prog='[.types[] | has("old_layout")] | unique'
	run -0 jq -c "$prog" "$T/plain.json"
	assert_output '[false]'
}

@test "kabi diff: --layouts without --json is a usage error" {
	run -2 --separate-stderr "$KABI" diff --layouts "$T/a.o" "$T/b.o"
	assert_output ""
	assert_equal "$stderr" "kabi: diff: option '--layouts' needs '--json'"
}

@test "kabi diff: ELF64 big-endian against little-endian, DWARF 4 bit offsets, is empty" {
	cc_obj clang "$T/be.o" tests/fixtures/kabi/bitfields.c --target=aarch64_be-linux-gnu -gdwarf-4
	cc_obj aarch64-linux-gnu-gcc "$T/le.o" tests/fixtures/kabi/bitfields.c -gdwarf-5
	run -0 "$KABI" diff "$T/be.o" "$T/le.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 10 unchanged, 0 suppressed"
}

@test "kabi diff: ELF32 ARM, arm-linux-gnueabi-gcc against clang, is empty" {
	cc_obj arm-linux-gnueabi-gcc "$T/gcc.o" tests/fixtures/kabi/bitfields.c
	cc_obj clang "$T/clang.o" tests/fixtures/kabi/bitfields.c --target=arm-linux-gnueabi
	run -0 "$KABI" diff "$T/gcc.o" "$T/clang.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 10 unchanged, 0 suppressed"
}

@test "kabi diff: a real ABI difference, zero-width bitfields on PowerPC and ARM" {
	cc_obj clang "$T/ppc.o" tests/fixtures/kabi/bitfields.c --target=powerpc-linux-gnu
	cc_obj clang "$T/arm.o" tests/fixtures/kabi/bitfields.c --target=arm-linux-gnueabi
	run -12 "$KABI" diff "$T/ppc.o" "$T/arm.o"
	assert_output - <<'OUT'
struct zero_width at tests/fixtures/kabi/bitfields.c:42
	size 10 -> 16 [incompatible]
summary: 1 changed (1 incompatible), 0 only in old, 0 only in new, 9 unchanged, 0 suppressed
OUT
}

@test "kabi diff: a Clang LTO link against a plain link is empty" {
	need_tool clang
	need_tool ld.lld
	cd "$TOP"
	clang -g -O2 -flto -fuse-ld=lld "$FIX/lto-a.c" "$FIX/lto-b.c" -o "$T/lto"
	clang -g -O2 "$FIX/lto-a.c" "$FIX/lto-b.c" -o "$T/plain"
	run -0 "$KABI" diff "$T/plain" "$T/lto"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 4 unchanged, 0 suppressed"
	run -0 "$KABI" dump --type shared "$T/lto"
	assert_output - <<'OUT'
struct shared size=16 decl=tests/fixtures/kabi-diff/lto-a.c:8
	member a offset=0 size=4 type="int32"
	member b offset=8 size=8 type="int64"
struct shared size=16 decl=tests/fixtures/kabi-diff/lto-b.c:3
	member a offset=0 size=4 type="int32"
	member b offset=8 size=8 type="int64"
OUT
}

@test "kabi diff: a noreturn function pointer is one type from gcc and clang" {
	cc_obj gcc "$T/g.o" "$FIX/noreturn.c"
	cc_obj clang "$T/c.o" "$FIX/noreturn.c"
	run -0 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed"
	run -0 "$KABI" dump "$T/g.o"
	assert_output - <<'OUT'
struct processor size=16 decl=tests/fixtures/kabi-diff/noreturn.c:9
	member reset offset=0 size=8 type="void (*)(uint64, bool)"
	member rows offset=8 size=8 type="const int32 (*)[3]"
OUT
}

@test "kabi diff: a change in the top bits of a 128-bit enumerator is found" {
	cc_obj clang "$T/old.o" tests/fixtures/kabi/wide-enums.c
	cc_obj clang "$T/new.o" tests/fixtures/kabi/wide-enums.c -DCHANGED
	run -4 "$KABI" diff "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
enum wide_signed at tests/fixtures/kabi/wide-enums.c:17
	enumerator WIDE_MAX: value 170141183460469231731687303715884105727 -> 170141183460469231731687303715884105726
summary: 1 changed (0 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed
OUT
}

@test "kabi diff: a pointer to a function becoming a function returning a pointer is a type change" {
	cc_obj gcc "$T/old.o" "$FIX/fnptr.c"
	cc_obj gcc "$T/new.o" "$FIX/fnptr.c" -DNEW
	run -4 "$KABI" diff --only-layout "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
struct ops at tests/fixtures/kabi-diff/fnptr.c:23
	member hook: type "hook_t *" -> "hook_t *" (resolved "void (**)(int32)" -> "void *(*)(int32)")
typedef hook_t at tests/fixtures/kabi-diff/fnptr.c:18
	chain "cb_fn *" -> "void *(int32)" (resolved "void (*)(int32)" -> "void *(int32)")
summary: 2 changed (0 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed
OUT
}

@test "kabi diff: a pointer to a function with and without its typedef is one resolved type" {
	cc_obj clang "$T/old.o" "$FIX/fnptr.c"
	cc_obj clang "$T/new.o" "$FIX/fnptr.c" -DNEW
	run -4 "$KABI" diff --type ops "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
struct ops at tests/fixtures/kabi-diff/fnptr.c:23
	member hook: type "hook_t *" -> "hook_t *" (resolved "void (**)(int32)" -> "void *(*)(int32)")
	member cb: type "cb_fn *" -> "void (*)(int32)" (typedef only, resolved "void (*)(int32)")
summary: 1 changed (0 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed
OUT
}

@test "kabi diff: an enum only gcc describes is only in old, gcc against clang" {
	cc_obj gcc "$T/g.o" "$FIX/unused-enum.c"
	cc_obj clang "$T/c.o" "$FIX/unused-enum.c"
	run -4 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output - <<'OUT'
enum unused_mode at tests/fixtures/kabi-diff/unused-enum.c:10
	only in old
summary: 0 changed (0 incompatible), 1 only in old, 0 only in new, 1 unchanged, 0 suppressed
OUT
}

@test "kabi diff: --only-common leaves out types one side lacks, gcc against clang exits 0" {
	cc_obj gcc "$T/g.o" "$FIX/unused-enum.c"
	cc_obj clang "$T/c.o" "$FIX/unused-enum.c"
	run -0 "$KABI" diff --only-common "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed, 1 on one side left out"
	run -0 "$KABI" diff --only-common "$T/c.o" "$T/g.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed, 1 on one side left out"
}

@test "kabi diff: --only-common still reports every change of the types both sides have" {
	need_tool jq
	cc_obj gcc "$T/old.o" "$FIX/layout.c"
	cc_obj gcc "$T/new.o" "$FIX/layout.c" -DNEW
	run -12 "$KABI" diff --only-common --json -o "$T/d.json" "$T/old.o" "$T/new.o"
	run -0 jq -c '.summary' "$T/d.json"
	assert_output '{"changed":7,"incompatible":2,"only_old":0,"only_new":0,"unchanged":6,"suppressed":0,"left_out":2}'
	# every type listed is a changed one: seven, as the summary says
	run -0 jq -r '.types[].status' "$T/d.json"
	assert_output "$(printf 'changed\n%.0s' 1 2 3 4 5 6 7)"
}

@test "kabi diff: an alignment change is found, incompatible where it moves or resizes, gcc and clang" {
	local cc
	for cc in gcc clang; do
		cc_obj "$cc" "$T/old.o" "$FIX/align.c"
		cc_obj "$cc" "$T/new.o" "$FIX/align.c" -DNEW
		run -12 "$KABI" diff "$T/old.o" "$T/new.o"
		assert_output - <<'OUT'
struct holder at tests/fixtures/kabi-diff/align.c:25
	size 65 -> 128 [incompatible]
	alignment 1 -> 64 [incompatible]
	member line: offset 1 -> 64 [incompatible]
struct line at tests/fixtures/kabi-diff/align.c:21
	alignment 1 -> 64
summary: 2 changed (1 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed
OUT
	done
	run -4 "$KABI" diff --type line "$T/old.o" "$T/new.o"
	assert_output - <<'OUT'
struct line at tests/fixtures/kabi-diff/align.c:21
	alignment 1 -> 64
summary: 1 changed (0 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed
OUT
}

@test "kabi diff: an alignment only clang's DWARF records is no change, ARM gcc and clang" {
	cc_obj arm-linux-gnueabi-gcc "$T/g.o" "$FIX/align-recorded.c"
	cc_obj clang "$T/c.o" "$FIX/align-recorded.c" --target=arm-linux-gnueabi -march=armv7-a
	run -0 "$KABI" dump "$T/g.o" "$T/c.o"
	assert_output "$(printf '%s\n' \
		'struct sigframe_like size=8 decl=tests/fixtures/kabi-diff/align-recorded.c:14' \
		'	member end_magic offset=0 size=4 type="uint32"' \
		'struct sigframe_like size=8 align=8 decl=tests/fixtures/kabi-diff/align-recorded.c:14' \
		'	member end_magic offset=0 size=4 type="uint32"')"
	run -0 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 1 unchanged, 0 suppressed"
}

@test "kabi diff: a packed struct keeps alignment 1 though clang records its member's aligned type" {
	cc_obj gcc "$T/g.o" "$FIX/align-packed.c"
	cc_obj clang "$T/c.o" "$FIX/align-packed.c"
	run -0 "$KABI" dump --type gpt_like --type member_aligned "$T/c.o"
	assert_output - <<'OUT'
struct gpt_like size=36 decl=tests/fixtures/kabi-diff/align-packed.c:19
	member signature offset=0 size=8 type="uint64"
	member revision offset=8 size=4 type="uint32"
	member disk_guid offset=12 size=16 type="aligned_guid" resolved="struct guid_like.<anon>"
	member crc offset=28 size=4 type="uint32"
	member entries offset=32 size=4 type="uint32"
struct member_aligned size=8 decl=tests/fixtures/kabi-diff/align-packed.c:27
	member tag offset=0 size=1 type="int8"
	member value offset=4 size=4 type="int32"
OUT
	run -0 "$KABI" dump --type gpt_like --type member_aligned "$T/g.o"
	assert_line --index 0 'struct gpt_like size=36 align=1 decl=tests/fixtures/kabi-diff/align-packed.c:19'
	assert_line --index 6 'struct member_aligned size=8 align=4 decl=tests/fixtures/kabi-diff/align-packed.c:27'
	run -0 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 5 unchanged, 0 suppressed"
}

@test "kabi diff: alignments gcc and clang record differently are one alignment" {
	cc_obj gcc "$T/g.o" "$FIX/align.c"
	cc_obj clang "$T/c.o" "$FIX/align.c"
	run -0 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3 unchanged, 0 suppressed"
	cc_obj gcc "$T/g.o" tests/fixtures/kabi/layout.c
	cc_obj clang "$T/c.o" tests/fixtures/kabi/layout.c
	run -0 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 10 unchanged, 0 suppressed"
}

@test "kabi diff: a const anonymous member, gcc against clang, is a qualifier-only change" {
	cc_obj gcc "$T/g.o" "$FIX/qualifiers.c"
	cc_obj clang "$T/c.o" "$FIX/qualifiers.c"
	run -4 "$KABI" diff "$T/g.o" "$T/c.o"
	assert_output - <<'OUT'
struct vm_fault at tests/fixtures/kabi-diff/qualifiers.c:17
	member <anon>: type "const struct vm_fault.<anon@0>" -> "struct vm_fault.<anon@0>" (qualifiers only)
	member key: type "const const_key_t" -> "const_key_t" (typedef only, resolved "const uint32 [4]")
typedef const_key_t at tests/fixtures/kabi-diff/qualifiers.c:15
	chain "uint32 [4]" -> "const key_t" (qualifiers only, resolved "uint32 [4]" -> "const uint32 [4]")
typedef key_t at tests/fixtures/kabi-diff/qualifiers.c:14
	only in new
summary: 2 changed (0 incompatible), 0 only in old, 1 only in new, 1 unchanged, 0 suppressed
OUT
}

@test "kabi diff: --only-layout drops qualifier-only changes of members and typedefs" {
	cc_obj gcc "$T/g.o" "$FIX/qualifiers.c"
	cc_obj clang "$T/c.o" "$FIX/qualifiers.c"
	run -0 "$KABI" diff --only-common --only-layout "$T/g.o" "$T/c.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3 unchanged, 0 suppressed, 1 on one side left out"
	run -0 "$KABI" diff --only-common --only-layout "$T/c.o" "$T/g.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3 unchanged, 0 suppressed, 1 on one side left out"
}

@test "kabi diff: --only-layout still reports what moves beside a qualifier change" {
	cc_obj gcc "$T/g.o" "$FIX/qualifiers.c"
	cc_obj clang "$T/c.o" "$FIX/qualifiers.c" -DNEW
	run -12 "$KABI" diff --only-common --only-layout "$T/g.o" "$T/c.o"
	assert_output - <<'OUT'
struct vm_fault at tests/fixtures/kabi-diff/qualifiers.c:17
	member flags: offset 24 -> 28 [incompatible]
	member key: offset 28 -> 32 [incompatible]
	member inserted: added at offset=24, type "int32"
summary: 1 changed (1 incompatible), 0 only in old, 0 only in new, 2 unchanged, 0 suppressed, 1 on one side left out
OUT
}

# dup_kernel CC: $T/kernel.o, two units that define struct dma_chan and
# struct chan_stats differently, linked as a kernel links them
dup_kernel() {
	cc_obj "$1" "$T/engine.o" "$FIX/dup-engine.c"
	cc_obj "$1" "$T/dma.o" "$FIX/dup-dma.c"
	ld -r "$T/engine.o" "$T/dma.o" -o "$T/kernel.o"
}

@test "kabi diff: a name the kernel defines twice, --only-common compares the module's with its own" {
	local cc
	for cc in gcc clang; do
		dup_kernel "$cc"
		cc_obj "$cc" "$T/module.o" "$FIX/dup-module.c"
		run -0 "$KABI" diff --only-common "$T/kernel.o" "$T/module.o"
		assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 2 unchanged, 0 suppressed, 2 on one side left out"
		run -0 "$KABI" diff --only-common "$T/module.o" "$T/kernel.o"
		assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 2 unchanged, 0 suppressed, 2 on one side left out"
	done
}

@test "kabi diff: a name the kernel defines twice, the other definition is only in old without --only-common" {
	dup_kernel gcc
	cc_obj clang "$T/module.o" "$FIX/dup-module.c"
	run -0 "$KABI" dump --kind struct "$T/kernel.o"
	assert_output - <<'OUT'
struct chan_stats size=24 decl=tests/fixtures/kabi-diff/dup-dma.c:8
	member bytes offset=0 size=8 type="int64"
	member count offset=8 size=8 type="int64"
	member errors offset=16 size=8 type="int64"
struct chan_stats size=16 decl=tests/fixtures/kabi-diff/dup.h:22
	member bytes offset=0 size=8 type="int64"
	member count offset=8 size=8 type="int64"
struct dma_chan size=16 decl=tests/fixtures/kabi-diff/dup-dma.c:3
	member lock offset=0 size=4 type="int32"
	member device_id offset=8 size=8 type="const int8 *"
struct dma_chan size=24 decl=tests/fixtures/kabi-diff/dup.h:10
	member device offset=0 size=8 type="struct dma_device *"
	member chan_id offset=8 size=4 type="int32"
	member client_count offset=12 size=4 type="int32"
	member private offset=16 size=8 type="void *"
OUT
	run -4 "$KABI" diff "$T/kernel.o" "$T/module.o"
	assert_output - <<'OUT'
struct chan_stats at tests/fixtures/kabi-diff/dup-dma.c:8
	only in old
struct dma_chan at tests/fixtures/kabi-diff/dup-dma.c:3
	only in old
summary: 0 changed (0 incompatible), 2 only in old, 0 only in new, 2 unchanged, 0 suppressed
OUT
}

@test "kabi diff: a changed type of a name the kernel defines twice is compared with the definition of its declaration file" {
	dup_kernel gcc
	# built in another directory, as a module is against a headers
	# package: its header's name is the tail of the kernel's
	(cd "$TOP/tests/fixtures" && clang -g -c -DNEW kabi-diff/dup-module.c -o "$T/module.o")
	run -12 "$KABI" diff --only-common "$T/kernel.o" "$T/module.o"
	assert_output - <<'OUT'
struct chan_stats at kabi-diff/dup.h:22
	size 16 -> 32 [incompatible]
	member errors: added at offset=16, type "int64"
	member drops: added at offset=24, type "int64"
struct dma_chan at kabi-diff/dup.h:10
	size 24 -> 32 [incompatible]
	member private: offset 16 -> 24 [incompatible]
	member table_count: added at offset=16, type "int32"
summary: 2 changed (2 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed, 2 on one side left out
OUT
}

@test "kabi diff: --layouts of a name the kernel defines twice are the two definitions compared" {
	need_tool jq
	dup_kernel gcc
	(cd "$TOP/tests/fixtures" && clang -g -c -DNEW kabi-diff/dup-module.c -o "$T/module.o")
	run -12 "$KABI" diff --json --layouts --only-common -o "$T/d.json" "$T/kernel.o" "$T/module.o"
	local prog='.types[] | [.name, .old_layout.size, .old_layout.decl_file, .new_layout.size, .new_layout.decl_file] | @tsv'
	run -0 jq -r "$prog" "$T/d.json"
	assert_output - <<'OUT'
chan_stats	16	tests/fixtures/kabi-diff/dup.h	32	kabi-diff/dup.h
dma_chan	24	tests/fixtures/kabi-diff/dup.h	32	kabi-diff/dup.h
OUT
}
