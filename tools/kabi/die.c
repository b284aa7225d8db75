// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DIE accessors that are not inline: attributes one by one, and a
 * DIE's name as libdw finds it.
 */
#include <dwarf.h>

#include "die.h"

struct attrs_walk {
	int (*cb)(struct dattr *, void *);
	void *arg;
};

static int attrs_cb(Dwarf_Attribute *dw, void *arg)
{
	struct attrs_walk *w = arg;
	struct dattr a = { .at = dwarf_whatattr(dw),
			   .form = dwarf_whatform(dw),
			   .dw = *dw };

	return w->cb(&a, w->arg) ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* The decoder's DIE D: its attributes in order, each read where the one
 * before it ends (DW_FORM_indirect the long way). */
static int own_attrs(const struct die *d, int (*cb)(struct dattr *, void *),
		     void *arg)
{
	const struct abbrev *ab = d->o.ab;
	const unsigned char *p = d->o.a;
	struct dattr a;
	uint16_t i;

	a.o.e = d->o.e;
	a.o.u = d->o.u;
	a.o.die_off = d->o.off;
	for (i = 0; i < ab->n; i++) {
		const struct aspec *s = &ab->spec[i];

		if (s->form == DW_FORM_indirect) {
			if (!dec_attr_at(&d->o, i, &a.o))
				return -1;
		} else {
			a.o.at = s->at;
			a.o.form = s->form;
			a.o.v = p;
			a.o.implicit = s->implicit;
		}
		a.at = a.o.at;
		a.form = a.o.form;
		if (cb(&a, arg))
			return 1;
		p = s->size >= 0 ? p + s->size :
				   dec_skip_form(d->o.u, d->o.u->tab, s->form,
						 p, d->o.e);
		if (!p)
			return -1; /* dec_die found that it fits */
	}
	return 0;
}

int die_attrs(const struct die *d, int (*cb)(struct dattr *, void *), void *arg)
{
	struct attrs_walk w = { cb, arg };
	ptrdiff_t rc;

	if (d->o.a)
		return own_attrs(d, cb, arg);
	rc = dwarf_getattrs((Dwarf_Die *)&d->dw, attrs_cb, &w, 0);
	return rc == 1 ? 0 : rc < 0 ? -1 : 1;
}

/* A name DW_AT_abstract_origin or DW_AT_specification lends, as
 * dwarf_attr_integrate finds it (it gives up after 16 hops). */
const char *die_name(const struct die *d)
{
	struct odie cur = d->o, next;
	struct oattr a;
	int hops;

	if (!d->o.a)
		return dwarf_diename((Dwarf_Die *)&d->dw);
	for (hops = 0; hops < 16; hops++) {
		if (dec_attr(&cur, DW_AT_name, &a))
			return dec_string(&a);
		if (!dec_attr(&cur, DW_AT_abstract_origin, &a) &&
		    !dec_attr(&cur, DW_AT_specification, &a))
			return NULL;
		if (dec_ref(&a, &next) != 0)
			return NULL;
		cur = next;
	}
	return NULL;
}
