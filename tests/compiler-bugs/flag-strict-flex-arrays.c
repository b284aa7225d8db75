// SPDX-License-Identifier: GPL-2.0-only
/*
 * -fstrict-flex-arrays=3: only a true [] member is a flexible array, so
 * trailing [1] and [0] arrays get their declared bounds for
 * FORTIFY_SOURCE and the bounds sanitizer.  The kernel passes it where
 * the compiler has it (GCC 13, Clang 16 by the release notes; Clang
 * 15.0.6 accepts it too and gives the same answer).  Run with the flag:
 * a trailing [1] array behind a pointer is one byte.
 *
 * check-name: -fstrict-flex-arrays=3
 * check-source: kernel df8fc4e934c1 ("kbuild: Enable -fstrict-flex-arrays=3")
 * check-source: GCC 13 and Clang 16 release notes
 * check-command: $CC $CFLAGS -fstrict-flex-arrays=3 -c "$SRC" -o "$OUT.o" && \
 *	$CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc <13: reject /unrecognized command-line option '-fstrict-flex-arrays=3'/
 * check-expect: gcc: accept
 * check-expect: clang <15: reject /unknown argument: '-fstrict-flex-arrays=3'/
 * check-expect: clang: accept
 */

typedef __SIZE_TYPE__ size_t;

struct old_style {
	int len;
	char data[1];
};

static __attribute__((noinline)) size_t data_size(struct old_style *m)
{
	return __builtin_object_size(m->data, 1);
}

int main(void)
{
	static struct old_style one;
	struct old_style *volatile hidden = &one;

	return data_size(hidden) == 1 ? 0 : 1;
}
