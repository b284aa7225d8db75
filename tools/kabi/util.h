/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util.c: the error helper and exit status, memory (with its limit),
 * arenas, growable strings and JSON strings: what every part of kabi
 * calls.
 */
#ifndef KABI_UTIL_H
#define KABI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit status bits, compatible with abidiff(1). */
enum {
	KABI_EXIT_OK = 0,
	KABI_EXIT_ERROR = 1,
	KABI_EXIT_USAGE = 2,
	KABI_EXIT_CHANGE = 4,
	KABI_EXIT_INCOMPATIBLE = 8,
};

/* The one error helper: prints "kabi: MSG\n" on stderr. */
void kabi_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Allocation failure is the one thing kabi does not recover from. */
/* Limit on the memory holding types and names; 0 is none. */
#define KABI_MEM_LIMIT_DEFAULT (UINT64_C(4) << 30)
void mem_set_limit(uint64_t bytes);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
/* N zeroed bytes for a table, its pages mapped at once when it is
 * large; freed with ztable_free(P, N), N as given. */
void *ztable_new(size_t n);
void ztable_free(void *p, size_t n);
char *xstrdup(const char *s);

/* Bump allocator; objects live until arena_release(). */
struct arena {
	struct arena_blk *head;
	size_t blk; /* the next block's size: growing, up to a limit */
};
void arena_init(struct arena *a);
void arena_release(struct arena *a);
void *arena_alloc(struct arena *a, size_t n);

/* Growable string. */
struct sb {
	char *buf;
	size_t len, cap;
};
void sb_init(struct sb *b);
void sb_release(struct sb *b);
void sb_reset(struct sb *b);
char *sb_take(struct sb *b); /* the buffer, for the caller to free() */
void sb_add(struct sb *b, const char *s);
void sb_addn(struct sb *b, const char *s, size_t n);
void sb_addf(struct sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_addu(struct sb *b, uint64_t v); /* decimal */
void sb_add2(struct sb *b, const char *x, const char *y);
const char *sb_str(struct sb *b);

/* JSON string literal of S (with quotes) on F. */
/* Output to a file named by -o (or standard output without one), written
 * whole or not at all: out_open, then out_close with whether the verb
 * failed. */
struct out {
	FILE *f;
	const char *path;
	char *tmp;
	bool in_place;
};
int out_open(struct out *o, const char *path);
int out_close(struct out *o, bool failed);

void json_str(FILE *f, const char *s);

#endif
