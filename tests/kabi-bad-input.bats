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
	assert_regex "$stderr" "^kabi: cannot read 'abbrev.o': dwarf_[a-z_]+: .+$"
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
	bad ut.o "kabi: cannot read 'ut.o': unsupported address size 0 at .debug_info offset 0x0"
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
