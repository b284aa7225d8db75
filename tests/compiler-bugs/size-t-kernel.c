// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compiler's size_t must be the very type the kernel spells
 * __kernel_size_t (unsigned int on 32-bit ARM, unsigned long on 64-bit
 * targets), or every builtin declaration and every %zu in a printk()
 * format draws a warning.  kabi cannot tell the two apart on ARM (both
 * are 32-bit unsigned), so the case asks the type system and -Wall.
 *
 * check-name: size_t is __kernel_size_t
 * check-source: seed (2012): "size_t vs __kernel_size_t" on 32-bit ARM
 * check-source: kernel arch/arm/include/uapi/asm/posix_types.h
 * check-command: $CC $CFLAGS -Wall -c "$SRC" -o "$OUT.o"
 * check-expect: *: accept
 */

#if defined(__arm__)
typedef unsigned int __kernel_size_t;
#else
typedef unsigned long __kernel_size_t;
#endif

_Static_assert(__builtin_types_compatible_p(__SIZE_TYPE__, __kernel_size_t),
	       "the compiler's size_t is not __kernel_size_t");

void *memcpy(void *dst, const void *src, __kernel_size_t len);
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void probe_copy(void *dst, const void *src, __kernel_size_t len)
{
	memcpy(dst, src, len);
	printk("copied %zu bytes\n", len);
}
