// SPDX-License-Identifier: GPL-2.0-only
/*
 * Error reporting, allocation, arenas, interning, strings and JSON quoting.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kabi.h"

static const char prog[] = "kabi";

void kabi_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- memory budget -------------------------------------------------- */

/*
 * One limit for the process on the memory that holds types and names
 * (arena blocks and string buffers): a hostile input has to end with a
 * message, not with the OOM killer.  The limit is set by main() before
 * any thread starts and only read afterwards; the count is shared by the
 * reading threads, hence atomic.  libdw's own memory is not counted: it
 * grows with the size of the input, not with what the input describes.
 */
static uint64_t mem_limit = KABI_MEM_LIMIT_DEFAULT;
static atomic_uint_fast64_t mem_used;
static atomic_flag mem_reported = ATOMIC_FLAG_INIT;

void mem_set_limit(uint64_t bytes)
{
	mem_limit = bytes;
}

/* The limit in the unit it was most likely given in. */
static void mem_limit_str(char *buf, size_t n)
{
	static const char units[] = "GMK";
	unsigned shift = 30, i;

	for (i = 0; i < 3; i++, shift -= 10) {
		if (mem_limit >> shift &&
		    !(mem_limit & ((UINT64_C(1) << shift) - 1))) {
			snprintf(buf, n, "%" PRIu64 "%c", mem_limit >> shift,
				 units[i]);
			return;
		}
	}
	snprintf(buf, n, "%" PRIu64, mem_limit);
}

static void mem_charge(size_t n)
{
	uint64_t used =
		atomic_fetch_add_explicit(&mem_used, n, memory_order_relaxed) +
		n;
	char lim[32];

	if (!mem_limit || used <= mem_limit)
		return;
	/* Another thread may get here too: one message, then exit without
	 * running atexit handlers over half-built models. */
	if (atomic_flag_test_and_set(&mem_reported))
		for (;;)
			pause();
	mem_limit_str(lim, sizeof(lim));
	kabi_err(
		"memory limit of %s reached by the types and names read so far (see --max-memory)",
		lim);
	_Exit(KABI_EXIT_ERROR);
}

static void mem_uncharge(size_t n)
{
	atomic_fetch_sub_explicit(&mem_used, n, memory_order_relaxed);
}

static void oom(size_t n)
{
	kabi_err("cannot allocate %zu bytes: out of memory", n);
	exit(KABI_EXIT_ERROR);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		oom(n * sz);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

/* Below this, the zeroed tables come from malloc as anything else. */
#define ZTABLE_MIN (256 * 1024)

void *ztable_new(size_t n)
{
	void *p;

	if (n < ZTABLE_MIN)
		return xcalloc(1, n);
	/* zero pages mapped in one call rather than faulted in one by one
	 * when first written: a fault costs more than the page's zeroing */
	p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		oom(n);
	return p;
}

void ztable_free(void *p, size_t n)
{
	if (!p)
		return;
	if (n < ZTABLE_MIN)
		free(p);
	else
		munmap(p, n);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* Eight bytes a step, multiply and fold; for interning and dedup keys only. */
uint64_t hash_bytes(const void *p, size_t n, uint64_t seed)
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

/* ---- arena ----------------------------------------------------------- */

struct arena_blk {
	struct arena_blk *next;
	size_t used, size;
	max_align_t data[];
};

/* Blocks grow from the first to the last size: a small model takes
 * little, and a large one's blocks are mapped whole (ztable_new). */
#define ARENA_BLK_FIRST (64 * 1024)
#define ARENA_BLK_LAST (1024 * 1024)

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->blk = ARENA_BLK_FIRST;
}

void arena_release(struct arena *a)
{
	struct arena_blk *b, *next;

	if (!a)
		return;
	for (b = a->head; b; b = next) {
		next = b->next;
		mem_uncharge(sizeof(*b) + b->size);
		ztable_free(b, sizeof(*b) + b->size);
	}
	a->head = NULL;
}

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_blk *b = a->head;
	size_t al = sizeof(max_align_t);
	void *p;

	n = (n + al - 1) / al * al;
	if (!b || b->size - b->used < n) {
		size_t size = n > a->blk ? n : a->blk;

		mem_charge(sizeof(*b) + size);
		b = ztable_new(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = a->head;
		a->head = b;
		if (a->blk < ARENA_BLK_LAST)
			a->blk *= 2;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

/* ---- string table ---------------------------------------------------- */

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

/* ---- string builder -------------------------------------------------- */

void sb_init(struct sb *b)
{
	b->buf = NULL;
	b->len = b->cap = 0;
}

void sb_release(struct sb *b)
{
	mem_uncharge(b->cap);
	free(b->buf);
	sb_init(b);
}

char *sb_take(struct sb *b)
{
	char *buf = b->buf;

	mem_uncharge(b->cap);
	sb_init(b);
	return buf;
}

void sb_reset(struct sb *b)
{
	b->len = 0;
	if (b->buf)
		b->buf[0] = '\0';
}

static void sb_reserve(struct sb *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	mem_charge((b->len + n + 1) * 2 - b->cap);
	b->cap = (b->len + n + 1) * 2;
	b->buf = xrealloc(b->buf, b->cap);
}

void sb_addn(struct sb *b, const char *s, size_t n)
{
	sb_reserve(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

void sb_add(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

void sb_addf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_addu(struct sb *b, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	sb_addn(b, p, (size_t)(buf + sizeof(buf) - p));
}

void sb_add2(struct sb *b, const char *x, const char *y)
{
	sb_add(b, x);
	sb_add(b, y);
}

const char *sb_str(struct sb *b)
{
	return b->buf ? b->buf : "";
}

/* ---- JSON ------------------------------------------------------------ */

void json_str(FILE *f, const char *s)
{
	const unsigned char *c;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*c < 0x20)
				fprintf(f, "\\u%04x", *c);
			else
				fputc(*c, f);
		}
	}
	fputc('"', f);
}
