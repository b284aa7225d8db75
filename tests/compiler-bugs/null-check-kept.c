// SPDX-License-Identifier: GPL-2.0-only
/*
 * A NULL check after a dereference must survive -fno-delete-null-pointer-checks:
 * in the kernel, address 0 can be mapped, and the 2009 tun driver exploit
 * came from a check GCC deleted.  User space cannot map page 0, so the
 * member read sits at an offset where the static binary's first segment
 * is loaded (0x400000 on x86_64 and arm64, 0x10000 on arm) and the read
 * through a NULL pointer succeeds.  Run: the check must still return -1.
 *
 * check-name: -fno-delete-null-pointer-checks keeps a check after a dereference
 * check-source: kernel a3ca86aea507 ("Add '-fno-delete-null-pointer-checks' to gcc CFLAGS")
 * check-command: $CC $CFLAGS -fno-delete-null-pointer-checks -c "$SRC" -o "$OUT.o" && \
 *	$CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: *: accept
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
