// SPDX-License-Identifier: GPL-2.0-only
/*
 * String interning: the strings live in an arena, found again through
 * a hash set of the one kind every table of kabi uses.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "strtab.h"
#include "util.h"

struct strtab {
	struct arena arena;
	struct hset set; /* of struct str_ent, s NULL unused */
};

/* The hash is kept so that growing the set hashes nothing again. */
struct str_ent {
	const char *s;
	uint64_t h;
};

struct str_key {
	const char *s;
	size_t n;
	uint64_t h;
};

static bool str_used(const void *e, const void *ctx)
{
	(void)ctx;
	return ((const struct str_ent *)e)->s != NULL;
}

static uint64_t str_hash(const void *e, const void *ctx)
{
	(void)ctx;
	return ((const struct str_ent *)e)->h;
}

static bool str_match(const void *e, const void *key, const void *ctx)
{
	const struct str_ent *o = e;
	const struct str_key *k = key;

	(void)ctx;
	return o->h == k->h && memcmp(o->s, k->s, k->n) == 0 &&
	       o->s[k->n] == '\0';
}

struct strtab *strtab_new(void)
{
	struct strtab *t = xcalloc(1, sizeof(*t));

	arena_init(&t->arena);
	hset_init(&t->set, sizeof(struct str_ent), 1024);
	return t;
}

void strtab_free(struct strtab *t)
{
	if (!t)
		return;
	arena_release(&t->arena);
	hset_release(&t->set);
	free(t);
}

/* The entry for S (N bytes, hash H): the one holding it, or the unused
 * one to fill. */
static struct str_ent *str_slot(struct strtab *t, const char *s, size_t n,
				uint64_t h)
{
	struct str_key k = { s, n, h };

	hset_reserve(&t->set, 1024, str_used, str_hash, NULL);
	return hset_find(&t->set, h, str_used, str_match, &k, NULL);
}

static const char *str_fill(struct strtab *t, struct str_ent *e, const char *s,
			    uint64_t h)
{
	e->s = s;
	e->h = h;
	t->set.n++;
	return s;
}

const char *strtab_intern_n(struct strtab *t, const char *s, size_t n)
{
	uint64_t h = hash_bytes(s, n, 0);
	struct str_ent *e = str_slot(t, s, n, h);
	char *copy;

	if (e->s)
		return e->s;
	copy = arena_alloc(&t->arena, n + 1);
	memcpy(copy, s, n);
	copy[n] = '\0';
	return str_fill(t, e, copy, h);
}

static const char *intern_kept(struct strtab *t, const char *s, size_t n,
			       uint64_t h)
{
	struct str_ent *e = str_slot(t, s, n, h);

	return e->s ? e->s : str_fill(t, e, s, h);
}

const char *strtab_intern_kept(struct strtab *t, const char *s, size_t n)
{
	return intern_kept(t, s, n, hash_bytes(s, n, 0));
}

/* The home slots of a few strings are fetched together, then filled:
 * their cache misses overlap rather than follow one another. */
void strtab_intern_kept_all(struct strtab *t, const char **v, size_t n)
{
	enum { CHUNK = 32 };
	uint64_t h[CHUNK];
	size_t len[CHUNK], i, j, k;

	for (i = 0; i < n; i += k) {
		k = n - i < CHUNK ? n - i : CHUNK;
		hset_reserve_n(&t->set, k, str_used, str_hash, NULL);
		for (j = 0; j < k; j++) {
			len[j] = strlen(v[i + j]);
			h[j] = hash_bytes(v[i + j], len[j], 0);
			__builtin_prefetch(
				hset_at(&t->set, h[j] & (t->set.nslots - 1)));
		}
		for (j = 0; j < k; j++)
			v[i + j] = intern_kept(t, v[i + j], len[j], h[j]);
	}
}

void strtab_prefetch(struct strtab *t, const char *s)
{
	uint64_t h = hash_bytes(s, strlen(s), 0);

	if (t->set.nslots)
		__builtin_prefetch(hset_at(&t->set, h & (t->set.nslots - 1)));
}

void strtab_reserve(struct strtab *t, size_t n)
{
	hset_reserve_n(&t->set, n, str_used, str_hash, NULL);
}

const char *strtab_intern(struct strtab *t, const char *s)
{
	return s ? strtab_intern_n(t, s, strlen(s)) : NULL;
}
