// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's answer to inline-c99: -std=gnu11, but every inline carries
 * __attribute__((__gnu_inline__)), which restores the gnu89 meaning of
 * "extern inline" (no external definition) in one unit of two.
 *
 * check-name: gnu_inline attribute under -std=gnu11 across two units
 * check-source: kernel dd97e7bf5059 ("compiler-gcc.h: Add __attribute__((gnu_inline)) to all inline declarations")
 * check-source: kernel e8c07082a810 ("Kbuild: move to -std=gnu11")
 * check-command: $CC $CFLAGS -std=gnu11 -DUNIT=1 -c "$SRC" -o "$OUT.1.o" && \
 *	$CC $CFLAGS -std=gnu11 -DUNIT=2 -c "$SRC" -o "$OUT.2.o" && \
 *	$CC $LDFLAGS "$OUT.1.o" "$OUT.2.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: *: accept
 */

#if UNIT == 1
extern inline __attribute__((__gnu_inline__)) int probe_twice(int x)
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
