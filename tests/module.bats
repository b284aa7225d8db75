#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# make module / scripts/module.sh and scripts/module-check.sh on real
# inputs: Debian's headers of its 6.1 cloud kernel, the BTF of the same
# kernel's image and its modules, a DKMS module from Debian
# (acpi-call-dkms) built with the kernel's GCC, and small modules of
# tests/fixtures/module/ for what a module source can do to the check:
# build nothing, fail, build modules at any depth, some without DWARF,
# use another module's types or a name the kernel defines twice, and,
# built with Clang, meet Clang's qualifiers. tests/full/module.bats builds
# with another GCC, with Clang 19 and three real DKMS packages.
#
# Cost: five module builds, each built once and checked as often as
# needed (Kbuild's make, which does nothing the second time, is still 3
# to 4 s): about 70 s of processor time with the packages cached, a
# third of it the Clang build, with its flag checks and the overlay's
# probes; the fetch adds about 30 s on a machine without the packages.

load common
load module

# the check's and the module's step lines on stderr
STEPS='^ *(CHECK|MODULE) '

setup_file() {
	local st=0

	module_setup_file
	# built once, then checked by several tests
	export SHARED=$BATS_FILE_TMPDIR
	module_out "$SHARED/out"
	cp -r "$MOD_SRC" "$SHARED/acpi_call"
	"$MODULE" -o "$SHARED/out" -k "$KDIR_DEB" -m "$SHARED/acpi_call" -n >"$SHARED/acpi_call.log" 2>&1
	# every kind of module, checked against the kernel's BTF without the
	# kernel's modules
	kinds "$SHARED/kinds"
	"$MODULE" -o "$SHARED/out" -k "$KDIR_DEB" -m "$SHARED/kinds" -B "$BTF_DEB" \
		>"$SHARED/kinds.out" 2>"$SHARED/kinds.err" || st=$?
	echo "$st" >"$SHARED/kinds.status"
	# the Clang build
	if command -v clang-14 >/dev/null; then
		st=0
		cp -r "$TOP/tests/fixtures/module/vmfault" "$SHARED/vmfault"
		"$MODULE" -o "$SHARED/out" -k "$KDIR_DEB" -m "$SHARED/vmfault" -c clang-14 -B "$BTF_DEB" \
			>"$SHARED/clang.out" 2>"$SHARED/clang.err" || st=$?
		echo "$st" >"$SHARED/clang.status"
	fi
}

setup() {
	T=$BATS_TEST_TMPDIR
	OUT=$T/out
	module_out "$OUT"
}

# kinds_run: the check of every kind of module, as setup_file ran it:
# status, output (stdout) and stderr
kinds_run() {
	status=$(cat "$SHARED/kinds.status")
	output=$(cat "$SHARED/kinds.out")
	stderr=$(cat "$SHARED/kinds.err")
}

# clang_run: the Clang build of the vmfault fixture, as setup_file ran it
clang_run() {
	need_tool clang-14
	status=$(cat "$SHARED/clang.status")
	output=$(cat "$SHARED/clang.out")
	stderr=$(cat "$SHARED/clang.err")
	mapfile -t stderr_lines <"$SHARED/clang.err"
}

@test "module: the kernel's own GCC builds it, and its types match the kernel's BTF" {
	need_tool gcc-12
	run -0 --separate-stderr "$MODULE" -o "$SHARED/out" -k "$KDIR_DEB" -m "$SHARED/acpi_call" -B "$BTF_DEB"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$SHARED/out" "$SHARED/acpi_call" gcc-12)"
	# (bats drops the leading blanks of stderr's first line)
	local steps='s/^ *\(KERNEL\|CC\|BUILD\|CHECK\) /\1 /p'
	run -0 sed -n "$steps" <<<"$stderr"
	assert_output - <<OUT
KERNEL  $KVER: gcc 12.2.0 (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0), GNU ld, GNU as
CC      gcc-12 12.2.0: the kernel's own compiler
BUILD   acpi_call with gcc-12
CHECK   acpi_call.ko against the kernel's BTF ($BTF_DEB)
OUT
	[[ "${stderr_lines[-2]}" =~ ^"    summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, "[1-9][0-9]*" unchanged, 0 suppressed" ]]
	[[ "${stderr_lines[-1]}" =~ ^"  MODULE  acpi_call.ko: PASS: "[1-9][0-9]*" types compared with the kernel's, 0 its own"$ ]]
	run -0 readelf -p .comment "$SHARED/acpi_call/acpi_call.ko"
	assert_line --partial "GCC: (Debian 12.2.0"
}

@test "module: against the machine's own kernel BTF, a foreign kernel's types are reported" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "this machine has no /sys/kernel/btf/vmlinux"
	not_this_kernel
	need_tool gcc-12
	run --separate-stderr "$MODULE" -o "$SHARED/out" -k "$KDIR_DEB" -m "$SHARED/acpi_call" -B /sys/kernel/btf/vmlinux
	[ $((status & 4)) -eq 4 ] && [ $((status & ~12)) -eq 0 ]
	assert_output "module: layouts differ in 1 of 1 modules (kabi bits $status); $(work "$SHARED/out" "$SHARED/acpi_call" gcc-12)"
}

@test "module: every module the build made is checked, at any depth, each named with its verdict; the last line sums them up" {
	need_tool gcc-12
	not_this_kernel
	kinds_run
	assert_equal "$status" 28
	assert_output "module: layouts differ in 1 of 7 modules (kabi bits 12); 1 not checked; 1 not fully checked; $(work "$SHARED/out" "$SHARED/kinds" gcc-12)"
	assert_kinds_verdicts
}

@test "module: a module compiled without DWARF is not checked, and says why" {
	need_tool gcc-12
	kinds_run
	run -0 grep -F 'nested/sub/deeper/kp_bare.ko' <<<"$stderr"
	assert_output "  MODULE  nested/sub/deeper/kp_bare.ko: NOT CHECKED: no DWARF in nested/sub/deeper/kp_bare.o (compiled without -g?): kabi sees none of its types"
}

@test "module: types of a module it depends on that is not found are counted not compared, with the module named" {
	need_tool gcc-12
	not_this_kernel
	kinds_run
	local lines_re='^  (MODULE  xt/|CHECK   modules depended on)'
	run -0 grep -E "$lines_re" <<<"$stderr"
	assert_line -n 0 --regexp "^  MODULE  xt/xt_kparity.ko: NOT FULLY CHECKED: [1-9][0-9]* types compared with the kernel's; [1-9][0-9]* the kernel lacks not compared, for want of x_tables \\(not found\\)\$"
	assert_line -n 1 "  CHECK   modules depended on are looked for in M, MODDIR=DIR (-d), KDIR and /lib/modules/$KVER: give an unpacked linux-image-$KVER's lib/modules/$KVER, say"
}

@test "module: a type that differs between a module and the module it depends on is found" {
	need_tool gcc-12
	kinds_run
	run -0 grep -A 5 "^  CHECK   pair/kp_user.ko against kp_base.ko's" <<<"$stderr"
	assert_output - <<OUT
  CHECK   pair/kp_user.ko against kp_base.ko's DWARF ($SHARED/kinds/pair/kp_base.ko)
    struct kp_pair_thing at $SHARED/kinds/pair/kp_pair.h:5
    	size 16 -> 24 [incompatible]
    	member total: offset 8 -> 16 [incompatible]
    	member extra: added at offset=8, type "int64"
    summary: 1 changed (1 incompatible), 0 only in old, 0 only in new, 0 unchanged, 0 suppressed, 0 on one side left out
OUT
	run -0 grep '^  MODULE  pair/kp_user' <<<"$stderr"
	assert_output --regexp "^  MODULE  pair/kp_user.ko: LAYOUTS DIFFER \\(kabi bits 12\\): [1-9][0-9]* types compared with the kernel's, 1 with kp_base.ko's, 0 its own\$"
}

@test "module-check: types of a module it depends on are compared with that module's BTF" {
	need_tool gcc-12
	run -0 --separate-stderr "$CHECK" -k "$KABI" -t "$BTF_DEB" -w "$T/w" -R "$SHARED/kinds" -r "$KVER" \
		-d "$MODDIR_DEB" "$SHARED/kinds/xt/xt_kparity.ko"
	assert_output "PASS (1 of 1 modules checked)"
	# (bats drops the leading blanks of stderr's first line)
	run -0 grep -E "$STEPS" <<<"$stderr"
	assert_line -n 0 "CHECK   xt/xt_kparity.ko against the kernel's BTF ($BTF_DEB)"
	assert_line -n 1 "  CHECK   xt/xt_kparity.ko against x_tables.ko's BTF ($MODDIR_DEB/kernel/net/netfilter/x_tables.ko)"
	assert_line -n 2 --regexp "^  MODULE  xt/xt_kparity.ko: PASS: [1-9][0-9]* types compared with the kernel's, [1-9][0-9]* with x_tables.ko's, 0 its own\$"
}

@test "module-check: a module depended on may be compressed, as Debian's 6.12 image has them (.ko.xz, .ko.gz)" {
	need_tool gcc-12
	need_tool xz
	local z
	mkdir -p "$T/mods/xz" "$T/mods/gz"
	xz -c "$MODDIR_DEB/kernel/net/netfilter/x_tables.ko" >"$T/mods/xz/x_tables.ko.xz"
	gzip -c "$MODDIR_DEB/kernel/net/netfilter/x_tables.ko" >"$T/mods/gz/x_tables.ko.gz"
	for z in xz gz; do
		run -0 --separate-stderr "$CHECK" -k "$KABI" -t "$BTF_DEB" -w "$T/w" -R "$SHARED/kinds" -r "$KVER" \
			-d "$T/mods/$z" "$SHARED/kinds/xt/xt_kparity.ko"
		assert_output "PASS (1 of 1 modules checked)"
		run -0 grep -E "$STEPS" <<<"$stderr"
		assert_line -n 1 "  CHECK   xt/xt_kparity.ko against x_tables.ko's BTF ($T/mods/$z/x_tables.ko.$z)"
		assert_line -n 2 --regexp "^  MODULE  xt/xt_kparity.ko: PASS: [1-9][0-9]* types compared with the kernel's, [1-9][0-9]* with x_tables.ko's, 0 its own\$"
	done
	# one that does not unpack is named, its types not compared
	echo 'not xz' >"$T/mods/xz/x_tables.ko.xz"
	run -16 --separate-stderr "$CHECK" -k "$KABI" -t "$BTF_DEB" -w "$T/w" -R "$SHARED/kinds" -r "$KVER" \
		-d "$T/mods/xz" "$SHARED/kinds/xt/xt_kparity.ko"
	run -0 grep '^  MODULE ' <<<"$stderr"
	assert_output --regexp "^  MODULE  xt/xt_kparity.ko: NOT FULLY CHECKED: [1-9][0-9]* types compared with the kernel's; [1-9][0-9]* the kernel lacks not compared, for want of x_tables \\(cannot unpack '$T/mods/xz/x_tables.ko.xz' with xz: xz: \\(stdin\\): File format not recognized\\)\$"
}

@test "module-check: a name the kernel defines twice is compared with the definition the module uses" {
	need_tool gcc-12
	need_tool pahole
	# the kernel's types with both struct dma_chan: the DMA engine's, as the
	# module has it, and kernel/dma.c's (tests/fixtures/module/kernel-dma.c)
	gcc-12 -g -c "$TOP/tests/fixtures/module/kernel-dma.c" -o "$T/kernel-dma.o"
	ld -r -o "$T/vmlinux" "$SHARED/kinds/dmachan/kp_dmachan.o" "$T/kernel-dma.o"
	pahole -J --btf_encode_detached="$T/vmlinux.btf" "$T/vmlinux"
	run -0 --separate-stderr "$CHECK" -k "$KABI" -t "$T/vmlinux.btf" -w "$T/w" -R "$SHARED/kinds" \
		"$SHARED/kinds/dmachan/kp_dmachan.ko"
	assert_output "PASS (1 of 1 modules checked)"
	[[ "${stderr_lines[-2]}" =~ ^"    summary: 0 changed (0 incompatible), 0 only in old, 0 only in new, "[1-9][0-9]*" unchanged, 0 suppressed, "[1-9][0-9]*" on one side left out"$ ]]
}

@test "module: without the kernel's types nothing is checked, and it says so: exit 16, never PASS" {
	need_tool gcc-12
	not_this_kernel
	run -16 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$SHARED/kinds"
	assert_output "module: NOT CHECKED (no kernel types: give VMLINUX= or BTF=); $(work "$OUT" "$SHARED/kinds" gcc-12)"
	assert_equal "${stderr_lines[-1]}" "  CHECK   not done: no kernel types (give VMLINUX= or BTF=; /sys/kernel/btf/vmlinux is another kernel's)"
}

@test "module: a tree whose vmlinux carries .BTF, as Debian's 6.12 headers do, gives the kernel's types itself" {
	need_tool gcc-12
	not_this_kernel
	local f
	# the 6.1 headers, with the image's vmlinux (.BTF) where 6.12's headers
	# have theirs; the module is the one setup_file built against them
	# (6.1's linux-kbuild has no resolve_btfids for the BTF step a tree
	# with a vmlinux adds to a new build: here make has nothing to do)
	mkdir "$T/kdir"
	for f in "$KDIR_DEB"/* "$KDIR_DEB"/.config "$KDIR_DEB"/.kernelvariables; do
		ln -s "$(readlink -f "$f")" "$T/kdir/${f##*/}"
	done
	ln -s "$BTF_DEB" "$T/kdir/vmlinux"
	run -0 --separate-stderr "$MODULE" -o "$OUT" -k "$T/kdir" -m "$SHARED/acpi_call"
	assert_output "module: PASS (1 of 1 modules checked); $(work "$OUT" "$SHARED/acpi_call" gcc-12)"
	run -0 grep '^  CHECK ' <<<"$stderr"
	assert_output "  CHECK   acpi_call.ko against the kernel's BTF ($T/kdir/vmlinux)"
}

@test "module: a source that builds no module fails with one line, its log its own beside another of the same directory name" {
	need_tool gcc-12
	mkdir "$T/a" "$T/b"
	cp -r "$TOP/tests/fixtures/module/empty" "$T/a/mod"
	cp -r "$TOP/tests/fixtures/module/empty" "$T/b/mod"
	run -1 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/a/mod" -B "$BTF_DEB"
	assert_output "module: FAIL (the build made no module: '$T/a/mod/modules.order' lists none; see '$(work "$OUT" "$T/a/mod" gcc-12)/build.log')"
	run -1 "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/b/mod" -n
	assert_line -n -1 "module: FAIL (the build made no module: '$T/b/mod/modules.order' lists none; see '$(work "$OUT" "$T/b/mod" gcc-12)/build.log')"
	# the first log is still the first build's
	run -0 grep -c "$T/a/mod/" "$(work "$OUT" "$T/a/mod" gcc-12)/build.log"
	run -1 grep -c "$T/b/mod" "$(work "$OUT" "$T/a/mod" gcc-12)/build.log"
}

@test "module: a build that fails says so in one line, with the compiler's first error" {
	need_tool gcc-12
	cp -r "$TOP/tests/fixtures/module/broken" "$T/broken"
	# Kbuild unexports LC_ALL: LANG and LC_MESSAGES decide GCC's quotes
	run -1 --separate-stderr env -u LC_MESSAGES -u LC_CTYPE LANG=C LC_ALL=C "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$T/broken" -B "$BTF_DEB"
	assert_output "module: FAIL (build: $T/broken/kp_broken.c:7:16: error: implicit declaration of function 'kp_no_such_function' [-Werror=implicit-function-declaration]; see '$(work "$OUT" "$T/broken" gcc-12)/build.log')"
}

@test "module: Clang gets the GCC kernel's flags translated or dropped, each named, and __mcount_loc kept" {
	clang_run
	local ko="$SHARED/vmfault/kp_vmfault.ko" calls
	# every call to __fentry__ in __mcount_loc, as GCC's -mrecord-mcount
	# puts them, and none turned into a NOP, which a GCC kernel's ftrace
	# would take for corrupt code when it loads the module (checked first:
	# what the builds before recordmcount lacked)
	calls=$(fentry_calls "$ko")
	[ "$calls" -gt 0 ]
	assert_equal "$(mcount_entries "$ko")" "$calls"
	assert_equal "$(objdump -dr "$ko" | grep -c 'R_X86_64_NONE[[:space:]]*__fentry__' || :)" 0
	assert_equal "$status" 0
	assert_equal "${stderr_lines[1]}" "  CC      clang-14 14.0.6: NOT the kernel's compiler (gcc 12.2.0); its flags are translated below"
	local steps='^  (FLAG|FTRACE|BUILD) '
	run -0 grep -E "$steps" "$SHARED/clang.err"
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
  BUILD   vmfault with clang-14 through the overlay
OUT
	run -0 grep -c 'lacks a protection the kernel has' "$SHARED/clang.err"
	assert_output 2
	run -0 readelf -p .comment "$ko"
	assert_line --partial "clang version 14.0.6"
}

@test "module: Clang's const on struct vm_fault's anonymous member is no layout difference, nor a unit that compiles to nothing a blind spot" {
	clang_run
	assert_equal "$status" 0
	assert_output "module: PASS (1 of 1 modules checked); $(work "$SHARED/out" "$SHARED/vmfault" clang-14)"
	assert_regex "${stderr_lines[-1]}" "^  MODULE  kp_vmfault.ko: PASS: [1-9][0-9]* types compared with the kernel's, 0 its own\$"
}

@test "module bad input: KDIR that is no configured kernel tree" {
	mkdir "$T/empty"
	run -2 --separate-stderr "$MODULE" -o "$OUT" -k "$T/empty" -m "$SHARED/acpi_call"
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
	run -2 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$SHARED/acpi_call" -d "$T/nowhere"
	assert_output ""
	assert_equal "$stderr" "module.sh: the modules' directory '$T/nowhere' is not a directory"
}

@test "module bad input: a compiler that is no compiler kparity knows" {
	run -2 --separate-stderr "$MODULE" -o "$OUT" -k "$KDIR_DEB" -m "$SHARED/acpi_call" -c icc
	assert_equal "$stderr" "module.sh: COMPILER is kernel, gcc, gcc-N, clang or clang-N, not 'icc'"
}
