// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fingerprints of type DIEs, and the set of those emitted so far.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "fingerprint.h"
#include "lines.h"
#include "spell.h"

/* ---- fingerprints ---------------------------------------------------- */

/* Grow R's table to NSLOTS, with the entries of this unit. */
static void fpm_grow(struct fpmemo *m, size_t nslots)
{
	struct fpm_ent *old = m->slots;
	size_t i, n = m->nslots, mask = nslots - 1, h;

	m->slots = xcalloc(nslots, sizeof(*m->slots));
	m->nslots = nslots;
	for (i = 0; i < n; i++) {
		if (old[i].gen != m->gen)
			continue;
		for (h = fpm_hash(old[i].off) & mask; m->slots[h].gen == m->gen;
		     h = (h + 1) & mask)
			;
		m->slots[h] = old[i];
	}
	free(old);
}

/* The entry of the DIE at OFF, made (FP_NONE) when new.  The table may
 * move when a later call makes an entry. */
struct fpm_ent *fpm_slot(struct reader *r, uint64_t off)
{
	struct fpmemo *m = &r->fpm;
	struct fpm_ent *e;
	size_t mask, h;

	if (2 * (m->n + 1) > m->nslots)
		fpm_grow(m, m->nslots ? 2 * m->nslots : 4096);
	mask = m->nslots - 1;
	for (h = fpm_hash(off) & mask;; h = (h + 1) & mask) {
		e = &m->slots[h];
		if (e->gen != m->gen) {
			e->gen = m->gen;
			e->off = off;
			e->state = FP_NONE;
			m->n++;
			return e;
		}
		if (e->off == off)
			return e;
	}
}

void fp_clear(struct reader *r)
{
	struct fpmemo *m = &r->fpm;

	if (++m->gen == 0) {
		if (m->slots)
			memset(m->slots, 0, m->nslots * sizeof(*m->slots));
		memset(m->recent, 0, sizeof(m->recent));
		m->gen = 1;
	}
	m->n = 0;
}

void fp_release(struct reader *r)
{
	free(r->fpm.slots);
	r->fpm.slots = NULL;
	r->fpm.nslots = r->fpm.n = 0;
}

/*
 * Most units describe again the types of the units before them: every
 * unit that includes <linux/sched.h> has its own struct task_struct.
 * Spelling a type costs far more than reading its DIEs, so a named type
 * is first reduced to a 128-bit fingerprint of everything reading it can
 * look at, and skipped when this reader has emitted that fingerprint
 * before.  In go the tag, every attribute but DW_AT_sibling, and the
 * children; a file index as the file name it stands for; a reference as
 * the fingerprint of its target.  A named aggregate reached through a
 * reference adds its own attributes only (a use spells its name and reads
 * its size), which also ends the recursion of C's types.  Strings in
 * .debug_str go in by address: one reader maps one copy, so one address
 * is one string, and a string that is stored twice only costs a miss.
 * A type that reaches an anonymous enum is never skipped, because
 * reading it decides whether that enum is listed on its own.
 */

struct fp_walk {
	struct reader *r;
	struct fp *f;
	unsigned depth;
	int tag; /* of the DIE whose attributes these are */
};

/* A named aggregate as a use reads it: its name, and unless the use is a
 * pointer, its size (or for an enum without one, its type's). */
static void fp_use(struct reader *r, struct die *die, int tag, bool pointer,
		   struct fp *f, unsigned depth)
{
	const char *name = die_name(die);
	struct dattr a;
	uint64_t size;
	struct die t;

	fp_mix(f, (uint64_t)tag | UINT64_C(1) << 32);
	if (!name) {
		f->never = true;
		return;
	}
	fp_bytes(f, name, strlen(name));
	if (pointer)
		return;
	if (die_attr(die, DW_AT_byte_size, &a)) {
		if (dattr_udata(&a, &size) != 0)
			f->never = true;
		fp_mix(f, size + 1);
		return;
	}
	fp_mix(f, 0);
	if (tag == DW_TAG_enumeration_type && die_attr(die, DW_AT_type, &a)) {
		struct fp u = { .h = { 0, 0 } };

		if (dattr_ref(&a, &t) != 0) {
			f->never = true;
			return;
		}
		fp_die(r, &t, &u, depth + 1, false);
		f->never |= u.never;
		fp_mix2(f, u.h[0], u.h[1]);
	}
}

/* Attributes that reading takes with dattr_udata whatever the form. */

/* A reference into W's fingerprint: that of its target, or of a use of
 * a named aggregate. */
static void fp_ref(struct fp_walk *w, struct dattr *a)
{
	struct fp *f = w->f;
	struct fp t = { .h = { 0, 0 } };
	struct fpm_ent *e;
	struct die target;
	bool pointer;
	int tag;

	if (dattr_ref(a, &target) != 0) {
		f->never = true;
		return;
	}
	/* a memoised target needs no abbreviation lookup */
	e = fpm_slot(w->r, die_offset(&target));
	if (e->state == FP_DONE) {
		fp_mix2(f, e->fp[0], e->fp[1]);
		return;
	}
	tag = die_tag(&target);
	pointer = w->tag == DW_TAG_pointer_type ||
		  w->tag == DW_TAG_reference_type ||
		  w->tag == DW_TAG_rvalue_reference_type;
	if (is_aggregate(tag) && die_has_attr(&target, DW_AT_name))
		fp_use(w->r, &target, tag, pointer, &t, w->depth);
	else
		fp_die(w->r, &target, &t, w->depth + 1, false);
	f->never |= t.never;
	fp_mix2(f, t.h[0], t.h[1]);
}

/* A value of FORM, no reference, into F; F->never when it is not read. */
static void fp_value(struct fp *f, struct dattr *a, unsigned form)
{
	uint64_t u = 0;
	int64_t sv = 0;
	const unsigned char *blk;
	size_t blen;
	const char *s;
	bool flag = false;

	switch (form) {
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_strx:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
	case DW_FORM_GNU_strp_alt:
		if (!(s = dattr_string(a)))
			f->never = true;
		else
			fp_mix(f, (uint64_t)(uintptr_t)s);
		break;
	case DW_FORM_string:
		if (!(s = dattr_string(a)))
			f->never = true;
		else
			fp_bytes(f, s, strlen(s));
		break;
	case DW_FORM_flag:
	case DW_FORM_flag_present:
		if (dattr_flag(a, &flag) != 0)
			f->never = true;
		fp_mix(f, flag);
		break;
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dattr_sdata(a, &sv) != 0)
			f->never = true;
		fp_mix(f, (uint64_t)sv);
		break;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (dattr_udata(a, &u) != 0)
			f->never = true;
		fp_mix(f, u);
		break;
	case DW_FORM_exprloc:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_data16:
		if (dattr_block(a, &blk, &blen) != 0)
			f->never = true;
		else
			fp_bytes(f, blk, blen);
		break;
	default:
		f->never = true;
	}
}

static int fp_attr(struct dattr *a, void *arg)
{
	struct fp_walk *w = arg;
	struct fp *f = w->f;
	unsigned at = a->at, form = a->form;
	uint64_t u = 0;

	if (at == DW_AT_sibling)
		return 0;
	/* producers pick the smallest form per unit; where reading takes
	 * any constant form as an unsigned number, only that number counts */
	if (fp_udata_attr(at) && fp_const_form(form)) {
		if (dattr_udata(a, &u) != 0)
			f->never = true;
		else if (at == DW_AT_decl_file)
			u = (uintptr_t)decl_file_name(w->r, u); /* interned */
		fp_mix(f, (uint64_t)at << 16 | 0xffff);
		fp_mix(f, u);
		return f->never;
	}
	fp_mix(f, (uint64_t)at << 16 | form);
	switch (form) {
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
	case DW_FORM_ref_udata:
	case DW_FORM_ref_addr:
	case DW_FORM_ref_sig8:
		fp_ref(w, a);
		break;
	default:
		fp_value(f, a, form);
	}
	if (f->never) {
		if (!w->r->own)
			(void)dwarf_errno(); /* reading in full reports it */
		return 1;
	}
	return 0;
}

/* Fingerprint of DIE into F: its children too, unless it is a named
 * aggregate below the top (DEPTH 0) of the walk.  Only DIEs that a
 * reference can reach are memoised, not CHILDren (members, enumerators,
 * parameters, subranges), which only their parent reaches. */
void fp_die(struct reader *r, struct die *die, struct fp *f, unsigned depth,
	    bool child)
{
	Dwarf_Off off;
	int tag;
	bool named_agg, deep;
	struct fp_walk w = { .r = r, .f = f, .depth = depth };
	struct fpm_ent *e;
	struct die c;
	int rc;

	if (die_own(die)) {
		fpo_die(r, &die->o, f, depth, child);
		return;
	}
	off = die_offset(die);
	w.tag = tag = die_tag(die);
	named_agg = is_aggregate(tag) && die_has_attr(die, DW_AT_name);
	deep = depth == 0 || !named_agg;

	/* the one deep walk of a named aggregate is not memoised */
	e = child || (named_agg && depth == 0) ? NULL : fpm_slot(r, off);
	if (e && e->state == FP_DONE) {
		f->h[0] = e->fp[0];
		f->h[1] = e->fp[1];
		return;
	}
	if ((e && e->state != FP_NONE) || depth > KABI_MAX_TYPE_DEPTH ||
	    (tag == DW_TAG_enumeration_type && !named_agg && depth > 0)) {
		/* a cycle, too deep, or a use of an anonymous enum: reading
		 * it decides whether that enum is listed (read.c) */
		f->never = true;
		return;
	}
	if (e)
		e->state = FP_BUSY;
	fp_mix(f, (uint64_t)tag);
	if (die_attrs(die, fp_attr, &w) != 0)
		f->never = true;
	if (deep && !f->never && die_has_children(die)) {
		rc = die_child(die, &c);
		while (rc == 0 && !f->never) {
			struct fp t = { .h = { 0, 0 } };

			fp_die(r, &c, &t, depth + 1, true);
			f->never |= t.never;
			fp_mix2(f, t.h[0], t.h[1]);
			rc = die_sibling(&c, &c);
		}
		if (rc < 0)
			f->never = true;
	}
	fp_end(f);
	if (!e)
		return;
	e = fpm_slot(r, off); /* the table may have moved */
	e->state = f->never ? FP_NEVER : FP_DONE;
	e->fp[0] = f->h[0];
	e->fp[1] = f->h[1];
}

static bool seen_used(const void *e, const void *ctx)
{
	const uint64_t *k = e;

	(void)ctx;
	return k[0] || k[1];
}

static uint64_t seen_hash(const void *e, const void *ctx)
{
	(void)ctx;
	return *(const uint64_t *)e;
}

static bool seen_match(const void *e, const void *key, const void *ctx)
{
	const uint64_t *a = e, *b = key;

	(void)ctx;
	return a[0] == b[0] && a[1] == b[1];
}

static bool seen_has(struct reader *r, const uint64_t k[2])
{
	if (!r->seen.nslots)
		return false;
	return seen_used(hset_find(&r->seen, k[0], seen_used, seen_match, k,
				   NULL),
			 NULL);
}

static bool seen_group(struct reader *r, const uint64_t k[2], uint32_t g[2])
{
	const uint64_t *e;

	if (!r->seen.nslots)
		return false;
	e = hset_find(&r->seen, k[0], seen_used, seen_match, k, NULL);
	if (!seen_used(e, NULL))
		return false;
	memcpy(g, e + 2, 2 * sizeof(*g));
	return true;
}

static void seen_add_group(struct reader *r, const uint64_t k[2],
			   uint32_t start, uint32_t n)
{
	uint64_t *e;

	hset_reserve(&r->seen, 4096, seen_used, seen_hash, NULL);
	e = hset_find(&r->seen, k[0], seen_used, seen_match, k, NULL);
	if (!seen_used(e, NULL)) {
		memcpy(e, k, 2 * sizeof(*k));
		if (r->seen.size > 2 * sizeof(*k)) {
			uint32_t g[2] = { start, n };

			memcpy(e + 2, g, sizeof(g));
		}
		r->seen.n++;
	}
}

/* The unit being read holds R->grp[START] to R->grp[START + N - 1]. */
static void sight_group(struct reader *r, uint32_t start, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		sight_note(r->model, r->grp[start + i], (uint32_t)r->unit);
}

/* A unit that skips a type another emitted still holds what emitting it
 * made: the seen set keeps where that is in r->grp. */
bool seen_note(struct reader *r, const struct fp *f)
{
	uint32_t g[2];

	if (f->never)
		return false;
	if (!r->opts->sights)
		return seen_has(r, f->h);
	if (!seen_group(r, f->h, g))
		return false;
	sight_group(r, g[0], g[1]);
	return true;
}

uint32_t seen_open(struct reader *r)
{
	r->grp_on = r->opts->sights;
	return (uint32_t)r->ngrp;
}

void seen_close(struct reader *r, const struct fp *f, uint32_t start)
{
	uint32_t n = (uint32_t)(r->ngrp - start);

	r->grp_on = false;
	sight_group(r, start, n);
	if (!f->never && !r->failed)
		seen_add_group(r, f->h, start, n);
	else
		r->ngrp = start; /* emitted again where it is met again */
}
