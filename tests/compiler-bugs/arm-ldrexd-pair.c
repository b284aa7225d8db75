// SPDX-License-Identifier: GPL-2.0-only
/*
 * A 64-bit operand of ARM inline assembly in a register pair: %Q/%R name
 * the low and high words, %H the second register, and ldrexd/strexd need
 * an even/odd pair in ARM state.  The kernel's atomic64 ops are built
 * this way; the seed lists the %H modifier and the pairs as missing in
 * Clang.  Run: a 64-bit exclusive add that carries into the high word.
 *
 * check-name: 64-bit inline asm operands in ARM register pairs (ldrexd/strexd, %H)
 * check-source: seed (2012): 64-bit inline asm operands on ARM
 * check-source: kernel arch/arm/include/asm/atomic.h (atomic64 with ldrexd/strexd)
 * check-command: $CC $CFLAGS -march=armv7-a -marm -c "$SRC" -o "$OUT.o" && \
 *	$CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-targets: arm
 * check-measure: run
 * check-expect: *: accept
 */

typedef unsigned long long u64;

static __attribute__((noinline)) void exclusive_add(u64 *word, u64 delta)
{
	u64 sum;
	unsigned long failed;

	__asm__ __volatile__(
		"1:	ldrexd	%[sum], %H[sum], [%[word]]\n"
		"	adds	%Q[sum], %Q[sum], %Q[delta]\n"
		"	adc	%R[sum], %R[sum], %R[delta]\n"
		"	strexd	%[failed], %[sum], %H[sum], [%[word]]\n"
		"	cmp	%[failed], #0\n"
		"	bne	1b\n"
		: [sum] "=&r"(sum), [failed] "=&r"(failed), "+Qo"(*word)
		: [word] "r"(word), [delta] "r"(delta)
		: "cc");
}

int main(void)
{
	static u64 counter = 0xffffffffull;

	exclusive_add(&counter, 1);
	if (counter != 0x100000000ull)
		return 1;
	exclusive_add(&counter, 0xffffffffull);
	return counter == 0x1ffffffffull ? 0 : 2;
}
