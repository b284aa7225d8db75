// SPDX-License-Identifier: GPL-2.0-only
/*
 * __builtin_constant_p of an inline function's argument, decided after
 * inlining: the kernel's BUILD_BUG_ON(!__builtin_constant_p(x)) in
 * inline functions.  The seed lists it as still to do for Clang, which
 * answered before inlining until LLVM grew llvm.is.constant (Clang 8).
 * The failure branch calls a function no unit defines, so a wrong answer
 * is a link error, as the kernel's compile-time asserts once were.
 *
 * check-name: __builtin_constant_p after inlining (BUILD_BUG_ON in inline functions)
 * check-source: seed (2012): "use of __builtin_constant_p ... BUILD_BUG_ON(!__builtin_constant_p(offset))"
 * check-source: LLVM llvm.is.constant intrinsic (Clang 8)
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc: accept
 * check-expect: clang <8: reject /undefined reference to .probe_not_constant'/
 * check-expect: clang: accept
 */

void probe_not_constant(void);

static inline __attribute__((always_inline)) int shift_by(int bits)
{
	if (!__builtin_constant_p(bits))
		probe_not_constant();
	return 1 << bits;
}

int main(void)
{
	return shift_by(3) == 8 ? 0 : 1;
}
