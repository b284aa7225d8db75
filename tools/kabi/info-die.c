// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DIEs of kabi's decoder (info.h): a DIE found at its offset, its
 * first child and its next sibling, a subtree passed over by
 * DW_AT_sibling or by the sizes of its forms; and the count of what was
 * read (kabi dump --stats), which steps over every DIE again.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "util.h"

/* ---- DIEs ------------------------------------------------------------ */

/* Past the attributes of A, which start at P; NULL (failed) when they
 * run past the unit or hold a form kabi does not know. */
static const unsigned char *attrs_end(struct unit *u, const struct abbrev *a,
				      const unsigned char *p, uint64_t off)
{
	const unsigned char *end = dec_unit_end(u);
	uint16_t i;

	if (a->bad) {
		dec_fail(
			u->dec,
			"unknown form 0x%x of attribute 0x%x at DIE 0x%" PRIx64,
			a->spec[a->bad - 1].form, a->spec[a->bad - 1].at, off);
		return NULL;
	}
	if (a->fixed >= 0) {
		if ((size_t)(end - p) < (size_t)a->fixed)
			goto past_end;
		return p + a->fixed;
	}
	for (i = 0; i < a->n; i++) {
		const struct aspec *s = &a->spec[i];

		if (s->size >= 0 && (size_t)(end - p) >= (size_t)s->size)
			p += s->size;
		else if (!(p = dec_skip_form(u, u->tab, s->form, p, end)))
			goto past_end;
	}
	return p;
past_end:
	dec_fail(u->dec, "DIE 0x%" PRIx64 " runs past the end of its unit",
		 off);
	return NULL;
}

/* The entry at OFF of unit U: 1 a DIE into D, 0 a null entry (D->e past
 * it), -1 failed. */
int dec_die(struct unit *u, uint64_t off, struct odie *d)
{
	const unsigned char *p, *end;
	const struct abbrev *a;
	uint64_t code;

	if (!u->tab && dec_unit_prepare(u) != 0)
		return -1;
	if (off < u->die0 || off >= u->end) {
		dec_fail(u->dec,
			 "DIE offset 0x%" PRIx64
			 " is outside its unit (0x%" PRIx64 " to 0x%" PRIx64
			 ")",
			 off, u->die0, u->end);
		return -1;
	}
	p = dec_at_off(u, off);
	end = dec_unit_end(u);
	if (dec_uleb(&p, end, &code) != 0) {
		dec_fail(u->dec,
			 "DIE 0x%" PRIx64 " runs past the end of its unit",
			 off);
		return -1;
	}
	if (code == 0) {
		d->e = p;
		return 0;
	}
	a = dec_abbrev_find(u->tab, code);
	if (!a) {
		dec_fail(u->dec,
			 "abbreviation %" PRIu64 " of DIE 0x%" PRIx64
			 " is not in its table (.debug_abbrev offset 0x%" PRIx64
			 ")",
			 code, off, u->abbrev_off);
		return -1;
	}
	d->a = p;
	d->ab = a;
	d->u = u;
	d->off = off;
	d->e = attrs_end(u, a, p, off);
	if (!d->e)
		return -1;
	dec_note(u->dec, off, false);
	return 1;
}

static inline uint64_t off_of(const struct unit *u, const unsigned char *p)
{
	return u->off + (uint64_t)(p - u->data);
}

int dec_child(const struct odie *d, struct odie *c)
{
	struct unit *u = d->u;

	if (!d->ab->children)
		return 1;
	switch (dec_die(u, off_of(u, d->e), c)) {
	case 1:
		return 0;
	case 0:
		return 1;
	default:
		return -1;
	}
}

/* Where DW_AT_sibling of DIE D (spec I) points, checked; 0 (failed). */
static uint64_t sibling_target(const struct odie *d, uint16_t i)
{
	struct unit *u = d->u;
	uint64_t rel, target;
	struct oattr a;

	if (!dec_attr_at(d, i, &a))
		return 0;
	switch (a.form) {
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
		rel = dec_fixed(a.v, (unsigned)dec_form_size(a.form, 8, 8, 8),
				u->dec->big_endian);
		break;
	case DW_FORM_ref_udata:
		if (dec_uleb(&a.v, d->e, &rel) != 0)
			rel = UINT64_MAX;
		break;
	default:
		dec_fail(u->dec,
			 "DW_AT_sibling of DIE 0x%" PRIx64
			 " has form 0x%x, not a reference into its unit",
			 d->off, a.form);
		return 0;
	}
	target = rel <= u->end - u->off ? u->off + rel : UINT64_MAX;
	if (target <= d->off || target > u->end) {
		dec_fail(u->dec,
			 "DW_AT_sibling of DIE 0x%" PRIx64
			 " points to 0x%" PRIx64 ", not after it in its unit",
			 d->off, u->off + rel);
		return 0;
	}
	return target;
}

/* Past the children of D, which start at P: every DIE stepped over by
 * its forms, or jumped over by its DW_AT_sibling. */
static const unsigned char *skip_children(const struct odie *d,
					  const unsigned char *p)
{
	struct unit *u = d->u;
	const unsigned char *end = dec_unit_end(u);
	uint64_t depth = 1, code;

	while (depth) {
		const unsigned char *q = p;
		const struct abbrev *a;
		struct odie c;

		if (dec_uleb(&q, end, &code) != 0) {
			dec_fail(u->dec,
				 "children of DIE 0x%" PRIx64
				 " run past the end of its unit",
				 d->off);
			return NULL;
		}
		if (code == 0) {
			depth--;
			p = q;
			continue;
		}
		a = dec_abbrev_find(u->tab, code);
		if (!a) {
			dec_fail(
				u->dec,
				"abbreviation %" PRIu64 " of DIE 0x%" PRIx64
				" is not in its table (.debug_abbrev offset 0x%" PRIx64
				")",
				code, off_of(u, p), u->abbrev_off);
			return NULL;
		}
		c.a = q;
		c.ab = a;
		c.u = u;
		c.off = off_of(u, p);
		c.e = attrs_end(u, a, q, c.off);
		if (!c.e)
			return NULL;
		dec_note(u->dec, c.off, true);
		if (a->children && a->sibling >= 0) {
			uint64_t t = sibling_target(&c, (uint16_t)a->sibling);

			if (!t)
				return NULL;
			p = dec_at_off(u, t);
			if (t == u->end) {
				dec_fail(u->dec,
					 "children of DIE 0x%" PRIx64
					 " run past the end of its unit",
					 d->off);
				return NULL;
			}
			continue;
		}
		p = c.e;
		depth += a->children;
	}
	return p;
}

int dec_sibling(const struct odie *d, struct odie *s)
{
	struct unit *u = d->u;
	const unsigned char *p;
	uint64_t next;
	int rc;

	if (d->ab->children && d->ab->sibling >= 0) {
		next = sibling_target(d, (uint16_t)d->ab->sibling);
		if (!next)
			return -1;
		if (next == u->end)
			return 1;
	} else {
		p = d->e;
		if (d->ab->children && !(p = skip_children(d, p)))
			return -1;
		next = off_of(u, p);
		if (next >= u->end)
			return 1; /* a unit DIE's last child */
	}
	rc = dec_die(u, next, s);
	return rc == 1 ? 0 : rc == 0 ? 1 : -1;
}

/* ---- counting (kabi dump --stats) ------------------------------------ */

void dec_tally_start(struct dec *d)
{
	struct dec_tally *t = xcalloc(1, sizeof(*t));
	uint64_t end = d->nunits ? d->units[d->nunits - 1].end : 0;

	t->nwords = (size_t)(end / 64 + 1);
	t->decoded = xcalloc(t->nwords, sizeof(*t->decoded));
	t->stepped = xcalloc(t->nwords, sizeof(*t->stepped));
	dec_tally_free(d->tally);
	d->tally = t;
}

/* Count the DIEs of unit U into C, each as D's tally saw it; 0, or -1
 * (failed). */
static int tally_unit(struct unit *u, const struct dec_tally *t,
		      struct dec_count *c)
{
	const unsigned char *p, *end;
	uint64_t code;

	if (!u->tab && dec_unit_prepare(u) != 0)
		return -1;
	p = dec_at_off(u, u->die0);
	end = dec_unit_end(u);
	while (p < end) {
		uint64_t off = off_of(u, p), bit = UINT64_C(1) << (off % 64);
		const struct abbrev *a;

		if (dec_uleb(&p, end, &code) != 0) {
			dec_fail(u->dec,
				 "DIE 0x%" PRIx64
				 " runs past the end of its unit",
				 off);
			return -1;
		}
		if (code == 0)
			continue; /* the end of a DIE's children */
		a = dec_abbrev_find(u->tab, code);
		if (!a) {
			dec_fail(
				u->dec,
				"abbreviation %" PRIu64 " of DIE 0x%" PRIx64
				" is not in its table (.debug_abbrev offset 0x%" PRIx64
				")",
				code, off, u->abbrev_off);
			return -1;
		}
		p = attrs_end(u, a, p, off);
		if (!p)
			return -1;
		c->dies++;
		if (t->decoded[off / 64] & bit)
			c->decoded++;
		else if (t->stepped[off / 64] & bit)
			c->stepped++;
	}
	c->units++;
	return 0;
}

int dec_tally_count(struct dec *d, struct dec_count *c)
{
	struct dec_tally *t = d->tally;
	size_t i;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (!t)
		return 0;
	d->tally = NULL; /* stepping over every DIE is no reading */
	for (i = 0; i < d->nunits && rc == 0; i++) {
		rc = tally_unit(&d->units[i], t, c);
		dec_unit_done(&d->units[i]);
	}
	d->tally = t;
	return rc;
}

void dec_tally_merge(struct dec_tally *dst, const struct dec_tally *src)
{
	size_t i, n = dst->nwords < src->nwords ? dst->nwords : src->nwords;

	for (i = 0; i < n; i++) {
		dst->decoded[i] |= src->decoded[i];
		dst->stepped[i] |= src->stepped[i];
	}
}

void dec_tally_free(struct dec_tally *t)
{
	if (!t)
		return;
	free(t->decoded);
	free(t->stepped);
	free(t);
}
