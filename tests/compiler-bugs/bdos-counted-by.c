// SPDX-License-Identifier: GPL-2.0-only
/*
 * __builtin_dynamic_object_size of a flexible array annotated with
 * counted_by (the kernel's __counted_by), the bound FORTIFY_SOURCE and
 * the array-bounds sanitizer check at run time.  Compilers without the
 * attribute ignore it with a warning and know no bound; GCC before 12
 * has no __builtin_dynamic_object_size at all, so the call stays an
 * undefined function and the link fails.  Run: the size must follow the
 * count member.
 *
 * check-name: __builtin_dynamic_object_size with counted_by
 * check-source: kernel include/linux/compiler_attributes.h (__counted_by)
 * check-source: clang 18 and GCC 15 release notes (counted_by attribute)
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc <12: reject /undefined reference to .__builtin_dynamic_object_size/
 * check-expect: gcc <15: wrong-code 1
 * check-expect: gcc: accept
 * check-expect: clang <18: wrong-code 1
 * check-expect: clang: accept
 */

typedef __SIZE_TYPE__ size_t;

struct msg {
	int len;
	int pad;
	short data[] __attribute__((counted_by(len)));
};

static __attribute__((noinline)) size_t data_size(struct msg *m)
{
	return __builtin_dynamic_object_size(m->data, 1);
}

int main(void)
{
	static _Alignas(struct msg) char storage[64];
	struct msg *volatile m = (struct msg *)storage;

	m->len = 3;
	return data_size(m) == 3 * sizeof(short) ? 0 : 1;
}
