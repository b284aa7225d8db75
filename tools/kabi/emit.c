// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emitting: alignment, and struct, union, enum and typedef DIEs turned
 * into model types.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "emit.h"
#include "lines.h"
#include "size.h"
#include "spell.h"

/* ---- alignment ------------------------------------------------------- */

/*
 * The alignment C gives a type, from what DWARF says about it, for the
 * diff: producers record DW_AT_alignment differently (GCC the alignment a
 * struct ends up with, Clang the attribute's value, and a member's
 * attribute on the member only), but the largest explicit alignment met,
 * raised to what the members need, is one number for both.  A scalar
 * needs the largest power of two dividing its size (a complex number
 * half that); a struct with a member at an offset its alignment does not
 * allow, or a size that is not a multiple of it, is packed and counts
 * only explicit alignments.  Exact for the ABIs kabi is used on; where a
 * psABI aligns a scalar below its size (i386 double), both sides of a
 * diff are off the same way.
 */
static int64_t members_align(struct reader *r, struct die *die, unsigned depth);
static int member_location(struct reader *r, struct die *die, uint64_t *off);

static int64_t scalar_align(struct reader *r, struct die *die, int64_t size)
{
	uint64_t enc = 0;

	if (die_tag(die) == DW_TAG_base_type &&
	    attr_udata(r, die, DW_AT_encoding, &enc) == 1 &&
	    enc == DW_ATE_complex_float)
		size /= 2;
	return size > 0 ? size & -size : 1;
}

/* Whether TAG only wraps the type it refers to. */
static bool is_wrapper(int tag)
{
	return tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
	       tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
	       tag == DW_TAG_atomic_type || tag == DW_TAG_array_type;
}

/* The largest alignment recorded along DIE's chain of typedefs,
 * qualifiers and arrays, the type it ends at included (an aligned
 * typedef, an aligned struct), 0 when none; *END is that type, or the
 * last wrapper when the chain ends in nothing.  Clang repeats such an
 * alignment on every member of that type; inside a packed struct it is
 * not the member's, as only an aligned attribute on the member itself
 * survives packing (GCC writes it on the typedef alone). */
static int64_t chain_align(struct reader *r, struct die *die, struct die *end)
{
	int64_t best = 0;
	unsigned hops;
	uint64_t v;

	*end = *die;
	for (hops = 0; hops < KABI_MAX_TYPE_DEPTH && !r->failed; hops++) {
		if (attr_udata(r, end, DW_AT_alignment, &v) == 1 &&
		    (int64_t)v > best)
			best = (int64_t)v;
		if (!is_wrapper(die_tag(end)) || attr_type(r, end, end) != 1)
			break;
	}
	return best;
}

static int64_t type_align(struct reader *r, struct die *die, unsigned depth)
{
	struct die t;
	int64_t best = chain_align(r, die, &t), a = 1;
	int tag = die_tag(&t);

	if (r->failed || is_wrapper(tag))
		a = 1;
	else if (is_aggregate(tag) && tag != DW_TAG_enumeration_type)
		a = members_align(r, &t, depth + 1);
	else if (tag != DW_TAG_subroutine_type)
		a = scalar_align(r, &t, type_size(r, &t));
	return a > best ? a : best;
}

/* Whether member C, of alignment A, sits where A does not allow. */
static bool misplaced(struct reader *r, struct die *c, int64_t a)
{
	uint64_t loc;

	if (die_has_attr(c, DW_AT_bit_size) || a <= 1)
		return false;
	return member_location(r, c, &loc) == 1 && loc % (uint64_t)a != 0;
}

/* The alignment the members of struct or union DIE give it, memoised. */
static int64_t members_align(struct reader *r, struct die *die, unsigned depth)
{
	Dwarf_Off off = die_offset(die);
	int64_t nat = 1, expl = 1, a;
	bool packed = false, typed;
	struct die c, mt, end;
	uint64_t v;
	int rc;

	if (memo_slot(r, off)->align)
		return memo_slot(r, off)->align;
	if (depth > KABI_MAX_TYPE_DEPTH)
		return 1; /* a struct inside itself: no C type */
	for (rc = die_child(die, &c); rc == 0 && !r->failed;
	     rc = die_sibling(&c, &c)) {
		if (die_tag(&c) != DW_TAG_member)
			continue;
		typed = attr_type(r, &c, &mt) == 1;
		if (attr_udata(r, &c, DW_AT_alignment, &v) == 1 &&
		    (int64_t)v > expl &&
		    (!typed || (int64_t)v > chain_align(r, &mt, &end)))
			expl = (int64_t)v;
		a = typed ? type_align(r, &mt, depth) : 1;
		packed |= misplaced(r, &c, a);
		nat = a > nat ? a : nat;
	}
	if (attr_size(r, die, &v) == 1 && v % (uint64_t)nat != 0)
		packed = true;
	a = packed || expl > nat ? expl : nat;
	memo_slot(r, off)->align = a;
	return a;
}

/* ---- types ----------------------------------------------------------- */

static int member_location(struct reader *r, struct die *die, uint64_t *off)
{
	struct dattr a;
	Dwarf_Op *ops;
	size_t n;
	int rc;

	*off = 0;
	if (!die_attr(die, DW_AT_data_member_location, &a))
		return 0;
	switch (a.form) {
	case DW_FORM_exprloc:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		if (die_own(die)) {
			rc = dec_member_offset(&a.o, off);
			if (rc < 0)
				rd_dwfail(r, "dwarf_getlocation");
			if (rc != 0)
				return rc;
		} else if (dwarf_getlocation(&a.dw, &ops, &n) != 0) {
			rd_dwfail(r, "dwarf_getlocation");
			return -1;
		} else if (n == 1 && (ops[0].atom == DW_OP_plus_uconst ||
				      ops[0].atom == DW_OP_constu)) {
			*off = ops[0].number;
			return 1;
		}
		rd_fail(r,
			"unsupported member location expression at DIE 0x%" PRIx64,
			die_offset(die));
		return -1;
	default:
		if (dattr_udata(&a, off) != 0) {
			rd_dwfail(r, "dwarf_formudata");
			return -1;
		}
		return 1;
	}
}

static void emit(struct reader *r, struct ktype *t)
{
	struct ktype *in;

	if (r->failed)
		return;
	in = model_add(r->model, t);
	if (!r->grp_on)
		return;
	if (r->ngrp == r->grp_cap) {
		r->grp_cap = r->grp_cap ? 2 * r->grp_cap : 1024;
		r->grp = xrealloc(r->grp, r->grp_cap * sizeof(*r->grp));
	}
	r->grp[r->ngrp++] = in;
}

/* The bit position of member C, at byte LOC, and its bit size, into M. */
static void member_bits(struct reader *r, struct die *c, uint64_t loc,
			struct member *m)
{
	uint64_t bs, bo, storage;
	struct die mt;

	if (attr_udata(r, c, DW_AT_data_bit_offset, &bo) == 1)
		m->bitpos = bo;
	else
		m->bitpos = loc * 8;
	if (attr_udata(r, c, DW_AT_bit_size, &bs) != 1 || !bs)
		return;
	m->bitsize = (uint32_t)bs;
	if (die_has_attr(c, DW_AT_data_bit_offset) ||
	    attr_udata(r, c, DW_AT_bit_offset, &bo) != 1)
		return;
	/* DWARF 2-4: offset of the storage unit plus a bit offset counted
	 * from its most significant bit; the storage unit is DW_AT_byte_size
	 * or the member type's size. */
	if (attr_size(r, c, &storage) != 1) {
		int64_t s = -1;

		if (attr_type(r, c, &mt) == 1)
			s = type_size(r, &mt);
		storage = s < 0 ? 0 : (uint64_t)s;
	}
	if (r->big_endian)
		m->bitpos = loc * 8 + bo;
	else
		m->bitpos = loc * 8 + storage * 8 - bo - bs;
}

/* The type of member C into M, anonymous types named through CTX. */
static void member_type(struct reader *r, struct die *c, const struct actx *ctx,
			struct member *m)
{
	struct die mt;
	int rc = attr_type(r, c, &mt);

	if (rc == 0) {
		rd_fail(r, "member without type at DIE 0x%" PRIx64,
			die_offset(c));
		return;
	}
	if (rc < 0)
		return;
	m->type = type_name(r, &mt, AS_WRITTEN, ctx);
	m->resolved = type_name(r, &mt, RESOLVED, ctx);
	m->size = type_size(r, &mt);
	/* Clang drops DW_AT_bit_size from a bitfield that fills its type;
	 * GCC keeps it */
	if (m->bitsize && m->size > 0 && m->bitpos % 8 == 0 &&
	    (int64_t)m->bitsize == m->size * 8)
		m->bitsize = 0;
}

/* Member C into M, to follow the N members MV; -1 to stop (failed). */
static int read_member(struct reader *r, struct die *c, struct actx *ctx,
		       struct sb *seg, const struct member *mv, uint32_t n,
		       struct member *m)
{
	uint64_t loc;

	m->name = die_name(c);
	if (m->name)
		m->name = intern(r, m->name);
	if (member_location(r, c, &loc) < 0)
		return -1;
	member_bits(r, c, loc, m);
	/* anonymous types met from here are named by this member */
	member_seg(seg, m, mv, n);
	ctx->seg = sb_str(seg);
	member_type(r, c, ctx, m);
	return r->failed ? -1 : 0;
}

void emit_aggregate(struct reader *r, struct die *die, const char *name,
		    const char *parent)
{
	struct ktype t = { .kind = tag_kind(die_tag(die)),
			   .name = name,
			   .parent = parent,
			   .size = SIZE_UNKNOWN };
	struct member *mv = NULL;
	size_t cap = 0;
	struct die c;
	uint64_t v;
	int rc;
	struct sb full, seg, path;
	struct actx ctx = { .intrinsic = false };

	sb_init(&full);
	sb_init(&seg);
	sb_init(&path);
	sb_add2(&full, kind_name(t.kind), " ");
	sb_add(&full, name);
	ctx.parent = intern(r, sb_str(&full));
	sb_add2(&path, name, ".");
	ctx.path = sb_str(&path);
	if (attr_size(r, die, &v) == 1)
		t.size = (int64_t)v;
	/* BTF records no alignment: the compat model has none */
	if (!r->opts->compat && attr_udata(r, die, DW_AT_alignment, &v) == 1)
		t.align = (int64_t)v;
	if (!r->opts->compat)
		t.natural_align = members_align(r, die, 0);
	get_decl(r, die, &t);

	rc = die_child(die, &c);
	while (rc == 0 && !r->failed) {
		if (die_tag(&c) == DW_TAG_member) {
			struct member m = { .size = SIZE_UNKNOWN };

			if (read_member(r, &c, &ctx, &seg, mv, t.n, &m) < 0)
				break;
			if (t.n == cap) {
				cap = cap ? 2 * cap : 16;
				mv = xrealloc(mv, cap * sizeof(*mv));
			}
			mv[t.n++] = m;
		}
		rc = die_sibling(&c, &c);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
	t.members = mv;
	emit(r, &t);
	free(mv);
	sb_release(&full);
	sb_release(&seg);
	sb_release(&path);
}

/*
 * An enumerator value held in a block: Clang writes the values of an enum
 * with a 128-bit underlying type as 16-byte blocks, and DWARF 5 has
 * DW_FORM_data16 for the same.  The bytes are in the target's order.
 * Values up to 128 bits are read; a value that does not fit its enum is
 * an error rather than a silent truncation.
 */
static bool enum_block_value(struct reader *r, struct dattr *a, struct die *die,
			     const char *name, const struct ktype *t,
			     struct enumerator *e)
{
	struct {
		const unsigned char *data;
		size_t length;
	} blk;
	uint64_t lo = 0, hi = 0;
	size_t i;

	if (dattr_block(a, &blk.data, &blk.length) != 0) {
		rd_dwfail(r, "dwarf_formblock");
		return false;
	}
	if (blk.length == 0 || blk.length > 16) {
		rd_fail(r,
			"enumerator '%s' at DIE 0x%" PRIx64
			" has a %zu-byte value; kabi reads values of 1 to 16 bytes",
			name, die_offset(die), (size_t)blk.length);
		return false;
	}
	for (i = 0; i < blk.length; i++) {
		/* byte i from the least significant end */
		uint64_t byte =
			blk.data[r->big_endian ? blk.length - 1 - i : i];

		if (i < 8)
			lo |= byte << (8 * i);
		else
			hi |= byte << (8 * (i - 8));
	}
	if (t->is_signed && blk.length < 16 &&
	    blk.data[r->big_endian ? 0 : blk.length - 1] & 0x80) {
		/* sign-extend from blk.length bytes to 128 bits */
		if (blk.length < 8) {
			lo |= ~UINT64_C(0) << (8 * blk.length);
			hi = ~UINT64_C(0);
		} else {
			hi |= blk.length == 8 ?
				      ~UINT64_C(0) :
				      ~UINT64_C(0) << (8 * (blk.length - 8));
		}
	}
	if (t->size <= 8 && t->size > 0) {
		/* an enum of up to 64 bits keeps its value in 'value' */
		uint64_t ext = t->is_signed && lo >> 63 ? ~UINT64_C(0) : 0;

		if (hi != ext) {
			rd_fail(r,
				"enumerator '%s' at DIE 0x%" PRIx64
				" has a value wider than its %" PRId64
				"-byte enum",
				name, die_offset(die), t->size);
			return false;
		}
		hi = 0;
	}
	e->value = lo;
	e->hi = hi;
	return true;
}

/* Whether FORM is a block, which enum_block_value reads. */
static bool block_form(unsigned form)
{
	return form == DW_FORM_data16 || form == DW_FORM_block1 ||
	       form == DW_FORM_block2 || form == DW_FORM_block4 ||
	       form == DW_FORM_block;
}

/*
 * The value V of an enumerator of T in fixed-size FORM.  Fixed-size
 * forms carry no sign.  A form as wide as a signed enum holds its two's
 * complement; a narrower one is GCC's way to write a positive value (it
 * uses sdata for negative ones), e.g. data4 0x80000000 in an 8-byte enum.
 */
static uint64_t fixed_value(const struct ktype *t, unsigned form, uint64_t v)
{
	unsigned bits = form == DW_FORM_data1 ? 8 :
			form == DW_FORM_data2 ? 16 :
			form == DW_FORM_data4 ? 32 :
						64;

	if (t->is_signed && form != DW_FORM_udata && bits < 64 && t->size > 0 &&
	    (int64_t)bits >= t->size * 8) {
		if (v >> (bits - 1) & 1)
			v |= ~UINT64_C(0) << bits;
	}
	return v;
}

/* Enumerator C of enum T into E; with LEARN, a negative value makes T
 * signed.  0, or -1 to stop (failed). */
static int read_enumerator(struct reader *r, struct die *c, struct ktype *t,
			   bool learn, struct enumerator *e)
{
	struct dattr a;
	int64_t s;
	unsigned form;

	e->name = intern(r, die_name(c) ? die_name(c) : "<anon>");
	if (!die_attr(c, DW_AT_const_value, &a)) {
		rd_fail(r, "enumerator without value at DIE 0x%" PRIx64,
			die_offset(c));
		return -1;
	}
	form = a.form;
	e->hi = 0;
	if (block_form(form))
		return enum_block_value(r, &a, c, e->name, t, e) ? 0 : -1;
	if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
		if (dattr_sdata(&a, &s) != 0) {
			rd_dwfail(r, "dwarf_formsdata");
			return -1;
		}
		e->value = (uint64_t)s;
		if (s < 0 && learn)
			t->is_signed = true;
	} else if (form == DW_FORM_udata || form == DW_FORM_data1 ||
		   form == DW_FORM_data2 || form == DW_FORM_data4 ||
		   form == DW_FORM_data8) {
		if (dattr_udata(&a, &e->value) != 0) {
			rd_dwfail(r, "dwarf_formudata");
			return -1;
		}
		e->value = fixed_value(t, form, e->value);
	} else {
		rd_fail(r,
			"enumerator '%s' at DIE 0x%" PRIx64
			" has a value of form 0x%x, which is not a constant",
			e->name, die_offset(c), form);
		return -1;
	}
	/* a negative value in an enum wider than 64 bits */
	if (t->size > 8 && t->is_signed && e->value >> 63)
		e->hi = ~UINT64_C(0);
	return 0;
}

/* The underlying type of enum DIE into T; whether it says T's sign. */
static bool enum_underlying(struct reader *r, struct die *die, struct ktype *t)
{
	struct die ut, b;
	uint64_t enc;

	if (attr_type(r, die, &ut) != 1)
		return false;
	b = ut;
	t->underlying = type_name(r, &ut, RESOLVED, NULL);
	while (die_tag(&b) == DW_TAG_typedef && attr_type(r, &b, &b) == 1)
		;
	if (attr_udata(r, &b, DW_AT_encoding, &enc) != 1)
		return false;
	t->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	return true;
}

void emit_enum(struct reader *r, struct die *die, const char *name,
	       const char *parent)
{
	struct ktype t = { .kind = KIND_ENUM,
			   .name = name,
			   .parent = parent,
			   .size = SIZE_UNKNOWN };
	struct enumerator *ev = NULL;
	size_t cap = 0;
	struct die c;
	uint64_t v;
	int rc, pass;
	bool known;

	if (attr_size(r, die, &v) == 1)
		t.size = (int64_t)v;
	get_decl(r, die, &t);
	known = enum_underlying(r, die, &t);

	/* pass 0 collects values and, without DW_AT_type, the signedness */
	for (pass = 0; pass < 2 && !r->failed; pass++) {
		rc = die_child(die, &c);
		t.n = 0;
		while (rc == 0 && !r->failed) {
			struct enumerator e;

			if (die_tag(&c) != DW_TAG_enumerator)
				goto next;
			if (read_enumerator(r, &c, &t, !known && pass == 0,
					    &e) < 0)
				break;
			if (pass == 1) {
				if (t.n == cap) {
					cap = cap ? 2 * cap : 16;
					ev = xrealloc(ev, cap * sizeof(*ev));
				}
				ev[t.n] = e;
			}
			t.n++;
next:
			rc = die_sibling(&c, &c);
		}
		if (rc < 0)
			rd_dwfail(r, "dwarf_siblingof");
	}
	if (!t.underlying && t.size > 0) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%sint%" PRId64,
			 t.is_signed ? "" : "u", t.size * 8);
		t.underlying = intern(r, buf);
	}
	t.enums = ev;
	emit(r, &t);
	free(ev);
}

static void chain_add(const char ***chain, size_t *cap, uint32_t *n,
		      const char *s)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		*chain = xrealloc(*chain, *cap * sizeof(**chain));
	}
	(*chain)[(*n)++] = s;
}

/* The naming context of a typedef's anonymous target: "struct NAME.<anon>" */
static void typedef_ctx(struct reader *r, const char *name, struct sb *path,
			struct actx *ctx)
{
	struct sb parent;

	sb_init(&parent);
	sb_addf(&parent, "typedef %s", name);
	sb_reset(path);
	sb_addf(path, "%s.", name);
	ctx->parent = intern(r, sb_str(&parent));
	ctx->path = sb_str(path);
	ctx->seg = "<anon>";
	ctx->intrinsic = true;
	sb_release(&parent);
}

void emit_typedef(struct reader *r, struct die *die, const char *name)
{
	struct ktype t = { .kind = KIND_TYPEDEF,
			   .name = name,
			   .size = SIZE_UNKNOWN };
	const char **chain = NULL;
	size_t cap = 0;
	struct die cur;
	struct actx ctx;
	struct sb path;
	int rc;

	get_decl(r, die, &t);
	sb_init(&path);
	typedef_ctx(r, name, &path, &ctx);
	rc = attr_type(r, die, &cur);
	if (rc == 0) {
		t.resolved = intern(r, "void");
		chain_add(&chain, &cap, &t.n, t.resolved);
	} else if (rc == 1) {
		t.resolved = type_name(r, &cur, RESOLVED, &ctx);
	}
	/* each link's anonymous target is named after the typedef that
	 * points at it, not after the head of the chain */
	while (rc == 1 && !r->failed) {
		const char *owner;

		chain_add(&chain, &cap, &t.n,
			  type_name(r, &cur, AS_WRITTEN, &ctx));
		if (die_tag(&cur) != DW_TAG_typedef)
			break;
		if (t.n >= KABI_MAX_TYPE_DEPTH) {
			rd_fail(r,
				"typedef chain longer than %d at DIE 0x%" PRIx64,
				KABI_MAX_TYPE_DEPTH, die_offset(die));
			break;
		}
		owner = die_name(&cur);
		typedef_ctx(r, owner ? owner : "<anon>", &path, &ctx);
		rc = attr_type(r, &cur, &cur);
		if (rc == 0)
			chain_add(&chain, &cap, &t.n, intern(r, "void"));
	}
	t.chain = chain;
	emit(r, &t);
	free(chain);
	sb_release(&path);
}

void anon_enum_top(struct reader *r, struct die *die)
{
	struct die c;
	int rc = die_child(die, &c);
	struct sb name;

	while (rc == 0 && die_tag(&c) != DW_TAG_enumerator)
		rc = die_sibling(&c, &c);
	if (rc != 0 || !die_name(&c))
		return;
	sb_init(&name);
	sb_addf(&name, "<anon:%s>", die_name(&c));
	emit_enum(r, die, intern(r, sb_str(&name)), NULL);
	sb_release(&name);
}
