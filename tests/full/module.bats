#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# make module beyond the few builds the default suite makes
# (tests/module.bats): another GCC than the kernel's, Clang on a source
# that builds nothing, every kind of fixture module built with Clang 19,
# and two real DKMS packages from Debian against its 6.1 cloud kernel:
# xtables-addons-dkms (24 modules, two in subdirectories, depending on
# the kernel's x_tables) and jool-dkms (three M directories, two
# depending on the module of the first). Each is a full module build;
# the two packages take minutes (Documentation/distro-modules.md has
# every compiler's and both kernels' figures), so 'make check-full'
# runs them.

load ../common
load ../module

setup_file() {
	module_setup_file
	export XT_SRC JOOL_SRC
	XT_SRC=$(deb_root "$CACHE" xtables-addons xtables-addons-dkms)
	XT_SRC=$(echo "$XT_SRC"/usr/src/xtables-addons-*)
	JOOL_SRC=$(deb_root "$CACHE" jool jool-dkms)
	JOOL_SRC=$(echo "$JOOL_SRC"/usr/src/jool-dkms-*)
}

setup() {
	T=$BATS_TEST_TMPDIR
	OUT=$T/out
	module_out "$OUT"
}

@test "module: GCC 11 builds without the flags GCC 12 chose that it rejects, each named, its log kept beside GCC 12's" {
	need_tool gcc-11
	need_tool gcc-12
	cp -r "$MOD_SRC" "$T/acpi_call"
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -c gcc-11 -B "$BTF_DEB"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$OUT" "$T/acpi_call" gcc-11)"
	run -0 grep -E '^  (CC|FLAG|BUILD) ' <<<"$stderr"
	assert_output - <<'OUT'
  CC      gcc-11 11.3.0: the kernel's family, another version (12.2.0 built the kernel); flags it rejects are dropped below
  FLAG    -ftrivial-auto-var-init=zero dropped (security): stack variables are not zero-initialised
  BUILD   acpi_call with gcc-11
OUT
	run -0 readelf -p .comment "$T/acpi_call/acpi_call.ko"
	assert_line --partial "GCC: (Debian 11.3.0"
	run -0 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -n
	assert_line -n -1 "module: BUILT (1 built, no layout check asked); $(work "$OUT" "$T/acpi_call" gcc-12)"
	run -0 grep -c 'CC \[M\]' "$(work "$OUT" "$T/acpi_call" gcc-11)/build.log" "$(work "$OUT" "$T/acpi_call" gcc-12)/build.log"
	assert_output - <<OUT
$(work "$OUT" "$T/acpi_call" gcc-11)/build.log:2
$(work "$OUT" "$T/acpi_call" gcc-12)/build.log:2
OUT
	run -0 cut -f1,2 "$(work "$OUT" "$T/acpi_call" gcc-11)/decisions.tsv"
	assert_output "$(printf -- '-ftrivial-auto-var-init=zero\tdrop')"
}

@test "module: a source that builds no module fails with one line under Clang too" {
	need_tool clang-14
	cp -r "$TOP/tests/fixtures/module/empty" "$T/empty"
	run -1 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/empty" -c clang-14 -B "$BTF_DEB"
	assert_output "module: FAIL (the build compiled no C file; see '$(work "$OUT" "$T/empty" clang-14)/build.log')"
}

@test "module: built with Clang 19, every kind of module gets the verdict GCC's build gets" {
	need_tool clang-19
	not_this_kernel
	kinds "$T/kinds"
	run -28 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/kinds" -c clang-19 -B "$BTF_DEB"
	assert_output "module: layouts differ in 1 of 7 modules (kabi bits 12); 1 not checked; 1 not fully checked; $(work "$OUT" "$T/kinds" clang-19)"
	assert_kinds_verdicts
}

@test "module: xtables-addons with Clang 19, 24 modules at two depths, each checked with x_tables' types" {
	need_tool clang-19
	cp -r "$XT_SRC" "$T/xt"
	XA_ABSTOPSRCDIR=$T/xt run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/xt/extensions" \
		-c clang-19 -B "$BTF_DEB" -d "$MODDIR_DEB"
	assert_output "module: PASS (24 of 24 modules checked); $(work "$OUT" "$T/xt/extensions" clang-19)"
	run -0 grep -cE "^  MODULE  [a-zA-Z0-9_]+(/[a-zA-Z0-9_]+)?\\.ko: PASS: [1-9][0-9]* types compared with the kernel's, " <<<"$stderr"
	assert_output 24
	run -0 grep -c "^  CHECK   .* against x_tables.ko's BTF " <<<"$stderr"
	assert_output 22
	run -0 grep -E '^  MODULE  (ACCOUNT|pknock)/' <<<"$stderr"
	assert_line -n 0 --regexp "^  MODULE  ACCOUNT/xt_ACCOUNT.ko: PASS: [1-9][0-9]* types compared with the kernel's, 9 with x_tables.ko's, [0-9]+ its own\$"
	assert_line -n 1 --regexp "^  MODULE  pknock/xt_pknock.ko: PASS: [1-9][0-9]* types compared with the kernel's, 9 with x_tables.ko's, [0-9]+ its own\$"
}

@test "module: jool's three M directories, the modules of two checked against the first's" {
	need_tool gcc-12
	cp -r "$JOOL_SRC" "$T/jool"
	local mod=$T/jool/src/mod
	run -0 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$mod/common" -B "$BTF_DEB" -d "$MODDIR_DEB"
	assert_line -n -1 "module: PASS (1 of 1 modules checked); $(work "$OUT" "$mod/common" gcc-12)"
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$mod/nat64" -B "$BTF_DEB" -d "$mod/common" -d "$MODDIR_DEB"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$OUT" "$mod/nat64" gcc-12)"
	run -0 grep -E '^  (CHECK   jool.ko against jool_common|MODULE )' <<<"$stderr"
	assert_line -n 0 "  CHECK   jool.ko against jool_common.ko's DWARF ($mod/common/jool_common.ko)"
	assert_line -n 1 --regexp "^  MODULE  jool.ko: PASS: [1-9][0-9]* types compared with the kernel's, 9 with x_tables.ko's, [1-9][0-9]* with jool_common.ko's, 0 its own\$"
	# without the first M, its module's types are not compared, and it is named
	run -16 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$mod/siit" -B "$BTF_DEB" -d "$MODDIR_DEB"
	assert_line -n -1 "module: NOT FULLY CHECKED (1 of 1 modules: types of jool_common not compared); $(work "$OUT" "$mod/siit" gcc-12)"
}
