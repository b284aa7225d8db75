// SPDX-License-Identifier: GPL-2.0-only
/*
 * A global register variable in an ordinary callee-saved register.  GCC
 * reserves the register for the variable; Clang only allows the stack
 * pointer (and registers reserved with -ffixed-*), and on ARM and arm64
 * the refusal comes from the backend as a fatal error (from Clang 22 on,
 * from the front end on arm64, and as an invalid llvm.read_register on
 * ARM).
 *
 * check-name: global register variable outside the stack pointer
 * check-source: seed (2012): "explicit register variables"
 * check-source: clang: "register '...' unsuitable for global register variables on this target"
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang x86_64: reject /register 'r12' unsuitable for global register variables/
 * check-expect: clang >=22 arm: reject /invalid register "r9" for llvm.read_register/
 * check-expect: clang >=22 aarch64: reject /register 'x19' unsuitable for global register variables/
 * check-expect: clang: reject /error in backend: Invalid register name/
 */

#if defined(__x86_64__)
register unsigned long probe_reserved __asm__("r12");
#elif defined(__aarch64__)
register unsigned long probe_reserved __asm__("x19");
#else
register unsigned long probe_reserved __asm__("r9");
#endif

unsigned long probe_read_reserved(void)
{
	return probe_reserved;
}
