// SPDX-License-Identifier: GPL-2.0-only
/*
 * The same two units as inline-gnu89 under -std=gnu11: C99 makes an
 * "extern inline" definition an external one, so both units define the
 * function and the link fails.  This is why the kernel marks every inline
 * gnu_inline since it moved past gnu89 (inline-gnu-inline).
 *
 * check-name: C99 extern inline across two units
 * check-source: seed (2012): "extern inline" (gnu89 vs C99 inline semantics)
 * check-source: kernel e8c07082a810 ("Kbuild: move to -std=gnu11")
 * check-command: $CC $CFLAGS -std=gnu11 -DUNIT=1 -c "$SRC" -o "$OUT.1.o" && \
 *	$CC $CFLAGS -std=gnu11 -DUNIT=2 -c "$SRC" -o "$OUT.2.o" && \
 *	$CC $LDFLAGS "$OUT.1.o" "$OUT.2.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: *: reject /multiple definition of .probe_twice'/
 */

#if UNIT == 1
extern inline int probe_twice(int x)
{
	return 2 * x;
}

int (*const probe_twice_ptr)(int) = probe_twice;

int main(void)
{
	return probe_twice_ptr(21) == 42 ? 0 : 1;
}
#else
int probe_twice(int x)
{
	return x + x;
}
#endif
