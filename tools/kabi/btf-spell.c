// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C spelling of a BTF type ID, rule for rule as spell.c spells a DIE:
 * base types by encoding and size, qualifiers collapsed, typedefs kept
 * (as written) or resolved, anonymous aggregates named by the path that
 * reaches them and materialised at their first use.
 *
 * Each depth of a spelling has a scratch string of its own (the breader
 * keeps them), so spelling allocates nothing once they have grown.
 */
#include <inttypes.h>
#include <string.h>

#include "btf-emit.h"
#include "btf-spell.h"

static void bdecl(struct breader *r, uint32_t id, enum bname_mode mode,
		  const struct bctx *ctx, const char *inner, struct sb *out,
		  unsigned q0);

/* Plain char's sign is the target's, and pahole writes none: "char". */
static void base_name(struct breader *r, const struct btf_type *t,
		      struct sb *out)
{
	const char *name = bname(r, t->name_off);
	unsigned bits = t->size * 8;

	if (btf_is_float(t)) {
		sb_add(out, "float");
	} else if (btf_int_encoding(t) & BTF_INT_BOOL) {
		sb_add(out, "bool");
		if (bits == 8)
			return;
	} else if (name && strcmp(name, "char") == 0) {
		sb_add(out, "char");
		return;
	} else {
		sb_add(out,
		       btf_int_encoding(t) & BTF_INT_SIGNED ? "int" : "uint");
	}
	sb_addu(out, bits);
}

static void add_quals(struct sb *b, unsigned q)
{
	if (q & 1)
		sb_add(b, "const ");
	if (q & 2)
		sb_add(b, "volatile ");
	if (q & 4)
		sb_add(b, "restrict ");
}

/* " INNER" after what OUT holds, unless INNER is empty. */
static void add_inner(struct sb *out, const char *inner)
{
	if (*inner)
		sb_add2(out, " ", inner);
}

static void void_decl(unsigned quals, const char *inner, struct sb *out)
{
	add_quals(out, quals);
	sb_add(out, "void");
	add_inner(out, inner);
}

static const char *kind_word(const struct btf_type *t)
{
	if (btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t)))
		return "union";
	return btf_is_any_enum(t) ? "enum" : "struct";
}

/* Materialise anonymous ID as NAME, used by the owner of CTX, unless it
 * is being emitted already (a cycle: named, not emitted again). */
static void anon_emit(struct breader *r, uint32_t id, const char *name,
		      const struct bctx *ctx)
{
	const char *parent = NULL;
	struct sb *p;
	unsigned i;

	for (i = 0; i < r->nactive; i++)
		if (r->active[i] == id)
			return;
	if (r->nactive == KABI_MAX_TYPE_DEPTH) {
		bfail(r,
		      "anonymous types nested deeper than %d at type ID %" PRIu32,
		      KABI_MAX_TYPE_DEPTH, id);
		return;
	}
	if (ctx) {
		p = scratch(r, r->depth, SCR_NAME);
		sb_add2(p, ctx->kw, " ");
		sb_add(p, ctx->owner);
		parent = bintern(r, p->buf, p->len);
	}
	r->active[r->nactive++] = id;
	if (btf_is_any_enum(bt(r, id))) {
		if (id >= r->first)
			r->anon_used[id - r->first] = true;
		btf_emit_enum(r, id, name, parent);
	} else {
		btf_emit_composite(r, id, name, parent);
	}
	r->nactive--;
}

/* Name of anonymous struct, union or enum ID met through CTX;
 * materialised when spelled as written. */
static void anon_name(struct breader *r, uint32_t id, enum bname_mode mode,
		      const struct bctx *ctx, struct sb *out)
{
	struct sb *full = scratch(r, r->depth, SCR_NAME);
	const char *name;

	if (ctx) {
		sb_add2(full, ctx->owner, ".");
		sb_add(full, ctx->seg);
	} else {
		sb_add(full, "<anon>");
	}
	if (ctx && !ctx->intrinsic)
		r->ctx_used = true;
	name = bintern(r, full->buf, full->len);
	sb_add2(out, kind_word(bt(r, id)), " ");
	sb_add(out, name);
	if (mode == B_AS_WRITTEN)
		anon_emit(r, id, name, ctx);
}

/* A parameter's spelling from the memo; whether it holds a typedef shows
 * in the other mode's entry, which is the same string when it does not. */
static void params_memo(struct breader *r, uint32_t id, enum bname_mode mode,
			struct sb *out)
{
	if (r->memo[id][B_AS_WRITTEN] != r->memo[id][B_RESOLVED])
		r->typedef_seen = true;
	sb_add(out, r->memo[id][mode]);
}

static void params_decl(struct breader *r, const struct btf_type *t,
			enum bname_mode mode, const struct bctx *ctx,
			struct sb *out)
{
	const struct btf_param *p = btf_params(t);
	uint16_t i, n = btf_vlen(t);

	sb_add(out, "(");
	for (i = 0; i < n; i++) {
		sb_add(out, i ? ", " : "");
		if (i + 1 == n && !p[i].type && !p[i].name_off)
			sb_add(out, "...");
		else if (r->memo[p[i].type][mode])
			params_memo(r, p[i].type, mode, out);
		else
			bdecl(r, p[i].type, mode, ctx, "", out, 0);
	}
	if (!n)
		sb_add(out, "void");
	sb_add(out, ")");
}

/* What a pointer points at, through qualifiers and (RESOLVED) typedefs. */
static const struct btf_type *pointee(struct breader *r, uint32_t id,
				      enum bname_mode mode)
{
	unsigned hops = 0;
	const struct btf_type *t = bt(r, id);

	while (id && hops++ < KABI_MAX_TYPE_DEPTH &&
	       (btf_is_mod(t) || btf_is_type_tag(t) ||
		(btf_is_typedef(t) && mode == B_RESOLVED))) {
		id = t->type;
		t = bt(r, id);
	}
	return t;
}

/* A pointer to an array or function needs parentheses: "int32 (*)[4]". */
static void pointer_decl(struct breader *r, const struct btf_type *t,
			 unsigned quals, enum bname_mode mode,
			 const struct bctx *ctx, const char *inner,
			 struct sb *out)
{
	struct sb *tmp = scratch(r, r->depth, SCR_TMP);
	const struct btf_type *to = t->type ? pointee(r, t->type, mode) : NULL;
	bool paren = to && (btf_is_array(to) || btf_is_func_proto(to));

	sb_add(tmp, paren ? "(*" : "*");
	if (quals) {
		sb_add(tmp, " ");
		add_quals(tmp, quals);
		tmp->len--; /* the last qualifier's space */
		tmp->buf[tmp->len] = '\0';
	}
	if (*inner) {
		if (quals ||
		    (inner[0] != '*' && inner[0] != '(' && inner[0] != '&'))
			sb_add(tmp, " ");
		sb_add(tmp, inner);
	}
	if (paren)
		sb_add(tmp, ")");
	if (!t->type) {
		sb_add(out, "void");
		add_inner(out, tmp->buf);
	} else {
		bdecl(r, t->type, mode, ctx, tmp->buf, out, 0);
	}
}

static void typedef_decl(struct breader *r, const struct btf_type *t,
			 unsigned quals, const char *inner, struct sb *out)
{
	const char *name = bname(r, t->name_off);
	struct bctx tctx = { "typedef", name ? name : "<anon>", "<anon>",
			     true };

	if (!t->type)
		void_decl(quals, inner, out);
	else
		bdecl(r, t->type, B_RESOLVED, &tctx, inner, out, quals);
}

/* Named, base or anonymous type T (ID) into OUT; -1 for a kind that is
 * no C type. */
static int named_decl(struct breader *r, uint32_t id, const struct btf_type *t,
		      enum bname_mode mode, const struct bctx *ctx,
		      struct sb *out)
{
	const char *name = bname(r, t->name_off);

	if (btf_is_int(t) || btf_is_float(t)) {
		base_name(r, t, out);
	} else if (btf_is_typedef(t)) {
		r->typedef_seen = true;
		sb_add(out, name ? name : "<anon>");
	} else if (btf_is_composite(t) || btf_is_any_enum(t) || btf_is_fwd(t)) {
		if (name || btf_is_fwd(t))
			sb_add2(out, kind_word(t), name ? " " : " <anon>");
		if (name)
			sb_add(out, name);
		else if (!btf_is_fwd(t))
			anon_name(r, id, mode, ctx, out);
	} else {
		bfail(r, "BTF kind %u used as a type at type ID %" PRIu32,
		      btf_kind(t), id);
		return -1;
	}
	return 0;
}

/* Enter ID into the spelling; false (failed) on a loop or too much. */
static bool spell_enter(struct breader *r, uint32_t id)
{
	unsigned i;

	if (++r->depth > KABI_MAX_TYPE_DEPTH) {
		bfail(r,
		      "type reference loop or nesting deeper than %d at type ID %" PRIu32,
		      KABI_MAX_TYPE_DEPTH, id);
		r->depth--;
		return false;
	}
	for (i = 0; i + 1 < r->depth; i++) {
		if (r->spelling[i] == id) {
			bfail(r, "type reference loop at type ID %" PRIu32, id);
			r->depth--;
			return false;
		}
	}
	r->spelling[r->depth - 1] = id;
	if (++r->steps > KABI_MAX_NAME_STEPS) {
		bfail(r,
		      "type ID %" PRIu32 " takes more than %d steps to spell",
		      r->spelling[0], KABI_MAX_NAME_STEPS);
		r->depth--;
		return false;
	}
	return true;
}

static void array_decl(struct breader *r, const struct btf_type *t,
		       unsigned quals, enum bname_mode mode,
		       const struct bctx *ctx, const char *inner,
		       struct sb *out)
{
	const struct btf_array *a = btf_array(t);
	struct sb *tmp = scratch(r, r->depth, SCR_TMP);

	sb_add2(tmp, inner, "[");
	if (a->nelems)
		sb_addu(tmp, a->nelems);
	sb_add(tmp, "]");
	bdecl(r, a->type, mode, ctx, tmp->buf, out, quals);
}

static void proto_decl(struct breader *r, const struct btf_type *t,
		       enum bname_mode mode, const struct bctx *ctx,
		       const char *inner, struct sb *out)
{
	struct sb *tmp = scratch(r, r->depth, SCR_TMP);

	sb_add(tmp, inner);
	params_decl(r, t, mode, ctx, tmp);
	if (!t->type) {
		sb_add(out, "void");
		add_inner(out, tmp->buf);
	} else {
		bdecl(r, t->type, mode, ctx, tmp->buf, out, 0);
	}
}

/* Qualifiers and type tags from *ID on into *QUALS; the type they
 * qualify, or NULL when that is void (*ID is then 0). */
static const struct btf_type *skip_quals(struct breader *r, uint32_t *id,
					 unsigned *quals)
{
	unsigned hops = 0;

	while (*id) {
		const struct btf_type *t = bt(r, *id);

		if (btf_is_const(t))
			*quals |= 1;
		else if (btf_is_volatile(t))
			*quals |= 2;
		else if (btf_is_restrict(t))
			*quals |= 4;
		else if (!btf_is_type_tag(t))
			return t;
		if (++hops > KABI_MAX_TYPE_DEPTH) {
			bfail(r,
			      "type reference loop through qualifiers at type ID %" PRIu32,
			      *id);
			return NULL;
		}
		*id = t->type;
	}
	return NULL;
}

/* The C declarator of type ID around INNER, as spell.c's type_decl_q:
 * appended to OUT, which is never this depth's scratch string. */
static void bdecl(struct breader *r, uint32_t id, enum bname_mode mode,
		  const struct bctx *ctx, const char *inner, struct sb *out,
		  unsigned q0)
{
	const struct btf_type *t;
	unsigned quals = q0;

	if (r->failed || !spell_enter(r, id))
		return;
	t = skip_quals(r, &id, &quals);
	if (!t) {
		if (!r->failed)
			void_decl(quals, inner, out);
	} else if (btf_is_ptr(t)) {
		pointer_decl(r, t, quals, mode, ctx, inner, out);
	} else if (btf_is_array(t)) {
		array_decl(r, t, quals, mode, ctx, inner, out);
	} else if (btf_is_func_proto(t)) {
		proto_decl(r, t, mode, ctx, inner, out);
	} else if (btf_is_typedef(t) && mode == B_RESOLVED) {
		typedef_decl(r, t, quals, inner, out);
	} else {
		add_quals(out, quals);
		if (named_decl(r, id, t, mode, ctx, out) == 0)
			add_inner(out, inner);
	}
	r->depth--;
}

const char *btf_type_name(struct breader *r, uint32_t id, enum bname_mode mode,
			  const struct bctx *ctx)
{
	bool outer = r->ctx_used, outer_td = r->typedef_seen;
	const char *s;
	struct sb *out;

	if (r->memo[id][mode])
		return r->memo[id][mode];
	if (r->depth == 0)
		r->steps = 0;
	r->ctx_used = false;
	r->typedef_seen = false;
	out = scratch(r, r->depth, SCR_OUT);
	bdecl(r, id, mode, ctx, "", out, 0);
	s = bintern(r, sb_str(out), out->len);
	if (!r->ctx_used && !r->failed) {
		r->memo[id][mode] = s;
		/* only typedefs spell differently resolved */
		if (mode == B_AS_WRITTEN && !r->typedef_seen)
			r->memo[id][B_RESOLVED] = s;
	}
	r->ctx_used |= outer;
	r->typedef_seen |= outer_td;
	return s;
}
