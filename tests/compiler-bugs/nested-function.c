// SPDX-License-Identifier: GPL-2.0-only
/*
 * A function defined inside another one, a GNU C extension (it came from
 * Ada).  Clang has never implemented it and says it will not.
 *
 * check-name: nested function
 * check-source: seed (2012): "nested functions"
 * check-source: clang: "function definition is not allowed here"
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang: reject /function definition is not allowed here/
 */

int probe_nested(int base)
{
	int add(int x)
	{
		return base + x;
	}

	return add(1);
}
