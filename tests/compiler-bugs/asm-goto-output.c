// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm goto with an output operand used on the fallthrough path, the
 * kernel's CONFIG_CC_HAS_ASM_GOTO_OUTPUT (unsafe_get_user() and
 * friends).  GCC 11 and Clang 11 were the first to accept it.  Run: the
 * output must arrive.
 *
 * check-name: asm goto with an output on the fallthrough path
 * check-source: kernel init/Kconfig (CC_HAS_ASM_GOTO_OUTPUT)
 * check-source: kernel 587f17018a2c ("Kconfig: add config option for asm goto w/ outputs")
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc <11: reject
 * check-expect: gcc: accept
 * check-expect: clang <11: reject
 * check-expect: clang: accept
 */

#if defined(__x86_64__)
#define COPY "mov %[in], %[out]"
#else
#define COPY "mov %[out], %[in]"
#endif

static __attribute__((noinline)) long copy_or_fail(long in)
{
	long out;

	__asm__ goto(COPY : [out] "=r"(out) : [in] "r"(in) : : failed);
	return out;
failed:
	return -1;
}

int main(void)
{
	return copy_or_fail(42) == 42 ? 0 : 1;
}
