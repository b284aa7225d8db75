// SPDX-License-Identifier: GPL-2.0-only
/*
 * A const and a writable variable placed in one named section.  GCC
 * refuses the mix ("section type conflict"), and the kernel's __ro_after_init
 * and __initconst annotations are shaped by it; Clang refuses it too.
 *
 * check-name: const and writable data in one named section
 * check-source: kernel include/linux/init.h (__initconst vs __initdata)
 * check-source: GCC and Clang: "causes a section type conflict with"
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: reject /'probe_ro' causes a section type conflict with 'probe_rw'/
 * check-expect: clang: reject /'probe_rw' causes a section type conflict with 'probe_ro'/
 */

__attribute__((section(".data.case"))) const int probe_ro = 1;
__attribute__((section(".data.case"))) int probe_rw = 2;
