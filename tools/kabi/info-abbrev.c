// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sizes of forms and the abbreviation tables of kabi's decoder
 * (info.h): a table parsed once for the units of one set of sizes, and
 * shared by them; each abbreviation laid out, so that where its forms
 * allow, every attribute's place and all of their length are known
 * before a DIE is read.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "util.h"

/* ---- forms ----------------------------------------------------------- */

enum { SIZE_VARIABLE = -1, SIZE_UNKNOWN_FORM = -2 };

/* The size of a value of FORM in a unit of these sizes, SIZE_VARIABLE
 * when it is in the value, SIZE_UNKNOWN_FORM for a form kabi does not
 * know. */
int dec_form_size(unsigned form, unsigned addr_size, unsigned offset_size,
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
		size = dec_form_size(form, t->addr_size, t->offset_size,
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

void atable_free(struct atable *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->v[i].plan);
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
		int size = dec_form_size(s->form, t->addr_size, t->offset_size,
					 t->ref_addr_size);

		if (s->at == DW_AT_sibling && a->sibling < 0)
			a->sibling = i;
		if (s->at == DW_AT_name && a->name < 0)
			a->name = i;
		if (s->at == DW_AT_signature && a->signature < 0)
			a->signature = i;
		if (s->at < 128)
			a->has[s->at / 64] |= UINT64_C(1) << (s->at % 64);
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
		    dec_sleb(p, end, &implicit) != 0)
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

const struct abbrev *dec_abbrev(const struct unit *u, uint64_t code)
{
	return dec_abbrev_find(u->tab, code);
}

/* U's table, parsed or shared with a unit of the same sizes. */
int dec_unit_table(struct dec *d, struct unit *u)
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
