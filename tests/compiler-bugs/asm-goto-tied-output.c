// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm goto with a tied ("+m") output referring to its label by name, the
 * kernel's CONFIG_CC_HAS_ASM_GOTO_TIED_OUTPUT test: rejected by GCC
 * before 11 and Clang before 14 (operand numbering with hidden inputs).
 *
 * check-name: asm goto with a tied output (CC_HAS_ASM_GOTO_TIED_OUTPUT)
 * check-source: kernel init/Kconfig: "Detect buggy gcc and clang, fixed in gcc-11 clang-14"
 * check-source: LLVM D115471 (tied outputs numbered before the labels, as GCC does)
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc <11: reject
 * check-expect: gcc: accept
 * check-expect: clang <14: reject
 * check-expect: clang: accept
 */

int probe_tied(int *x)
{
	__asm__ goto(".long (%l[out]) - ." : "+m"(*x) : : : out);
	return *x;
out:
	return 0;
}
