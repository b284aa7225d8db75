/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A DIE and an attribute as the reader's parts see them, read by kabi's
 * own decoder (info.h) or, with --reader libdw, by libdw.  The accessors
 * mean what the libdw functions of the same names mean (die_child is
 * dwarf_child, dattr_udata dwarf_formudata), so that both readers make
 * one model.
 *
 * A failure returns -1 (NULL, false); libdw keeps its reason for
 * dwarf_errmsg, the decoder for its dec, and reader.c's rd_dwfail
 * reports whichever holds it.
 */
#ifndef KABI_DIE_H
#define KABI_DIE_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "info.h"

struct die {
	struct odie o; /* the decoder's; o.a is NULL for a DIE of libdw */
	Dwarf_Die dw;
};

struct dattr {
	unsigned at, form;
	struct oattr o; /* the decoder's; o.v is NULL for libdw's */
	Dwarf_Attribute dw;
};

static inline bool die_own(const struct die *d)
{
	return d->o.a != NULL;
}

static inline int die_tag(const struct die *d)
{
	return d->o.a ? (int)d->o.ab->tag : dwarf_tag((Dwarf_Die *)&d->dw);
}

static inline uint64_t die_offset(const struct die *d)
{
	return d->o.a ? d->o.off : dwarf_dieoffset((Dwarf_Die *)&d->dw);
}

static inline bool die_has_children(const struct die *d)
{
	return d->o.a ? d->o.ab->children :
			dwarf_haschildren((Dwarf_Die *)&d->dw) > 0;
}

/* dwarf_child, dwarf_siblingof: 0 found, 1 none, -1 failed.  S may be D. */
static inline int die_child(const struct die *d, struct die *c)
{
	if (d->o.a)
		return dec_child(&d->o, &c->o);
	c->o.a = NULL;
	return dwarf_child((Dwarf_Die *)&d->dw, &c->dw);
}

static inline int die_sibling(const struct die *d, struct die *s)
{
	if (d->o.a)
		return dec_sibling(&d->o, &s->o);
	s->o.a = NULL;
	return dwarf_siblingof((Dwarf_Die *)&d->dw, &s->dw);
}

/* dwarf_attr: whether D has attribute AT, into A. */
static inline bool die_attr(const struct die *d, unsigned at, struct dattr *a)
{
	if (d->o.a) {
		if (!dec_attr(&d->o, at, &a->o))
			return false;
		a->at = a->o.at;
		a->form = a->o.form;
		return true;
	}
	a->o.v = NULL;
	if (!dwarf_attr((Dwarf_Die *)&d->dw, at, &a->dw))
		return false;
	a->at = at;
	a->form = dwarf_whatform(&a->dw);
	return true;
}

static inline bool die_has_attr(const struct die *d, unsigned at)
{
	struct oattr a;

	if (d->o.a)
		return dec_attr(&d->o, at, &a);
	return dwarf_hasattr((Dwarf_Die *)&d->dw, at) > 0;
}

/* dwarf_getattrs: CB with each attribute of D until it returns nonzero;
 * 0 all seen, 1 stopped by CB, -1 failed. */
int die_attrs(const struct die *d, int (*cb)(struct dattr *, void *),
	      void *arg);

/* dwarf_diename: DW_AT_name, through DW_AT_abstract_origin and
 * DW_AT_specification; NULL when none (or failed). */
const char *die_name(const struct die *d);

static inline int dattr_udata(const struct dattr *a, uint64_t *v)
{
	Dwarf_Word w;

	if (a->o.v)
		return dec_udata(&a->o, v);
	if (dwarf_formudata((Dwarf_Attribute *)&a->dw, &w) != 0)
		return -1;
	*v = w;
	return 0;
}

static inline int dattr_sdata(const struct dattr *a, int64_t *v)
{
	Dwarf_Sword w;

	if (a->o.v)
		return dec_sdata(&a->o, v);
	if (dwarf_formsdata((Dwarf_Attribute *)&a->dw, &w) != 0)
		return -1;
	*v = w;
	return 0;
}

static inline int dattr_flag(const struct dattr *a, bool *v)
{
	if (a->o.v)
		return dec_flag(&a->o, v);
	return dwarf_formflag((Dwarf_Attribute *)&a->dw, v) != 0 ? -1 : 0;
}

static inline const char *dattr_string(const struct dattr *a)
{
	return a->o.v ? dec_string(&a->o) :
			dwarf_formstring((Dwarf_Attribute *)&a->dw);
}

static inline int dattr_block(const struct dattr *a, const unsigned char **p,
			      size_t *n)
{
	Dwarf_Block b;

	if (a->o.v)
		return dec_block(&a->o, p, n);
	if (dwarf_formblock((Dwarf_Attribute *)&a->dw, &b) != 0)
		return -1;
	*p = b.data;
	*n = b.length;
	return 0;
}

/* dwarf_formref_die: the DIE A refers to into T; 0, or -1. */
static inline int dattr_ref(const struct dattr *a, struct die *t)
{
	if (a->o.v)
		return dec_ref(&a->o, &t->o);
	t->o.a = NULL;
	return dwarf_formref_die((Dwarf_Attribute *)&a->dw, &t->dw) ? 0 : -1;
}

#endif
