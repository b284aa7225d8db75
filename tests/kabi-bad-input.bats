#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kabi on bad input: one line naming the file and the reason, a documented
# exit status, and nothing on standard output.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T"
	cc_obj gcc "$T/good.o" tests/fixtures/kabi-diff/enums.c
}

# bad FILE MESSAGE: dump fails with exit 1, empty stdout, MESSAGE on stderr
bad() {
	run -1 --separate-stderr "$KABI" dump "$1"
	assert_output ""
	[ "$stderr" = "$2" ] || {
		printf 'expected: %s\nactual:   %s\n' "$2" "$stderr" >&2
		return 1
	}
}

@test "kabi bad input: missing file" {
	bad missing.o "kabi: cannot open 'missing.o': No such file or directory"
}

@test "kabi bad input: directory" {
	mkdir d
	bad d "kabi: cannot read 'd': is a directory"
}

@test "kabi bad input: empty file" {
	: >empty.o
	bad empty.o "kabi: cannot read 'empty.o': empty file"
}

@test "kabi bad input: not ELF" {
	echo 'int x;' >text.c
	bad text.c "kabi: cannot read 'text.c': not an ELF file"
}

@test "kabi bad input: truncated ELF" {
	size=$(stat -c %s good.o)
	head -c $((size / 2)) good.o >cut.o
	bad cut.o "kabi: cannot read 'cut.o': section header table past the end of the file (truncated?)"
}

@test "kabi bad input: ELF without .debug_info" {
	objcopy --strip-debug good.o nodebug.o
	bad nodebug.o "kabi: cannot read 'nodebug.o': no DWARF (.debug_info missing)"
}

@test "kabi bad input: unsupported DWARF version" {
	cp good.o v9.o
	patch_section v9.o .debug_info 4 '\011\000'
	bad v9.o "kabi: cannot read 'v9.o': unsupported DWARF version 9 at .debug_info offset 0x0 (kabi reads 2 to 5)"
}

@test "kabi bad input: unit length past the end of .debug_info" {
	cp good.o len.o
	patch_section len.o .debug_info 0 '\377\377\377\177'
	bad len.o "kabi: cannot read 'len.o': corrupt unit header at .debug_info offset 0x0"
}

@test "kabi bad input: corrupt .debug_abbrev" {
	cp good.o abbrev.o
	# turn every abbreviation code after the first into garbage
	patch_section abbrev.o .debug_abbrev 0 '\001\021\001\045\016\023\013\003\037\033\037\021\001\022\007\020\027\000\000\002\377\377\377\377\017'
	run -1 --separate-stderr "$KABI" dump abbrev.o
	assert_output ""
	assert_regex "$stderr" "^kabi: cannot read 'abbrev.o': abbreviation [0-9]+ of DIE 0x[0-9a-f]+ is not in its table \(\.debug_abbrev offset 0x0\)$"
}

@test "kabi bad input: .debug_str without its final NUL" {
	cp good.o str.o
	size=$(section_field str.o .debug_str size)
	patch_section str.o .debug_str $((0x$size - 1)) 'A'
	bad str.o "kabi: cannot read 'str.o': section '.debug_str' does not end in a NUL byte (corrupt)"
}

@test "kabi bad input: split DWARF is refused by name" {
	cc_obj gcc "$T/split.o" tests/fixtures/kabi-diff/enums.c -gsplit-dwarf
	bad split.o "kabi: cannot read 'split.o': split DWARF (skeleton unit, types in a .dwo file) is not supported"
}

@test "kabi bad input: dwz supplementary file is refused by name" {
	echo x >alt
	objcopy --add-section .gnu_debugaltlink=alt good.o dwz.o
	bad dwz.o "kabi: cannot read 'dwz.o': types in a supplementary file (.gnu_debugaltlink, dwz) are not supported"
}

@test "kabi bad input: every input is read and every failure reported" {
	: >empty.o
	run -1 --separate-stderr "$KABI" dump missing.o good.o empty.o
	assert_output ""
	[ "$stderr" = "kabi: cannot open 'missing.o': No such file or directory
kabi: cannot read 'empty.o': empty file" ]
}

@test "kabi bad input: diff with one bad side fails without a report" {
	: >empty.o
	run -1 --separate-stderr "$KABI" diff good.o empty.o
	assert_output ""
	[ "$stderr" = "kabi: cannot read 'empty.o': empty file" ]
}

@test "kabi bad input: -o leaves no file behind on failure" {
	run -1 --separate-stderr "$KABI" dump -o out.txt missing.o
	[ ! -e out.txt ]
	run -0 find . -name '.kabi.*'
	assert_output ""
}

@test "kabi bad input: DWARF 5 unit of an unknown type (crashed libdw, found by fuzzing)" {
	cp good.o ut.o
	patch_section ut.o .debug_info 6 '\000'
	bad ut.o "kabi: cannot read 'ut.o': unsupported DWARF 5 unit type 0x0 at .debug_info offset 0x0"
}

@test "kabi bad input: unit with an address size of 3" {
	cp good.o as.o
	patch_section as.o .debug_info 7 '\003'
	bad as.o "kabi: cannot read 'as.o': unsupported address size 3 at .debug_info offset 0x0"
}

@test "kabi bad input: a debug section of type NOBITS (found by fuzzing)" {
	cp good.o nobits.o
	set_section_type nobits.o .debug_str 8
	bad nobits.o "kabi: cannot read 'nobits.o': section '.debug_str' has no contents (SHT_NOBITS)"
}

@test "kabi bad input: no section headers" {
	cp good.o sh0.o
	# e_shoff, e_shnum and e_shstrndx of a little-endian ELF64 to zero
	printf '\000\000\000\000\000\000\000\000' | dd of=sh0.o bs=1 seek=40 conv=notrunc status=none
	printf '\000\000' | dd of=sh0.o bs=1 seek=60 conv=notrunc status=none
	printf '\000\000' | dd of=sh0.o bs=1 seek=62 conv=notrunc status=none
	bad sh0.o "kabi: cannot read 'sh0.o': no section headers (e_shnum is 0)"
}

@test "kabi bad input: more than 65535 sections (extended numbering) is read" {
	(cd "$TOP" && gcc -g -S tests/fixtures/kabi-diff/enums.c -o "$T/many.s")
	awk 'BEGIN { for (i = 0; i < 66000; i++) printf ".section .s%d,\"a\"\n.byte 1\n", i }' >>many.s
	gcc -c many.s -o many.o
	run -0 readelf -hW many.o
	assert_line "  Number of section headers:         0 (66019)"
	run -0 "$KABI" diff good.o many.o
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 4 unchanged, 0 suppressed"
}

@test "kabi bad input: zlib-compressed debug sections read like plain ones" {
	objcopy --compress-debug-sections=zlib good.o zlib.o
	run -0 "$KABI" diff good.o zlib.o
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 4 unchanged, 0 suppressed"
}

@test "kabi bad input: zstd-compressed debug sections are refused by name" {
	objcopy --compress-debug-sections=zstd good.o zstd.o
	bad zstd.o "kabi: cannot read 'zstd.o': section '.debug_info' is compressed with zstd, which this libelf cannot read (zlib only)"
}

# bad_dwarf CASE: tests/fixtures/kabi-bad/dwarf.S built for one case
bad_dwarf() {
	(cd "$TOP" && gcc -c -DCASE="CASE_$1" tests/fixtures/kabi-bad/dwarf.S -o "$T/$1.o")
}

@test "kabi bad input: a typedef of itself is a cycle, not a hang" {
	bad_dwarf SELF
	bad SELF.o "kabi: cannot read 'SELF.o': type reference cycle at DIE 0x1b"
}

@test "kabi bad input: two typedefs naming each other are a cycle" {
	bad_dwarf LOOP
	bad LOOP.o "kabi: cannot read 'LOOP.o': type reference cycle at DIE 0x24"
}

@test "kabi bad input: a struct recursive through a typedef'd pointer is fine" {
	bad_dwarf LIST
	run -0 "$KABI" dump LIST.o
	assert_output - <<'OUT'
struct node size=16
	member next offset=0 size=8 type="node_t *" resolved="struct node *"
	member value offset=8 size=4 type="int32"
typedef node_t chain="struct node" resolved="struct node"
OUT
}

@test "kabi bad input: a type reference outside its unit" {
	bad_dwarf OUTSIDE
	bad OUTSIDE.o "kabi: cannot read 'OUTSIDE.o': attribute 0x49 of DIE 0x2c refers to 0x7ffffff0, outside its unit (0xb to 0x36)"
}

@test "kabi bad input: DW_AT_byte_size past 63 bits" {
	bad_dwarf HUGE
	bad HUGE.o "kabi: cannot read 'HUGE.o': DW_AT_byte_size 18446744073709551615 too large at DIE 0x1b"
}

@test "kabi bad input: DW_AT_byte_size 0 is an empty struct" {
	bad_dwarf EMPTY
	run -0 "$KABI" dump EMPTY.o
	assert_output "struct empty size=0"
}

@test "kabi bad input: an attribute of unknown form" {
	bad_dwarf FORM
	bad FORM.o "kabi: cannot read 'FORM.o': unknown form 0x7f of attribute 0x3 at DIE 0x1b"
}

@test "kabi bad input: a qualifier of itself is a cycle, not a hang (found by fuzzing)" {
	bad_dwarf CONST
	bad CONST.o "kabi: cannot read 'CONST.o': type reference cycle through qualifiers at DIE 0x37"
}

@test "kabi bad input: DW_FORM_data16 enumerators are read as 128-bit values" {
	bad_dwarf DATA16
	run -0 "$KABI" dump DATA16.o
	assert_output - <<'OUT'
enum wide size=16 underlying="uint128"
	enumerator W_ONE value=1
	enumerator W_2_POW_64 value=18446744073709551616
OUT
}

@test "kabi bad input: an enumerator value of 17 bytes is refused" {
	bad_dwarf BLOCK17
	bad BLOCK17.o "kabi: cannot read 'BLOCK17.o': enumerator 'W_17' at DIE 0x23 has a 17-byte value; kabi reads values of 1 to 16 bytes"
}

@test "kabi bad input: a value wider than its enum is refused, not truncated" {
	bad_dwarf NARROW
	bad NARROW.o "kabi: cannot read 'NARROW.o': enumerator 'N_BIG' at DIE 0x24 has a value wider than its 4-byte enum"
}

# blowup CHAINS LEVELS: C source whose function-pointer typedefs double
# the length of their spelled names at every level: a 20 KB object whose
# names need over 100 MB
blowup() {
	awk -v chains="$1" -v levels="$2" 'BEGIN {
		for (c = 0; c < chains; c++) {
			printf "struct t%d { int x; };\n", c
			printf "typedef void (*c%d_0)(struct t%d *);\n", c, c
			for (i = 1; i <= levels; i++)
				printf "typedef void (*c%d_%d)(c%d_%d, c%d_%d);\n", c, i, c, i - 1, c, i - 1
			printf "struct s%d { c%d_%d m; } v%d;\n", c, c, levels, c
		}
	}'
}

@test "kabi bad input: names that outgrow --max-memory stop the read with one line" {
	blowup 16 16 >blowup.c
	gcc -g -c blowup.c -o blowup.o
	run -1 --separate-stderr "$KABI" dump --max-memory 4M blowup.o
	assert_output ""
	[ "$stderr" = "kabi: memory limit of 4M reached by the types and names read so far (see --max-memory)" ]
}

@test "kabi bad input: the memory limit holds for diff and for several threads" {
	blowup 16 16 >blowup.c
	gcc -g -c blowup.c -o blowup.o
	run -1 --separate-stderr "$KABI" diff --threads 4 --max-memory 4M good.o blowup.o
	assert_output ""
	[ "$stderr" = "kabi: memory limit of 4M reached by the types and names read so far (see --max-memory)" ]
}

@test "kabi bad input: --max-memory takes K, M, G or 0 and nothing else" {
	run -0 "$KABI" dump --max-memory 0 good.o
	run -0 "$KABI" dump --max-memory 1G good.o
	run -2 --separate-stderr "$KABI" dump --max-memory 4T good.o
	[ "$stderr" = "kabi: dump: --max-memory takes a size such as 512M or 4G (0: no limit), not '4T'" ]
	run -2 --separate-stderr "$KABI" dump --max-memory 99999999999999999999 good.o
	[ "$stderr" = "kabi: dump: --max-memory takes a size such as 512M or 4G (0: no limit), not '99999999999999999999'" ]
}

# set_shdr FILE SECTION off|size VALUE: overwrite sh_offset or sh_size of
# SECTION in the header table of a little-endian ELF64 file
set_shdr() {
	local file=$1 sec=$2 field=$3 value=$4 shoff idx at bytes i
	shoff=$(readelf -hW "$file" | awk '/Start of section headers/ { print $5 }')
	idx=$(readelf -SW "$file" | sed 's/^ *\[ */[/' |
		awk -v s="$sec" '$2 == s { gsub(/[][]/, "", $1); print $1 }')
	at=$((shoff + idx * 64 + (field == "off" ? 24 : 32)))
	bytes=
	for i in 0 1 2 3 4 5 6 7; do
		bytes=$bytes$(printf '\\%03o' $(((value >> (8 * i)) & 255)))
	done
	# shellcheck disable=SC2059 # the format holds the octal escapes
	printf "$bytes" | dd of="$file" bs=1 seek="$at" conv=notrunc status=none
}

@test "kabi bad input: a debug section whose offset is past the end of the file" {
	cp good.o off.o
	set_shdr off.o .debug_info off $((0x7fffffff))
	bad off.o "kabi: cannot read 'off.o': section '.debug_info' extends past the end of the file (truncated?)"
}

@test "kabi bad input: a debug section whose size runs past the end of the file" {
	cp good.o size.o
	set_shdr size.o .debug_abbrev size $((0x7fffffff))
	bad size.o "kabi: cannot read 'size.o': section '.debug_abbrev' extends past the end of the file (truncated?)"
}

# Stripped files: the types are read from the separate debug file, found
# by build-id under --debug-dir, or by .gnu_debuglink beside the file, in
# .debug/ beside it, or under --debug-dir at the file's directory.

# stripped_pair BUILD_ID: full.so with DWARF, full.debug with only the
# DWARF, stripped.so without it, naming full.debug by .gnu_debuglink
stripped_pair() {
	(cd "$TOP" && gcc -g -shared -fPIC "-Wl,--build-id=$1" \
		tests/fixtures/kabi-diff/enums.c -o "$T/full.so")
	objcopy --only-keep-debug full.so full.debug
	objcopy --strip-debug --add-gnu-debuglink=full.debug full.so stripped.so
	mkdir hide && mv full.debug hide/
}

build_id() {
	readelf -n "$1" | awk '/Build ID:/ { print $3 }'
}

@test "kabi bad input: a stripped file names where its debug file was looked for" {
	stripped_pair sha1
	local id
	id=$(build_id stripped.so)
	bad stripped.so "kabi: cannot read 'stripped.so': no DWARF (.debug_info missing); no debug file at '/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug' or by .gnu_debuglink 'full.debug' (install its debug symbols, or see --debug-dir)"
	objcopy --remove-section .gnu_debuglink stripped.so nolink.so
	run -1 --separate-stderr "$KABI" dump --debug-dir dbg nolink.so
	[ "$stderr" = "kabi: cannot read 'nolink.so': no DWARF (.debug_info missing); no debug file at 'dbg/.build-id/${id:0:2}/${id:2}.debug' (install its debug symbols, or see --debug-dir)" ]
}

@test "kabi bad input: a stripped system binary is not called a dwz file" {
	[ -n "$(readelf -SW /bin/true | awk '$2 == ".gnu_debugaltlink"')" ] ||
		skip "/bin/true has no .gnu_debugaltlink here"
	run -1 --separate-stderr "$KABI" dump --debug-dir "$T/none" /bin/true
	assert_regex "$stderr" "^kabi: cannot read '/bin/true': no DWARF \(\.debug_info missing\); no debug file at '$T/none/\.build-id/[0-9a-f]{2}/[0-9a-f]+\.debug'"
}

@test "kabi dump: a stripped file is read through its build-id under --debug-dir" {
	stripped_pair sha1
	local id
	id=$(build_id stripped.so)
	run -0 "$KABI" dump full.so
	local want=$output
	mkdir -p "dbg/.build-id/${id:0:2}"
	cp hide/full.debug "dbg/.build-id/${id:0:2}/${id:2}.debug"
	run -0 "$KABI" dump --debug-dir dbg stripped.so
	assert_output "$want"
	run -0 "$KABI" diff --debug-dir dbg full.so stripped.so
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 4 unchanged, 0 suppressed"
}

@test "kabi dump: a stripped file is read through .gnu_debuglink, beside it, in .debug/ and under --debug-dir" {
	stripped_pair none
	run -0 "$KABI" dump full.so
	local want=$output
	cp hide/full.debug full.debug
	run -0 "$KABI" dump --debug-dir dbg stripped.so
	assert_output "$want"
	mkdir .debug && mv full.debug .debug/
	run -0 "$KABI" dump --debug-dir dbg stripped.so
	assert_output "$want"
	mkdir -p "dbg$T" && mv .debug/full.debug "dbg$T/"
	run -0 "$KABI" dump --debug-dir dbg stripped.so
	assert_output "$want"
}

@test "kabi dump: a .gnu_debuglink file with another build-id is not taken" {
	stripped_pair sha1
	(cd "$TOP" && gcc -g -shared -fPIC -Wl,--build-id=md5 \
		tests/fixtures/kabi-diff/enums.c -o "$T/other.so")
	objcopy --only-keep-debug other.so full.debug
	run -1 --separate-stderr "$KABI" dump --debug-dir dbg stripped.so
	assert_regex "$stderr" "^kabi: cannot read 'stripped.so': no DWARF \(\.debug_info missing\); no debug file at "
}

@test "kabi bad input: --reader libdw says what libdw says" {
	bad_dwarf OUTSIDE
	bad_dwarf FORM
	cp good.o ut.o
	patch_section ut.o .debug_info 6 '\000'
	run -1 --separate-stderr "$KABI" dump --reader libdw OUTSIDE.o FORM.o ut.o
	assert_output ""
	[ "$stderr" = "kabi: cannot read 'OUTSIDE.o': dwarf_formref_die: invalid DWARF
kabi: cannot read 'FORM.o': dwarf_siblingof: invalid DWARF
kabi: cannot read 'ut.o': unsupported address size 0 at .debug_info offset 0x0" ]
}
