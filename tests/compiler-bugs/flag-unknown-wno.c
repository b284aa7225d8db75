// SPDX-License-Identifier: GPL-2.0-only
/*
 * An unknown -Wno- option.  GCC ignores it in silence unless some other
 * diagnostic is printed (documented, on purpose), so testing the -Wno-
 * form tells nothing; Clang warns.  The kernel's cc-disable-warning tests
 * the positive -W form for this reason.
 *
 * check-name: exit status for an unknown -Wno- option
 * check-source: GCC manual, Warning Options: "no diagnostic is produced for -Wno-unknown-warning unless other diagnostics are being produced"
 * check-source: kernel scripts/Makefile.compiler (cc-disable-warning)
 * check-command: $CC $CFLAGS -Wno-probe-no-such-warning -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang: warn /unknown warning option '-Wno-probe-no-such-warning'/
 */

int probe_unknown_wno;
