// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stack pointer through a global named register variable, as ARM and
 * arm64 define current_stack_pointer since the LLVMLinux work.  The value
 * read in a function must lie just below a local of its caller.
 *
 * check-name: global register variable for the stack pointer
 * check-source: seed (2012): "explicit register variables"
 * check-source: kernel 0abc08baf2dd ("ARM: 8170/1: Add global named register current_stack_pointer for ARM")
 * check-source: kernel 3337a10e0d0c ("arm64: LLVMLinux: Add current_stack_pointer() for arm64")
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: *: accept
 */

#if defined(__x86_64__)
register unsigned long current_stack_pointer __asm__("rsp");
#else
register unsigned long current_stack_pointer __asm__("sp");
#endif

static __attribute__((noinline)) unsigned long stack_pointer(void)
{
	return current_stack_pointer;
}

int main(void)
{
	volatile int here;
	unsigned long sp = stack_pointer();
	unsigned long local = (unsigned long)&here;

	return sp <= local && local - sp < 4096 ? 0 : 1;
}
