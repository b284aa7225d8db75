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
	assert_output "$(printf '%s\n' 'warnings 5' 'errors 0' 'flag (none) 5' 'file kernel/time/timekeeping.c 5')"
}

@test "warnings: a header's warning repeated by every unit counts once" {
	run -0 "$W" -l -s "$SRC" "$F/gcc.log"
	assert_line --index 0 "$(printf 'warning\t-Wtype-limits\tinclude/linux/bits.h\t25:36\tcomparison of unsigned expression in ‘< 0’ is always false')"
	assert_line --index 3 "$(printf 'warning\t-Wmissing-prototypes\tkernel/exit.c\t1930:13\tno previous prototype for ‘abort’')"
	[ "${#lines[@]}" -eq 10 ]
}

@test "warnings: gcc's -Werror=FLAG is an error of -WFLAG" {
	run -0 "$W" -l -s "$SRC" "$F/gcc-error.log"
	assert_output "$(printf '%s\n' \
		"$(printf 'error\t-Wtype-limits\tinclude/linux/bits.h\t25:36\tcomparison of unsigned expression in ‘< 0’ is always false')" \
		"$(printf 'error\t-Wtype-limits\tinclude/linux/bits.h\t25:48\tcomparison of unsigned expression in ‘< 0’ is always false')")"
}

@test "warnings: clang's -Werror,-WFLAG is an error of -WFLAG" {
	run -0 "$W" -s "$SRC" "$F/clang-error.log"
	assert_output "$(printf '%s\n' 'warnings 0' 'errors 6' 'flag -Wsign-compare 6' \
		'file include/linux/percpu-refcount.h 3' 'file include/linux/mmzone.h 1' \
		'file include/linux/pagemap.h 1' 'file include/linux/thread_info.h 1')"
}

@test "warnings: JSON counts for the report" {
	need_tool jq
	run -0 "$W" -j -s "$SRC" "$F/gcc.log"
	assert_output '{"warnings":10,"errors":0,"by_flag":{"-Wtype-limits":3,"-Wmissing-prototypes":1,"(none)":5,"-Wsuggest-attribute=format":1},"by_file":{"include/linux/bits.h":2,"include/linux/minmax.h":1,"kernel/exit.c":1,"kernel/time/timekeeping.c":5,"lib/vsprintf.c":1}}'
}

@test "warnings: a clean log has nothing to count" {
	printf '  CC      kernel/fork.o\n  LD      vmlinux\n' >"$BATS_TEST_TMPDIR/clean.log"
	run -0 "$W" "$BATS_TEST_TMPDIR/clean.log"
	assert_output "$(printf '%s\n' 'warnings 0' 'errors 0')"
	need_tool jq
	run -0 "$W" -j "$BATS_TEST_TMPDIR/clean.log"
	assert_output '{"warnings":0,"errors":0,"by_flag":{},"by_file":{}}'
}

@test "warnings: linker diagnostics count under (link), fatal errors as errors" {
	printf '%s\n' \
		'ld: warning: arch/x86/boot/compressed/vmlinux has a LOAD segment with RWX permissions' \
		'ld.lld: error: undefined symbol: foo' \
		'arm-linux-gnueabi-ld: warning: orphan section `.ARM.extab'"'"' being placed' \
		'kernel/a.c:1:10: fatal error: foo.h: No such file or directory' >"$BATS_TEST_TMPDIR/link.log"
	run -0 "$W" "$BATS_TEST_TMPDIR/link.log"
	assert_output "$(printf '%s\n' 'warnings 2' 'errors 2' 'flag (none) 4' 'file (link) 3' 'file kernel/a.c 1')"
}

@test "warnings: an unreadable log is trouble" {
	run -2 --separate-stderr "$W" "$BATS_TEST_TMPDIR/missing.log"
	assert_equal "$stderr" "warnings.sh: cannot read '$BATS_TEST_TMPDIR/missing.log'"
}
