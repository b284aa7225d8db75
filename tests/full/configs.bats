#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# KCONFIG_ADD on real cells: x86_64 with kcfi (Clang 16's cell traps
# LKDTM's mismatched call, GCC's control survives it) and with thinlto
# (Clang's objects are LLVM bitcode, GCC's control's are ELF), booted with
# their KUnit suites, and arm64-virt with kcfi and its kselftests too;
# each pair compared. x86_64 with randstruct: GCC's plugin and Clang 16
# with one seed, and the table of what each randomized how. Ten tiny
# kernels of their own, about 55 minutes cold on two cores: 'make check-full' runs this file, and
# Documentation/configs.md keeps the figures.
# The tests run in order, on one build directory (cached in
# $KPARITY_BUILD/config-*/ after the first run).

load ../common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
}

setup() {
	need_tool jq
	need_tool clang-16
}

# CELLS: each cell's name, build and boot status, KUnit counts and proof
CELLS='.matrix[].cells[] | [.name, .build.status, .boot.status,
	.tests.counts.pass, .tests.counts.fail, .proof]'

@test "configs: x86_64 with kcfi, Clang 16's cell traps the mismatched call and GCC's control does not" {
	KCONFIG_ADD=kcfi run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k kunit
	assert_output "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/config-kcfi/report/report.html"
	local r=$BUILD/config-kcfi/report/report.json
	run -0 jq -c '.config_add, .compilers' "$r"
	assert_output "$(printf '%s\n' '["kcfi"]' '["gcc","clang-16"]')"
	run -0 jq -c "$CELLS" "$r"
	assert_line --index 0 '["x86_64/gcc","pass","pass",90,0,["kcfi.config control (needs clang 16, and gcc is GCC): lkdtm: FAIL: survived mismatched prototype function call!"]]'
	assert_line --index 1 --regexp '^\["x86_64/clang-16","pass","pass",90,0,\["kcfi\.config: CFI failure at lkdtm_indirect_call\+0x[0-9a-f]+/0x[0-9a-f]+ \(target: lkdtm_increment_int\+0x0/0x[0-9a-f]+; expected type: 0x[0-9a-f]{8}\)"\]\]$'
	assert_equal "${#lines[@]}" 2
	run -0 grep -c '^kparity-init: lkdtm CFI_FORWARD_PROTO exit 139' "$BUILD/config-kcfi/kernel/x86_64-clang-16/boot.log"
	assert_output 1
}

@test "configs: x86_64 with thinlto, Clang's objects are bitcode and GCC's control's ELF" {
	KCONFIG_ADD=thinlto run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k kunit
	assert_output "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/config-thinlto/report/report.html"
	run -0 jq -c "$CELLS" "$BUILD/config-thinlto/report/report.json"
	assert_output "$(printf '%s\n' \
		'["x86_64/gcc","pass","pass",90,0,["thinlto.config control (needs clang 13, and gcc is GCC): init/main.o is an ELF object"]]' \
		'["x86_64/clang","pass","pass",90,0,["thinlto.config: init/main.o is LLVM bitcode"]]')"
	run -0 grep -c '^CONFIG_LTO_CLANG_THIN=y$' "$BUILD/config-thinlto/kernel/x86_64-clang/.config"
	assert_output 1
}

@test "configs: arm64-virt with kcfi, the same trap and control as on x86_64, kselftests alike" {
	KCONFIG_ADD=kcfi run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t arm64-virt
	assert_output "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/config-kcfi/report/report.html"
	run -0 jq -c "$CELLS" "$BUILD/config-kcfi/report/report.json"
	assert_line --index 0 '["arm64-virt/gcc","pass","pass",103,0,["kcfi.config control (needs clang 16, and gcc is GCC): lkdtm: FAIL: survived mismatched prototype function call!"]]'
	assert_line --index 1 --regexp '^\["arm64-virt/clang-16","pass","pass",103,0,\["kcfi\.config: CFI failure at lkdtm_indirect_call\+0x[0-9a-f]+/0x[0-9a-f]+ \(target: lkdtm_increment_int\+0x0/0x[0-9a-f]+; expected type: 0x[0-9a-f]{8}\)"\]\]$'
	assert_equal "${#lines[@]}" 2
}

@test "configs: x86_64 with randstruct, one seed: GCC and Clang 16 lay out most structures differently" {
	need_tool gcc-12
	KCONFIG_ADD=randstruct run -1 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k kunit
	assert_output "parity: FAIL x86_64 randstruct: gcc and clang-16 lay out 87 of 93 structures both randomized differently with one seed, first struct address_space at include/linux/fs.h:432; report in $BUILD/config-randstruct/report/report.html"
	local r=$BUILD/config-randstruct/report/report.json
	run -0 jq -c "$CELLS" "$r"
	assert_output "$(printf '%s\n' \
		'["x86_64/gcc","pass","pass",90,0,["randstruct.config: layouts randomized with seed 6b7061726974792d"]]' \
		'["x86_64/clang-16","pass","pass",90,0,["randstruct.config: layouts randomized with seed 6b7061726974792d"]]')"
	# GCC's DWARF is not read; Clang's is
	run -0 jq -c '[.matrix[0].cells[].check.status, .matrix[0].kabi.status, .matrix[0].kabi.reason]' "$r"
	assert_output '["skipped","pass","skipped","GCC'"'"'s randstruct plugin leaves the DWARF in declared order, not the randomized layout"]'
	run -0 jq -c '.matrix[0].randstruct | [.randomized, .same, (.types[] | select(.name == "cred" or .name == "seq_operations") | [.name, .probe, .gcc, .same])]' "$r"
	assert_output '[{"clang":112,"probed":101,"gcc":93},6,["cred",true,true,false],["seq_operations",true,true,true]]'
	run -0 cat "$BUILD/config-randstruct/kernel/x86_64-gcc/scripts/basic/randstruct.seed" \
		"$BUILD/config-randstruct/kernel/x86_64-clang-16/scripts/basic/randstruct.seed"
	assert_output "$(printf '%s\n' 6b7061726974792d72616e647374727563742d7365656420666f722074657374 \
		6b7061726974792d72616e647374727563742d7365656420666f722074657374)"
}
