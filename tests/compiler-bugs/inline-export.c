// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exporting a plain "inline" function: the export table takes its
 * address, but under C99 semantics a non-extern inline definition is
 * inline-only and no unit emits the symbol, so the link fails.  With
 * gnu89 semantics (or the kernel's gnu_inline) the definition is emitted.
 *
 * check-name: address of a C99 inline function (EXPORT_SYMBOL of an inline)
 * check-source: seed (2012): "extern inline" and exported inline functions
 * check-source: kernel dd97e7bf5059 ("compiler-gcc.h: Add __attribute__((gnu_inline)) to all inline declarations")
 * check-command: $CC $CFLAGS -std=gnu11 -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: *: reject /undefined reference to .probe_exported'/
 */

inline int probe_exported(int x)
{
	return x + 1;
}

/* what EXPORT_SYMBOL() leaves behind: a table entry holding the address */
static void *const probe_ksymtab_entry
	__attribute__((used, section("___ksymtab+probe_exported"))) = (void *)probe_exported;

int main(void)
{
	return probe_exported(-1);
}
