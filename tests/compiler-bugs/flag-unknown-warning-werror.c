// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's fix for flag-unknown-warning: with
 * -Werror=unknown-warning-option Clang fails on an unknown -W option as
 * GCC does, and cc-option answers honestly.  (GCC fails here too, for the
 * unknown option itself.)
 *
 * check-name: exit status for an unknown -W option with -Werror=unknown-warning-option
 * check-source: kernel 589834b3a009 ("kbuild: Add -Werror=unknown-warning-option to CLANG_FLAGS")
 * check-command: $CC $CFLAGS -Werror=unknown-warning-option -Wprobe-no-such-warning -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: reject /unrecognized command-line option '-Wprobe-no-such-warning'/
 * check-expect: clang: reject /unknown warning option '-Wprobe-no-such-warning'.*-Werror/
 */

int probe_unknown_warning;
