// SPDX-License-Identifier: GPL-2.0-only
/*
 * __typeof_unqual__, the C23 typeof_unqual the kernel uses (where the
 * compiler has it) to drop qualifiers such as __seg_gs and volatile from
 * per-CPU and READ_ONCE() temporaries.  GCC 14 and Clang 19 have it.
 *
 * check-name: __typeof_unqual__
 * check-source: kernel init/Kconfig (CC_HAS_TYPEOF_UNQUAL) and include/linux/compiler.h
 * check-source: GCC 14 and Clang 19 release notes
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc <14: reject
 * check-expect: gcc: accept
 * check-expect: clang <19: reject
 * check-expect: clang: accept
 */

const volatile int probe_cv = 1;

int probe_unqual(void)
{
	__typeof_unqual__(probe_cv) copy = probe_cv;

	copy++;
	return copy;
}
