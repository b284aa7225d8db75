// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ignoring the value of a __must_check (warn_unused_result) function.
 * Both compilers warn; the kernel relies on it for error codes that must
 * not be dropped.
 *
 * check-name: ignored return value under -Wunused-result
 * check-source: seed (2012): warnings that differ between GCC and Clang
 * check-source: kernel include/linux/compiler_attributes.h (__must_check)
 * check-command: $CC $CFLAGS -Wunused-result -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: warn /ignoring return value of 'probe_must_check'/
 * check-expect: clang: warn /ignoring return value of function declared with 'warn_unused_result' attribute/
 */

__attribute__((warn_unused_result)) int probe_must_check(void);

void probe_caller(void)
{
	probe_must_check();
}
