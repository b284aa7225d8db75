// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm goto is implicitly volatile, outputs or not.  GCC before the fix
 * "Mark asm goto with outputs as volatile" treats one with outputs like a
 * plain asm: when the outputs are unused it deletes the statement, and
 * its side effect with it.  The kernel writes "asm volatile goto" by hand
 * in asm_goto_output() for this; the same commits work around GCC PR
 * 113921 (fixed in 14.1, 13.3, 12.4, 11.5), which is hidden in practice
 * since GCC 12.1.  Run: two calls must bump the counter twice.
 *
 * check-name: asm goto with unused outputs is not deleted (implicitly volatile)
 * check-source: kernel 4356e9f841f7 ("work around gcc bugs with 'asm goto' with outputs")
 * check-source: kernel 68fb3ca0e408 (the follow-up to 4356e9f841f7: volatile by hand, the PR 113921 workaround by GCC version)
 * check-source: GCC PR 113921; the missing-volatile fix is on the gcc-12 and gcc-13 branches (kernel thread, Feb 2024)
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc <11: reject
 * check-expect: gcc <=12.2: wrong-code 1
 * check-expect: gcc >=13.2: accept
 * check-expect: clang <11: reject
 * check-expect: clang: accept
 */

#if defined(__x86_64__)
#define BUMP "movl (%[p]), %[tmp]\n\taddl $1, %[tmp]\n\tmovl %[tmp], (%[p])"
#elif defined(__aarch64__)
#define BUMP "ldr %w[tmp], [%[p]]\n\tadd %w[tmp], %w[tmp], #1\n\tstr %w[tmp], [%[p]]"
#else
#define BUMP "ldr %[tmp], [%[p]]\n\tadd %[tmp], %[tmp], #1\n\tstr %[tmp], [%[p]]"
#endif

static int hits;

static __attribute__((noinline)) void bump(int *p)
{
	int scratch;

	__asm__ goto(BUMP : [tmp] "=&r"(scratch) : [p] "r"(p) : "memory" : done);
done:
	;
}

int main(void)
{
	bump(&hits);
	bump(&hits);
	return *(volatile int *)&hits == 2 ? 0 : 1;
}
