#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# warnings.sh on real GCC and Clang kernel build output
# (tests/fixtures/warnings/README says how each log was made).

load common

setup() {
	F=$BATS_TEST_DIRNAME/fixtures/warnings
	W=$TOP/scripts/warnings.sh
	SRC=/usr/src/linux-6.1
}

@test "warnings: gcc W=1 and W=12 output, counted by flag and by file" {
	run -0 --separate-stderr "$W" -s "$SRC" "$F/gcc.log"
	assert_output "$(cat <<'EOF2'
warnings 10
errors 0
tool compiler 10
flag (none) 5
flag -Wtype-limits 3
flag -Wmissing-prototypes 1
flag -Wsuggest-attribute=format 1
file kernel/time/timekeeping.c 5
file include/linux/bits.h 2
file include/linux/minmax.h 1
file kernel/exit.c 1
file lib/vsprintf.c 1
EOF2
)"
	assert_equal "$stderr" ""
}

@test "warnings: clang output of the same commands" {
	run -0 "$W" -s "$SRC" "$F/clang.log"
	assert_output "$(printf '%s\n' 'warnings 5' 'errors 0' 'tool compiler 5' 'flag (none) 5' 'file kernel/time/timekeeping.c 5')"
}

@test "warnings: a header's warning repeated by every unit counts once" {
	run -0 "$W" -l -s "$SRC" "$F/gcc.log"
	assert_line --index 0 "$(printf 'warning\tcompiler\t-Wtype-limits\tinclude/linux/bits.h\t25:36\tcomparison of unsigned expression in ‘< 0’ is always false')"
	assert_line --index 3 "$(printf 'warning\tcompiler\t-Wmissing-prototypes\tkernel/exit.c\t1930:13\tno previous prototype for ‘abort’')"
	[ "${#lines[@]}" -eq 10 ]
}

@test "warnings: gcc's -Werror=FLAG is an error of -WFLAG" {
	run -0 "$W" -l -s "$SRC" "$F/gcc-error.log"
	assert_output "$(printf '%s\n' \
		"$(printf 'error\tcompiler\t-Wtype-limits\tinclude/linux/bits.h\t25:36\tcomparison of unsigned expression in ‘< 0’ is always false')" \
		"$(printf 'error\tcompiler\t-Wtype-limits\tinclude/linux/bits.h\t25:48\tcomparison of unsigned expression in ‘< 0’ is always false')")"
}

@test "warnings: clang's -Werror,-WFLAG is an error of -WFLAG" {
	run -0 "$W" -s "$SRC" "$F/clang-error.log"
	assert_output "$(printf '%s\n' 'warnings 0' 'errors 6' 'tool compiler 6' 'flag -Wsign-compare 6' \
		'file include/linux/percpu-refcount.h 3' 'file include/linux/mmzone.h 1' \
		'file include/linux/pagemap.h 1' 'file include/linux/thread_info.h 1')"
}

@test "warnings: JSON counts for the report" {
	need_tool jq
	run -0 "$W" -j -s "$SRC" "$F/gcc.log"
	assert_output '{"warnings":10,"errors":0,"by_tool":{"compiler":{"warnings":10,"errors":0},"linker":{"warnings":0,"errors":0},"objtool":{"warnings":0,"errors":0},"modpost":{"warnings":0,"errors":0},"kconfig":{"warnings":0,"errors":0}},"by_flag":{"-Wtype-limits":3,"-Wmissing-prototypes":1,"(none)":5,"-Wsuggest-attribute=format":1},"by_file":{"include/linux/bits.h":2,"include/linux/minmax.h":1,"kernel/exit.c":1,"kernel/time/timekeeping.c":5,"lib/vsprintf.c":1}}'
}

@test "warnings: a clean log has nothing to count" {
	printf '  CC      kernel/fork.o\n  LD      vmlinux\n' >"$BATS_TEST_TMPDIR/clean.log"
	run -0 "$W" "$BATS_TEST_TMPDIR/clean.log"
	assert_output "$(printf '%s\n' 'warnings 0' 'errors 0')"
	need_tool jq
	run -0 "$W" -j "$BATS_TEST_TMPDIR/clean.log"
	assert_output '{"warnings":0,"errors":0,"by_tool":{"compiler":{"warnings":0,"errors":0},"linker":{"warnings":0,"errors":0},"objtool":{"warnings":0,"errors":0},"modpost":{"warnings":0,"errors":0},"kconfig":{"warnings":0,"errors":0}},"by_flag":{},"by_file":{}}'
}

@test "warnings: linker diagnostics count under (link), fatal errors as errors" {
	printf '%s\n' \
		'ld: warning: arch/x86/boot/compressed/vmlinux has a LOAD segment with RWX permissions' \
		'ld.lld: error: undefined symbol: foo' \
		'arm-linux-gnueabi-ld: warning: orphan section `.ARM.extab'"'"' being placed' \
		'kernel/a.c:1:10: fatal error: foo.h: No such file or directory' >"$BATS_TEST_TMPDIR/link.log"
	run -0 "$W" "$BATS_TEST_TMPDIR/link.log"
	assert_output "$(printf '%s\n' 'warnings 2' 'errors 2' 'tool linker 3' 'tool compiler 1' 'flag (none) 4' 'file (link) 3' 'file kernel/a.c 1')"
}

@test "warnings: objtool, modpost and Kconfig each count as their own tool" {
	run -0 "$W" -l -s "$SRC" "$F/tools.log"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		error modpost '(none)' '(modpost)' - '"foo" [m2.ko] undefined!' \
		error modpost '(none)' '(modpost)' - 'missing MODULE_LICENSE() in m2.o' \
		warning kconfig '(none)' .config 1314 'override: UNWINDER_GUESS changes choice state' \
		warning objtool '(none)' lib/vsprintf.o - 'vsscanf+0x320: unreachable instruction' \
		warning modpost '(none)' vmlinux.o - 'section mismatch in reference: user (section: .text) -> initfn (section: .init.text)')"
	run -0 "$W" -s "$SRC" "$F/tools.log"
	assert_output "$(printf '%s\n' 'warnings 3' 'errors 2' 'tool modpost 3' 'tool kconfig 1' \
		'tool objtool 1' 'flag (none) 5' 'file (modpost) 2' 'file .config 1' \
		'file lib/vsprintf.o 1' 'file vmlinux.o 1')"
	need_tool jq
	run -0 "$W" -j -s "$SRC" "$F/tools.log"
	assert_output '{"warnings":3,"errors":2,"by_tool":{"compiler":{"warnings":0,"errors":0},"linker":{"warnings":0,"errors":0},"objtool":{"warnings":1,"errors":0},"modpost":{"warnings":1,"errors":2},"kconfig":{"warnings":1,"errors":0}},"by_flag":{"(none)":5},"by_file":{"(modpost)":2,".config":1,"lib/vsprintf.o":1,"vmlinux.o":1}}'
}

@test "warnings: Kconfig's unmet dependencies, a linker warning naming its file" {
	printf '%s\n' \
		'WARNING: unmet direct dependencies detected for FOO' \
		'ld.lld-22: warning: lib/a.o:(.text+0x0): has non-ABS relocation' >"$BATS_TEST_TMPDIR/more.log"
	run -0 "$W" -l "$BATS_TEST_TMPDIR/more.log"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		warning kconfig '(none)' '(kconfig)' - 'unmet direct dependencies detected for FOO' \
		warning linker '(none)' '(link)' - 'lib/a.o:(.text+0x0): has non-ABS relocation')"
}

@test "warnings: an unreadable log is trouble" {
	run -2 --separate-stderr "$W" "$BATS_TEST_TMPDIR/missing.log"
	assert_equal "$stderr" "warnings.sh: cannot read '$BATS_TEST_TMPDIR/missing.log'"
}
