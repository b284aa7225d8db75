// SPDX-License-Identifier: GPL-2.0-only
/*
 * The size of an enum whose values fit in a byte, under -fshort-enums,
 * read from the DWARF by kabi.  A unit built with the flag and one built
 * without it disagree about every struct holding such an enum.
 *
 * check-name: enum size under -fshort-enums
 * check-source: seed (2012): enum size and the ARM ABI
 * check-source: kparity: tests/fixtures/kabi-diff/enums.c
 * check-command: $CC $CFLAGS -g -fshort-enums -c "$SRC" -o "$OUT"
 * check-measure: layout enum probe_small size
 * check-expect: *: layout 1
 */

enum probe_small {
	CASE_SMALL_FIRST,
	CASE_SMALL_LAST = 200,
};

enum probe_small probe_small_var;
