// SPDX-License-Identifier: GPL-2.0-only
/*
 * A global register variable in an ordinary callee-saved register.  GCC
 * reserves the register for the variable; Clang only allows the stack
 * pointer (and registers reserved with -ffixed-*), and on ARM and arm64
 * the refusal comes from the backend as a fatal error.
 *
 * check-name: global register variable outside the stack pointer
 * check-source: seed (2012): "explicit register variables"
 * check-source: clang: "register '...' unsuitable for global register variables on this target"
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang x86_64: reject /register 'r12' unsuitable for global register variables/
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
