// SPDX-License-Identifier: GPL-2.0-only
/*
 * Discarding a __must_check value on purpose with a cast to void.  Clang
 * takes the cast as the answer; GCC still warns (GCC PR 66425), which is
 * why the kernel cannot silence such a call with (void) alone.
 *
 * check-name: (void) cast of a warn_unused_result value
 * check-source: GCC PR 66425 ("(void) cast doesn't suppress __attribute__((warn_unused_result))")
 * check-source: seed (2012): warnings that differ between GCC and Clang
 * check-command: $CC $CFLAGS -Wunused-result -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: warn /ignoring return value of 'probe_must_check'/
 * check-expect: clang: accept
 */

__attribute__((warn_unused_result)) int probe_must_check(void);

void probe_caller(void)
{
	(void)probe_must_check();
}
