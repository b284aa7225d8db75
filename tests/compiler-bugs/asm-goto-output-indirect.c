// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm goto with an output used on the path of a taken jump.  GCC defines
 * it; Clang before 17 kept outputs on the fallthrough path only (the
 * value on the label's path was undefined; 16.0.6 still returns the
 * wrong value here, which is why the kernel requires 17), later Clang
 * matches GCC.  Run: the output written before the jump must reach the
 * label.
 *
 * check-name: asm goto with an output on the indirect (label) path
 * check-source: llvm-project bug 53562 ("[asm goto] support outputs along indirect branches")
 * check-source: LLVM D136497 and clang LanguageExtensions: "Prior to clang-16, the output may only be used safely when the indirect branches are not taken"
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc <11: reject
 * check-expect: gcc: accept
 * check-expect: clang <11: reject
 * check-source: kernel e2ffa15b9baa ("kbuild: Disable CC_HAS_ASM_GOTO_OUTPUT on clang < 17")
 * check-expect: clang <17: wrong-code 1
 * check-expect: clang: accept
 */

#if defined(__x86_64__)
#define COPY_AND_JUMP "mov %[in], %[out]\n\tjmp %l[taken]"
#else
#define COPY_AND_JUMP "mov %[out], %[in]\n\tb %l[taken]"
#endif

static __attribute__((noinline)) long copy_and_jump(long in)
{
	long out;

	__asm__ goto(COPY_AND_JUMP : [out] "=r"(out) : [in] "r"(in) : : taken);
	return -1;
taken:
	return out;
}

int main(void)
{
	return copy_and_jump(43) == 43 ? 0 : 1;
}
