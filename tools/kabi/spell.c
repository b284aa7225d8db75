// SPDX-License-Identifier: GPL-2.0-only
/*
 * Type names: how a type DIE is spelled in C, memoised per unit.  Sizes
 * and array bounds are size.c's.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "emit.h"
#include "size.h"
#include "spell.h"

/* ---- memo of type names, per CU -------------------------------------- */

static uint64_t memo_hash_off(Dwarf_Off off)
{
	return (off * UINT64_C(0x9e3779b97f4a7c15)) >> 20;
}

/* Index NSLOTS slots, the entries of this unit in them. */
static void memo_index(struct spell *s, size_t nslots)
{
	uint64_t gen = (uint64_t)s->memo_gen << 32;
	size_t mask = nslots - 1, h;
	uint32_t i;

	free(s->index);
	s->index = xcalloc(nslots, sizeof(*s->index));
	s->nslots = nslots;
	for (i = 0; i < s->nents; i++) {
		for (h = memo_hash_off(s->ents[i].off) & mask;
		     s->index[h] >> 32 == s->memo_gen; h = (h + 1) & mask)
			;
		s->index[h] = gen | (i + 1);
	}
}

struct memo_ent *memo_slot(struct reader *r, Dwarf_Off off)
{
	struct spell *s = &r->spell;
	struct memo_ent *e;
	size_t mask, h;
	uint64_t slot;

	if (2 * ((size_t)s->nents + 1) > s->nslots)
		memo_index(s, s->nslots ? 2 * s->nslots : 4096);
	mask = s->nslots - 1;
	for (h = memo_hash_off(off) & mask;; h = (h + 1) & mask) {
		slot = s->index[h];
		if (slot >> 32 != s->memo_gen)
			break;
		e = &s->ents[(uint32_t)slot - 1];
		if (e->off == off)
			return e;
	}
	if (s->nents == s->ents_cap) {
		s->ents_cap = s->ents_cap ? 2 * s->ents_cap : 1024;
		s->ents = xrealloc(s->ents, s->ents_cap * sizeof(*s->ents));
	}
	e = &s->ents[s->nents++];
	memset(e, 0, sizeof(*e));
	e->off = off;
	s->index[h] = (uint64_t)s->memo_gen << 32 | s->nents;
	return e;
}

void memo_clear(struct reader *r)
{
	struct spell *s = &r->spell;

	if (++s->memo_gen == 0) {
		if (s->index)
			memset(s->index, 0, s->nslots * sizeof(*s->index));
		s->memo_gen = 1;
	}
	s->nents = 0;
}

/* ---- names ----------------------------------------------------------- */

static const char *base_name(struct reader *r, struct die *die, struct sb *out)
{
	uint64_t enc = 0, size = 0;
	unsigned bits;

	attr_udata(r, die, DW_AT_encoding, &enc);
	attr_size(r, die, &size);
	bits = (unsigned)size * 8;
	/* plain char's sign is the target's, and BTF records none */
	if (r->opts->compat && die_name(die) &&
	    strcmp(die_name(die), "char") == 0) {
		sb_add(out, "char");
		return sb_str(out);
	}
	/* Spelled from encoding and size, so "long unsigned int" (GCC) and
	 * "unsigned long" (Clang) are one type. */
	switch (enc) {
	case DW_ATE_signed:
	case DW_ATE_signed_char:
		sb_addf(out, "int%u", bits);
		break;
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
		sb_addf(out, "uint%u", bits);
		break;
	case DW_ATE_boolean:
		if (bits == 8)
			sb_add(out, "bool");
		else
			sb_addf(out, "bool%u", bits);
		break;
	case DW_ATE_float:
		sb_addf(out, "float%u", bits);
		break;
	case DW_ATE_complex_float:
		sb_addf(out, "complex%u", bits);
		break;
	case DW_ATE_UTF:
		sb_addf(out, "char%u", bits);
		break;
	default:
		sb_addf(out, "base%u_%u", (unsigned)enc, bits);
	}
	return sb_str(out);
}

bool is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type || tag == DW_TAG_enumeration_type;
}

enum kind tag_kind(int tag)
{
	switch (tag) {
	case DW_TAG_union_type:
		return KIND_UNION;
	case DW_TAG_enumeration_type:
		return KIND_ENUM;
	case DW_TAG_typedef:
		return KIND_TYPEDEF;
	default:
		return KIND_STRUCT;
	}
}

void emit_enum(struct reader *r, struct die *die, const char *name,
	       const char *parent);

/* Name of an anonymous aggregate met through CTX; materialise it. */
static const char *anon_name(struct reader *r, struct die *die,
			     enum name_mode mode, const struct actx *ctx,
			     struct sb *out)
{
	int tag = die_tag(die);
	enum kind k = tag_kind(tag);
	const char *name;
	Dwarf_Off off = die_offset(die);
	unsigned i;
	struct sb full;

	sb_init(&full);
	if (ctx)
		sb_add2(&full, ctx->path, ctx->seg);
	else
		sb_add(&full, "<anon>");
	name = intern(r, sb_str(&full));
	sb_release(&full);
	sb_add2(out, kind_name(k), " ");
	sb_add(out, name);
	/* materialised once, from the as-written pass */
	if (mode != AS_WRITTEN)
		return sb_str(out);
	for (i = 0; i < r->spell.nactive; i++)
		if (r->spell.active[i] == off)
			return sb_str(out); /* a cycle: named, not re-emitted */
	if (r->spell.nactive == KABI_MAX_TYPE_DEPTH) {
		rd_fail(r,
			"anonymous types nested deeper than %d at DIE 0x%" PRIx64,
			KABI_MAX_TYPE_DEPTH, (uint64_t)off);
		return sb_str(out);
	}
	r->spell.active[r->spell.nactive++] = off;
	if (r->spell.ndone == r->spell.done_cap) {
		r->spell.done_cap = r->spell.done_cap ? 2 * r->spell.done_cap :
							64;
		r->spell.done =
			xrealloc(r->spell.done,
				 r->spell.done_cap * sizeof(*r->spell.done));
	}
	r->spell.done[r->spell.ndone++] = off;
	if (k == KIND_ENUM)
		emit_enum(r, die, name, ctx ? ctx->parent : NULL);
	else
		emit_aggregate(r, die, name, ctx ? ctx->parent : NULL);
	r->spell.nactive--;
	return sb_str(out);
}

/* Qualifier bits in print order. */
enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_ATOMIC = 8 };

static void add_quals(struct sb *b, unsigned q)
{
	if (q & Q_CONST)
		sb_add(b, "const ");
	if (q & Q_VOLATILE)
		sb_add(b, "volatile ");
	if (q & Q_RESTRICT)
		sb_add(b, "restrict ");
	if (q & Q_ATOMIC)
		sb_add(b, "_Atomic ");
}

static void join(struct sb *out, const char *head, const char *inner)
{
	sb_add(out, head);
	if (*inner) {
		sb_add(out, " ");
		sb_add(out, inner);
	}
}

static void type_decl(struct reader *r, struct die *die, enum name_mode mode,
		      const struct actx *ctx, const char *inner, struct sb *out,
		      bool *ctx_used);
static void type_decl_q(struct reader *r, struct die *die, enum name_mode mode,
			const struct actx *ctx, const char *inner,
			struct sb *out, bool *ctx_used, unsigned q0);

static void params_decl(struct reader *r, struct die *fn, enum name_mode mode,
			const struct actx *ctx, struct sb *out, bool *ctx_used)
{
	struct die p, t;
	int rc, n = 0;
	struct sb one;

	sb_add(out, "(");
	sb_init(&one);
	rc = die_child(fn, &p);
	while (rc == 0) {
		int tag = die_tag(&p);

		if (tag == DW_TAG_formal_parameter) {
			sb_reset(&one);
			switch (attr_type(r, &p, &t)) {
			case 1:
				type_decl(r, &t, mode, ctx, "", &one, ctx_used);
				break;
			case 0:
				sb_add(&one, "void");
				break;
			default:
				break;
			}
			sb_add(out, n++ ? ", " : "");
			sb_add(out, sb_str(&one));
		} else if (tag == DW_TAG_unspecified_parameters) {
			sb_add(out, n++ ? ", ..." : "...");
		}
		rc = die_sibling(&p, &p);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
	/* BTF cannot tell "()" from "(void)" */
	if (n == 0 && (attr_flag(fn, DW_AT_prototyped) || r->opts->compat))
		sb_add(out, "void");
	sb_add(out, ")");
	sb_release(&one);
}

static void type_decl(struct reader *r, struct die *die, enum name_mode mode,
		      const struct actx *ctx, const char *inner, struct sb *out,
		      bool *ctx_used)
{
	type_decl_q(r, die, mode, ctx, inner, out, ctx_used, 0);
}

/*
 * What a pointer to DIE points at, for the spelling: the tag seen through
 * qualifiers and, when MODE resolves them, typedefs.  A pointer to an
 * array or function needs parentheses: "int32 (*)[4]", "void (*)(int32)";
 * a typedef hides that only while its name is printed.
 */
static int pointee_tag(struct reader *r, struct die *die, enum name_mode mode)
{
	struct die t = *die;
	unsigned hops = 0;
	int tag = die_tag(&t);

	while ((tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
		tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type ||
		(tag == DW_TAG_typedef && mode == RESOLVED)) &&
	       hops++ < KABI_MAX_TYPE_DEPTH && attr_type(r, &t, &t) == 1)
		tag = die_tag(&t);
	return tag;
}

/* The declarator of pointer (or reference) DIE with TAG and qualifiers
 * QUALS around INNER; see type_decl_q. */
static void pointer_decl(struct reader *r, struct die *die, int tag,
			 unsigned quals, enum name_mode mode,
			 const struct actx *ctx, const char *inner,
			 struct sb *out, bool *ctx_used)
{
	const char *star = tag == DW_TAG_pointer_type	? "*" :
			   tag == DW_TAG_reference_type ? "&" :
							  "&&";
	struct sb tmp, head;
	struct die next;
	int rc;

	sb_init(&tmp);
	sb_init(&head);
	sb_add(&tmp, star);
	if (quals) {
		sb_add(&tmp, " ");
		add_quals(&tmp, quals);
		tmp.len--; /* drop the trailing space */
		tmp.buf[tmp.len] = '\0';
	}
	if (*inner) {
		if (quals ||
		    (inner[0] != '*' && inner[0] != '(' && inner[0] != '&'))
			sb_add(&tmp, " ");
		sb_add(&tmp, inner);
	}
	rc = attr_type(r, die, &next);
	if (rc == 0)
		join(out, "void", sb_str(&tmp));
	if (rc <= 0)
		goto out;
	/* qualifiers on a function type are GCC's way to say noreturn or
	 * const (a "volatile" function), not C: the function case of
	 * type_decl_q drops them */
	tag = pointee_tag(r, &next, mode);
	if (tag == DW_TAG_array_type || tag == DW_TAG_subroutine_type) {
		sb_add2(&head, "(", sb_str(&tmp));
		sb_add(&head, ")");
		type_decl(r, &next, mode, ctx, sb_str(&head), out, ctx_used);
	} else {
		type_decl(r, &next, mode, ctx, sb_str(&tmp), out, ctx_used);
	}
out:
	sb_release(&tmp);
	sb_release(&head);
}

/* "QUALS void" around INNER, into OUT. */
static void void_decl(unsigned quals, const char *inner, struct sb *out)
{
	struct sb head;

	sb_init(&head);
	add_quals(&head, quals);
	sb_add(&head, "void");
	join(out, sb_str(&head), inner);
	sb_release(&head);
}

/* Enter DIE into the spelling under way; false (failed) when that nests
 * too deep, meets DIE inside its own spelling or spends the budget.  A
 * DIE inside its own spelling is a cycle no C type has; shared function
 * and pointer types could still make the spelling grow exponentially,
 * hence the step budget.  type_decl_q leaves with r->spell.depth--. */
static bool spell_enter(struct reader *r, struct die *die)
{
	Dwarf_Off off;
	unsigned i;

	if (++r->spell.depth > KABI_MAX_TYPE_DEPTH) {
		rd_fail(r,
			"type reference cycle or nesting deeper than %d at DIE 0x%" PRIx64,
			KABI_MAX_TYPE_DEPTH, die_offset(die));
		r->spell.depth--;
		return false;
	}
	off = die_offset(die);
	for (i = 0; i + 1 < r->spell.depth; i++) {
		if (r->spell.spelling[i] == off) {
			rd_fail(r, "type reference cycle at DIE 0x%" PRIx64,
				(uint64_t)off);
			r->spell.depth--;
			return false;
		}
	}
	r->spell.spelling[r->spell.depth - 1] = off;
	if (++r->spell.steps > KABI_MAX_NAME_STEPS) {
		rd_fail(r,
			"type at DIE 0x%" PRIx64
			" takes more than %d steps to spell",
			(uint64_t)r->spell.spelling[0], KABI_MAX_NAME_STEPS);
		r->spell.depth--;
		return false;
	}
	return true;
}

/* The qualifier bit of TAG, 0 for a tag that is no qualifier. */
static unsigned qual_bit(int tag)
{
	switch (tag) {
	case DW_TAG_const_type:
		return Q_CONST;
	case DW_TAG_volatile_type:
		return Q_VOLATILE;
	case DW_TAG_restrict_type:
		return Q_RESTRICT;
	case DW_TAG_atomic_type:
		return Q_ATOMIC;
	default:
		return 0;
	}
}

/* Collapse the qualifier DIEs from T on (met through DIE) into *QUALS:
 * producers order them differently.  1 with T the DIE they qualify and
 * *TAG its tag; 0 when done: a qualified void spelled around INNER into
 * OUT, or a failure. */
static int skip_quals(struct reader *r, struct die *die, struct die *t,
		      int *tag, unsigned *quals, const char *inner,
		      struct sb *out)
{
	unsigned q, hops = 0;
	int rc;

	for (;;) {
		*tag = die_tag(t);
		q = qual_bit(*tag);
		if (!q)
			return 1;
		*quals |= q;
		rc = attr_type(r, t, t);
		if (rc < 0)
			return 0;
		if (rc == 0) {
			void_decl(*quals, inner, out);
			return 0;
		}
		if (++hops > KABI_MAX_TYPE_DEPTH) {
			rd_fail(r,
				"type reference cycle through qualifiers at DIE 0x%" PRIx64,
				die_offset(die));
			return 0;
		}
	}
}

/* The declarator of array DIE T around INNER: its bounds, then its
 * element type, which takes the array's qualifiers QUALS. */
static void array_decl(struct reader *r, struct die *t, unsigned quals,
		       enum name_mode mode, const struct actx *ctx,
		       const char *inner, struct sb *out, bool *ctx_used)
{
	struct die sub, next;
	struct sb tmp;
	int rc;

	sb_init(&tmp);
	sb_add(&tmp, inner);
	if (r->opts->compat) {
		/* pahole writes int a[2][3] to BTF as int a[6] */
		if (flat_bound(r, t, &tmp) < 0)
			goto out;
		rc = 1;
	} else {
		rc = die_child(t, &sub);
	}
	while (rc == 0) {
		if (die_tag(&sub) == DW_TAG_subrange_type &&
		    array_bound(r, &sub, &tmp) < 0)
			goto out;
		rc = die_sibling(&sub, &sub);
	}
	if (rc < 0) {
		rd_dwfail(r, "dwarf_siblingof");
		goto out;
	}
	rc = attr_type(r, t, &next);
	if (rc <= 0) {
		if (rc == 0)
			rd_fail(r,
				"array without element type at DIE 0x%" PRIx64,
				die_offset(t));
		goto out;
	}
	type_decl_q(r, &next, mode, ctx, sb_str(&tmp), out, ctx_used, quals);
out:
	sb_release(&tmp);
}

/* The declarator of function type DIE T around INNER.  Its qualifiers
 * are dropped: see pointer_decl. */
static void subroutine_decl(struct reader *r, struct die *t,
			    enum name_mode mode, const struct actx *ctx,
			    const char *inner, struct sb *out, bool *ctx_used)
{
	struct die next;
	struct sb tmp;
	int rc;

	sb_init(&tmp);
	sb_add(&tmp, inner);
	params_decl(r, t, mode, ctx, &tmp, ctx_used);
	rc = attr_type(r, t, &next);
	if (rc == 0)
		join(out, "void", sb_str(&tmp));
	else if (rc > 0)
		type_decl(r, &next, mode, ctx, sb_str(&tmp), out, ctx_used);
	sb_release(&tmp);
}

/* Typedef DIE T resolved to its target, with QUALS, around INNER.  An
 * anonymous target is named after the typedef. */
static void typedef_decl(struct reader *r, struct die *t, unsigned quals,
			 enum name_mode mode, const char *inner, struct sb *out)
{
	const char *name = die_name(t);
	bool unused = false;
	struct actx tctx;
	struct die next;
	struct sb path;
	int rc;

	rc = attr_type(r, t, &next);
	if (rc == 0)
		void_decl(quals, inner, out);
	if (rc <= 0)
		return;
	sb_init(&path);
	sb_addf(&path, "typedef %s", name ? name : "<anon>");
	tctx.parent = intern(r, sb_str(&path));
	sb_reset(&path);
	sb_addf(&path, "%s.", name ? name : "<anon>");
	tctx.path = sb_str(&path);
	tctx.seg = "<anon>";
	tctx.intrinsic = true;
	/* "const T" with T a pointer typedef is "U * const" */
	type_decl_q(r, &next, mode, &tctx, inner, out, &unused, quals);
	sb_release(&path);
}

/* The name of a base, typedef (as written), unspecified or aggregate
 * DIE T with TAG, into HEAD after its qualifiers; -1 (failed) for a tag
 * that is no type. */
static int named_decl(struct reader *r, struct die *t, int tag,
		      enum name_mode mode, const struct actx *ctx,
		      struct sb *head, bool *ctx_used)
{
	const char *name = die_name(t);

	if (tag == DW_TAG_base_type) {
		base_name(r, t, head);
	} else if (tag == DW_TAG_typedef || tag == DW_TAG_unspecified_type) {
		sb_add(head, name ? name : "<anon>");
	} else if (is_aggregate(tag)) {
		if (name) {
			sb_add2(head, kind_name(tag_kind(tag)), " ");
			sb_add(head, name);
		} else if (!attr_flag(t, DW_AT_declaration)) {
			if (ctx && !ctx->intrinsic)
				*ctx_used = true;
			anon_name(r, t, mode, ctx, head);
		} else {
			sb_addf(head, "%s <anon>", kind_name(tag_kind(tag)));
		}
	} else {
		rd_fail(r,
			"unexpected DWARF tag 0x%x as a type at DIE 0x%" PRIx64,
			(unsigned)tag, die_offset(t));
		return -1;
	}
	return 0;
}

/*
 * C declarator for DIE around INNER: pointer and qualifier text goes to
 * the left of INNER, array and function suffixes to its right.  Q0 holds
 * qualifiers applied from outside, through a typedef being resolved.
 */
static void type_decl_q(struct reader *r, struct die *die, enum name_mode mode,
			const struct actx *ctx, const char *inner,
			struct sb *out, bool *ctx_used, unsigned q0)
{
	struct die t = *die;
	unsigned quals = q0;
	struct sb head;
	int tag;

	if (r->failed || !spell_enter(r, die))
		return;
	if (!skip_quals(r, die, &t, &tag, &quals, inner, out))
		goto out;
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		pointer_decl(r, &t, tag, quals, mode, ctx, inner, out,
			     ctx_used);
		break;
	case DW_TAG_array_type:
		array_decl(r, &t, quals, mode, ctx, inner, out, ctx_used);
		break;
	case DW_TAG_subroutine_type:
		subroutine_decl(r, &t, mode, ctx, inner, out, ctx_used);
		break;
	case DW_TAG_typedef:
		if (mode == RESOLVED) {
			typedef_decl(r, &t, quals, mode, inner, out);
			break;
		}
		/* fall through */
	default:
		sb_init(&head);
		add_quals(&head, quals);
		if (named_decl(r, &t, tag, mode, ctx, &head, ctx_used) == 0)
			join(out, sb_str(&head), inner);
		sb_release(&head);
	}
out:
	r->spell.depth--;
}

/* Interned name of the type DIE, memoised when context free. */
const char *type_name(struct reader *r, struct die *die, enum name_mode mode,
		      const struct actx *ctx)
{
	Dwarf_Off off = die_offset(die);
	struct memo_ent *e = memo_slot(r, off);
	bool ctx_used = false;
	const char *s;
	struct sb out;

	if (e->str[mode])
		return e->str[mode];
	if (r->spell.depth == 0)
		r->spell.steps = 0;
	sb_init(&out);
	type_decl(r, die, mode, ctx, "", &out, &ctx_used);
	s = intern(r, sb_str(&out));
	sb_release(&out);
	if (!ctx_used && !r->failed)
		memo_slot(r, off)->str[mode] = s;
	return s;
}
