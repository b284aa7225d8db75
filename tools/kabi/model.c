// SPDX-License-Identifier: GPL-2.0-only
/*
 * The type model: deduplication, ordering and equality.
 *
 * Every string in a model is interned in its strtab, so within a model a
 * string's address is its identity (hashing uses that); two models have
 * two tables, so comparisons use strcmp.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kabi.h"

static const char *const kind_names[KIND_NR] = {
	[KIND_ENUM] = "enum",
	[KIND_STRUCT] = "struct",
	[KIND_TYPEDEF] = "typedef",
	[KIND_UNION] = "union",
};

const char *kind_name(enum kind k)
{
	return kind_names[k];
}

int kind_parse(const char *s, enum kind *k)
{
	int i;

	for (i = 0; i < KIND_NR; i++) {
		if (strcmp(s, kind_names[i]) == 0) {
			*k = (enum kind)i;
			return 0;
		}
	}
	return -1;
}

int64_t enum_value_signed(uint64_t v)
{
	/* two's complement without implementation-defined conversion */
	return v <= INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
}

const char *enum_value_str(char *buf, const struct ktype *t,
			   const struct enumerator *e)
{
	uint64_t lo = e->value, hi = e->hi;
	uint32_t limb[4];
	char digits[40];
	size_t n = 0, i, o = 0;
	bool neg;

	if (t->size <= 8) {
		/* by hand: printf was a tenth of a dump's time */
		neg = t->is_signed && lo >> 63;
		lo = neg ? ~lo + 1 : lo;
		do
			digits[n++] = (char)('0' + lo % 10);
		while (lo /= 10);
		if (neg)
			buf[o++] = '-';
		while (n)
			buf[o++] = digits[--n];
		buf[o] = '\0';
		return buf;
	}
	/* 128-bit two's complement to sign and magnitude */
	neg = t->is_signed && hi >> 63;
	if (neg) {
		lo = ~lo + 1;
		hi = ~hi + (lo == 0);
	}
	limb[0] = (uint32_t)(hi >> 32);
	limb[1] = (uint32_t)hi;
	limb[2] = (uint32_t)(lo >> 32);
	limb[3] = (uint32_t)lo;
	do {
		uint64_t rem = 0;

		for (i = 0; i < 4; i++) {
			uint64_t cur = rem << 32 | limb[i];

			limb[i] = (uint32_t)(cur / 10);
			rem = cur % 10;
		}
		digits[n++] = (char)('0' + rem);
	} while (limb[0] | limb[1] | limb[2] | limb[3]);
	if (neg)
		buf[o++] = '-';
	while (n)
		buf[o++] = digits[--n];
	buf[o] = '\0';
	return buf;
}

/* V mixed into H: one multiply and shift, inlined, as a type has a
 * dozen fields per member to mix. */
static inline uint64_t hnum(uint64_t h, uint64_t v)
{
	h = (h ^ v) * UINT64_C(0xff51afd7ed558ccd);
	return h ^ (h >> 32);
}

/* Strings of one model are interned, so their addresses are their
 * identity; the hash only serves the model's own set. */
static inline uint64_t hstr(uint64_t h, const char *s)
{
	return hnum(h, (uint64_t)(uintptr_t)s);
}

static uint64_t hash_layout(const struct ktype *t)
{
	uint64_t h = hnum(0, t->kind);
	uint32_t i;

	h = hstr(h, t->name);
	h = hstr(h, t->parent);
	h = hnum(h, (uint64_t)t->size);
	h = hnum(h, (uint64_t)t->align);
	h = hnum(h, (uint64_t)t->natural_align);
	h = hnum(h, t->n);
	switch (t->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		for (i = 0; i < t->n; i++) {
			const struct member *m = &t->members[i];

			h = hstr(h, m->name);
			h = hnum(h, m->bitpos);
			h = hnum(h, m->bitsize);
			h = hnum(h, (uint64_t)m->size);
			h = hstr(h, m->type);
			h = hstr(h, m->resolved);
		}
		break;
	case KIND_ENUM:
		h = hnum(h, t->is_signed);
		h = hstr(h, t->underlying);
		for (i = 0; i < t->n; i++) {
			h = hstr(h, t->enums[i].name);
			h = hnum(h, t->enums[i].value);
			if (t->enums[i].hi)
				h = hnum(h, t->enums[i].hi);
		}
		break;
	case KIND_TYPEDEF:
		h = hstr(h, t->resolved);
		for (i = 0; i < t->n; i++)
			h = hstr(h, t->chain[i]);
		break;
	default:
		break;
	}
	return h;
}

uint64_t ktype_hash(const struct ktype *t)
{
	uint64_t h = hash_layout(t);

	h = hstr(h, t->decl_file);
	h = hnum(h, t->decl_line);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	return h ^ (h >> 33);
}

static int scmp(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

static int ncmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int icmp(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int member_cmp(const struct member *a, const struct member *b)
{
	int r;

	if ((r = ncmp(a->bitpos, b->bitpos)) || (r = scmp(a->name, b->name)) ||
	    (r = ncmp(a->bitsize, b->bitsize)) ||
	    (r = icmp(a->size, b->size)) || (r = scmp(a->type, b->type)))
		return r;
	return scmp(a->resolved, b->resolved);
}

static int layout_cmp(const struct ktype *a, const struct ktype *b)
{
	uint32_t i;
	int r;

	if ((r = icmp(a->size, b->size)) || (r = icmp(a->align, b->align)) ||
	    (r = icmp(a->natural_align, b->natural_align)) ||
	    (r = scmp(a->parent, b->parent)))
		return r;
	switch (a->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		for (i = 0; i < a->n && i < b->n; i++)
			if ((r = member_cmp(&a->members[i], &b->members[i])))
				return r;
		break;
	case KIND_ENUM:
		if ((r = ncmp(a->is_signed, b->is_signed)) ||
		    (r = scmp(a->underlying, b->underlying)))
			return r;
		for (i = 0; i < a->n && i < b->n; i++)
			if ((r = scmp(a->enums[i].name, b->enums[i].name)) ||
			    (r = ncmp(a->enums[i].hi, b->enums[i].hi)) ||
			    (r = ncmp(a->enums[i].value, b->enums[i].value)))
				return r;
		break;
	case KIND_TYPEDEF:
		if ((r = scmp(a->resolved, b->resolved)))
			return r;
		for (i = 0; i < a->n && i < b->n; i++)
			if ((r = scmp(a->chain[i], b->chain[i])))
				return r;
		break;
	default:
		break;
	}
	return ncmp(a->n, b->n);
}

int ktype_cmp(const struct ktype *a, const struct ktype *b)
{
	int r;

	/* enum kind is in the order of the kinds' names */
	if ((r = ncmp(a->kind, b->kind)) || (r = scmp(a->name, b->name)) ||
	    (r = scmp(a->decl_file, b->decl_file)) ||
	    (r = ncmp(a->decl_line, b->decl_line)))
		return r;
	return layout_cmp(a, b);
}

bool ktype_same_layout(const struct ktype *a, const struct ktype *b)
{
	return a->kind == b->kind && scmp(a->name, b->name) == 0 &&
	       layout_cmp(a, b) == 0;
}

/* ---- the set --------------------------------------------------------- */

struct model *model_new(void)
{
	struct model *m = xcalloc(1, sizeof(*m));

	arena_init(&m->arena);
	m->strs = strtab_new();
	hset_init(&m->set, sizeof(uint32_t), 1024);
	return m;
}

struct kept {
	struct kept *next;
	void (*free_fn)(void *);
	void *p;
};

void model_keep(struct model *m, void (*free_fn)(void *), void *p)
{
	struct kept *k = xmalloc(sizeof(*k));

	*k = (struct kept){ m->kept, free_fn, p };
	m->kept = k;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	while (m->kept) {
		struct kept *k = m->kept;

		m->kept = k->next;
		k->free_fn(k->p);
		free(k);
	}
	arena_release(&m->arena);
	strtab_free(m->strs);
	free(m->types);
	free(m->units);
	hset_release(&m->set);
	free(m);
}

static bool idx_used(const void *e, const void *ctx)
{
	(void)ctx;
	return *(const uint32_t *)e != 0;
}

static uint64_t idx_hash(const void *e, const void *ctx)
{
	const struct model *m = ctx;

	return m->types[*(const uint32_t *)e - 1]->hash;
}

/* A type to add, and its hash. */
struct type_key {
	const struct ktype *t;
	uint64_t h;
};

static bool idx_match(const void *e, const void *key, const void *ctx)
{
	const struct model *m = ctx;
	const struct type_key *k = key;
	const struct ktype *o = m->types[*(const uint32_t *)e - 1];

	return o->hash == k->h && ktype_cmp(o, k->t) == 0;
}

/* The reader interns into m->strs already; a merge re-interns. */
static const char *own_in(struct model *m, const char *s, bool foreign)
{
	return foreign ? strtab_intern(m->strs, s) : s;
}

static struct ktype *ktype_copy(struct model *m, const struct ktype *t,
				bool foreign)
{
	struct ktype *c = arena_alloc(&m->arena, sizeof(*c));
	uint32_t i;

	*c = *t;
	c->name = own_in(m, t->name, foreign);
	c->parent = own_in(m, t->parent, foreign);
	c->decl_file = own_in(m, t->decl_file, foreign);
	c->underlying = own_in(m, t->underlying, foreign);
	c->resolved = own_in(m, t->resolved, foreign);
	switch (t->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		c->members = arena_alloc(&m->arena, t->n * sizeof(*c->members));
		for (i = 0; i < t->n; i++) {
			struct member *d = &c->members[i];

			*d = t->members[i];
			d->name = own_in(m, d->name, foreign);
			d->type = own_in(m, d->type, foreign);
			d->resolved = own_in(m, d->resolved, foreign);
		}
		break;
	case KIND_ENUM:
		c->enums = arena_alloc(&m->arena, t->n * sizeof(*c->enums));
		for (i = 0; i < t->n; i++) {
			c->enums[i].name = own_in(m, t->enums[i].name, foreign);
			c->enums[i].value = t->enums[i].value;
			c->enums[i].hi = t->enums[i].hi;
		}
		break;
	case KIND_TYPEDEF:
		c->chain = arena_alloc(&m->arena, t->n * sizeof(*c->chain));
		for (i = 0; i < t->n; i++)
			c->chain[i] = own_in(m, t->chain[i], foreign);
		break;
	default:
		break;
	}
	return c;
}

static struct ktype *add(struct model *m, const struct ktype *t, bool foreign)
{
	/* a foreign type is first copied into this model's strings, so it
	 * hashes and compares like the model's own (the copy of a duplicate
	 * stays unused in the arena) */
	struct ktype *c = foreign ? ktype_copy(m, t, true) : NULL;
	struct type_key k;
	uint32_t *e;

	if (c) {
		c->sight = NULL; /* the other model's */
		t = c;
	}
	k.t = t;
	k.h = ktype_hash(t);
	hset_reserve(&m->set, 1024, idx_used, idx_hash, m);
	e = hset_find(&m->set, k.h, idx_used, idx_match, &k, m);
	if (*e)
		return m->types[*e - 1];
	if (m->ntypes == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 256;
		m->types = xrealloc(m->types, m->cap * sizeof(*m->types));
	}
	m->types[m->ntypes] = c ? c : ktype_copy(m, t, false);
	m->types[m->ntypes]->hash = k.h;
	*e = (uint32_t)++m->ntypes;
	m->set.n++;
	return m->types[m->ntypes - 1];
}

struct ktype *model_add(struct model *m, const struct ktype *t)
{
	return add(m, t, false);
}

void model_unit(struct model *m, size_t u, const char *name)
{
	if (u >= m->nunits) {
		m->units = xrealloc(m->units, (u + 1) * sizeof(*m->units));
		memset(m->units + m->nunits, 0,
		       (u + 1 - m->nunits) * sizeof(*m->units));
		m->nunits = u + 1;
	}
	if (name)
		m->units[u] = name;
}

void sight_note(struct model *m, struct ktype *t, uint32_t u)
{
	struct sight *s = t->sight;

	if (!s) {
		s = t->sight = arena_alloc(&m->arena, sizeof(*s));
		memset(s, 0, sizeof(*s));
	}
	if (s->last == u + 1)
		return; /* a unit holds a type once */
	s->last = u + 1;
	if (s->n < SIGHT_KEEP)
		s->first[s->n] = u;
	s->n++;
}

/* Add the units of FROM, numbered BASE on, to those of T in M: both
 * lists are in order and their units distinct, the first few of the
 * two are the first few of the union. */
static void sight_merge(struct model *m, struct ktype *t,
			const struct sight *from, uint32_t base)
{
	struct sight *s = t->sight, r = { 0 };
	uint32_t i = 0, j = 0, ni, nj;

	if (!s) {
		s = t->sight = arena_alloc(&m->arena, sizeof(*s));
		memset(s, 0, sizeof(*s));
	}
	ni = s->n < SIGHT_KEEP ? s->n : SIGHT_KEEP;
	nj = from->n < SIGHT_KEEP ? from->n : SIGHT_KEEP;
	while (r.n < SIGHT_KEEP && (i < ni || j < nj)) {
		if (j == nj || (i < ni && s->first[i] < from->first[j] + base))
			r.first[r.n++] = s->first[i++];
		else
			r.first[r.n++] = from->first[j++] + base;
	}
	r.n = s->n + from->n;
	*s = r;
}

/* SRC's types into DST, SRC's units numbered BASE on. */
static void merge(struct model *dst, const struct model *src, size_t base)
{
	size_t i;

	for (i = 0; i < src->ntypes; i++) {
		struct ktype *t = add(dst, src->types[i], true);

		if (src->types[i]->sight)
			sight_merge(dst, t, src->types[i]->sight,
				    (uint32_t)base);
	}
	if (src->nunits)
		model_unit(dst, base + src->nunits - 1, NULL);
	for (i = 0; i < src->nunits; i++)
		if (src->units[i])
			dst->units[base + i] =
				strtab_intern(dst->strs, src->units[i]);
	dst->count.units += src->count.units;
	dst->count.dies += src->count.dies;
	dst->count.decoded += src->count.decoded;
	dst->count.stepped += src->count.stepped;
}

void model_merge(struct model *dst, const struct model *src)
{
	merge(dst, src, 0);
}

void model_append(struct model *dst, const struct model *src)
{
	merge(dst, src, dst->nunits);
}

/* A type with the start of its sort order in one number: the kind, then
 * the first seven bytes of the name as strcmp orders them.  Most pairs
 * differ there, and are told apart without following two pointers. */
struct sort_key {
	uint64_t key;
	struct ktype *t;
};

static uint64_t sort_key_of(const struct ktype *t)
{
	uint64_t k = (uint64_t)t->kind << 56;
	const unsigned char *s = (const unsigned char *)t->name;
	int i;

	for (i = 0; s && i < 7 && s[i]; i++)
		k |= (uint64_t)s[i] << (48 - 8 * i);
	return k;
}

static int sort_key_cmp(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return ktype_cmp(x->t, y->t);
}

void model_sort(struct model *m)
{
	struct sort_key *v;
	size_t i;

	if (m->ntypes) {
		v = xmalloc(m->ntypes * sizeof(*v));
		for (i = 0; i < m->ntypes; i++)
			v[i] = (struct sort_key){ sort_key_of(m->types[i]),
						  m->types[i] };
		qsort(v, m->ntypes, sizeof(*v), sort_key_cmp);
		for (i = 0; i < m->ntypes; i++)
			m->types[i] = v[i].t;
		free(v);
	}
	hset_clear(&m->set);
	for (i = 0; i < m->ntypes; i++)
		*(uint32_t *)hset_find(&m->set, m->types[i]->hash, idx_used,
				       NULL, NULL, m) = (uint32_t)i + 1;
	m->set.n = m->ntypes;
}

/* Whether enums A and B list the same enumerators with the same values. */
static bool same_enumerators(const struct ktype *a, const struct ktype *b)
{
	uint32_t i;

	if (a->n != b->n || a->size != b->size)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->enums[i].name, b->enums[i].name) != 0 ||
		    a->enums[i].value != b->enums[i].value ||
		    a->enums[i].hi != b->enums[i].hi)
			return false;
	return true;
}

static bool is_anon_top(const struct ktype *t)
{
	return t->kind == KIND_ENUM && strncmp(t->name, "<anon:", 6) == 0;
}

/* The enum named by a path whose first enumerator is NAME, in T[0..N)
 * sorted by first enumerator, or NULL. */
static const struct ktype *by_first(struct ktype **v, size_t n,
				    const struct ktype *anon)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid]->enums[0].name, anon->enums[0].name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && strcmp(v[lo]->enums[0].name, anon->enums[0].name) == 0;
	     lo++)
		if (same_enumerators(v[lo], anon))
			return v[lo];
	return NULL;
}

static int first_enum_cmp(const void *a, const void *b)
{
	const struct ktype *x = *(struct ktype *const *)a;
	const struct ktype *y = *(struct ktype *const *)b;

	return strcmp(x->enums[0].name, y->enums[0].name);
}

void model_drop_anon_enum_copies(struct model *m)
{
	struct ktype **named = xcalloc(m->ntypes + 1, sizeof(*named));
	size_t i, k = 0, nn = 0;

	for (i = 0; i < m->ntypes; i++)
		if (m->types[i]->kind == KIND_ENUM && m->types[i]->n &&
		    m->types[i]->parent && !is_anon_top(m->types[i]))
			named[nn++] = m->types[i];
	if (nn)
		qsort(named, nn, sizeof(*named), first_enum_cmp);
	for (i = 0; i < m->ntypes; i++)
		if (!is_anon_top(m->types[i]) || !m->types[i]->n ||
		    !by_first(named, nn, m->types[i]))
			m->types[k++] = m->types[i];
	free(named);
	m->ntypes = k;
	model_sort(m);
}

/* Into SEG, what names the anonymous types met through member M, which
 * follows the N members MV: its name, or "<anon@BYTE>", "#K" added for
 * the K-th anonymous member at that byte. */
void member_seg(struct sb *seg, const struct member *m, const struct member *mv,
		uint32_t n)
{
	unsigned dup = 1;
	uint32_t i;

	sb_reset(seg);
	if (m->name) {
		sb_add(seg, m->name);
		return;
	}
	for (i = 0; i < n; i++)
		if (!mv[i].name && mv[i].bitpos / 8 == m->bitpos / 8)
			dup++;
	sb_add(seg, "<anon@");
	sb_addu(seg, m->bitpos / 8);
	if (dup > 1)
		sb_addf(seg, "#%u", dup);
	sb_add(seg, ">");
}
