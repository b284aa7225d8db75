#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# make module / scripts/module.sh on real inputs: Debian's headers of its
# 6.1 cloud kernel, the BTF of the same kernel's image and its modules,
# and a DKMS module from Debian (acpi-call-dkms), built with the kernel's
# GCC, with GCC 11 and with Clang, each checked against the kernel's
# types; and small modules of tests/fixtures/module/, compiled here, for
# what a module source can do to the check: build nothing, build modules
# at any depth, some without DWARF, use another module's types or a name
# the kernel defines twice, meet Clang's qualifiers. The packages are
# fetched once per machine into the cache (KPARITY_CACHE_DIR, default
# KPARITY_BUILD/cache), never into the tree.
#
# Cost: about 165 s of processor time with the packages cached, nearly
# all of it Kbuild running one make at a time: each GCC build of a small
# module is 5 to 10 s, each Clang build, with its flag checks and the
# overlay's probes, about 25 s; on a machine without the packages the
# fetch adds about 30 s.

load common

MODULE="$TOP/scripts/module.sh"

setup_file() {
	local build="${KPARITY_BUILD:-$TOP/build}" cache abi image

	export PROG=module.bats
	# shellcheck source=scripts/lib/common.sh
	. "$TOP/scripts/lib/common.sh"
	# shellcheck source=scripts/lib/debcache.sh
	. "$TOP/scripts/lib/debcache.sh"
	cache=$(cache_dir "$build")
	abi=$(debian_abi)
	export KVER="6.1.0-$abi-cloud-amd64"
	export KDIR_DEB MOD_SRC BTF_DEB MODDIR_DEB
	KDIR_DEB=$(debian_headers "$cache" "$KVER")
	BTF_DEB=$(image_vmlinux "$cache" "$KVER")
	image=$(deb_root "$cache" "image-$KVER" "linux-image-$KVER")
	MODDIR_DEB="$image/lib/modules/$KVER"
	MOD_SRC=$(deb_root "$cache" acpi-call acpi-call-dkms)
	MOD_SRC=$(echo "$MOD_SRC"/usr/src/acpi-call-*)
}

setup() {
	T=$BATS_TEST_TMPDIR
	cp -r "$MOD_SRC" "$T/acpi_call"
	# module.sh's build directory: the kabi under test, and the logs and
	# checks of this test alone
	OUT=$T/out
	mkdir "$OUT"
	ln -s "$KABI" "$OUT/kabi"
}

# work M CC: the directory module.sh keeps M's logs and checks in for CC
work() {
	printf '%s/module/%s-%s/%s\n' "$OUT" "$(basename "$1")" "$(printf '%s' "$1" | cksum | cut -d' ' -f1)" "$2"
}

# fixture NAME: a copy of tests/fixtures/module/NAME in $T/NAME
fixture() {
	cp -r "$TOP/tests/fixtures/module/$1" "$T/$1"
}

# not_this_kernel: skip when the machine runs the kernel under test, whose
# own BTF and modules module.sh would then find by itself
not_this_kernel() {
	[ "$(uname -r)" != "$KVER" ] || skip "this machine runs $KVER itself"
}

# fentry_calls KO: calls to __fentry__ in KO, as objdump shows them
fentry_calls() {
	objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__fentry__'
}

# mcount_entries KO: the addresses in KO's __mcount_loc, 8 bytes each
mcount_entries() {
	local size

	size=$(section_field "$1" __mcount_loc size)
	echo $((0x${size:-0} / 8))
}

@test "module: the kernel's own GCC builds it, and its types match the kernel's BTF" {
	need_tool gcc-12
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -B "$BTF_DEB"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$T/acpi_call" gcc-12)"
	# (bats drops the leading blanks of stderr's first line)
	run -0 sed -n 's/^ *\(KERNEL\|CC\|BUILD\|CHECK\) /\1 /p' <<<"$stderr"
	assert_output - <<OUT
KERNEL  $KVER: gcc 12.2.0 (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0), GNU ld, GNU as
CC      gcc-12 12.2.0: the kernel's own compiler
BUILD   acpi_call with gcc-12
CHECK   acpi_call.ko against the kernel's BTF ($BTF_DEB)
OUT
	[[ "${stderr_lines[-2]}" =~ ^"    summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, "[1-9][0-9]*" unchanged, 0 suppressed" ]]
	[[ "${stderr_lines[-1]}" =~ ^"  MODULE  acpi_call.ko: PASS: "[1-9][0-9]*" types compared with the kernel's, 0 its own"$ ]]
	run -0 readelf -p .comment "$T/acpi_call/acpi_call.ko"
	assert_line --partial "GCC: (Debian 12.2.0"
}

@test "module: Clang gets the GCC kernel's flags translated or dropped, each named, the types still match, __mcount_loc kept" {
	need_tool clang-14
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -c clang-14 -B "$BTF_DEB"
	# every call to __fentry__ in __mcount_loc, as GCC's -mrecord-mcount
	# puts them, and none turned into a NOP, which a GCC kernel's ftrace
	# would take for corrupt code when it loads the module
	# (checked first: what the old builds lacked)
	local calls
	calls=$(fentry_calls "$T/acpi_call/acpi_call.ko")
	[ "$calls" -gt 0 ]
	assert_equal "$(mcount_entries "$T/acpi_call/acpi_call.ko")" "$calls"
	assert_equal "$(objdump -dr "$T/acpi_call/acpi_call.ko" | grep -c 'R_X86_64_NONE[[:space:]]*__fentry__' || :)" 0
	assert_output "module: PASS (1 of 1 modules checked); $(work "$T/acpi_call" clang-14)"
	assert_equal "${stderr_lines[1]}" "  CC      clang-14 14.0.6: NOT the kernel's compiler (gcc 12.2.0); its flags are translated below"
	run -0 grep -E '^  (FLAG|FTRACE|BUILD) ' <<<"$stderr"
	assert_output - <<'OUT'
  FLAG    -mfunction-return=thunk-extern dropped (security): returns are not routed through the return thunk (RETBleed/SRSO mitigation missing)
  FLAG    -mharden-sls=all dropped (security): no speculation barrier after returns and indirect jumps (straight-line speculation)
  FLAG    -ftrivial-auto-var-init=zero -> -ftrivial-auto-var-init=zero -enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang (security, kept in Clang's words)
  FLAG    -mrecord-mcount dropped (tracing): no __mcount_loc table from the compiler (recordmcount or objtool must build it)
  FLAG    -Wno-maybe-uninitialized dropped (diag): a GCC warning Clang does not have
  FLAG    -Wno-alloc-size-larger-than dropped (diag): a GCC warning Clang does not have
  FLAG    -Wimplicit-fallthrough=5 -> -Wimplicit-fallthrough (diag, kept in Clang's words)
  FLAG    -fconserve-stack dropped (codegen): stack use is not traded for speed; frames may be larger
  FTRACE  __mcount_loc made by the tree's scripts/recordmcount, as the kernel's compiler makes it (its calls to __fentry__ kept: the kernel turns them into NOPs at load)
  BUILD   acpi_call with clang-14 through the overlay
OUT
	run -0 grep -c 'lacks a protection the kernel has' <<<"$stderr"
	assert_output 2
	[[ "${stderr_lines[-2]}" =~ ^"    summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, "[1-9][0-9]*" unchanged" ]]
	run -0 readelf -p .comment "$T/acpi_call/acpi_call.ko"
	assert_line --partial "clang version 14.0.6"
}

@test "module: GCC 11 builds without the flags GCC 12 chose that it rejects, each named, its log kept beside GCC 12's" {
	need_tool gcc-11
	need_tool gcc-12
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -c gcc-11 -B "$BTF_DEB"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$T/acpi_call" gcc-11)"
	run -0 grep -E '^  (CC|FLAG|BUILD) ' <<<"$stderr"
	assert_output - <<'OUT'
  CC      gcc-11 11.3.0: the kernel's family, another version (12.2.0 built the kernel); flags it rejects are dropped below
  FLAG    -ftrivial-auto-var-init=zero dropped (security): stack variables are not zero-initialised
  BUILD   acpi_call with gcc-11
OUT
	run -0 readelf -p .comment "$T/acpi_call/acpi_call.ko"
	assert_line --partial "GCC: (Debian 11.3.0"
	run -0 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -n
	assert_line -n -1 "module: BUILT (1 built, no layout check asked); $(work "$T/acpi_call" gcc-12)"
	run -0 grep -c 'CC \[M\]' "$(work "$T/acpi_call" gcc-11)/build.log" "$(work "$T/acpi_call" gcc-12)/build.log"
	assert_output - <<OUT
$(work "$T/acpi_call" gcc-11)/build.log:2
$(work "$T/acpi_call" gcc-12)/build.log:2
OUT
	run -0 cut -f1,2 "$(work "$T/acpi_call" gcc-11)/decisions.tsv"
	assert_output "$(printf -- '-ftrivial-auto-var-init=zero\tdrop')"
}

@test "module: two sources with the same directory name keep separate logs" {
	need_tool gcc-12
	mkdir "$T/a" "$T/b"
	cp -r "$TOP/tests/fixtures/module/empty" "$T/a/mod"
	cp -r "$TOP/tests/fixtures/module/empty" "$T/b/mod"
	run -1 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/a/mod" -n
	assert_line -n -1 "module: FAIL (the build made no module: '$T/a/mod/modules.order' lists none; see '$(work "$T/a/mod" gcc-12)/build.log')"
	run -1 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/b/mod" -n
	assert_line -n -1 "module: FAIL (the build made no module: '$T/b/mod/modules.order' lists none; see '$(work "$T/b/mod" gcc-12)/build.log')"
	# the first log is still the first build's
	run -0 grep -c "$T/a/mod/" "$(work "$T/a/mod" gcc-12)/build.log"
	run -1 grep -c "$T/b/mod" "$(work "$T/a/mod" gcc-12)/build.log"
}

@test "module: a source that builds no module fails with one line" {
	need_tool gcc-12
	fixture empty
	run -1 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/empty" -B "$BTF_DEB"
	assert_output "module: FAIL (the build made no module: '$T/empty/modules.order' lists none; see '$(work "$T/empty" gcc-12)/build.log')"
}

@test "module: a source that builds no module fails with one line under Clang too" {
	need_tool clang-14
	fixture empty
	run -1 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/empty" -c clang-14 -B "$BTF_DEB"
	assert_output "module: FAIL (the build compiled no C file; see '$(work "$T/empty" clang-14)/build.log')"
}

@test "module: a build that fails says so in one line, with the compiler's first error" {
	need_tool gcc-12
	fixture broken
	# Kbuild unexports LC_ALL: LANG and LC_MESSAGES decide GCC's quotes
	run -1 --separate-stderr env -u LC_MESSAGES -u LC_CTYPE LANG=C LC_ALL=C "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/broken" -B "$BTF_DEB"
	assert_output "module: FAIL (build: $T/broken/kp_broken.c:7:16: error: implicit declaration of function 'kp_no_such_function' [-Werror=implicit-function-declaration]; see '$(work "$T/broken" gcc-12)/build.log')"
}

@test "module: without the kernel's types nothing is checked, and it says so: exit 16, never PASS" {
	need_tool gcc-12
	not_this_kernel
	fixture nested
	run -16 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/nested"
	assert_output "module: NOT CHECKED (no kernel types: give VMLINUX= or BTF=); $(work "$T/nested" gcc-12)"
	assert_equal "${stderr_lines[-1]}" "  CHECK   not done: no kernel types (give VMLINUX= or BTF=; /sys/kernel/btf/vmlinux is another kernel's)"
}

@test "module: every module the build made is checked, at any depth, each named with its verdict; one without DWARF is never PASS" {
	need_tool gcc-12
	fixture nested
	run -16 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/nested" -B "$BTF_DEB"
	assert_output "module: NOT FULLY CHECKED (1 of 3 modules not checked); $(work "$T/nested" gcc-12)"
	run -0 grep -E '^  (CHECK|MODULE) ' <<<"$stderr"
	assert_line -n 0 "  CHECK   kp_top.ko against the kernel's BTF ($BTF_DEB)"
	assert_line -n 1 --regexp "^  MODULE  kp_top.ko: PASS: [1-9][0-9]* types compared with the kernel's, 0 its own\$"
	assert_line -n 2 "  CHECK   sub/kp_inner.ko against the kernel's BTF ($BTF_DEB)"
	assert_line -n 3 --regexp "^  MODULE  sub/kp_inner.ko: PASS: [1-9][0-9]* types compared with the kernel's, 0 its own\$"
	assert_line -n 4 "  MODULE  sub/deeper/kp_bare.ko: NOT CHECKED: no DWARF in sub/deeper/kp_bare.o (compiled without -g?): kabi sees none of its types"
	assert_equal "${#lines[@]}" 5
}

@test "module: types of a module it depends on that is not found are counted not compared, with the module named" {
	need_tool gcc-12
	not_this_kernel
	fixture xt
	run -16 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/xt" -B "$BTF_DEB"
	assert_output "module: NOT FULLY CHECKED (1 of 1 modules: types of x_tables not compared); $(work "$T/xt" gcc-12)"
	run -0 grep '^  MODULE ' <<<"$stderr"
	assert_output --regexp "^  MODULE  xt_kparity.ko: NOT FULLY CHECKED: [1-9][0-9]* types compared with the kernel's; [1-9][0-9]* the kernel lacks not compared, for want of x_tables \\(not found\\)\$"
}

@test "module: types of a module it depends on are compared with that module's BTF (MODDIR)" {
	need_tool gcc-12
	fixture xt
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/xt" -B "$BTF_DEB" -d "$MODDIR_DEB"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$T/xt" gcc-12)"
	run -0 grep -E '^  (CHECK|MODULE) ' <<<"$stderr"
	assert_line -n 1 "  CHECK   xt_kparity.ko against x_tables.ko's BTF ($MODDIR_DEB/kernel/net/netfilter/x_tables.ko)"
	assert_line -n 2 --regexp "^  MODULE  xt_kparity.ko: PASS: [1-9][0-9]* types compared with the kernel's, [1-9][0-9]* with x_tables.ko's, 0 its own\$"
}

@test "module: a type that differs between a module and the module it depends on is found" {
	need_tool gcc-12
	fixture pair
	run -12 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/pair" -B "$BTF_DEB"
	assert_output "module: layouts differ in 1 of 2 modules (kabi bits 12); $(work "$T/pair" gcc-12)"
	run -0 grep -A 5 "^  CHECK   kp_user.ko against kp_base.ko's" <<<"$stderr"
	assert_output - <<OUT
  CHECK   kp_user.ko against kp_base.ko's DWARF ($T/pair/kp_base.ko)
    struct kp_pair_thing at $T/pair/kp_pair.h:5
    	size 16 -> 24 [incompatible]
    	member total: offset 8 -> 16 [incompatible]
    	member extra: added at offset=8, type "int64"
    summary: 1 changed (1 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed, 0 on one side left out
OUT
	run -0 grep '^  MODULE ' <<<"$stderr"
	assert_line -n 1 --regexp "^  MODULE  kp_user.ko: LAYOUTS DIFFER \\(kabi bits 12\\): [1-9][0-9]* types compared with the kernel's, 1 with kp_base.ko's, 0 its own\$"
}

@test "module: a name the kernel defines twice is compared with the definition the module uses" {
	need_tool gcc-12
	need_tool pahole
	fixture dmachan
	run -0 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/dmachan" -n
	# the kernel's types with both struct dma_chan: the DMA engine's, as the
	# module has it, and kernel/dma.c's (tests/fixtures/module/kernel-dma.c)
	gcc-12 -g -c "$TOP/tests/fixtures/module/kernel-dma.c" -o "$T/kernel-dma.o"
	ld -r -o "$T/vmlinux" "$T/dmachan/kp_dmachan.o" "$T/kernel-dma.o"
	pahole -J --btf_encode_detached="$T/vmlinux.btf" "$T/vmlinux"
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/dmachan" -B "$T/vmlinux.btf"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$T/dmachan" gcc-12)"
	[[ "${stderr_lines[-2]}" =~ ^"    summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, "[1-9][0-9]*" unchanged, 0 suppressed, "[1-9][0-9]*" on one side left out"$ ]]
}

@test "module: Clang's const on struct vm_fault's anonymous member is no layout difference, nor a unit that compiles to nothing a blind spot" {
	need_tool clang-14
	fixture vmfault
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/vmfault" -c clang-14 -B "$BTF_DEB"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$T/vmfault" clang-14)"
	assert_regex "${stderr_lines[-1]}" "^  MODULE  kp_vmfault.ko: PASS: [1-9][0-9]* types compared with the kernel's, 0 its own\$"
}

@test "module: against the machine's own kernel BTF, a foreign kernel's types are reported" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "this machine has no /sys/kernel/btf/vmlinux"
	not_this_kernel
	need_tool gcc-12
	run --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -B /sys/kernel/btf/vmlinux
	[ $((status & 4)) -eq 4 ] && [ $((status & ~12)) -eq 0 ]
	assert_output "module: layouts differ in 1 of 1 modules (kabi bits $status); $(work "$T/acpi_call" gcc-12)"
}

@test "module bad input: KDIR that is no configured kernel tree" {
	mkdir "$T/empty"
	run -2 --separate-stderr "$MODULE" -o "$OUT" -k "$T/empty" -m "$T/acpi_call"
	assert_output ""
	assert_equal "$stderr" "module.sh: KDIR '$T/empty' is not a configured kernel tree (no .config or no Makefile)"
}

@test "module bad input: M without Kbuild or Makefile" {
	mkdir "$T/src"
	run -2 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/src"
	assert_output ""
	assert_equal "$stderr" "module.sh: M '$T/src' has no Kbuild or Makefile: not a module source"
}

@test "module bad input: a modules' directory that is none" {
	run -2 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -d "$T/nowhere"
	assert_output ""
	assert_equal "$stderr" "module.sh: the modules' directory '$T/nowhere' is not a directory"
}

@test "module bad input: a compiler that is no compiler kparity knows" {
	run -2 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/acpi_call" -c icc
	assert_equal "$stderr" "module.sh: COMPILER is kernel, gcc, gcc-N, clang or clang-N, not 'icc'"
}
