// SPDX-License-Identifier: GPL-2.0-only
/*
 * null-check-kept without -fno-delete-null-pointer-checks: what a
 * compiler does by default with a NULL check after a dereference.  GCC
 * deletes it.  Clang keeps it in this shape (a dereference far from
 * address 0); Clang 19 does delete the check after a dereference at
 * offset 0, which cannot be run in user space.
 *
 * check-name: a NULL check after a dereference, default flags
 * check-source: kernel a3ca86aea507 ("Add '-fno-delete-null-pointer-checks' to gcc CFLAGS")
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc: wrong-code 1
 * check-expect: clang: accept
 */

#if defined(__arm__)
#define FIRST_SEGMENT 0x10000
#else
#define FIRST_SEGMENT 0x400000
#endif

struct dev {
	char below[FIRST_SEGMENT];
	int flags;
};

static __attribute__((noinline)) int dev_flags(struct dev *d)
{
	int flags = d->flags;

	if (!d)
		return -1;
	return flags;
}

int main(void)
{
	struct dev *volatile none = 0;

	return dev_flags(none) == -1 ? 0 : 1;
}
