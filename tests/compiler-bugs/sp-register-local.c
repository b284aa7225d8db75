// SPDX-License-Identifier: GPL-2.0-only
/*
 * A local register variable for the stack pointer read directly, the
 * kernel's old current_stack_pointer.  GCC reads the register; Clang binds
 * local register variables only for asm operands, so the variable is
 * uninitialized and -Wall says so.  The global form is the fix
 * (sp-register-global).
 *
 * check-name: local register variable for the stack pointer
 * check-source: seed (2012): "explicit register variables"
 * check-source: kernel 0abc08baf2dd ("ARM: 8170/1: Add global named register current_stack_pointer for ARM")
 * check-command: $CC $CFLAGS -Wall -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang: warn /variable 'sp' is uninitialized when used here/
 */

unsigned long probe_stack_pointer(void)
{
#if defined(__x86_64__)
	register unsigned long sp __asm__("rsp");
#else
	register unsigned long sp __asm__("sp");
#endif

	return sp;
}
