#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Randomized layouts (randstruct) with one seed: GCC's plugin, built from
# the kernel tree's own source as Kbuild builds it, and Clang, on the
# structures of tests/fixtures/randstruct/layouts.h. What GCC's DWARF says
# against what its code uses, what the probe (scripts/randstruct/probe-c.jq)
# reads of each compiler, and the table randstruct.jq makes of it all.
# The kernel-sized run is in tests/full/configs.bats.

load common

FIX=tests/fixtures/randstruct
# the seed of kconfig/fragments/randstruct.config
SEED=6b7061726974792d72616e647374727563742d7365656420666f722074657374

setup_file() {
	local b=${KPARITY_BUILD:-$TOP/build} src plugin
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$b/cache}
	src=$("$TOP/scripts/kernel-src.sh" -o "$b")
	export RS=$BATS_FILE_TMPDIR
	plugin=$(gcc -print-file-name=plugin)
	# the plugin takes its seed from a header, as scripts/gcc-plugins/Makefile writes it
	printf 'const char *randstruct_seed = "%s";\n' "$SEED" >"$RS/randomize_layout_seed.h"
	g++ -shared -fPIC -I"$plugin/include" -I"$RS" -fno-rtti -fno-exceptions \
		-Wno-narrowing -Wno-unused-variable -Wno-format-diag -DPLUGIN_VERSION=\"6.1\" \
		-o "$RS/randomize_layout_plugin.so" "$src/scripts/gcc-plugins/randomize_layout_plugin.c"
	export GCC_RAND="-fplugin=$RS/randomize_layout_plugin.so"
	export CLANG_RAND="-frandomize-layout-seed=$SEED"
}

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$TOP"
}

# objects: GCC's and Clang's objects of the fixture, plain and randomized
objects() {
	cc_obj gcc "$T/gcc-plain.o" "$FIX/layouts.c"
	cc_obj gcc "$T/gcc-rand.o" "$FIX/layouts.c" "$GCC_RAND" -Wno-attributes
	cc_obj clang-16 "$T/clang-plain.o" "$FIX/layouts.c" -Wno-unknown-attributes
	cc_obj clang-16 "$T/clang-rand.o" "$FIX/layouts.c" "$CLANG_RAND"
}

# probe CC OUT FLAGS...: the probe of layouts.h compiled by CC, its lines
probe() {
	local cc=$1 out=$2
	shift 2
	"$KABI" dump --json --root "$TOP/$FIX" "$T/gcc-plain.o" >"$T/plain.json"
	jq -r --arg header "$TOP/$FIX/layouts.h" -L scripts/randstruct -f scripts/randstruct/probe-c.jq "$T/plain.json" >"$T/probe.c"
	"$cc" -S "$@" -o "$T/probe.s" "$T/probe.c" 2>/dev/null
	sed -n 's/^[ \t]*\.ascii[ \t]*"@kparity \(.*\)"$/\1/p' "$T/probe.s" >"$out"
}

@test "randstruct: GCC's plugin leaves the DWARF in declared order; Clang's DWARF has its shuffle" {
	objects
	run -0 "$KABI" diff "$T/gcc-plain.o" "$T/gcc-rand.o"
	assert_output "summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, 3 unchanged, 0 suppressed"
	run -12 "$KABI" diff --root "$TOP/$FIX" --type cred "$T/clang-plain.o" "$T/clang-rand.o"
	assert_line --index 0 "struct cred at layouts.h:20"
	assert_line --index 1 "	member uid: offset 0 -> 36 [incompatible]"
	assert_line --index 8 "	member security: offset 32 -> 0 [incompatible]"
}

@test "randstruct: the probe reads each compiler's own layout, and the two differ with one seed" {
	need_tool clang-16
	objects
	probe gcc "$T/gcc.txt" "$GCC_RAND" -Wno-attributes
	run -0 paste -s -d ' ' "$T/gcc.txt"
	assert_output 'cred uid $16 cred gid $12 cred suid $20 cred sgid $24 cred euid $8 cred egid $40 cred flags $0 cred security $32 ops open $16 ops read $0 ops write $40 ops release $24 ops poll $8 ops mmap $32 plain a $0 plain b $8 plain c $16'
	probe clang-16 "$T/clang.txt" "$CLANG_RAND"
	run -0 paste -s -d ' ' "$T/clang.txt"
	assert_output 'cred uid $36 cred gid $32 cred suid $12 cred sgid $8 cred euid $24 cred egid $28 cred flags $16 cred security $0 ops open $40 ops read $8 ops write $32 ops release $16 ops poll $24 ops mmap $0 plain a $0 plain b $8 plain c $16'
	# the probe of a plain build says what its DWARF says
	probe gcc "$T/plain.txt"
	run -0 paste -s -d ' ' "$T/plain.txt"
	assert_output 'cred uid $0 cred gid $4 cred suid $8 cred sgid $12 cred euid $16 cred egid $20 cred flags $24 cred security $32 ops open $0 ops read $8 ops write $16 ops release $24 ops poll $32 ops mmap $40 plain a $0 plain b $8 plain c $16'
}

@test "randstruct.jq: what Clang randomized, whether GCC did, and whether alike" {
	need_tool clang-16
	objects
	"$KABI" diff --json --only-common --only-layout --kind struct --root "$TOP/$FIX" \
		-o "$T/c.json" "$T/clang-plain.o" "$T/clang-rand.o" || [ $? -eq 12 ]
	"$KABI" diff --json --only-common --only-layout --kind struct --root "$TOP/$FIX" \
		-o "$T/g.json" "$T/gcc-plain.o" "$T/gcc-rand.o"
	"$KABI" dump --json --root "$TOP/$FIX" --kind struct -o "$T/cr.json" "$T/clang-rand.o"
	probe gcc "$T/gcc.txt" "$GCC_RAND" -Wno-attributes
	probe clang-16 "$T/clang.txt" "$CLANG_RAND"
	run -0 jq -c -n --slurpfile c "$T/c.json" --slurpfile g "$T/g.json" \
		--slurpfile gp "$T/plain.json" --slurpfile cr "$T/cr.json" \
		--rawfile pg "$T/gcc.txt" --rawfile pc "$T/clang.txt" \
		--arg gcc gcc --arg clang clang-16 --arg seed "$SEED" -L scripts/randstruct -f scripts/randstruct/randstruct.jq
	assert_output '{"gcc":"gcc","clang":"clang-16","seed":"'"$SEED"'","randomized":{"clang":2,"probed":2,"gcc":2},"same":0,"gcc_dwarf_changed":0,"types":[{"name":"cred","decl":"layouts.h:20","probe":true,"gcc":true,"same":false,"dwarf":false},{"name":"ops","decl":"layouts.h:11","probe":true,"gcc":true,"same":false,"dwarf":false}]}'
}

@test "randstruct.jq: a structure whose probe does not compile, or disagrees with Clang's DWARF, is not probed" {
	need_tool clang-16
	objects
	"$KABI" diff --json --only-common --only-layout --kind struct --root "$TOP/$FIX" \
		-o "$T/c.json" "$T/clang-plain.o" "$T/clang-rand.o" || [ $? -eq 12 ]
	"$KABI" dump --json --root "$TOP/$FIX" --kind struct -o "$T/cr.json" "$T/clang-rand.o"
	probe gcc "$T/gcc.txt" "$GCC_RAND" -Wno-attributes
	# no probe of ops; Clang's probe of cred says GCC's offsets
	grep -v '^ops ' "$T/gcc.txt" >"$T/pg.txt"
	grep '^cred ' "$T/gcc.txt" >"$T/pc.txt"
	jq -n --slurpfile c "$T/c.json" --slurpfile gp "$T/plain.json" --slurpfile cr "$T/cr.json" \
		--rawfile pg "$T/pg.txt" --rawfile pc "$T/pc.txt" --slurpfile g /dev/stdin \
		--arg gcc gcc --arg clang clang-16 --arg seed "" -c -L scripts/randstruct -f scripts/randstruct/randstruct.jq \
		<<<'{"types": []}' >"$T/out.json"
	run -0 jq -c '[.randomized, .same, (.types[] | [.name, .probe, .gcc, .same])]' "$T/out.json"
	assert_output '[{"clang":2,"probed":0,"gcc":0},0,["cred",false,null,null],["ops",false,null,null]]'
}

@test "randstruct.sh: bad arguments are one line and exit 2" {
	run -2 --separate-stderr scripts/randstruct.sh a b c
	assert_equal "${stderr_lines[0]}" "usage: randstruct.sh [-k KABI] [-n GCC,CLANG] [-s SRCDIR] [-S SEED] [-O FILE] GCC_PLAIN GCC_RAND CLANG_PLAIN CLANG_RAND"
	run -2 --separate-stderr scripts/randstruct.sh "$T" "$T" "$T" "$T"
	assert_equal "$stderr" "randstruct.sh: no kernel build in '$T' (no vmlinux)"
}
