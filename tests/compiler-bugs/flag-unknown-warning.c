// SPDX-License-Identifier: GPL-2.0-only
/*
 * An unknown -W option, the cc-option problem: GCC fails, Clang warns and
 * exits 0, so a test of "does the compiler accept this flag" passes with
 * Clang for any spelling.  The kernel adds -Werror=unknown-warning-option
 * to every Clang command line for this.
 *
 * check-name: exit status for an unknown -W option
 * check-source: seed (2012): Kbuild's cc-option tests and Clang
 * check-source: kernel 589834b3a009 ("kbuild: Add -Werror=unknown-warning-option to CLANG_FLAGS")
 * check-command: $CC $CFLAGS -Wprobe-no-such-warning -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: reject /unrecognized command-line option '-Wprobe-no-such-warning'/
 * check-expect: clang: warn /unknown warning option '-Wprobe-no-such-warning'/
 */

int probe_unknown_warning;
