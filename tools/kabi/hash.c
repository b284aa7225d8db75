// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hash set's allocation and growth; lookups are inline in hash.h.
 */
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "util.h"

void hset_init(struct hset *s, size_t size, size_t nslots)
{
	s->size = size;
	s->nslots = nslots;
	s->n = 0;
	s->slots = nslots ? ztable_new(nslots * size) : NULL;
}

void hset_release(struct hset *s)
{
	ztable_free(s->slots, s->nslots * s->size);
	s->slots = NULL;
	s->nslots = s->n = 0;
}

/* Move the entries of S into NSLOTS slots. */
static void rehash(struct hset *s, size_t nslots, hset_used_fn *used,
		   hset_hash_fn *hash, const void *ctx)
{
	struct hset old = *s;
	size_t i;

	s->nslots = nslots;
	s->slots = ztable_new(s->nslots * s->size);
	for (i = 0; i < old.nslots; i++) {
		const void *e = hset_at(&old, i);

		if (used(e, ctx))
			memcpy(hset_find(s, hash(e, ctx), used, NULL, NULL,
					 ctx),
			       e, s->size);
	}
	ztable_free(old.slots, old.nslots * old.size);
}

void hset_reserve(struct hset *s, size_t first, hset_used_fn *used,
		  hset_hash_fn *hash, const void *ctx)
{
	if (2 * (s->n + 1) <= s->nslots)
		return;
	rehash(s, s->nslots ? 2 * s->nslots : first, used, hash, ctx);
}

void hset_reserve_n(struct hset *s, size_t more, hset_used_fn *used,
		    hset_hash_fn *hash, const void *ctx)
{
	size_t nslots = s->nslots ? s->nslots : 1;

	while (nslots < 2 * (s->n + more))
		nslots *= 2;
	if (nslots != s->nslots)
		rehash(s, nslots, used, hash, ctx);
}

void hset_clear(struct hset *s)
{
	if (s->slots)
		memset(s->slots, 0, s->nslots * s->size);
	s->n = 0;
}
