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
# runs them. Then Debian 12's 6.12 cloud kernel (bookworm-security):
# acpi-call with its GCC 12, Clang 14 and Clang 19, checked against the
# BTF its headers carry, and the fixture modules against its image's
# compressed modules.

load ../common
load ../module

setup_file() {
	module_setup_file
	export XT_SRC JOOL_SRC
	XT_SRC=$(deb_root "$CACHE" xtables-addons xtables-addons-dkms)
	XT_SRC=$(echo "$XT_SRC"/usr/src/xtables-addons-*)
	JOOL_SRC=$(deb_root "$CACHE" jool jool-dkms)
	JOOL_SRC=$(echo "$JOOL_SRC"/usr/src/jool-dkms-*)
	export KVER612 KDIR612 MODDIR612
	KVER612="6.12.$(debian_612)+deb12-cloud-amd64"
	KDIR612=$(debian_headers "$CACHE" "$KVER612")
	MODDIR612="$(deb_root "$CACHE" "image-$KVER612" "linux-image-$KVER612")/lib/modules/$KVER612"
}

# debian_612: the newest N of Debian 12's 6.12 cloud kernel apt knows
# (linux-headers-6.12.N+deb12-cloud-amd64), or $KPARITY_DISTRO_612
debian_612() {
	local n=${KPARITY_DISTRO_612:-}

	[ -n "$n" ] || n=$(apt-cache pkgnames linux-headers-6.12. |
		sed -n 's/^linux-headers-6\.12\.\([0-9]*\)+deb12-cloud-amd64$/\1/p' | sort -n | tail -n 1)
	[ -n "$n" ] || { echo "apt knows no linux-headers-6.12.N+deb12-cloud-amd64 (apt-get update?)" >&2; return 1; }
	echo "$n"
}

# acpi_612 CC: acpi-call built with CC against the 6.12 headers, no
# kernel types given; checks the last line and the KERNEL and CC lines
acpi_612() {
	cp -r "$MOD_SRC" "$T/acpi_call"
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR612" -m "$T/acpi_call" -c "$1" -d "$MODDIR612"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$OUT" "$T/acpi_call" "${1/kernel/gcc-12}")"
	run -0 grep -E '^ *(KERNEL|CHECK) ' <<<"$stderr"
	assert_output - <<OUT
KERNEL  $KVER612: gcc 12.2.0 (x86_64-linux-gnu-gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0), GNU ld, GNU as
  CHECK   acpi_call.ko against the kernel's BTF ($KDIR612/vmlinux)
OUT
}

# flags_612: the FLAG and FTRACE lines of the last run
flags_612() {
	run -0 grep -E '^  (FLAG|FTRACE) ' <<<"$stderr"
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

@test "module: Debian's 6.12 headers, the kernel's GCC 12 builds acpi-call, checked against the headers' own BTF" {
	need_tool gcc-12
	acpi_612 kernel
	run -0 grep '^  CC ' <<<"$stderr"
	assert_output "  CC      gcc-12 12.2.0: the kernel's own compiler"
	run -0 readelf -p .comment "$T/acpi_call/acpi_call.ko"
	assert_line --partial "GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
}

@test "module: Debian's 6.12 headers with Clang 14: the call padding kept, every __fentry__ in __mcount_loc" {
	need_tool clang-14
	local ko
	acpi_612 clang-14
	flags_612
	assert_output - <<'OUT'
  FLAG    -mfunction-return=thunk-extern dropped (security): returns are not routed through the return thunk (RETBleed/SRSO mitigation missing)
  FLAG    -mharden-sls=all dropped (security): no speculation barrier after returns and indirect jumps (straight-line speculation)
  FLAG    -ftrivial-auto-var-init=zero -> -ftrivial-auto-var-init=zero -enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang (security, kept in Clang's words)
  FLAG    -mrecord-mcount dropped (tracing): no __mcount_loc table from the compiler (recordmcount or objtool must build it)
  FLAG    -fconserve-stack dropped (codegen): stack use is not traded for speed; frames may be larger
  FLAG    -Wno-alloc-size-larger-than dropped (diag): a GCC warning Clang does not have
  FLAG    -Wimplicit-fallthrough=5 -> -Wimplicit-fallthrough (diag, kept in Clang's words)
  FLAG    -Wno-maybe-uninitialized dropped (diag): a GCC warning Clang does not have
  FTRACE  __mcount_loc made by the tree's scripts/recordmcount, as the kernel's compiler makes it (its calls to __fentry__ kept: the kernel turns them into NOPs at load)
OUT
	ko=$T/acpi_call/acpi_call.ko
	[ -n "$(section_field "$ko" __patchable_function_entries size)" ]
	run -0 fentry_calls "$ko"
	assert_output "$(mcount_entries "$ko")"
	[ "$output" -gt 0 ]
}

@test "module: Debian's 6.12 headers with Clang 19: the return thunk and SLS kept too" {
	need_tool clang-19
	local ko
	acpi_612 clang-19
	flags_612
	assert_output - <<'OUT'
  FLAG    -mrecord-mcount dropped (tracing): no __mcount_loc table from the compiler (recordmcount or objtool must build it)
  FLAG    -fconserve-stack dropped (codegen): stack use is not traded for speed; frames may be larger
  FLAG    -Wno-alloc-size-larger-than dropped (diag): a GCC warning Clang does not have
  FLAG    -Wimplicit-fallthrough=5 -> -Wimplicit-fallthrough (diag, kept in Clang's words)
  FLAG    -Wno-maybe-uninitialized dropped (diag): a GCC warning Clang does not have
  FTRACE  __mcount_loc made by the tree's scripts/recordmcount, as the kernel's compiler makes it (its calls to __fentry__ kept: the kernel turns them into NOPs at load)
OUT
	ko=$T/acpi_call/acpi_call.ko
	[ -n "$(section_field "$ko" __patchable_function_entries size)" ]
	run -0 fentry_calls "$ko"
	assert_output "$(mcount_entries "$ko")"
	[ "$output" -gt 0 ]
}

@test "module: Debian's 6.12 headers, every kind of module, x_tables' types from the image's x_tables.ko.xz" {
	need_tool gcc-12
	[ "$(uname -r)" != "$KVER612" ] || skip "this machine runs $KVER612 itself"
	kinds "$T/kinds"
	run -28 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR612" -m "$T/kinds" -d "$MODDIR612"
	assert_output "module: layouts differ in 1 of 7 modules (kabi bits 12); 1 not checked; $(work "$OUT" "$T/kinds" gcc-12)"
	run -0 grep -E '^  (CHECK   xt/xt_kparity.ko against x_tables|MODULE  xt/)' <<<"$stderr"
	assert_line -n 0 "  CHECK   xt/xt_kparity.ko against x_tables.ko's BTF ($MODDIR612/kernel/net/netfilter/x_tables.ko.xz)"
	assert_line -n 1 --regexp "^  MODULE  xt/xt_kparity.ko: PASS: [1-9][0-9]* types compared with the kernel's, 9 with x_tables.ko's, 0 its own\$"
}
