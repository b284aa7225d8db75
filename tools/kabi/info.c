// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi's own decoding of .debug_info: units, abbreviations, DIEs and the
 * values of their attributes.
 *
 * libdw decodes every attribute through a generic path, finds each
 * abbreviation through a locked hash table, and keeps every unit's
 * tables until the end.  Reading a distro vmlinux is almost all
 * attribute reading (the fingerprints of each unit's copy of its
 * headers' types), so here an abbreviation knows, when its forms allow,
 * where each attribute starts and how long all of them are: finding an
 * attribute is a short scan of the abbreviation and an add, stepping
 * over a DIE one add.  A unit's table is freed once the unit is read.
 *
 * Every length and offset read from the input is checked before it is
 * followed: a failure is recorded once (dec_fail), the function returns
 * -1 (NULL, false), and the reader reports the record.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "util.h"

/* A parsed abbreviation table, for units of one set of sizes. */
struct atable {
	uint64_t off;
	uint8_t addr_size, offset_size, ref_addr_size;
	unsigned users;	  /* units pointing at it */
	struct abbrev *v; /* sorted by code */
	size_t n;
	struct abbrev **dense; /* by code, codes below ndense */
	size_t ndense;
	struct aspec *specs;
};

struct sig_ent {
	uint64_t sig;
	struct unit *u;
};

void dec_fail(struct dec *d, const char *fmt, ...)
{
	va_list ap;

	if (d->failed)
		return;
	d->failed = true;
	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
}

/* ---- numbers --------------------------------------------------------- */

static int sleb(const unsigned char **p, const unsigned char *end, int64_t *v)
{
	const unsigned char *q = *p;
	uint64_t r = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (q >= end || shift > 63)
			return -1;
		b = *q++;
		r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		r |= ~UINT64_C(0) << shift;
	*v = (int64_t)r;
	*p = q;
	return 0;
}

/* ---- forms ----------------------------------------------------------- */

enum { SIZE_VARIABLE = -1, SIZE_UNKNOWN_FORM = -2 };

/* The size of a value of FORM in a unit of these sizes, SIZE_VARIABLE
 * when it is in the value, SIZE_UNKNOWN_FORM for a form kabi does not
 * know. */
static int form_size(unsigned form, unsigned addr_size, unsigned offset_size,
		     unsigned ref_addr_size)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return (int)addr_size;
	case DW_FORM_ref_addr:
		return (int)ref_addr_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return (int)offset_size;
	case DW_FORM_string:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_exprloc:
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
	case DW_FORM_indirect:
		return SIZE_VARIABLE;
	default:
		return SIZE_UNKNOWN_FORM;
	}
}

/* Past the value of FORM at P (of unit U, ending at END), or NULL when
 * it runs past END or its form is unknown. */
const unsigned char *dec_skip_form(const struct unit *u, const struct atable *t,
				   unsigned form, const unsigned char *p,
				   const unsigned char *end)
{
	uint64_t n;
	int size;
	unsigned hops;

	/* the variable forms GCC and Clang write most */
	switch (form) {
	case DW_FORM_string:
		p = memchr(p, '\0', (size_t)(end - p));
		return p ? p + 1 : NULL;
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_ref_udata:
		while (p < end && (*p & 0x80))
			p++;
		return p < end ? p + 1 : NULL;
	}
	for (hops = 0; hops < 4; hops++) {
		size = form_size(form, t->addr_size, t->offset_size,
				 t->ref_addr_size);
		if (size >= 0)
			return (size_t)(end - p) >= (size_t)size ? p + size :
								   NULL;
		switch (form) {
		case DW_FORM_string:
			p = memchr(p, '\0', (size_t)(end - p));
			return p ? p + 1 : NULL;
		case DW_FORM_block1:
		case DW_FORM_block2:
		case DW_FORM_block4:
			size = form == DW_FORM_block1 ? 1 :
			       form == DW_FORM_block2 ? 2 :
							4;
			if (end - p < size)
				return NULL;
			n = dec_fixed(p, (unsigned)size, u->dec->big_endian);
			p += size;
			return (uint64_t)(end - p) >= n ? p + n : NULL;
		case DW_FORM_block:
		case DW_FORM_exprloc:
			if (dec_uleb(&p, end, &n) != 0)
				return NULL;
			return (uint64_t)(end - p) >= n ? p + n : NULL;
		case DW_FORM_indirect:
			if (dec_uleb(&p, end, &n) != 0 || n > 0xffff)
				return NULL;
			form = (unsigned)n;
			continue;
		case SIZE_UNKNOWN_FORM:
		default:
			if (size == SIZE_UNKNOWN_FORM)
				return NULL;
			/* every other variable form is one LEB128 number */
			while (p < end && (*p & 0x80))
				p++;
			return p < end ? p + 1 : NULL;
		}
	}
	return NULL;
}

/* ---- abbreviations --------------------------------------------------- */

static const struct abbrev *abbrev_find(const struct atable *t, uint64_t code);

static void atable_free(struct atable *t)
{
	if (!t)
		return;
	free(t->v);
	free(t->dense);
	free(t->specs);
	free(t);
}

static int abbrev_cmp(const void *a, const void *b)
{
	const struct abbrev *x = a, *y = b;

	return x->code < y->code ? -1 : x->code > y->code;
}

/* The offsets and sizes of the attributes of abbreviation A. */
static void abbrev_layout(struct atable *t, struct abbrev *a)
{
	int32_t off = 0;
	uint16_t i;

	a->fixed = 0;
	a->sibling = -1;
	a->name = -1;
	a->signature = -1;
	for (i = 0; i < a->n; i++) {
		struct aspec *s = &a->spec[i];
		int size = form_size(s->form, t->addr_size, t->offset_size,
				     t->ref_addr_size);

		if (s->at == DW_AT_sibling && a->sibling < 0)
			a->sibling = i;
		if (s->at == DW_AT_name && a->name < 0)
			a->name = i;
		if (s->at == DW_AT_signature && a->signature < 0)
			a->signature = i;
		s->off = off;
		s->size = (int16_t)(size < 0 ? -1 : size);
		if (size == SIZE_UNKNOWN_FORM && !a->bad)
			a->bad = (uint16_t)(i + 1);
		if (size < 0 || off < 0)
			off = -1;
		else
			off += size;
	}
	a->fixed = off;
}

/* The attribute specs of abbreviation A (CODE) at *P, before END, into
 * T->specs from index *N (room for *CAP); *P moves past them.  0, 1 when
 * they run past END, or -1 (failed). */
static int abbrev_specs(struct dec *d, const struct unit *u, struct atable *t,
			const unsigned char **p, const unsigned char *end,
			struct abbrev *a, size_t *n, size_t *cap)
{
	uint64_t at, form;
	int64_t implicit;

	for (;;) {
		if (dec_uleb(p, end, &at) != 0 || dec_uleb(p, end, &form) != 0)
			return 1;
		if (at == 0 && form == 0)
			return 0;
		implicit = 0;
		if (form == DW_FORM_implicit_const &&
		    sleb(p, end, &implicit) != 0)
			return 1;
		if (a->n == UINT16_MAX) {
			dec_fail(d,
				 "abbreviation %" PRIu64
				 " at .debug_abbrev offset 0x%" PRIx64
				 " has more than %u attributes",
				 a->code, u->abbrev_off, UINT16_MAX - 1);
			return -1;
		}
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			t->specs = xrealloc(t->specs, *cap * sizeof(*t->specs));
		}
		t->specs[(*n)++] = (struct aspec){
			.at = at > UINT32_MAX ? UINT32_MAX : (uint32_t)at,
			.form = form > UINT32_MAX ? UINT32_MAX : (uint32_t)form,
			.implicit = implicit
		};
		a->n++;
	}
}

/* Parse the table at OFF of .debug_abbrev for units with U's sizes. */
static struct atable *atable_parse(struct dec *d, const struct unit *u)
{
	const struct dsec *s = &d->sec[DSEC_ABBREV];
	const unsigned char *p = s->p + u->abbrev_off, *end = s->p + s->n;
	struct atable *t = xcalloc(1, sizeof(*t));
	size_t cap = 0, scap = 0, nspec = 0, i, *first = NULL;
	uint64_t code, tag;
	int rc;

	t->off = u->abbrev_off;
	t->addr_size = u->addr_size;
	t->offset_size = u->offset_size;
	t->ref_addr_size = u->version == 2 ? u->addr_size : u->offset_size;
	for (;;) {
		struct abbrev *a;

		if (dec_uleb(&p, end, &code) != 0)
			goto past_end;
		if (code == 0)
			break;
		if (dec_uleb(&p, end, &tag) != 0 || p == end)
			goto past_end;
		if (t->n == cap) {
			cap = cap ? 2 * cap : 64;
			t->v = xrealloc(t->v, cap * sizeof(*t->v));
			first = xrealloc(first, cap * sizeof(*first));
		}
		first[t->n] = nspec; /* the specs may yet move */
		a = &t->v[t->n++];
		memset(a, 0, sizeof(*a));
		a->code = code;
		a->tag = tag > UINT32_MAX ? UINT32_MAX : (uint32_t)tag;
		a->children = *p++ != 0;
		rc = abbrev_specs(d, u, t, &p, end, a, &nspec, &scap);
		if (rc > 0)
			goto past_end;
		if (rc < 0)
			goto fail;
	}
	for (i = 0; i < t->n; i++) {
		/* no table of specs when no abbreviation has an attribute */
		t->v[i].spec = t->specs ? t->specs + first[i] : NULL;
		abbrev_layout(t, &t->v[i]);
	}
	free(first);
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), abbrev_cmp);
	/* producers number their abbreviations from 1: a direct index */
	t->ndense = t->n && t->v[t->n - 1].code < 4 * t->n + 64 ?
			    (size_t)t->v[t->n - 1].code + 1 :
			    0;
	if (t->ndense) {
		t->dense = xcalloc(t->ndense, sizeof(*t->dense));
		for (i = t->n; i-- > 0;)
			t->dense[t->v[i].code] = &t->v[i];
	}
	return t;
past_end:
	dec_fail(d,
		 "abbreviation table at .debug_abbrev offset 0x%" PRIx64
		 " runs past the end of the section",
		 u->abbrev_off);
fail:
	free(first);
	atable_free(t);
	return NULL;
}

static const struct abbrev *abbrev_find(const struct atable *t, uint64_t code)
{
	size_t lo = 0, hi = t->n;

	if (code < t->ndense)
		return t->dense[code];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->v[lo].code == code ? &t->v[lo] : NULL;
}

const struct abbrev *dec_abbrev(const struct unit *u, uint64_t code)
{
	return abbrev_find(u->tab, code);
}

/* U's table, parsed or shared with a unit of the same sizes. */
static int unit_table(struct dec *d, struct unit *u)
{
	size_t i;

	if (u->tab)
		return 0;
	for (i = 0; i < d->ntabs; i++) {
		struct atable *t = d->tabs[i];

		if (t->off == u->abbrev_off && t->addr_size == u->addr_size &&
		    t->offset_size == u->offset_size &&
		    t->ref_addr_size ==
			    (u->version == 2 ? u->addr_size : u->offset_size)) {
			u->tab = t;
			t->users++;
			return 0;
		}
	}
	u->tab = atable_parse(d, u);
	if (!u->tab)
		return -1;
	u->tab->users = 1;
	if (d->ntabs == d->tabs_cap) {
		d->tabs_cap = d->tabs_cap ? 2 * d->tabs_cap : 8;
		d->tabs = xrealloc(d->tabs, d->tabs_cap * sizeof(*d->tabs));
	}
	d->tabs[d->ntabs++] = u->tab;
	return 0;
}

void dec_unit_data(struct unit *u, const unsigned char *data)
{
	u->data = data ? data : u->mapped;
}

void dec_unit_done(struct unit *u)
{
	struct dec *d = u->dec;
	size_t i;

	if (!u->tab || --u->tab->users)
		goto out;
	for (i = 0; i < d->ntabs; i++) {
		if (d->tabs[i] == u->tab) {
			d->tabs[i] = d->tabs[--d->ntabs];
			break;
		}
	}
	atable_free(u->tab);
out:
	u->tab = NULL;
}

/* ---- DIEs ------------------------------------------------------------ */

/* The unit's data at OFF (which is inside it). */
static inline const unsigned char *at_off(const struct unit *u, uint64_t off)
{
	return u->data + (off - u->off);
}

static inline const unsigned char *unit_end(const struct unit *u)
{
	return at_off(u, u->end);
}

/* Past the attributes of A, which start at P; NULL (failed) when they
 * run past the unit or hold a form kabi does not know. */
static const unsigned char *attrs_end(struct unit *u, const struct abbrev *a,
				      const unsigned char *p, uint64_t off)
{
	const unsigned char *end = unit_end(u);
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

static int unit_prepare(struct unit *u);

/* The entry at OFF of unit U: 1 a DIE into D, 0 a null entry (D->e past
 * it), -1 failed. */
int dec_die(struct unit *u, uint64_t off, struct odie *d)
{
	const unsigned char *p, *end;
	const struct abbrev *a;
	uint64_t code;

	if (!u->tab && unit_prepare(u) != 0)
		return -1;
	if (off < u->die0 || off >= u->end) {
		dec_fail(u->dec,
			 "DIE offset 0x%" PRIx64
			 " is outside its unit (0x%" PRIx64 " to 0x%" PRIx64
			 ")",
			 off, u->die0, u->end);
		return -1;
	}
	p = at_off(u, off);
	end = unit_end(u);
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
	a = abbrev_find(u->tab, code);
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
		rel = dec_fixed(a.v, (unsigned)form_size(a.form, 8, 8, 8),
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
	const unsigned char *end = unit_end(u);
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
		a = abbrev_find(u->tab, code);
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
			p = at_off(u, t);
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

	if (!u->tab && unit_prepare(u) != 0)
		return -1;
	p = at_off(u, u->die0);
	end = unit_end(u);
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
		a = abbrev_find(u->tab, code);
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

/* ---- attributes ------------------------------------------------------ */

/* Attribute I of DIE D into A. */
bool dec_attr_at(const struct odie *d, uint16_t i, struct oattr *a)
{
	const struct abbrev *ab = d->ab;
	const struct aspec *s = &ab->spec[i];
	const unsigned char *p;
	uint64_t form = s->form;
	uint16_t k;

	a->at = s->at;
	a->e = d->e;
	a->u = d->u;
	a->die_off = d->off;
	a->implicit = s->implicit;
	if (s->off >= 0) {
		p = d->a + s->off;
	} else {
		/* step from the last attribute at a known place */
		for (k = i; k > 0 && ab->spec[k].off < 0; k--)
			;
		p = d->a + ab->spec[k].off;
		for (; k < i && p; k++)
			p = dec_skip_form(d->u, d->u->tab, ab->spec[k].form, p,
					  d->e);
		if (!p)
			return false; /* attrs_end said it fits */
	}
	if (form == DW_FORM_indirect) {
		unsigned hops;

		for (hops = 0; form == DW_FORM_indirect && hops < 4; hops++)
			if (dec_uleb(&p, d->e, &form) != 0)
				break;
		if (form == DW_FORM_implicit_const ||
		    form == DW_FORM_indirect || form > 0xffff) {
			dec_fail(d->u->dec,
				 "attribute 0x%x of DIE 0x%" PRIx64
				 " has an indirect form of 0x%" PRIx64,
				 s->at, d->off, form);
			return false;
		}
	}
	a->form = (unsigned)form;
	a->v = p;
	return true;
}

bool dec_attr(const struct odie *d, unsigned at, struct oattr *a)
{
	const struct abbrev *ab = d->ab;
	uint16_t i;

	if (at == DW_AT_name)
		return ab->name >= 0 && dec_attr_at(d, (uint16_t)ab->name, a);
	for (i = 0; i < ab->n; i++)
		if (ab->spec[i].at == at)
			return dec_attr_at(d, i, a);
	return false;
}

static bool be(const struct oattr *a)
{
	return a->u->dec->big_endian;
}

/* "attribute 0x%x of DIE 0x...: form 0x... is not WHAT" */
static void bad_form(const struct oattr *a, const char *what)
{
	dec_fail(a->u->dec,
		 "attribute 0x%x of DIE 0x%" PRIx64
		 " has form 0x%x, which is not %s",
		 a->at, a->die_off, a->form, what);
}

int dec_udata(const struct oattr *a, uint64_t *v)
{
	const unsigned char *p = a->v;
	int64_t s;

	switch (a->form) {
	case DW_FORM_data1:
		*v = p[0];
		return 0;
	case DW_FORM_data2:
		*v = dec_fixed(p, 2, be(a));
		return 0;
	case DW_FORM_data4:
		*v = dec_fixed(p, 4, be(a));
		return 0;
	case DW_FORM_data8:
		*v = dec_fixed(p, 8, be(a));
		return 0;
	case DW_FORM_sec_offset:
		*v = dec_fixed(p, a->u->offset_size, be(a));
		return 0;
	case DW_FORM_udata:
		return dec_uleb(&p, a->e, v) == 0 ?
			       0 :
			       (bad_form(a, "readable"), -1);
	case DW_FORM_sdata:
		if (sleb(&p, a->e, &s) != 0) {
			bad_form(a, "readable");
			return -1;
		}
		*v = (uint64_t)s;
		return 0;
	case DW_FORM_implicit_const:
		*v = (uint64_t)a->implicit;
		return 0;
	default:
		bad_form(a, "a constant");
		return -1;
	}
}

int dec_sdata(const struct oattr *a, int64_t *v)
{
	const unsigned char *p = a->v;
	uint64_t u;

	switch (a->form) {
	case DW_FORM_sdata:
		if (sleb(&p, a->e, v) != 0) {
			bad_form(a, "readable");
			return -1;
		}
		return 0;
	case DW_FORM_implicit_const:
		*v = a->implicit;
		return 0;
	default:
		if (dec_udata(a, &u) != 0)
			return -1;
		*v = (int64_t)u;
		return 0;
	}
}

int dec_flag(const struct oattr *a, bool *v)
{
	switch (a->form) {
	case DW_FORM_flag:
		*v = a->v[0] != 0;
		return 0;
	case DW_FORM_flag_present:
		*v = true;
		return 0;
	default:
		bad_form(a, "a flag");
		return -1;
	}
}

/* The string at OFF of section S (SEC names it), or NULL (failed).  The
 * sections end in a NUL (check_elf, dec_units). */
static const char *sec_string(const struct oattr *a, const struct dsec *s,
			      const char *sec, uint64_t off)
{
	if (!s->p || off >= s->n) {
		dec_fail(a->u->dec,
			 "attribute 0x%x of DIE 0x%" PRIx64
			 " names offset 0x%" PRIx64 ", past the end of %s",
			 a->at, a->die_off, off, sec);
		return NULL;
	}
	return (const char *)s->p + off;
}

const char *dec_string(const struct oattr *a)
{
	struct dec *d = a->u->dec;
	const unsigned char *p = a->v;
	const struct dsec *so = &d->sec[DSEC_STR_OFFSETS];
	unsigned osz = a->u->offset_size;
	uint64_t idx, pos;

	switch (a->form) {
	case DW_FORM_string:
		return (const char *)p;
	case DW_FORM_strp:
		return sec_string(a, &d->sec[DSEC_STR], ".debug_str",
				  dec_fixed(p, osz, be(a)));
	case DW_FORM_line_strp:
		return sec_string(a, &d->sec[DSEC_LINE_STR], ".debug_line_str",
				  dec_fixed(p, osz, be(a)));
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
		idx = dec_fixed(p, a->form - DW_FORM_strx1 + 1, be(a));
		break;
	case DW_FORM_strx:
		if (dec_uleb(&p, a->e, &idx) != 0) {
			bad_form(a, "readable");
			return NULL;
		}
		break;
	case DW_FORM_GNU_strp_alt:
	case DW_FORM_strp_sup:
		dec_fail(
			d,
			"attribute 0x%x of DIE 0x%" PRIx64
			" is a string of a supplementary file (dwz), which kabi does not read",
			a->at, a->die_off);
		return NULL;
	default:
		bad_form(a, "a string");
		return NULL;
	}
	pos = a->u->str_off_base + idx * osz;
	if (!so->p || so->n < osz || idx > so->n / osz ||
	    a->u->str_off_base > so->n || pos > so->n - osz ||
	    pos < a->u->str_off_base) {
		dec_fail(d,
			 "string index %" PRIu64 " of DIE 0x%" PRIx64
			 " is past the end of .debug_str_offsets",
			 idx, a->die_off);
		return NULL;
	}
	return sec_string(a, &d->sec[DSEC_STR], ".debug_str",
			  dec_fixed(so->p + pos, osz, be(a)));
}

int dec_block(const struct oattr *a, const unsigned char **p, size_t *n)
{
	const unsigned char *q = a->v;
	uint64_t len;

	switch (a->form) {
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4: {
		unsigned w = a->form == DW_FORM_block1 ? 1 :
			     a->form == DW_FORM_block2 ? 2 :
							 4;

		len = dec_fixed(q, w, be(a));
		q += w;
		break;
	}
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (dec_uleb(&q, a->e, &len) != 0) {
			bad_form(a, "readable");
			return -1;
		}
		break;
	case DW_FORM_data16:
		len = 16;
		break;
	default:
		bad_form(a, "a block");
		return -1;
	}
	/* attrs_end checked that it fits */
	*p = q;
	*n = (size_t)len;
	return 0;
}

static int sig_cmp(const void *a, const void *b)
{
	const struct sig_ent *x = a, *y = b;

	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

int dec_ref_off(const struct oattr *a, struct unit **tup, uint64_t *offp)
{
	struct unit *u = a->u, *tu = u;
	struct dec *d = u->dec;
	const unsigned char *p = a->v;
	uint64_t rel, off;

	switch (a->form) {
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
		rel = dec_fixed(p, (unsigned)form_size(a->form, 8, 8, 8),
				be(a));
		goto in_unit;
	case DW_FORM_ref_udata:
		if (dec_uleb(&p, a->e, &rel) != 0) {
			bad_form(a, "readable");
			return -1;
		}
in_unit:
		if (rel >= u->end - u->off || u->off + rel < u->die0) {
			dec_fail(d,
				 "attribute 0x%x of DIE 0x%" PRIx64
				 " refers to 0x%" PRIx64
				 ", outside its unit (0x%" PRIx64
				 " to 0x%" PRIx64 ")",
				 a->at, a->die_off, u->off + rel, u->die0,
				 u->end);
			return -1;
		}
		off = u->off + rel;
		break;
	case DW_FORM_ref_addr:
		off = u->sbase + dec_fixed(p, u->tab->ref_addr_size, be(a));
		tu = dec_unit_at(d, off);
		if (!tu || tu->types != u->types) {
			dec_fail(d,
				 "attribute 0x%x of DIE 0x%" PRIx64
				 " refers to 0x%" PRIx64
				 ", which is in no unit",
				 a->at, a->die_off, off);
			return -1;
		}
		break;
	case DW_FORM_ref_sig8: {
		struct sig_ent k = { .sig = dec_fixed(p, 8, be(a)) }, *e;

		e = d->nsigs ?
			    bsearch(&k, d->sigs, d->nsigs, sizeof(k), sig_cmp) :
			    NULL;
		if (!e) {
			dec_fail(d,
				 "attribute 0x%x of DIE 0x%" PRIx64
				 " refers to type signature 0x%016" PRIx64
				 ", which no type unit has",
				 a->at, a->die_off, k.sig);
			return -1;
		}
		tu = e->u;
		off = tu->off + tu->type_off;
		break;
	}
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
		dec_fail(
			d,
			"attribute 0x%x of DIE 0x%" PRIx64
			" refers into a supplementary file (dwz), which kabi does not read",
			a->at, a->die_off);
		return -1;
	default:
		bad_form(a, "a reference");
		return -1;
	}
	*tup = tu;
	*offp = off;
	return 0;
}

int dec_ref(const struct oattr *a, struct odie *t)
{
	struct unit *tu;
	uint64_t off;
	int rc;

	if (dec_ref_off(a, &tu, &off) != 0)
		return -1;
	rc = dec_die(tu, off, t);
	if (rc == 0)
		dec_fail(a->u->dec,
			 "attribute 0x%x of DIE 0x%" PRIx64
			 " refers to 0x%" PRIx64 ", a null entry",
			 a->at, a->die_off, off);
	return rc == 1 ? dec_signed(t) : -1;
}

int dec_signed(struct odie *t)
{
	struct unit *tu;
	struct oattr a;
	uint64_t off;
	unsigned hops;

	for (hops = 0; t->ab->signature >= 0; hops++) {
		if (hops == 4) {
			dec_fail(t->u->dec,
				 "DW_AT_signature of DIE 0x%" PRIx64
				 " leads to another stub, more than 4 times",
				 t->off);
			return -1;
		}
		if (!dec_attr_at(t, (uint16_t)t->ab->signature, &a))
			return -1;
		if (a.form != DW_FORM_ref_sig8) {
			bad_form(&a, "a type signature");
			return -1;
		}
		if (dec_ref_off(&a, &tu, &off) != 0 ||
		    dec_die(tu, off, t) != 1) {
			dec_fail(t->u->dec,
				 "DW_AT_signature of DIE 0x%" PRIx64
				 " leads to no type",
				 a.die_off);
			return -1;
		}
	}
	return 0;
}

int dec_member_offset(const struct oattr *a, uint64_t *v)
{
	const unsigned char *p, *end;
	size_t n;

	if (dec_block(a, &p, &n) != 0)
		return -1;
	end = p + n;
	if (n < 2 || (p[0] != DW_OP_plus_uconst && p[0] != DW_OP_constu))
		return 0;
	p++;
	return dec_uleb(&p, end, v) == 0 && p == end ? 1 : 0;
}

/* ---- units ----------------------------------------------------------- */

struct unit *dec_unit_at(struct dec *d, uint64_t off)
{
	size_t lo = 0, hi = d->nunits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->units[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nunits && d->units[lo].off <= off ? &d->units[lo] : NULL;
}

/* The table and string offsets base of U, before its first DIE. */
static int unit_prepare(struct unit *u)
{
	struct oattr a;
	struct odie cu;
	uint64_t v;

	if (unit_table(u->dec, u) != 0)
		return -1;
	if (u->str_base_read)
		return 0;
	u->str_base_read = true;
	if (dec_die(u, u->die0, &cu) != 1) {
		if (!u->dec->failed)
			dec_fail(u->dec,
				 "unit at offset 0x%" PRIx64 " has no unit DIE",
				 u->off);
		return -1;
	}
	if (dec_attr(&cu, DW_AT_str_offsets_base, &a)) {
		if (dec_udata(&a, &v) != 0)
			return -1;
		u->str_off_base = v;
	}
	return 0;
}

/* The longest unit header: 64-bit DWARF 5 type unit. */
#define UNIT_HEADER_MAX 40

/* N bytes of .debug_info at OFF into BUF through d->peek, when the
 * decoder has one (and S is .debug_info): not through its mapping.
 * 0, or -1 (failed). */
static int peek_info(struct dec *d, const struct dsec *s, bool types,
		     uint64_t off, unsigned char *buf, size_t n)
{
	if (!d->peek || types)
		return 0;
	if (d->peek(d->peek_ctx, off, buf, n) != 0) {
		dec_fail(
			d,
			"cannot read %zu bytes of .debug_info at offset 0x%" PRIx64,
			n, off);
		return -1;
	}
	(void)s;
	return 0;
}

/* Where the attribute specs of abbreviation CODE of U's table start, read
 * from .debug_abbrev without parsing the table: usually the first. */
static const unsigned char *abbrev_seek(const struct unit *u, uint64_t code)
{
	const struct dsec *ab = &u->dec->sec[DSEC_ABBREV];
	const unsigned char *q = ab->p + u->abbrev_off, *end = ab->p + ab->n;
	uint64_t c, tag, at, form;
	int64_t implicit;

	for (;;) {
		if (dec_uleb(&q, end, &c) != 0 || c == 0 ||
		    dec_uleb(&q, end, &tag) != 0 || q == end)
			return NULL;
		q++; /* children */
		if (c == code)
			return q;
		do {
			if (dec_uleb(&q, end, &at) != 0 ||
			    dec_uleb(&q, end, &form) != 0 ||
			    (form == DW_FORM_implicit_const &&
			     sleb(&q, end, &implicit) != 0))
				return NULL;
		} while (at || form);
	}
}

/* dec_unit_string the long way, which says what is wrong, if anything. */
static int unit_string_parsed(struct unit *u, unsigned at, char **str)
{
	struct odie die;
	struct oattr a;
	const char *s;
	int rc = 0;

	if (dec_unit_die(u, &die) != 0)
		return -1;
	if (dec_attr(&die, at, &a)) {
		s = dec_string(&a);
		rc = s ? 1 : -1;
		if (s)
			*str = xstrdup(s);
	}
	dec_unit_done(u);
	return rc;
}

int dec_unit_string(struct unit *u, unsigned at, char **str)
{
	struct dec *d = u->dec;
	const struct dsec *ab = &d->sec[DSEC_ABBREV];
	unsigned char buf[4096];
	const unsigned char *p = at_off(u, u->die0), *end = unit_end(u), *q;
	struct atable sizes = { .addr_size = u->addr_size,
				.offset_size = u->offset_size,
				.ref_addr_size = u->version == 2 ?
							 u->addr_size :
							 u->offset_size };
	struct oattr a = { .u = u, .die_off = u->die0 };
	uint64_t code, sat, form;
	int64_t implicit;
	bool found = false;

	if (d->peek && !u->types) {
		size_t n = u->end - u->die0 < sizeof(buf) ? u->end - u->die0 :
							    sizeof(buf);

		if (peek_info(d, NULL, false, u->die0 - u->sbase, buf, n) != 0)
			return -1;
		p = buf;
		end = buf + n;
	}
	a.e = end;
	if (dec_uleb(&p, end, &code) != 0 || code == 0 ||
	    !(q = abbrev_seek(u, code)))
		return unit_string_parsed(u, at, str);
	for (;;) {
		if (dec_uleb(&q, ab->p + ab->n, &sat) != 0 ||
		    dec_uleb(&q, ab->p + ab->n, &form) != 0 ||
		    (form == DW_FORM_implicit_const &&
		     sleb(&q, ab->p + ab->n, &implicit) != 0) ||
		    form == DW_FORM_indirect || form > 0xffff)
			return unit_string_parsed(u, at, str);
		if (!sat && !form)
			break;
		if (sat == at) {
			a.at = (unsigned)sat;
			a.form = (unsigned)form;
			a.v = p;
			found = true;
		} else if (sat == DW_AT_str_offsets_base &&
			   form == DW_FORM_sec_offset &&
			   end - p >= u->offset_size) {
			u->str_off_base =
				dec_fixed(p, u->offset_size, d->big_endian);
		}
		p = dec_skip_form(u, &sizes, (unsigned)form, p, end);
		if (!p)
			return unit_string_parsed(u, at, str);
	}
	if (!found)
		return 0;
	{
		const char *s = dec_string(&a);

		if (!s)
			return -1;
		*str = xstrdup(s);
	}
	return 1;
}

int dec_unit_die(struct unit *u, struct odie *die)
{
	int rc;

	if (!u->tab && unit_prepare(u) != 0)
		return -1;
	rc = dec_die(u, u->die0, die);
	if (rc == 0)
		dec_fail(u->dec, "unit at offset 0x%" PRIx64 " has no unit DIE",
			 u->off);
	return rc == 1 ? 0 : -1;
}

/* The fields of a unit header after its length and version at *P
 * (before END) into U; *P moves past them.  0, 1 for a corrupt header,
 * or -1 (failed). */
static int unit_fields(struct dec *d, struct unit *u, const unsigned char **pp,
		       const unsigned char *end, bool types, const char *name,
		       uint64_t off)
{
	const unsigned char *p = *pp;
	long osz = u->offset_size;

	if (u->version == 5) {
		if (end - p < 2 + osz)
			return 1;
		u->unit_type = p[0];
		u->addr_size = p[1];
		u->abbrev_off = dec_fixed(p + 2, (unsigned)osz, d->big_endian);
		p += 2 + osz;
		if (u->unit_type < DW_UT_compile ||
		    u->unit_type > DW_UT_split_type) {
			dec_fail(
				d,
				"unsupported DWARF 5 unit type 0x%x at %s offset 0x%" PRIx64,
				u->unit_type, name, off);
			return -1;
		}
	} else {
		if (end - p < 1 + osz)
			return 1;
		u->unit_type = types ? DW_UT_type : DW_UT_compile;
		u->abbrev_off = dec_fixed(p, (unsigned)osz, d->big_endian);
		u->addr_size = p[osz];
		p += 1 + osz;
	}
	if (u->addr_size != 2 && u->addr_size != 4 && u->addr_size != 8) {
		dec_fail(d,
			 "unsupported address size %u at %s offset 0x%" PRIx64,
			 u->addr_size, name, off);
		return -1;
	}
	if (u->unit_type == DW_UT_skeleton ||
	    u->unit_type == DW_UT_split_compile ||
	    u->unit_type == DW_UT_split_type) {
		dec_fail(
			d,
			"split DWARF (skeleton unit, types in a .dwo file) is not supported");
		return -1;
	}
	if (u->unit_type == DW_UT_type) {
		if (end - p < 8 + osz)
			return 1;
		u->sig = dec_fixed(p, 8, d->big_endian);
		u->type_off = dec_fixed(p + 8, (unsigned)osz, d->big_endian);
		p += 8 + osz;
	}
	*pp = p;
	return 0;
}

/* The header of the unit at OFF of section S, which starts at SBASE, into
 * U, from H, its first HN bytes (the section's, or a copy); 0, or -1
 * (failed). */
static int unit_header(struct dec *d, const struct dsec *s,
		       const unsigned char *h, size_t hn, uint64_t sbase,
		       uint64_t off, bool types, struct unit *u)
{
	const unsigned char *p = h, *end = h + hn;
	const char *name = types ? ".debug_types" : ".debug_info";
	uint64_t len, version, rest = s->n - off; /* from the unit on */
	int rc;

	memset(u, 0, sizeof(*u));
	u->dec = d;
	u->mapped = u->data = s->p + off;
	u->sbase = sbase;
	u->off = sbase + off;
	u->types = types;
	u->offset_size = 4;
	if (end - p < 4)
		goto corrupt;
	len = dec_fixed(p, 4, d->big_endian);
	p += 4;
	if (len == 0xffffffff) {
		u->offset_size = 8;
		if (end - p < 8)
			goto corrupt;
		len = dec_fixed(p, 8, d->big_endian);
		p += 8;
	} else if (len >= 0xfffffff0) {
		goto corrupt;
	}
	if (len > rest - (uint64_t)(p - h) || len < 2)
		goto corrupt;
	u->end = u->off + (uint64_t)(p - h) + len;
	if ((uint64_t)(end - p) > len)
		end = p + len;
	version = dec_fixed(p, 2, d->big_endian);
	p += 2;
	if (version < 2 || version > 5) {
		dec_fail(d,
			 "unsupported DWARF version %u at %s offset 0x%" PRIx64
			 " (kabi reads 2 to 5)",
			 (unsigned)version, name, off);
		return -1;
	}
	u->version = (uint8_t)version;
	rc = unit_fields(d, u, &p, end, types, name, off);
	if (rc < 0)
		return -1;
	u->die0 = u->off + (uint64_t)(p - h);
	if (rc > 0 || u->die0 >= u->end ||
	    (u->unit_type == DW_UT_type && (u->type_off >= u->end - u->off ||
					    u->off + u->type_off < u->die0)))
		goto corrupt;
	if (!d->sec[DSEC_ABBREV].p || u->abbrev_off >= d->sec[DSEC_ABBREV].n) {
		dec_fail(d,
			 "abbreviation offset 0x%" PRIx64
			 " of the unit at %s offset 0x%" PRIx64
			 " is past the end of .debug_abbrev",
			 u->abbrev_off, name, off);
		return -1;
	}
	u->str_off_base = u->offset_size == 8 ? 16 : 8;
	return 0;
corrupt:
	dec_fail(d, "corrupt unit header at %s offset 0x%" PRIx64, name, off);
	return -1;
}

/* The units of the N sections S, which start at *BASE (moved past them). */
static int scan_units(struct dec *d, const struct dsec *s, size_t n, bool types,
		      uint64_t *base, size_t *cap)
{
	size_t k;

	for (k = 0; k < n; k++) {
		uint64_t off = 0;

		while (off < s[k].n) {
			unsigned char h[UNIT_HEADER_MAX];
			size_t hn = s[k].n - off < sizeof(h) ? s[k].n - off :
							       sizeof(h);
			struct unit *u;

			if (d->nunits == *cap) {
				*cap = *cap ? 2 * *cap : 256;
				d->units = xrealloc(d->units,
						    *cap * sizeof(*d->units));
			}
			u = &d->units[d->nunits];
			if (peek_info(d, s, types, off, h, hn) != 0)
				return -1;
			if (unit_header(d, &s[k],
					d->peek && !types ? h : s[k].p + off,
					hn, *base, off, types, u) != 0)
				return -1;
			d->nunits++;
			off = u->end - *base;
		}
		*base += s[k].n;
	}
	return 0;
}

/* String sections must end in a NUL: a string is then always ended. */
static int check_strings(struct dec *d, unsigned i, const char *name)
{
	const struct dsec *s = &d->sec[i];

	if (s->p && s->n && s->p[s->n - 1] != '\0') {
		dec_fail(d, "section '%s' does not end in a NUL byte (corrupt)",
			 name);
		return -1;
	}
	return 0;
}

int dec_units(struct dec *d)
{
	uint64_t base = 0;
	size_t cap = 0, i, nsig = 0;

	if (check_strings(d, DSEC_STR, ".debug_str") != 0 ||
	    check_strings(d, DSEC_LINE_STR, ".debug_line_str") != 0)
		return -1;
	if (scan_units(d, d->info, d->ninfo, false, &base, &cap) != 0 ||
	    scan_units(d, d->types, d->ntypes, true, &base, &cap) != 0)
		return -1;
	for (i = 0; i < d->nunits; i++)
		nsig += d->units[i].unit_type == DW_UT_type;
	if (nsig) {
		d->sigs = xcalloc(nsig, sizeof(*d->sigs));
		for (i = 0; i < d->nunits; i++)
			if (d->units[i].unit_type == DW_UT_type)
				d->sigs[d->nsigs++] =
					(struct sig_ent){ d->units[i].sig,
							  &d->units[i] };
		qsort(d->sigs, d->nsigs, sizeof(*d->sigs), sig_cmp);
	}
	return 0;
}

struct dec *dec_snapshot(const struct dec *d)
{
	struct dec *s = xcalloc(1, sizeof(*s));
	size_t i;

	s->ninfo = d->ninfo;
	s->info = xcalloc(d->ninfo + 1, sizeof(*s->info));
	for (i = 0; i < d->ninfo; i++)
		s->info[i] = d->info[i];
	s->ntypes = d->ntypes;
	s->types = xcalloc(d->ntypes + 1, sizeof(*s->types));
	for (i = 0; i < d->ntypes; i++)
		s->types[i] = d->types[i];
	s->nunits = d->nunits;
	s->units = xcalloc(d->nunits + 1, sizeof(*s->units));
	for (i = 0; i < d->nunits; i++) {
		s->units[i] = d->units[i];
		s->units[i].tab = NULL;
	}
	s->nsigs = d->nsigs;
	s->sigs = xcalloc(d->nsigs + 1, sizeof(*s->sigs));
	for (i = 0; i < d->nsigs; i++)
		s->sigs[i] =
			(struct sig_ent){ d->sigs[i].sig,
					  &s->units[d->sigs[i].u - d->units] };
	return s;
}

int dec_units_share(struct dec *d, const struct dec *from)
{
	uint64_t info_total = 0, base;
	size_t i, k, n;

	if (d->ninfo != from->ninfo || d->ntypes != from->ntypes)
		goto changed;
	for (k = 0; k < d->ninfo; k++) {
		if (d->info[k].n != from->info[k].n)
			goto changed;
		info_total += d->info[k].n;
	}
	for (k = 0; k < d->ntypes; k++)
		if (d->types[k].n != from->types[k].n)
			goto changed;
	d->units = xcalloc(from->nunits + 1, sizeof(*d->units));
	for (i = 0; i < from->nunits; i++) {
		struct unit *u = &d->units[i];
		const struct dsec *s;

		*u = from->units[i];
		u->dec = d;
		u->tab = NULL;
		/* the unit's section: the one whose offsets hold it */
		s = u->types ? d->types : d->info;
		n = u->types ? d->ntypes : d->ninfo;
		base = u->types ? info_total : 0;
		for (k = 0; k < n && base != u->sbase; k++)
			base += s[k].n;
		if (k == n)
			goto changed;
		u->mapped = u->data = s[k].p + (u->off - u->sbase);
		d->nunits++;
	}
	if (from->nsigs) {
		d->sigs = xcalloc(from->nsigs, sizeof(*d->sigs));
		d->nsigs = from->nsigs;
		for (i = 0; i < d->nsigs; i++)
			d->sigs[i] = (struct sig_ent){
				from->sigs[i].sig,
				&d->units[from->sigs[i].u - from->units]
			};
	}
	return 0;
changed:
	dec_fail(d, "the sections of the input changed while it was read");
	return -1;
}

void dec_release(struct dec *d)
{
	size_t i;

	for (i = 0; i < d->ntabs; i++)
		atable_free(d->tabs[i]);
	free(d->tabs);
	free(d->units);
	free(d->sigs);
	free(d->info);
	free(d->types);
	dec_tally_free(d->tally);
	memset(d, 0, sizeof(*d));
}
