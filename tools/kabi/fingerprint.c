// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fingerprints of type DIEs, and the set of those emitted so far.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "lines.h"
#include "spell.h"

/* ---- fingerprints ---------------------------------------------------- */

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

static uint64_t fmix(uint64_t v)
{
	v ^= v >> 33;
	v *= UINT64_C(0xff51afd7ed558ccd);
	v ^= v >> 33;
	v *= UINT64_C(0xc4ceb9fe1a85ec53);
	return v ^ (v >> 33);
}

/* One 64x64->128 multiply per lane, folded; fp_end finishes a DIE. */
static uint64_t mum(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static void fp_mix(struct fp *f, uint64_t v)
{
	/* the constants added keep a lane from sticking at zero */
	f->h[0] = mum(f->h[0] ^ v, UINT64_C(0x9e3779b97f4a7c15)) +
		  UINT64_C(0x2545f4914f6cdd1d);
	f->h[1] = mum(f->h[1] + v, UINT64_C(0xc2b2ae3d27d4eb4f)) ^
		  UINT64_C(0x632be59bd9b4e019);
}

static void fp_end(struct fp *f)
{
	f->h[0] = fmix(f->h[0]);
	f->h[1] = fmix(f->h[1] ^ UINT64_C(0x632be59bd9b4e019));
}

static void fp_bytes(struct fp *f, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t w;

	fp_mix(f, n);
	for (; n >= 8; n -= 8, c += 8) {
		memcpy(&w, c, 8);
		fp_mix(f, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, c, n);
		fp_mix(f, w);
	}
}

struct fp_walk {
	struct reader *r;
	struct fp *f;
	unsigned depth;
	int tag; /* of the DIE whose attributes these are */
};

/* A named aggregate as a use reads it: its name, and unless the use is a
 * pointer, its size (or for an enum without one, its type's). */
static void fp_use(struct reader *r, Dwarf_Die *die, int tag, bool pointer,
		   struct fp *f, unsigned depth)
{
	const char *name = dwarf_diename(die);
	Dwarf_Attribute a;
	Dwarf_Word size;
	Dwarf_Die t;

	fp_mix(f, (uint64_t)tag | UINT64_C(1) << 32);
	if (!name) {
		f->never = true;
		return;
	}
	fp_bytes(f, name, strlen(name));
	if (pointer)
		return;
	if (dwarf_attr(die, DW_AT_byte_size, &a)) {
		if (dwarf_formudata(&a, &size) != 0)
			f->never = true;
		fp_mix(f, size + 1);
		return;
	}
	fp_mix(f, 0);
	if (tag == DW_TAG_enumeration_type && dwarf_attr(die, DW_AT_type, &a)) {
		struct fp u = { .h = { 0, 0 } };

		if (!dwarf_formref_die(&a, &t)) {
			f->never = true;
			return;
		}
		fp_die(r, &t, &u, depth + 1, false);
		f->never |= u.never;
		fp_mix(f, u.h[0]);
		fp_mix(f, u.h[1]);
	}
}

/* Attributes that reading takes with dwarf_formudata whatever the form. */
static bool udata_attr(unsigned at)
{
	switch (at) {
	case DW_AT_decl_file:
	case DW_AT_decl_line:
	case DW_AT_decl_column:
	case DW_AT_byte_size:
	case DW_AT_bit_size:
	case DW_AT_bit_offset:
	case DW_AT_data_bit_offset:
	case DW_AT_data_member_location:
	case DW_AT_encoding:
	case DW_AT_alignment:
		return true;
	default:
		return false;
	}
}

static bool const_form(unsigned form)
{
	switch (form) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		return true;
	default:
		return false;
	}
}

/* A reference into W's fingerprint: that of its target, or of a use of
 * a named aggregate. */
static void fp_ref(struct fp_walk *w, Dwarf_Attribute *a)
{
	struct fp *f = w->f;
	struct fp t = { .h = { 0, 0 } };
	struct memo_ent *e;
	Dwarf_Die target;
	bool pointer;
	int tag;

	if (!dwarf_formref_die(a, &target)) {
		f->never = true;
		return;
	}
	/* a memoised target needs no abbreviation lookup */
	e = memo_slot(w->r, dwarf_dieoffset(&target));
	if (e->fp_state == FP_DONE) {
		fp_mix(f, e->fp[0]);
		fp_mix(f, e->fp[1]);
		return;
	}
	tag = dwarf_tag(&target);
	pointer = w->tag == DW_TAG_pointer_type ||
		  w->tag == DW_TAG_reference_type ||
		  w->tag == DW_TAG_rvalue_reference_type;
	if (is_aggregate(tag) && dwarf_hasattr(&target, DW_AT_name))
		fp_use(w->r, &target, tag, pointer, &t, w->depth);
	else
		fp_die(w->r, &target, &t, w->depth + 1, false);
	f->never |= t.never;
	fp_mix(f, t.h[0]);
	fp_mix(f, t.h[1]);
}

/* A value of FORM, no reference, into F; F->never when it is not read. */
static void fp_value(struct fp *f, Dwarf_Attribute *a, unsigned form)
{
	Dwarf_Word u = 0;
	Dwarf_Sword sv = 0;
	Dwarf_Block blk;
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
		if (!(s = dwarf_formstring(a)))
			f->never = true;
		else
			fp_mix(f, (uint64_t)(uintptr_t)s);
		break;
	case DW_FORM_string:
		if (!(s = dwarf_formstring(a)))
			f->never = true;
		else
			fp_bytes(f, s, strlen(s));
		break;
	case DW_FORM_flag:
	case DW_FORM_flag_present:
		if (dwarf_formflag(a, &flag) != 0)
			f->never = true;
		fp_mix(f, flag);
		break;
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(a, &sv) != 0)
			f->never = true;
		fp_mix(f, (uint64_t)sv);
		break;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (dwarf_formudata(a, &u) != 0)
			f->never = true;
		fp_mix(f, u);
		break;
	case DW_FORM_exprloc:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_data16:
		if (dwarf_formblock(a, &blk) != 0)
			f->never = true;
		else
			fp_bytes(f, blk.data, blk.length);
		break;
	default:
		f->never = true;
	}
}

static int fp_attr(Dwarf_Attribute *a, void *arg)
{
	struct fp_walk *w = arg;
	struct fp *f = w->f;
	unsigned at = dwarf_whatattr(a), form = dwarf_whatform(a);
	Dwarf_Word u = 0;

	if (at == DW_AT_sibling)
		return DWARF_CB_OK;
	/* producers pick the smallest form per unit; where reading takes
	 * any constant form as an unsigned number, only that number counts */
	if (udata_attr(at) && const_form(form)) {
		if (dwarf_formudata(a, &u) != 0)
			f->never = true;
		else if (at == DW_AT_decl_file)
			u = (uintptr_t)decl_file_name(w->r, u); /* interned */
		fp_mix(f, (uint64_t)at << 16 | 0xffff);
		fp_mix(f, u);
		return f->never ? DWARF_CB_ABORT : DWARF_CB_OK;
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
		(void)dwarf_errno(); /* reading in full reports it */
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* Fingerprint of DIE into F: its children too, unless it is a named
 * aggregate below the top (DEPTH 0) of the walk.  Only DIEs that a
 * reference can reach are memoised, not CHILDren (members, enumerators,
 * parameters, subranges), which only their parent reaches. */
void fp_die(struct reader *r, Dwarf_Die *die, struct fp *f, unsigned depth,
	    bool child)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	int tag = dwarf_tag(die);
	bool named_agg = is_aggregate(tag) && dwarf_hasattr(die, DW_AT_name);
	bool deep = depth == 0 || !named_agg;
	struct fp_walk w = { .r = r, .f = f, .depth = depth, .tag = tag };
	struct memo_ent *e;
	Dwarf_Die c;
	int rc;

	/* the one deep walk of a named aggregate is not memoised */
	e = child || (named_agg && depth == 0) ? NULL : memo_slot(r, off);
	if (e && e->fp_state == FP_DONE) {
		f->h[0] = e->fp[0];
		f->h[1] = e->fp[1];
		return;
	}
	if ((e && e->fp_state != FP_NONE) || depth > KABI_MAX_TYPE_DEPTH ||
	    (tag == DW_TAG_enumeration_type && !named_agg)) {
		f->never = true; /* a cycle, too deep, or an anonymous enum */
		return;
	}
	if (e)
		e->fp_state = FP_BUSY;
	fp_mix(f, (uint64_t)tag);
	if (dwarf_getattrs(die, fp_attr, &w, 0) != 1)
		f->never = true;
	if (deep && !f->never && dwarf_haschildren(die)) {
		rc = dwarf_child(die, &c);
		while (rc == 0 && !f->never) {
			struct fp t = { .h = { 0, 0 } };

			fp_die(r, &c, &t, depth + 1, true);
			f->never |= t.never;
			fp_mix(f, t.h[0]);
			fp_mix(f, t.h[1]);
			rc = dwarf_siblingof(&c, &c);
		}
		if (rc < 0)
			f->never = true;
	}
	fp_end(f);
	if (!e)
		return;
	e = memo_slot(r, off); /* the table may have grown */
	e->fp_state = f->never ? FP_NEVER : FP_DONE;
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

bool seen_has(struct reader *r, const uint64_t k[2])
{
	if (!r->seen.nslots)
		return false;
	return seen_used(hset_find(&r->seen, k[0], seen_used, seen_match, k,
				   NULL),
			 NULL);
}

void seen_add(struct reader *r, const uint64_t k[2])
{
	uint64_t *e;

	hset_reserve(&r->seen, 4096, seen_used, seen_hash, NULL);
	e = hset_find(&r->seen, k[0], seen_used, seen_match, k, NULL);
	if (!seen_used(e, NULL)) {
		memcpy(e, k, 2 * sizeof(*k));
		r->seen.n++;
	}
}
