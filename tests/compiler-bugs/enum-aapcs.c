// SPDX-License-Identifier: GPL-2.0-only
/*
 * The same small enum on 32-bit ARM under -mabi=aapcs, the base procedure
 * call standard, where enums are as small as their values allow.  GCC
 * follows it; Clang with a Linux triple keeps enums at 4 bytes, so one
 * set of flags gives two layouts.  The kernel builds with aapcs-linux
 * (enum-aapcs-linux), where both agree.
 *
 * check-name: enum size under ARM -mabi=aapcs
 * check-source: seed (2012): ARM -mabi=aapcs vs aapcs-linux enum size
 * check-source: kernel arch/arm/Makefile: CFLAGS_ABI := -mabi=aapcs-linux
 * check-command: $CC $CFLAGS -g -mabi=aapcs -c "$SRC" -o "$OUT"
 * check-targets: arm
 * check-measure: layout enum probe_small size
 * check-expect: gcc: layout 1
 * check-expect: clang: layout 4
 */

enum probe_small {
	CASE_SMALL_FIRST,
	CASE_SMALL_LAST = 200,
};

enum probe_small probe_small_var;
