// SPDX-License-Identifier: GPL-2.0-only
/*
 * The small enum on 32-bit ARM under -mabi=aapcs-linux, the variant the
 * kernel builds with: enums are always int-sized, with GCC and Clang.
 *
 * check-name: enum size under ARM -mabi=aapcs-linux
 * check-source: seed (2012): ARM -mabi=aapcs vs aapcs-linux enum size
 * check-source: kernel arch/arm/Makefile: CFLAGS_ABI := -mabi=aapcs-linux
 * check-command: $CC $CFLAGS -g -mabi=aapcs-linux -c "$SRC" -o "$OUT"
 * check-targets: arm
 * check-measure: layout enum probe_small size
 * check-expect: *: layout 4
 */

enum probe_small {
	CASE_SMALL_FIRST,
	CASE_SMALL_LAST = 200,
};

enum probe_small probe_small_var;
