// SPDX-License-Identifier: GPL-2.0-only
/*
 * gnu89 "extern inline" across two units: unit 1 sees the header's
 * extern inline definition and takes the function's address, unit 2 has
 * the one out-of-line definition.  gnu89 semantics emit nothing for the
 * extern inline, so the program links and runs.
 *
 * check-name: gnu89 extern inline across two units
 * check-source: seed (2012): "extern inline" (gnu89 vs C99 inline semantics)
 * check-source: kernel dd97e7bf5059 ("compiler-gcc.h: Add __attribute__((gnu_inline)) to all inline declarations")
 * check-command: $CC $CFLAGS -std=gnu89 -DUNIT=1 -c "$SRC" -o "$OUT.1.o" && \
 *	$CC $CFLAGS -std=gnu89 -DUNIT=2 -c "$SRC" -o "$OUT.2.o" && \
 *	$CC $LDFLAGS "$OUT.1.o" "$OUT.2.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: *: accept
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
