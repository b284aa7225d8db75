// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fingerprints of DIEs of kabi's decoder: fp_die and its helpers again
 * (fingerprint.c), the same values mixed in the same order, but the
 * attributes read in one loop over the abbreviation, the common forms
 * decoded in place, and a reference's target looked up in the memo
 * before it is decoded.  This is most of the time of reading a distro
 * vmlinux.  One difference: a name in .debug_str goes in by address, as
 * fp_value's strings do.
 */
#include <dwarf.h>
#include <string.h>

#include "die.h"
#include "fingerprint.h"
#include "lines.h"
#include "spell.h"

static bool fpo_named(const struct odie *d)
{
	return d->ab->name >= 0;
}

/* The name of D as fp_use mixes it. */
static void fpo_name(const struct odie *d, struct fp *f)
{
	struct die dd = { .o = *d };
	struct oattr a;
	const char *name;

	if (dec_attr(d, DW_AT_name, &a) && a.form != DW_FORM_string) {
		name = dec_string(&a);
		if (!name) {
			f->never = true;
			return;
		}
		fp_mix(f, UINT64_C(1) << 63);
		fp_mix(f, (uint64_t)(uintptr_t)name);
		return;
	}
	name = die_name(&dd); /* inline, or lent by an origin */
	if (!name) {
		f->never = true;
		return;
	}
	fp_bytes(f, name, strlen(name));
}

static void fpo_use(struct reader *r, const struct odie *d, int tag,
		    bool pointer, struct fp *f, unsigned depth)
{
	struct oattr a;
	uint64_t size = 0;
	struct odie t;

	fp_mix(f, (uint64_t)tag | UINT64_C(1) << 32);
	fpo_name(d, f);
	if (f->never || pointer)
		return;
	if (dec_attr(d, DW_AT_byte_size, &a)) {
		if (dec_udata(&a, &size) != 0)
			f->never = true;
		fp_mix(f, size + 1);
		return;
	}
	fp_mix(f, 0);
	if (tag == DW_TAG_enumeration_type && dec_attr(d, DW_AT_type, &a)) {
		struct fp u = { .h = { 0, 0 } };

		if (dec_ref(&a, &t) != 0) {
			f->never = true;
			return;
		}
		fpo_die(r, &t, &u, depth + 1, false);
		f->never |= u.never;
		fp_mix2(f, u.h[0], u.h[1]);
	}
}

/* Whether the fingerprint of KEY is among the recent ones: then mixed
 * into F. */
static inline bool fpo_recent(struct reader *r, uint64_t key, struct fp *f)
{
	const struct fpm_ent *e = &r->fpm.recent[fpm_hash(key) % 512];

	if (e->gen != r->fpm.gen || e->off != key)
		return false;
	fp_mix2(f, e->fp[0], e->fp[1]);
	return true;
}

static inline void fpo_remember(struct reader *r, const struct fpm_ent *e)
{
	r->fpm.recent[fpm_hash(e->off) % 512] = *e;
}

/* Reference A of a DIE with TAG, as fp_ref.  A named aggregate's use is
 * memoised as a DIE is, under its offset with a bit for how it is used:
 * most references in a unit are to a few of those (struct list_head). */
static void fpo_ref(struct reader *r, const struct oattr *a, int tag,
		    struct fp *f, unsigned depth)
{
	struct fp t = { .h = { 0, 0 } };
	struct fpm_ent *e;
	struct odie target;
	struct unit *tu = a->u;
	uint64_t off, ukey;
	bool pointer = tag == DW_TAG_pointer_type ||
		       tag == DW_TAG_reference_type ||
		       tag == DW_TAG_rvalue_reference_type;
	int ttag;

	if (!dec_ref_near(a, &off) && dec_ref_off(a, &tu, &off) != 0) {
		f->never = true;
		return;
	}
	ukey = off | (pointer ? FPM_USE_PTR : FPM_USE_VAL);
	if (fpo_recent(r, off, f) || fpo_recent(r, ukey, f))
		return;
	e = fpm_slot(r, off);
	if (e->state == FP_AGG)
		e = fpm_slot(r, ukey);
	if (e->state == FP_DONE) {
		fp_mix2(f, e->fp[0], e->fp[1]);
		fpo_remember(r, e);
		return;
	}
	if (dec_die(tu, off, &target) != 1 || dec_signed(&target) != 0) {
		f->never = true;
		return;
	}
	ttag = (int)target.ab->tag;
	if (is_aggregate(ttag) && fpo_named(&target)) {
		fpm_slot(r, off)->state = FP_AGG;
		fpo_use(r, &target, ttag, pointer, &t, depth);
		if (!t.never) {
			e = fpm_slot(r, ukey);
			e->state = FP_DONE;
			e->fp[0] = t.h[0];
			e->fp[1] = t.h[1];
			fpo_remember(r, e);
		}
	} else {
		fpo_die(r, &target, &t, depth + 1, false);
	}
	f->never |= t.never;
	fp_mix2(f, t.h[0], t.h[1]);
}

/* A constant of FORM at P as dattr_udata reads it: the common forms
 * here, the rest through the decoder; 0, or -1. */
static inline int fpo_udata(const struct oattr *a, uint64_t *v)
{
	switch (a->form) {
	case DW_FORM_data1:
		*v = a->v[0];
		return 0;
	case DW_FORM_data2:
		*v = dec_fixed(a->v, 2, a->u->dec->big_endian);
		return 0;
	case DW_FORM_implicit_const:
		*v = (uint64_t)a->implicit;
		return 0;
	default:
		return dec_udata(a, v);
	}
}

/* A value of FORM, no reference, as fp_value. */
static void fpo_value(struct fp *f, const struct oattr *a)
{
	uint64_t u = 0;
	int64_t sv = 0;
	const unsigned char *blk;
	size_t blen;
	const char *s;
	bool flag = false;

	switch (a->form) {
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_strx:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
	case DW_FORM_GNU_strp_alt:
		if (!(s = dec_strp_near(a)) && !(s = dec_string(a)))
			f->never = true;
		else
			fp_mix(f, (uint64_t)(uintptr_t)s);
		break;
	case DW_FORM_string:
		s = (const char *)a->v;
		fp_bytes(f, s, strlen(s));
		break;
	case DW_FORM_flag:
	case DW_FORM_flag_present:
		if (dec_flag(a, &flag) != 0)
			f->never = true;
		fp_mix(f, flag);
		break;
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dec_sdata(a, &sv) != 0)
			f->never = true;
		fp_mix(f, (uint64_t)sv);
		break;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (fpo_udata(a, &u) != 0)
			f->never = true;
		fp_mix(f, u);
		break;
	case DW_FORM_exprloc:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_data16:
		if (dec_block(a, &blk, &blen) != 0)
			f->never = true;
		else
			fp_bytes(f, blk, blen);
		break;
	default:
		f->never = true;
	}
}

/* What fp_attr mixes for attribute AT of FORM before its value. */
static uint64_t fp_token(unsigned at, unsigned form)
{
	return fp_udata_attr(at) && fp_const_form(form) ?
		       (uint64_t)at << 16 | 0xffff :
		       (uint64_t)at << 16 | form;
}

/* What fpo_attrs does with a value, by its attribute and form (kept in
 * aspec.user). */
enum {
	FK_NONE,      /* not known yet */
	FK_SKIP,      /* reading never looks at it */
	FK_DECL_FILE, /* a constant: the file's name, but not a child's */
	FK_DECL_LINE, /* a constant, but not a child's */
	FK_UDATA,     /* a constant that reading takes as a number */
	FK_REF,	      /* a reference */
	FK_STRP,      /* a string in .debug_str */
	FK_VALUE,     /* any other value: fpo_value */
};

static uint8_t fp_kind(unsigned at, unsigned form)
{
	if (at == DW_AT_sibling || at == DW_AT_decl_column)
		return FK_SKIP;
	if (fp_udata_attr(at) && fp_const_form(form))
		return at == DW_AT_decl_file ? FK_DECL_FILE :
		       at == DW_AT_decl_line ? FK_DECL_LINE :
					       FK_UDATA;
	switch (form) {
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
	case DW_FORM_ref_udata:
	case DW_FORM_ref_addr:
	case DW_FORM_ref_sig8:
		return FK_REF;
	case DW_FORM_strp:
		return FK_STRP;
	default:
		return FK_VALUE;
	}
}

/* The tag and attribute tokens of abbreviation A in one number, kept in
 * a->user: they are mixed once per DIE rather than one by one; and the
 * kind of each attribute, in its aspec.user.  0 for an abbreviation with
 * DW_FORM_indirect, whose forms are the DIE's. */
static uint64_t fp_shape(struct abbrev *a)
{
	struct fp s = { .h = { a->tag, 0 } };
	uint16_t i;

	if (a->user)
		return a->user;
	for (i = 0; i < a->n; i++) {
		if (a->spec[i].form == DW_FORM_indirect)
			return 0;
		if (a->spec[i].at != DW_AT_sibling)
			fp_mix(&s, fp_token(a->spec[i].at, a->spec[i].form));
		a->spec[i].user = fp_kind(a->spec[i].at, a->spec[i].form);
	}
	fp_end(&s);
	a->user = s.h[0] | 1; /* never 0 */
	return a->user;
}

/* fpo_attrs for an abbreviation whose shape is known: each value done
 * as its kind says. */
static const unsigned char *fpo_shaped(struct reader *r, const struct odie *d,
				       int tag, struct fp *f, unsigned depth,
				       bool child)
{
	const struct abbrev *ab = d->ab;
	const unsigned char *p = d->a;
	bool be = d->u->dec->big_endian;
	struct oattr a = { .e = d->e, .u = d->u, .die_off = d->off };
	const char *str;
	uint64_t u;
	uint16_t i;

	for (i = 0; i < ab->n && !f->never; i++) {
		const struct aspec *s = &ab->spec[i];

		a.at = s->at;
		a.form = s->form;
		a.v = p;
		a.implicit = s->implicit;
		if (s->size >= 0 && d->e - p >= s->size)
			p += s->size;
		else if (!(p = dec_skip_form(d->u, d->u->tab, s->form, p,
					     d->e))) {
			f->never = true; /* dec_die says what is wrong */
			return NULL;
		}
		switch (s->user) {
		case FK_SKIP:
			break;
		case FK_DECL_FILE:
		case FK_DECL_LINE:
			if (child)
				break;
			/* fall through */
		case FK_UDATA:
			if (a.form == DW_FORM_data1)
				u = a.v[0];
			else if (a.form == DW_FORM_data2)
				u = dec_fixed(a.v, 2, be);
			else if (a.form == DW_FORM_implicit_const)
				u = (uint64_t)a.implicit;
			else if (fpo_udata(&a, &u) != 0)
				f->never = true;
			if (s->user == FK_DECL_FILE)
				u = (uintptr_t)decl_file(r, u);
			fp_mix(f, u);
			break;
		case FK_REF:
			fpo_ref(r, &a, tag, f, depth);
			break;
		case FK_STRP:
			if (!(str = dec_strp_near(&a)) &&
			    !(str = dec_string(&a)))
				f->never = true;
			else
				fp_mix(f, (uint64_t)(uintptr_t)str);
			break;
		default:
			fpo_value(f, &a);
		}
	}
	return f->never ? NULL : p;
}

/*
 * Most type DIEs have only fixed-size values (a member: its name in
 * .debug_str, its line, its type, its offset), and of those most go into
 * a fingerprint as they stand: equal bytes are equal values whichever
 * unit holds them.  For such an abbreviation a plan is made once: the
 * bytes of its attributes as words under masks that hide what is not
 * taken as it stands, then the values that are not (references, file
 * indexes, indexed strings).  A DIE is then a few words and its
 * references, with no step per attribute.  The plan's shape says which
 * abbreviation layout the words come from, so equal fingerprints still
 * mean equal values; a value stored in another form only costs a miss.
 * There is a plan for a DIE as a child and one as a type, since a
 * child's declaration is not read.
 */
#define FPP_WORDS 4
#define FPP_SPECIALS 6

enum { FPP_REF, FPP_FILE, FPP_STR };

struct fpp_ctx {
	bool ok; /* else fpo_attrs decodes value by value */
	uint64_t shape;
	uint64_t mask[FPP_WORDS];
	uint8_t nsp;
	struct {
		uint8_t i;    /* the attribute */
		uint8_t kind; /* FPP_* */
	} sp[FPP_SPECIALS];
};

struct fpplan {
	uint8_t nw;
	struct fpp_ctx c[2]; /* as a type, as a child */
};

/* How attribute AT of FORM goes into a plan for a CHILD or not: 0 taken
 * as it stands, 1 hidden, 2 + FPP_* a special, -1 no plan. */
static int fpp_kind(unsigned at, unsigned form, bool child)
{
	if (at == DW_AT_sibling || at == DW_AT_decl_column ||
	    (child && (at == DW_AT_decl_file || at == DW_AT_decl_line)))
		return 1;
	if (at == DW_AT_decl_file)
		return form == DW_FORM_data1 || form == DW_FORM_data2 ||
				       form == DW_FORM_data4 ||
				       form == DW_FORM_data8 ||
				       form == DW_FORM_implicit_const ?
			       2 + FPP_FILE :
			       -1;
	switch (form) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_data16:
	case DW_FORM_flag:
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const: /* its value is in the shape */
	case DW_FORM_strp:
	case DW_FORM_line_strp:
		return 0;
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
	case DW_FORM_ref_addr:
	case DW_FORM_ref_sig8:
		return 2 + FPP_REF;
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
	case DW_FORM_GNU_strp_alt:
		return 2 + FPP_STR;
	default:
		return -1;
	}
}

/* The plan of AB for a CHILD or not into C; false when there is none. */
static bool fpp_make_ctx(const struct abbrev *ab, bool child, struct fpp_ctx *c)
{
	struct fp s = { .h = { ab->tag, (uint64_t)child << 1 | ab->children } };
	unsigned char mask[FPP_WORDS * 8] = { 0 };
	uint16_t i;
	int k;

	for (i = 0; i < ab->n; i++) {
		const struct aspec *a = &ab->spec[i];

		k = fpp_kind(a->at, a->form, child);
		if (k < 0 || a->off < 0 || a->size < 0)
			return false;
		fp_mix(&s, (uint64_t)a->at << 16 | a->form);
		/* a file index is the unit's: it is a special */
		if (k == 0 && a->form == DW_FORM_implicit_const)
			fp_mix(&s, (uint64_t)a->implicit);
		if (k == 0)
			memset(mask + a->off, 0xff, (size_t)a->size);
		if (k < 2)
			continue;
		if (c->nsp == FPP_SPECIALS)
			return false;
		c->sp[c->nsp].i = (uint8_t)i;
		c->sp[c->nsp++].kind = (uint8_t)(k - 2);
	}
	memcpy(c->mask, mask, sizeof(mask));
	fp_end(&s);
	c->shape = s.h[0] ^ s.h[1];
	return true;
}

/* Plan P for the DIEs of abbreviation AB. */
static void fpp_make(struct fpplan *p, const struct abbrev *ab)
{
	if (ab->fixed < 0 || ab->fixed > FPP_WORDS * 8 || ab->n > UINT8_MAX)
		return;
	p->nw = (uint8_t)((ab->fixed + 7) / 8);
	p->c[0].ok = fpp_make_ctx(ab, false, &p->c[0]);
	p->c[1].ok = fpp_make_ctx(ab, true, &p->c[1]);
}

/* The plan for the DIEs of abbreviation AB, made when new. */
static inline const struct fpplan *fpp_plan(const struct abbrev *ab)
{
	struct fpplan *p = ab->plan;

	if (!p) {
		p = xcalloc(1, sizeof(*p));
		fpp_make(p, ab);
		((struct abbrev *)ab)->plan = p;
	}
	return p;
}

/* fpo_attrs by plan P: D's words, then its specials. */
static const unsigned char *fpo_planned(struct reader *r, const struct odie *d,
					const struct fpplan *p, int tag,
					struct fp *f, unsigned depth,
					bool child)
{
	const struct fpp_ctx *c = &p->c[child];
	const struct abbrev *ab = d->ab;
	const unsigned char *v = d->a;
	unsigned char buf[FPP_WORDS * 8];
	struct oattr a = { .e = d->e, .u = d->u, .die_off = d->off };
	const char *str;
	uint64_t w;
	unsigned i;

	if (d->e - v < ab->fixed) {
		f->never = true;
		return NULL;
	}
	if (d->e - v < (ptrdiff_t)sizeof(buf)) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, v, (size_t)ab->fixed);
		v = buf;
	}
	memcpy(&w, v, 8);
	fp_mix2(f, c->shape, w & c->mask[0]);
	for (i = 1; i < p->nw; i += 2) {
		uint64_t w2 = 0;

		memcpy(&w, v + 8 * i, 8);
		if (i + 1 < p->nw) {
			memcpy(&w2, v + 8 * i + 8, 8);
			w2 &= c->mask[i + 1];
		}
		fp_mix2(f, w & c->mask[i], w2);
	}
	for (i = 0; i < c->nsp && !f->never; i++) {
		const struct aspec *s = &ab->spec[c->sp[i].i];

		a.at = s->at;
		a.form = s->form;
		a.v = d->a + s->off;
		a.implicit = s->implicit;
		switch (c->sp[i].kind) {
		case FPP_REF:
			fpo_ref(r, &a, tag, f, depth);
			break;
		case FPP_FILE:
			w = s->form == DW_FORM_implicit_const ?
				    (uint64_t)s->implicit :
				    dec_fixed(a.v, (unsigned)s->size,
					      d->u->dec->big_endian);
			fp_mix(f, (uintptr_t)decl_file(r, w));
			break;
		default:
			if (!(str = dec_string(&a)))
				f->never = true;
			else
				fp_mix(f, (uint64_t)(uintptr_t)str);
		}
	}
	return f->never ? NULL : d->a + ab->fixed;
}

/* The attributes of D, which has TAG, as fp_attr mixes them: the shape
 * of its abbreviation, then their values, but for those reading never
 * looks at: DW_AT_decl_column, and a CHILD's declaration (only a type's
 * is read, get_decl). */
static const unsigned char *fpo_attrs(struct reader *r, const struct odie *d,
				      const struct fpplan *plan, int tag,
				      struct fp *f, unsigned depth, bool child)
{
	struct abbrev *ab = (struct abbrev *)d->ab;
	uint64_t shape;
	const unsigned char *p = d->a;
	struct oattr a = { .e = d->e, .u = d->u, .die_off = d->off };
	uint64_t u = 0;
	uint16_t i;

	if (plan->c[child].ok)
		return fpo_planned(r, d, plan, tag, f, depth, child);
	shape = fp_shape(ab);
	/* D->e may be the end of the unit (fpo_children): every fixed-size
	 * value is checked to fit, as dec_die checks a DIE */
	if (ab->fixed >= 0 && d->e - p < ab->fixed)
		f->never = true;
	fp_mix(f, shape ? shape : (uint64_t)tag);
	if (shape)
		return fpo_shaped(r, d, tag, f, depth, child);
	for (i = 0; i < ab->n && !f->never; i++) {
		const struct aspec *s = &ab->spec[i];

		if (s->form == DW_FORM_indirect) {
			if (!dec_attr_at(d, i, &a)) {
				f->never = true;
				return NULL;
			}
		} else {
			a.at = s->at;
			a.form = s->form;
			a.v = p;
			a.implicit = s->implicit;
		}
		if (s->size >= 0 && d->e - p >= s->size)
			p += s->size;
		else if (!(p = dec_skip_form(d->u, d->u->tab, s->form, p,
					     d->e)) ||
			 (s->form == DW_FORM_indirect && a.v >= p)) {
			f->never = true; /* dec_die says what is wrong */
			return NULL;
		}
		if (a.at == DW_AT_sibling)
			continue;
		fp_mix(f, fp_token(a.at, a.form));
		if (a.at == DW_AT_decl_column ||
		    (child &&
		     (a.at == DW_AT_decl_file || a.at == DW_AT_decl_line)))
			continue;
		if (fp_udata_attr(a.at) && fp_const_form(a.form)) {
			if (fpo_udata(&a, &u) != 0)
				f->never = true;
			else if (a.at == DW_AT_decl_file)
				u = (uintptr_t)decl_file(r, u);
			fp_mix(f, u);
			continue;
		}
		switch (a.form) {
		case DW_FORM_ref1:
		case DW_FORM_ref2:
		case DW_FORM_ref4:
		case DW_FORM_ref8:
		case DW_FORM_ref_udata:
		case DW_FORM_ref_addr:
		case DW_FORM_ref_sig8:
			fpo_ref(r, &a, tag, f, depth);
			break;
		default:
			fpo_value(f, &a);
		}
	}
	return f->never ? NULL : p;
}

/* The children of D (members, enumerators, parameters, subranges), which
 * nothing else refers to, from P into F itself, each between two marks;
 * past them, or NULL (F->never).  Each child is decoded once: where its
 * attributes end is where its sibling starts. */
static const unsigned char *fpo_children(struct reader *r, const struct odie *d,
					 const unsigned char *p, struct fp *f,
					 unsigned depth)
{
	struct unit *u = d->u;
	const unsigned char *end = u->data + (u->end - u->off);
	struct odie c = { .u = u, .e = end };
	const struct fpplan *plan;
	uint64_t code;

	if (depth > KABI_MAX_TYPE_DEPTH) {
		f->never = true;
		return NULL;
	}
	for (;;) {
		c.off = u->off + (uint64_t)(p - u->data);
		if (dec_uleb(&p, end, &code) != 0) {
			f->never = true;
			return NULL;
		}
		if (code == 0)
			return p;
		c.ab = dec_abbrev(u, code);
		if (!c.ab || c.ab->bad) {
			f->never = true;
			return NULL;
		}
		c.a = p;
		dec_note(u->dec, c.off, false);
		/* a child begins and ends with a mark; a planned one's shape
		 * is its beginning, and where it has no children, its
		 * shape says where it ends */
		plan = fpp_plan(c.ab);
		if (!plan->c[1].ok)
			fp_mix(f, UINT64_C(0xc4ceb9fe1a85ec53));
		p = fpo_attrs(r, &c, plan, (int)c.ab->tag, f, depth + 1, true);
		if (p && c.ab->children)
			p = fpo_children(r, &c, p, f, depth + 1);
		if (!p)
			return NULL;
		if (!plan->c[1].ok || c.ab->children)
			fp_mix(f, UINT64_C(0x9e3779b97f4a7c15));
	}
}

void fpo_die(struct reader *r, const struct odie *d, struct fp *f,
	     unsigned depth, bool child)
{
	uint64_t off = d->off;
	int tag = (int)d->ab->tag;
	bool named_agg = is_aggregate(tag) && fpo_named(d);
	bool deep = depth == 0 || !named_agg;
	struct fpm_ent *e;

	e = child || (named_agg && depth == 0) ? NULL : fpm_slot(r, off);
	if (e && e->state == FP_DONE) {
		f->h[0] = e->fp[0];
		f->h[1] = e->fp[1];
		return;
	}
	if ((e && e->state != FP_NONE) || depth > KABI_MAX_TYPE_DEPTH ||
	    (tag == DW_TAG_enumeration_type && !named_agg && depth > 0)) {
		f->never = true;
		return;
	}
	if (e)
		e->state = FP_BUSY;
	fpo_attrs(r, d, fpp_plan(d->ab), tag, f, depth, false);
	if (deep && !f->never && d->ab->children)
		fpo_children(r, d, d->e, f, depth);
	fp_end(f);
	if (!e)
		return;
	e = fpm_slot(r, off);
	e->state = f->never ? FP_NEVER : FP_DONE;
	e->fp[0] = f->h[0];
	e->fp[1] = f->h[1];
	if (e->state == FP_DONE)
		fpo_remember(r, e);
}
