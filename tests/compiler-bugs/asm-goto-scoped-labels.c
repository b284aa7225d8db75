// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm goto to labels in nested scopes of a function that also has a
 * variable with a cleanup attribute (guard() and friends).  Clang before
 * 17 reports a jump into the cleanup's scope that does not exist, so the
 * kernel disables asm goto with outputs for it.
 *
 * check-name: asm goto to scoped labels beside a cleanup variable
 * check-source: kernel e2ffa15b9baa ("kbuild: Disable CC_HAS_ASM_GOTO_OUTPUT on clang < 17")
 * check-source: kernel fde0ab43b9a3 ("Fix CC_HAS_ASM_GOTO_OUTPUT on non-x86 architectures")
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang <17: reject /cannot jump from this asm goto statement to one of its possible targets/
 * check-expect: clang: accept
 */

void probe_release(void **p);
void *probe_acquire(void);

int probe_scoped(void)
{
	{
		__asm__ goto("" : : : : first);
		return 0;
first:
		return 1;
	}
	void *res __attribute__((cleanup(probe_release))) = probe_acquire();
	{
		__asm__ goto("" : : : : second);
		return 2;
second:
		return 3;
	}
}
