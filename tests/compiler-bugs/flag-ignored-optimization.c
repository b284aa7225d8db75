// SPDX-License-Identifier: GPL-2.0-only
/*
 * A GCC optimization option Clang knows by name but does not implement,
 * here -falign-jumps=1 as arch/x86/Makefile uses it: Clang warns and
 * exits 0, so cc-option adds a flag that does nothing.  The kernel makes
 * the warning an error for Clang.
 *
 * check-name: exit status for an unsupported optimization option
 * check-source: kernel 0664684e1ebd ("kbuild: Add -Werror=ignored-optimization-argument to CLANG_FLAGS")
 * check-source: kernel arch/x86/Makefile ($(call cc-option,-falign-jumps=1))
 * check-command: $CC $CFLAGS -falign-jumps=1 -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang: warn /optimization flag '-falign-jumps=1' is not supported/
 */

int probe_ignored_optimization;
