// SPDX-License-Identifier: GPL-2.0-only
/*
 * __builtin_object_size of a flexible array member, as FORTIFY_SOURCE
 * asks it.  Behind a pointer the size is unknown, (size_t)-1; for a
 * static object whose initializer fills the flexible array, GCC counts
 * the initialized elements and Clang does so from 17.  Run: exit 1 for
 * the pointer case, 2 and 3 for the initialized object in modes 1 and 0.
 *
 * check-name: __builtin_object_size on a flexible array member
 * check-source: clang 17 release notes: "__builtin_object_size and __builtin_dynamic_object_size now add the sizeof the elements specified in designated initializers of flexible array members"
 * check-source: kernel include/linux/fortify-string.h
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o" && $CC $LDFLAGS "$OUT.o" "$START" -o "$OUT"
 * check-measure: run
 * check-expect: gcc: accept
 * check-expect: clang <17: wrong-code 2
 * check-expect: clang: accept
 */

typedef __SIZE_TYPE__ size_t;

struct msg {
	int len;
	char data[];
};

static struct msg filled = { .len = 4, .data = { 1, 2, 3, 4 } };

static __attribute__((noinline)) size_t data_size(struct msg *m)
{
	return __builtin_object_size(m->data, 1);
}

int main(void)
{
	struct msg *volatile hidden = &filled;

	if (data_size(hidden) != (size_t)-1)
		return 1;
	if (__builtin_object_size(filled.data, 1) != 4)
		return 2;
	if (__builtin_object_size(filled.data, 0) != 4)
		return 3;
	return 0;
}
