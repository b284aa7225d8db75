#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kabi check: the types one build sees with different layouts in different
# units, on real objects from both compilers; exact reports and exit bits.

load common

FIX=tests/fixtures/kabi-check

setup() {
	T=$BATS_TEST_TMPDIR
}

# build CC: $T/a.o, $T/b.o and $T/c.o, and $T/all.o, the three linked as
# a kernel links its units
build() {
	local u
	for u in a b c; do
		cc_obj "$1" "$T/$u.o" "$FIX/$u.c"
	done
	ld -r "$T/a.o" "$T/b.o" "$T/c.o" -o "$T/all.o"
}

@test "kabi check: a struct, an enum and an anonymous union seen under two #ifdef views, from gcc and clang" {
	local cc
	for cc in gcc clang; do
		build "$cc"
		run -12 "$KABI" check "$T/all.o"
		expect_file "$FIX/all.expected"
	done
}

@test "kabi check: several FILEs are one build, their units numbered in order" {
	build gcc
	run -12 "$KABI" check "$T/a.o" "$T/b.o" "$T/c.o"
	expect_file "$FIX/all.expected"
	run -12 "$KABI" check --type conf "$T/c.o" "$T/b.o" "$T/a.o"
	assert_output - <<'OUT'
struct conf at tests/fixtures/kabi-check/conf.h:12
	layout 1: size 16, 2 units: tests/fixtures/kabi-check/c.c, tests/fixtures/kabi-check/b.c
	layout 2: size 24, 1 unit: tests/fixtures/kabi-check/a.c
		size 16 -> 24 [incompatible]
		member priv: offset 8 -> 16 [incompatible]
		member hits: added at offset=8, type "int64"
summary: 1 with different layouts (1 incompatible), 0 alike, 3 units
OUT
}

@test "kabi check: one layout in every unit, a declaration-only struct and a name at two places are no clash" {
	local cc
	for cc in gcc clang; do
		build "$cc"
		# b.c and c.c see conf.h alike; c.c only declares struct opaque
		run -0 "$KABI" check "$T/b.o" "$T/c.o"
		assert_output "summary: 0 with different layouts (0 incompatible), 8 alike, 2 units"
		# struct local of a.c and of b.c are declared in two places
		run -0 "$KABI" check --type local --type holder --type opaque "$T/all.o"
		assert_output "summary: 0 with different layouts (0 incompatible), 4 alike, 3 units"
	done
}

@test "kabi check: --by-name also reports one name declared in two places" {
	build gcc
	run -12 "$KABI" check --by-name --kind struct "$T/all.o"
	expect_file "$FIX/by-name.expected"
}

@test "kabi check: --by-name, one name laid out alike in two places is no clash" {
	build clang
	run -0 "$KABI" check --by-name --type twin "$T/all.o"
	assert_output "summary: 0 with different layouts (0 incompatible), 1 alike, 3 units"
}

@test "kabi check: more units than it names are counted" {
	local u
	build gcc
	for u in 1 2 3; do
		cp "$T/b.o" "$T/b$u.o"
	done
	run -4 "$KABI" check --kind enum "$T/a.o" "$T/b.o" "$T/c.o" "$T/b1.o" "$T/b2.o" "$T/b3.o"
	assert_output - <<'OUT'
enum conf_mode at tests/fixtures/kabi-check/conf.h:20
	layout 1: size 4, 5 units: tests/fixtures/kabi-check/b.c, tests/fixtures/kabi-check/c.c, tests/fixtures/kabi-check/b.c and 2 more
	layout 2: size 4, 1 unit: tests/fixtures/kabi-check/a.c
		enumerator MODE_ON: value 1 -> 2
		enumerator MODE_COUNT: added, value 1
summary: 1 with different layouts (0 incompatible), 0 alike, 6 units
OUT
}

@test "kabi check: a type in a type unit is held by that unit, named by its offset" {
	local u
	for u in a b c; do
		cc_obj gcc "$T/$u.o" "$FIX/$u.c" -gdwarf-4 -fdebug-types-section
	done
	ld -r "$T/a.o" "$T/b.o" "$T/c.o" -o "$T/all.o"
	run -12 "$KABI" check --type conf "$T/all.o"
	assert_line --index 0 "struct conf at tests/fixtures/kabi-check/conf.h:12"
	assert_line --index 1 --regexp '^	layout 1: size 24, 1 unit: <unit at 0x[0-9a-f]+>$'
	assert_line --index 2 --regexp '^	layout 2: size 16, 1 unit: <unit at 0x[0-9a-f]+>$'
}

@test "kabi check: the output does not depend on the threads" {
	build clang
	run -12 "$KABI" check --threads 1 "$T/all.o"
	local one=$output
	run -12 "$KABI" check --threads 3 "$T/a.o" "$T/b.o" "$T/c.o"
	assert_output "$one"
	run -12 "$KABI" check --reader libdw "$T/all.o"
	assert_output "$one"
}

@test "kabi check: --json has each layout, its units and its findings" {
	need_tool jq
	build gcc
	run -12 "$KABI" check --json -o "$T/c.json" "$T/all.o"
	assert_output ""
	local prog='.summary, (.types[] | [.kind, .name, .decl_file, .decl_line, .incompatible, (.layouts[] | [.units, .unit_names, .layout.size, [.findings[].what]])])'
	run -0 jq -c "$prog" "$T/c.json"
	assert_output - <<'OUT'
{"clashing":3,"incompatible":1,"alike":8,"units":3}
["enum","conf_mode","tests/fixtures/kabi-check/conf.h",20,false,[2,["tests/fixtures/kabi-check/b.c","tests/fixtures/kabi-check/c.c"],4,[]],[1,["tests/fixtures/kabi-check/a.c"],4,["enumerator_value","enumerator_added"]]]
["struct","conf","tests/fixtures/kabi-check/conf.h",12,true,[2,["tests/fixtures/kabi-check/b.c","tests/fixtures/kabi-check/c.c"],16,[]],[1,["tests/fixtures/kabi-check/a.c"],24,["size","offset","member_added"]]]
["union","wrapped.<anon@8>","tests/fixtures/kabi-check/conf.h",30,false,[2,["tests/fixtures/kabi-check/b.c","tests/fixtures/kabi-check/c.c"],4,[]],[1,["tests/fixtures/kabi-check/a.c"],4,["member_added"]]]
OUT
}

@test "kabi check: --type that selects nothing is a usage error" {
	build gcc
	run -2 --separate-stderr "$KABI" check --type nosuch "$T/all.o"
	assert_output ""
	[ "$stderr" = "kabi: check: --type 'nosuch' matches no type" ]
}

@test "kabi check: bad inputs are each one line, exit 1, nothing printed" {
	build gcc
	strip -g "$T/c.o" -o "$T/nodwarf.o"
	printf 'not elf\n' >"$T/text"
	run -1 --separate-stderr "$KABI" check "$T/a.o" "$T/missing.o" "$T/text" "$T/nodwarf.o"
	assert_output ""
	[ "$stderr" = "kabi: cannot open '$T/missing.o': No such file or directory
kabi: cannot read '$T/text': not an ELF file
kabi: cannot read '$T/nodwarf.o': no DWARF (.debug_info missing)" ]
}

@test "kabi check: BTF cannot say which unit holds a type" {
	build gcc
	run -2 --separate-stderr "$KABI" check --format btf "$T/all.o"
	[ "$stderr" = "kabi: check: option '--format' does not apply" ]
}

# check_cell: a cell of x86_64/gcc under $T whose vmlinux is the fixture's
# three units, linked with gcc, and the kabi the stage runs
check_cell() {
	build gcc
	mkdir -p "$T/kernel/x86_64-gcc"
	cp "$T/all.o" "$T/kernel/x86_64-gcc/vmlinux"
	: >"$T/kernel/x86_64-gcc/.kparity-built"
	ln -s "$KABI" "$T/kabi"
}

@test "kernel-check.sh: one cell's clashes as the report's check object, by kind and name" {
	need_tool jq
	check_cell
	run -0 --separate-stderr "$TOP/scripts/kernel-check.sh" -o "$T" -t x86_64 -c gcc -s "$TOP" -O "$T/check.json"
	assert_output ""
	assert_equal "$stderr" "CHECK   x86_64/gcc  3 clashing, 1 incompatible, 8 alike in 3 units"
	run -0 jq -c . "$T/check.json"
	assert_output '{"status":"pass","reason":null,"summary":{"clashing":3,"incompatible":1,"alike":8,"units":3},"clashes":[{"kind":"enum","name":"conf_mode","decl":"tests/fixtures/kabi-check/conf.h:20","incompatible":false},{"kind":"struct","name":"conf","decl":"tests/fixtures/kabi-check/conf.h:12","incompatible":true},{"kind":"union","name":"wrapped.<anon@8>","decl":"tests/fixtures/kabi-check/conf.h:30","incompatible":false}],"reproduce":"'"$T"'/kabi check --root '"$TOP"' kernel/x86_64-gcc/vmlinux"}'
	assert [ ! -e "$T/check.json.raw" ]
	assert [ ! -e "$T/check.json.err" ]
	assert [ ! -e "$T/check.json.tmp" ]
}

@test "kernel-check.sh: a vmlinux kabi cannot read is a failed check, exit 1" {
	need_tool jq
	check_cell
	echo 'not ELF' >"$T/kernel/x86_64-gcc/vmlinux"
	run -1 --separate-stderr "$TOP/scripts/kernel-check.sh" -o "$T" -t x86_64 -O "$T/check.json"
	run -0 jq -r '.status, .reason, .summary' "$T/check.json"
	assert_output "$(printf '%s\n' fail "kabi check exited 1: kabi: cannot read '$T/kernel/x86_64-gcc/vmlinux': not an ELF file" null)"
}

@test "kernel-check.sh: a build by GCC's randstruct plugin is not checked: its DWARF is not its layout" {
	need_tool jq
	check_cell
	printf 'CONFIG_GCC_PLUGIN_RANDSTRUCT=y\n' >"$T/kernel/x86_64-gcc/.config"
	run -0 --separate-stderr "$TOP/scripts/kernel-check.sh" -o "$T" -t x86_64 -O "$T/check.json"
	assert_equal "$stderr" "CHECK   x86_64/gcc  skipped: GCC's randstruct plugin leaves the DWARF in declared order, not the randomized layout"
	run -0 jq -c '[.status, .summary, .clashes]' "$T/check.json"
	assert_output '["skipped",null,[]]'
}

@test "kernel-check.sh: a cell without a successful build is one line, exit 2, no result" {
	check_cell
	rm "$T/kernel/x86_64-gcc/.kparity-built"
	run -2 --separate-stderr "$TOP/scripts/kernel-check.sh" -o "$T" -t x86_64 -O "$T/check.json"
	assert_equal "$stderr" "kernel-check.sh: no successful build of x86_64/gcc in '$T/kernel/x86_64-gcc'"
	assert [ ! -e "$T/check.json" ]
}
