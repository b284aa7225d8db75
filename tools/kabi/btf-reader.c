// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every part of the BTF reader calls: its life, its one failure,
 * names and interning, scratch strings.
 */
#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>

#include "btf-reader.h"

void bfail(struct breader *r, const char *fmt, ...)
{
	char msg[512];
	struct sb b;
	va_list ap;

	if (r->failed)
		return;
	r->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sb_init(&b);
	sb_add2(&b, "cannot read '", r->path);
	sb_add2(&b, "': ", msg);
	*r->err = sb_take(&b);
}

const char *bname(const struct breader *r, uint32_t off)
{
	const char *s = btf__name_by_offset(r->btf, off);

	return s && *s ? s : NULL;
}

const char *bintern(struct breader *r, const char *s, size_t n)
{
	return strtab_intern_n(r->model->strs, s, n);
}

const char *bintern_btf(struct breader *r, const char *s)
{
	return strtab_intern_kept(r->model->strs, s, strlen(s));
}

/* ---- names by offset ------------------------------------------------- */

/* BTF's string section holds each string once, so a name's offset is
 * its identity: a name met again (a member name, mostly) is found by a
 * number, without its text being measured or hashed. */

static bool name_used(const void *e, const void *ctx)
{
	(void)ctx;
	return ((const struct name_ent *)e)->key != 0;
}

static uint64_t name_hash_key(uint64_t key)
{
	return (key * UINT64_C(0x9e3779b97f4a7c15)) >> 17;
}

static uint64_t name_hash(const void *e, const void *ctx)
{
	(void)ctx;
	return name_hash_key(((const struct name_ent *)e)->key);
}

static bool name_match(const void *e, const void *key, const void *ctx)
{
	(void)ctx;
	return ((const struct name_ent *)e)->key == *(const uint64_t *)key;
}

const char *bname_interned(struct breader *r, uint32_t off)
{
	uint64_t key = (uint64_t)off + 1;
	struct name_ent *e;
	const char *s;

	hset_reserve(&r->names, 4096, name_used, name_hash, NULL);
	e = hset_find(&r->names, name_hash_key(key), name_used, name_match,
		      &key, NULL);
	if (e->key)
		return e->s;
	s = bname(r, off);
	e->key = key;
	e->s = s ? bintern_btf(r, s) : NULL;
	r->names.n++;
	return e->s;
}

void members_prefetch(struct breader *r, const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	size_t mask = r->names.nslots - 1;
	uint16_t i;

	for (i = 0; i < btf_vlen(t); i++) {
		uint64_t h = name_hash_key((uint64_t)m[i].name_off + 1);

		__builtin_prefetch(hset_at(&r->names, h & mask));
		if (m[i].type < r->cnt)
			__builtin_prefetch(r->memo[m[i].type]);
	}
	/* names met for the first time: their string table slots too */
	for (i = 0; i < btf_vlen(t); i++) {
		uint64_t key = (uint64_t)m[i].name_off + 1;
		const struct name_ent *e =
			hset_find(&r->names, name_hash_key(key), name_used,
				  name_match, &key, NULL);
		const char *s;

		if (!e->key && (s = bname(r, m[i].name_off)))
			strtab_prefetch(r->model->strs, s);
	}
}

struct sb *scratch(struct breader *r, unsigned d, unsigned k)
{
	struct sb *b = &r->scratch[d][k];

	sb_reset(b);
	return b;
}

struct breader *breader_new(struct model *m, const char *path,
			    const struct btf *btf, const struct read_opts *o,
			    char **err)
{
	const struct btf *base = btf__base_btf(btf);
	struct breader *r = xcalloc(1, sizeof(*r));
	uint32_t id;

	*r = (struct breader){ .path = path,
			       .err = err,
			       .model = m,
			       .opts = o,
			       .btf = btf,
			       .first = base ? btf__type_cnt(base) : 1,
			       .cnt = btf__type_cnt(btf) };
	r->ptr_size = btf__pointer_size(btf);
	if (!r->ptr_size)
		r->ptr_size = sizeof(void *);
	r->align = ztable_new((r->cnt - r->first + 1) * sizeof(*r->align));
	r->anon_used = xcalloc(r->cnt - r->first + 1, sizeof(*r->anon_used));
	r->memo = ztable_new(r->cnt * sizeof(*r->memo));
	/* sized up front rather than grown by doubling as they fill: a
	 * kernel's BTF has about one distinct member name per four types
	 * and one interned string per two (more, sized at once, is slower) */
	hset_init(&r->names, sizeof(struct name_ent), 0);
	hset_reserve_n(&r->names, (r->cnt - r->first) / 4, name_used, name_hash,
		       NULL);
	strtab_reserve(m->strs, (r->cnt - r->first) / 2);
	r->types = xcalloc(r->cnt, sizeof(*r->types));
	for (id = 0; id < r->cnt; id++)
		r->types[id] = btf__type_by_id(btf, id);
	return r;
}

void breader_free(struct breader *r)
{
	unsigned d, k;

	if (!r)
		return;
	for (d = 0; d < KABI_MAX_TYPE_DEPTH + 2; d++) {
		for (k = 0; k < SCR_NR; k++)
			sb_release(&r->scratch[d][k]);
		free(r->mv[d]);
	}
	hset_release(&r->names);
	free(r->types);
	ztable_free(r->memo, r->cnt * sizeof(*r->memo));
	ztable_free(r->align, (r->cnt - r->first + 1) * sizeof(*r->align));
	free(r->anon_used);
	free(r);
}
