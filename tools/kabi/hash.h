/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One hash set for kabi's tables: a power-of-two array of fixed-size
 * entries, linear probing, never more than half full.  What makes an
 * entry used, what it hashes to and which key it holds are the table's
 * own, passed as functions with the table's context; hset_find is inline
 * so that a table's functions are inlined into its lookups.
 */
#ifndef KABI_HASH_H
#define KABI_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct hset {
	void *slots;   /* nslots entries of size bytes, zeroed when new */
	size_t size;   /* bytes per entry */
	size_t nslots; /* 0 or a power of two */
	size_t n;      /* entries in use, kept by the table */
};

/* Whether entry E is in use, in the table with context CTX. */
typedef bool hset_used_fn(const void *e, const void *ctx);
/* The hash of entry E, which is in use. */
typedef uint64_t hset_hash_fn(const void *e, const void *ctx);
/* Whether entry E, which is in use, holds KEY. */
typedef bool hset_match_fn(const void *e, const void *key, const void *ctx);

/* An empty set of entries of SIZE bytes, NSLOTS (0 or a power of two)
 * of them allocated. */
void hset_init(struct hset *s, size_t size, size_t nslots);
void hset_release(struct hset *s);
/* Room for one more entry: the first FIRST slots, or twice as many as
 * now, with the entries in use moved (USED, HASH). */
void hset_reserve(struct hset *s, size_t first, hset_used_fn *used,
		  hset_hash_fn *hash, const void *ctx);
/* Room for MORE more entries at once, in as many slots as that takes. */
void hset_reserve_n(struct hset *s, size_t more, hset_used_fn *used,
		    hset_hash_fn *hash, const void *ctx);
/* Every entry unused: zeroed, n 0. */
void hset_clear(struct hset *s);

static inline void *hset_at(const struct hset *s, size_t i)
{
	return (char *)s->slots + i * s->size;
}

/* The entry for KEY, of hash H: the one MATCH finds, or the unused one
 * to fill (MATCH NULL: always the unused one).  The set has slots. */
static inline void *hset_find(const struct hset *s, uint64_t h,
			      hset_used_fn *used, hset_match_fn *match,
			      const void *key, const void *ctx)
{
	size_t mask = s->nslots - 1, i = h & mask;
	void *e;

	for (;;) {
		e = hset_at(s, i);
		if (!used(e, ctx) || (match && match(e, key, ctx)))
			return e;
		i = (i + 1) & mask;
	}
}

/* Eight bytes a step, multiply and fold; for interning and dedup keys only. */
static inline uint64_t hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *c = p;
	uint64_t h = seed ^ (n * UINT64_C(0x9e3779b97f4a7c15)), w;

	for (; n >= 8; n -= 8, c += 8) {
		memcpy(&w, c, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 32;
	}
	if (n) {
		w = 0;
		memcpy(&w, c, n);
		h = (h ^ w) * UINT64_C(0xc4ceb9fe1a85ec53);
	}
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	return h ^ (h >> 33);
}

#endif
