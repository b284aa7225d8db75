// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attributes of DIEs of kabi's decoder (info.h) and their values:
 * numbers, flags, strings of the string sections, blocks, and
 * references, within a unit, across units, and to type units by
 * signature.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>

#include "info.h"

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
	if (at < 128 && !(ab->has[at / 64] >> (at % 64) & 1))
		return false;
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
		if (dec_sleb(&p, a->e, &s) != 0) {
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
		if (dec_sleb(&p, a->e, v) != 0) {
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
		rel = dec_fixed(p, (unsigned)dec_form_size(a->form, 8, 8, 8),
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

		e = d->nsigs ? bsearch(&k, d->sigs, d->nsigs, sizeof(k),
				       dec_sig_cmp) :
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
