#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# make module / scripts/module.sh on real inputs: Debian's headers of its
# 6.1 cloud kernel, the BTF of the same kernel's image, and a DKMS module
# from Debian (acpi-call-dkms), built with the kernel's GCC and with
# Clang, each checked against the kernel's types. The packages are
# fetched once per machine into the cache (KPARITY_CACHE_DIR, default
# KPARITY_BUILD/cache), never into the tree.
#
# Cost: about 15 s with the packages cached, about 40 s on a machine
# with neither the packages nor ccache (the fetch is 20 of them); each
# module build is a few seconds (Clang's, with its flag checks, 8).

load common

MODULE="$TOP/scripts/module.sh"

setup_file() {
	local build="${KPARITY_BUILD:-$TOP/build}" cache abi

	export PROG=module.bats
	# shellcheck source=scripts/lib/common.sh
	. "$TOP/scripts/lib/common.sh"
	# shellcheck source=scripts/lib/debcache.sh
	. "$TOP/scripts/lib/debcache.sh"
	cache=$(cache_dir "$build")
	abi=$(debian_abi)
	export KVER="6.1.0-$abi-cloud-amd64"
	export KDIR_DEB MOD_SRC BTF_DEB BUILD="$build"
	KDIR_DEB=$(debian_headers "$cache" "$KVER")
	BTF_DEB=$(image_vmlinux "$cache" "$KVER")
	MOD_SRC=$(deb_root "$cache" acpi-call acpi-call-dkms)
	MOD_SRC=$(echo "$MOD_SRC"/usr/src/acpi-call-*)
}

setup() {
	T=$BATS_TEST_TMPDIR
	cp -r "$MOD_SRC" "$T/acpi_call"
}

@test "module: the kernel's own GCC builds it, and its types match the kernel's BTF" {
	need_tool gcc-12
	run -0 --separate-stderr "$MODULE" -o "$BUILD" -k "$KDIR_DEB" -m "$T/acpi_call" -B "$BTF_DEB"
	assert_output "module: PASS; $BUILD/module/acpi_call"
	# (bats drops the leading blanks of stderr's first line)
	run -0 sed -n 's/^ *\(KERNEL\|CC\|BUILD\|CHECK\) /\1 /p' <<<"$stderr"
	assert_output - <<OUT
KERNEL  $KVER: gcc 12.2.0 (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0), GNU ld, GNU as
CC      gcc-12 12.2.0: the kernel's own compiler
BUILD   acpi_call with gcc-12
CHECK   acpi_call.ko against the kernel's BTF ($BTF_DEB)
OUT
	[[ "${stderr_lines[-1]}" =~ ^"    summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, "[1-9][0-9]*" unchanged, 0 suppressed" ]]
	run -0 readelf -p .comment "$T/acpi_call/acpi_call.ko"
	assert_line --partial "GCC: (Debian 12.2.0"
}

@test "module: Clang gets the GCC kernel's flags translated or dropped, each named, and the types still match" {
	need_tool clang-14
	run -0 --separate-stderr "$MODULE" -o "$BUILD" -k "$KDIR_DEB" -m "$T/acpi_call" -c clang-14 -B "$BTF_DEB"
	assert_output "module: PASS; $BUILD/module/acpi_call"
	assert_equal "${stderr_lines[1]}" "  CC      clang-14 14.0.6: NOT the kernel's compiler (gcc 12.2.0); its flags are translated below"
	run -0 grep -E '^  (FLAG|BUILD) ' <<<"$stderr"
	assert_output - <<'OUT'
  FLAG    -mfunction-return=thunk-extern dropped (security): returns are not routed through the return thunk (RETBleed/SRSO mitigation missing)
  FLAG    -mharden-sls=all dropped (security): no speculation barrier after returns and indirect jumps (straight-line speculation)
  FLAG    -ftrivial-auto-var-init=zero -> -ftrivial-auto-var-init=zero -enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang (security, kept in Clang's words)
  FLAG    -mrecord-mcount dropped (tracing): no __mcount_loc table from the compiler (recordmcount or objtool must build it)
  FLAG    -Wno-maybe-uninitialized dropped (diag): a GCC warning Clang does not have
  FLAG    -Wno-alloc-size-larger-than dropped (diag): a GCC warning Clang does not have
  FLAG    -Wimplicit-fallthrough=5 -> -Wimplicit-fallthrough (diag, kept in Clang's words)
  FLAG    -fconserve-stack dropped (codegen): stack use is not traded for speed; frames may be larger
  BUILD   acpi_call with clang-14 through the overlay
OUT
	run -0 grep -c 'lacks a protection the kernel has' <<<"$stderr"
	assert_output 2
	[[ "${stderr_lines[-1]}" =~ ^"    summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, "[1-9][0-9]*" unchanged" ]]
	run -0 readelf -p .comment "$T/acpi_call/acpi_call.ko"
	assert_line --partial "clang version 14.0.6"
}

@test "module: against the machine's own kernel BTF, a foreign kernel's types are reported" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "this machine has no /sys/kernel/btf/vmlinux"
	[ "$(uname -r)" != "$KVER" ] || skip "this machine runs $KVER itself"
	need_tool gcc-12
	run --separate-stderr "$MODULE" -o "$BUILD" -k "$KDIR_DEB" -m "$T/acpi_call" -B /sys/kernel/btf/vmlinux
	[ "$status" = 4 ] || [ "$status" = 12 ]
	assert_output "module: layouts differ (kabi exit $status); $BUILD/module/acpi_call"
}

@test "module bad input: KDIR that is no configured kernel tree" {
	mkdir "$T/empty"
	run -2 --separate-stderr "$MODULE" -o "$BUILD" -k "$T/empty" -m "$T/acpi_call"
	assert_output ""
	assert_equal "$stderr" "module.sh: KDIR '$T/empty' is not a configured kernel tree (no .config or no Makefile)"
}

@test "module bad input: M without Kbuild or Makefile" {
	mkdir "$T/src"
	run -2 --separate-stderr "$MODULE" -o "$BUILD" -k "$KDIR_DEB" -m "$T/src"
	assert_output ""
	assert_equal "$stderr" "module.sh: M '$T/src' has no Kbuild or Makefile: not a module source"
}

@test "module bad input: a compiler that is no compiler kparity knows" {
	run -2 --separate-stderr "$MODULE" -o "$BUILD" -k "$KDIR_DEB" -m "$T/acpi_call" -c icc
	assert_equal "$stderr" "module.sh: COMPILER is kernel, gcc, gcc-N, clang or clang-N, not 'icc'"
}
