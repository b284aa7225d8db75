// SPDX-License-Identifier: GPL-2.0-only
/*
 * A linker option on a compile-only command line.  GCC ignores it;
 * Clang warns that the argument is unused and exits 0, another way for
 * cc-option to accept anything.  The kernel turns the warning into an
 * error for Clang.
 *
 * check-name: exit status for an argument unused during compilation
 * check-source: seed (2012): Kbuild's cc-option tests and Clang
 * check-source: kernel 8d9acfce3332 ("kbuild: Stop using '-Qunused-arguments' with clang")
 * check-command: $CC $CFLAGS -Wl,--probe-no-such-option -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang: warn /-Wl,--probe-no-such-option: 'linker' input unused/
 */

int probe_unused_argument;
