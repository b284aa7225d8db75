// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading BTF: a vmlinux's or module's .BTF section, or a raw BTF file
 * (/sys/kernel/btf/vmlinux), into the same model the DWARF reader makes.
 *
 * The spelling follows spell.c and emit.c rule for rule: base types by
 * encoding and size, qualifiers collapsed, anonymous aggregates named by
 * the path that reaches them and materialised at each use.  What BTF does
 * not record is left out here and, with read_opts.compat, on the DWARF
 * side too (Documentation/kabi.1, "BTF").
 *
 * libbpf parses and indexes the data; it checks the header and each
 * type's length but (in the versions Debian ships) not the references
 * between types, so those are checked here before anything follows them.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "btf-int.h"

enum bname_mode { B_AS_WRITTEN, B_RESOLVED };

/* How an anonymous aggregate met on the way is named (as struct actx). */
struct bctx {
	const char *parent;
	const char *path;
	const char *seg;
	bool intrinsic; /* a typedef's: names depend on it alone */
};

struct breader {
	const char *path;
	char **err;
	bool failed;
	struct model *model;
	const struct read_opts *opts;
	const struct btf *btf;
	uint32_t first, cnt; /* own types: [first, cnt) */
	size_t ptr_size;
	int64_t *align;		/* members' alignment per own id, 0: unknown */
	bool *anon_used;	/* anonymous enums materialised by a use */
	const char *(*memo)[2]; /* names per id and mode, when context free */
	bool ctx_used; /* the spelling under way named by its context */
	uint32_t active[KABI_MAX_TYPE_DEPTH]; /* anonymous ones being emitted */
	unsigned nactive;
	uint32_t spelling[KABI_MAX_TYPE_DEPTH + 1];
	unsigned depth;
	unsigned long steps;
};

static void bfail(struct breader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bfail(struct breader *r, const char *fmt, ...)
{
	char msg[512];
	struct sb b;
	va_list ap;

	if (r->failed)
		return;
	r->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sb_init(&b);
	sb_add2(&b, "cannot read '", r->path);
	sb_add2(&b, "': ", msg);
	*r->err = sb_take(&b);
}

static const struct btf_type *bt(struct breader *r, uint32_t id)
{
	return btf__type_by_id(r->btf, id);
}

static const char *bname(struct breader *r, uint32_t off)
{
	const char *s = btf__name_by_offset(r->btf, off);

	return s && *s ? s : NULL;
}

static const char *bintern(struct breader *r, const char *s)
{
	return strtab_intern(r->model->strs, s);
}

/* ---- sizes and alignment --------------------------------------------- */

static bool is_mod(const struct btf_type *t)
{
	return btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t);
}

static int64_t bsize(struct breader *r, uint32_t id)
{
	unsigned hops;
	int64_t n = 1;

	for (hops = 0; hops < KABI_MAX_TYPE_DEPTH && id; hops++) {
		const struct btf_type *t = bt(r, id);

		if (is_mod(t)) {
			id = t->type;
		} else if (btf_is_array(t)) {
			uint32_t k = btf_array(t)->nelems;

			if (!k)
				return 0; /* [] */
			if (n > INT64_MAX / k)
				return SIZE_UNKNOWN;
			n *= k;
			id = btf_array(t)->type;
		} else if (btf_is_ptr(t)) {
			return n * (int64_t)r->ptr_size;
		} else if (btf_is_int(t) || btf_is_float(t) ||
			   btf_is_composite(t) || btf_is_any_enum(t)) {
			return (int64_t)t->size > INT64_MAX / n ?
				       SIZE_UNKNOWN :
				       n * (int64_t)t->size;
		} else {
			return SIZE_UNKNOWN;
		}
	}
	if (id)
		bfail(r, "type reference loop at type ID %" PRIu32, id);
	return SIZE_UNKNOWN;
}

static int64_t members_align(struct breader *r, uint32_t id, unsigned depth);

/* As emit.c's type_align, without explicit alignments: BTF has none. */
static int64_t balign(struct breader *r, uint32_t id, unsigned depth)
{
	unsigned hops;
	int64_t s;

	for (hops = 0; hops < KABI_MAX_TYPE_DEPTH && id; hops++) {
		const struct btf_type *t = bt(r, id);

		if (is_mod(t) || btf_is_array(t)) {
			id = btf_is_array(t) ? btf_array(t)->type : t->type;
			continue;
		}
		if (btf_is_composite(t))
			return members_align(r, id, depth + 1);
		if (btf_is_func_proto(t))
			return 1;
		s = bsize(r, id);
		return s > 0 ? s & -s : 1;
	}
	return 1;
}

static int64_t members_align(struct breader *r, uint32_t id, unsigned depth)
{
	const struct btf_type *t = bt(r, id);
	const struct btf_member *m = btf_members(t);
	int64_t nat = 1, a;
	bool packed = false;
	uint16_t i;

	if (id >= r->first && r->align[id - r->first])
		return r->align[id - r->first];
	if (depth > KABI_MAX_TYPE_DEPTH)
		return 1;
	for (i = 0; i < btf_vlen(t) && !r->failed; i++) {
		uint32_t off = btf_member_bit_offset(t, i);

		a = balign(r, m[i].type, depth);
		if (!btf_member_bitfield_size(t, i) && a > 1 &&
		    (off % 8 || (int64_t)(off / 8) % a))
			packed = true;
		nat = a > nat ? a : nat;
	}
	if ((int64_t)t->size % nat)
		packed = true;
	a = packed ? 1 : nat;
	if (id >= r->first)
		r->align[id - r->first] = a;
	return a;
}

/* ---- names ----------------------------------------------------------- */

static void bdecl(struct breader *r, uint32_t id, enum bname_mode mode,
		  const struct bctx *ctx, const char *inner, struct sb *out,
		  unsigned q0);
static void emit_composite(struct breader *r, uint32_t id, const char *name,
			   const char *parent);
static void emit_enum(struct breader *r, uint32_t id, const char *name,
		      const char *parent);

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

static void join(struct sb *out, const char *head, const char *inner)
{
	sb_add(out, head);
	if (*inner) {
		sb_add(out, " ");
		sb_add(out, inner);
	}
}

static void void_decl(unsigned quals, const char *inner, struct sb *out)
{
	struct sb head;

	sb_init(&head);
	add_quals(&head, quals);
	sb_add(&head, "void");
	join(out, sb_str(&head), inner);
	sb_release(&head);
}

static const char *kind_word(const struct btf_type *t)
{
	if (btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t)))
		return "union";
	return btf_is_any_enum(t) ? "enum" : "struct";
}

/* Name of anonymous struct, union or enum ID met through CTX;
 * materialised when spelled as written, unless it is being emitted. */
static void anon_name(struct breader *r, uint32_t id, enum bname_mode mode,
		      const struct bctx *ctx, struct sb *out)
{
	const struct btf_type *t = bt(r, id);
	const char *name;
	unsigned i;
	struct sb full;

	sb_init(&full);
	if (ctx)
		sb_add2(&full, ctx->path, ctx->seg);
	else
		sb_add(&full, "<anon>");
	if (ctx && !ctx->intrinsic)
		r->ctx_used = true;
	name = bintern(r, sb_str(&full));
	sb_release(&full);
	sb_add2(out, kind_word(t), " ");
	sb_add(out, name);
	if (mode != B_AS_WRITTEN)
		return;
	for (i = 0; i < r->nactive; i++)
		if (r->active[i] == id)
			return;
	if (r->nactive == KABI_MAX_TYPE_DEPTH) {
		bfail(r,
		      "anonymous types nested deeper than %d at type ID %" PRIu32,
		      KABI_MAX_TYPE_DEPTH, id);
		return;
	}
	r->active[r->nactive++] = id;
	if (btf_is_any_enum(t)) {
		if (id >= r->first)
			r->anon_used[id - r->first] = true;
		emit_enum(r, id, name, ctx ? ctx->parent : NULL);
	} else {
		emit_composite(r, id, name, ctx ? ctx->parent : NULL);
	}
	r->nactive--;
}

static void params_decl(struct breader *r, const struct btf_type *t,
			enum bname_mode mode, const struct bctx *ctx,
			struct sb *out)
{
	const struct btf_param *p = btf_params(t);
	uint16_t i, n = btf_vlen(t);
	struct sb one;

	sb_add(out, "(");
	sb_init(&one);
	for (i = 0; i < n; i++) {
		sb_add(out, i ? ", " : "");
		if (i + 1 == n && !p[i].type && !p[i].name_off) {
			sb_add(out, "...");
			continue;
		}
		sb_reset(&one);
		bdecl(r, p[i].type, mode, ctx, "", &one, 0);
		sb_add(out, sb_str(&one));
	}
	if (!n)
		sb_add(out, "void");
	sb_add(out, ")");
	sb_release(&one);
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

static void pointer_decl(struct breader *r, const struct btf_type *t,
			 unsigned quals, enum bname_mode mode,
			 const struct bctx *ctx, const char *inner,
			 struct sb *out)
{
	const struct btf_type *to;
	struct sb tmp, head;

	sb_init(&tmp);
	sb_init(&head);
	sb_add(&tmp, "*");
	if (quals) {
		sb_add(&tmp, " ");
		add_quals(&tmp, quals);
		tmp.len--;
		tmp.buf[tmp.len] = '\0';
	}
	if (*inner) {
		if (quals ||
		    (inner[0] != '*' && inner[0] != '(' && inner[0] != '&'))
			sb_add(&tmp, " ");
		sb_add(&tmp, inner);
	}
	if (!t->type) {
		join(out, "void", sb_str(&tmp));
	} else {
		to = pointee(r, t->type, mode);
		if (btf_is_array(to) || btf_is_func_proto(to)) {
			sb_add2(&head, "(", sb_str(&tmp));
			sb_add(&head, ")");
			bdecl(r, t->type, mode, ctx, sb_str(&head), out, 0);
		} else {
			bdecl(r, t->type, mode, ctx, sb_str(&tmp), out, 0);
		}
	}
	sb_release(&tmp);
	sb_release(&head);
}

static void typedef_decl(struct breader *r, const struct btf_type *t,
			 unsigned quals, const char *inner, struct sb *out)
{
	const char *name = bname(r, t->name_off);
	struct bctx tctx;
	struct sb path;

	if (!t->type) {
		void_decl(quals, inner, out);
		return;
	}
	sb_init(&path);
	sb_addf(&path, "typedef %s", name ? name : "<anon>");
	tctx.parent = bintern(r, sb_str(&path));
	sb_reset(&path);
	sb_addf(&path, "%s.", name ? name : "<anon>");
	tctx.path = sb_str(&path);
	tctx.seg = "<anon>";
	tctx.intrinsic = true;
	bdecl(r, t->type, B_RESOLVED, &tctx, inner, out, quals);
	sb_release(&path);
}

/* Named, base or anonymous type T (ID) into HEAD; -1 for a kind that is
 * no C type. */
static int named_decl(struct breader *r, uint32_t id, const struct btf_type *t,
		      enum bname_mode mode, const struct bctx *ctx,
		      struct sb *head)
{
	const char *name = bname(r, t->name_off);

	if (btf_is_int(t) || btf_is_float(t)) {
		base_name(r, t, head);
	} else if (btf_is_typedef(t)) {
		sb_add(head, name ? name : "<anon>");
	} else if (btf_is_composite(t) || btf_is_any_enum(t) || btf_is_fwd(t)) {
		if (name || btf_is_fwd(t))
			sb_add2(head, kind_word(t), name ? " " : " <anon>");
		if (name)
			sb_add(head, name);
		else if (!btf_is_fwd(t))
			anon_name(r, id, mode, ctx, head);
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
	struct sb tmp;

	sb_init(&tmp);
	sb_add(&tmp, inner);
	sb_add(&tmp, "[");
	if (a->nelems)
		sb_addu(&tmp, a->nelems);
	sb_add(&tmp, "]");
	bdecl(r, a->type, mode, ctx, sb_str(&tmp), out, quals);
	sb_release(&tmp);
}

static void proto_decl(struct breader *r, const struct btf_type *t,
		       enum bname_mode mode, const struct bctx *ctx,
		       const char *inner, struct sb *out)
{
	struct sb tmp;

	sb_init(&tmp);
	sb_add(&tmp, inner);
	params_decl(r, t, mode, ctx, &tmp);
	if (!t->type)
		join(out, "void", sb_str(&tmp));
	else
		bdecl(r, t->type, mode, ctx, sb_str(&tmp), out, 0);
	sb_release(&tmp);
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

/* The C declarator of type ID around INNER, as spell.c's type_decl_q. */
static void bdecl(struct breader *r, uint32_t id, enum bname_mode mode,
		  const struct bctx *ctx, const char *inner, struct sb *out,
		  unsigned q0)
{
	const struct btf_type *t;
	unsigned quals = q0;
	struct sb head;

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
		sb_init(&head);
		add_quals(&head, quals);
		if (named_decl(r, id, t, mode, ctx, &head) == 0)
			join(out, sb_str(&head), inner);
		sb_release(&head);
	}
	r->depth--;
}

/* Interned name of type ID, memoised when its context does not show. */
static const char *type_name(struct breader *r, uint32_t id,
			     enum bname_mode mode, const struct bctx *ctx)
{
	bool outer = r->ctx_used;
	const char *s;
	struct sb out;

	if (r->memo[id][mode])
		return r->memo[id][mode];
	if (r->depth == 0)
		r->steps = 0;
	r->ctx_used = false;
	sb_init(&out);
	bdecl(r, id, mode, ctx, "", &out, 0);
	s = bintern(r, sb_str(&out));
	sb_release(&out);
	if (!r->ctx_used && !r->failed)
		r->memo[id][mode] = s;
	r->ctx_used |= outer;
	return s;
}

/* ---- types ----------------------------------------------------------- */

static void emit(struct breader *r, struct ktype *t)
{
	if (!r->failed)
		model_add(r->model, t);
}

/* Bit position and size of member I of T; without kflag a bitfield is
 * an INT type of its own with an offset and a width. */
static void member_bits(struct breader *r, const struct btf_type *t, uint16_t i,
			struct member *m)
{
	const struct btf_member *bm = &btf_members(t)[i];
	const struct btf_type *mt;
	uint32_t id = bm->type;
	unsigned hops = 0;

	m->bitpos = btf_member_bit_offset(t, i);
	m->bitsize = btf_member_bitfield_size(t, i);
	if (btf_kflag(t))
		return;
	mt = bt(r, id);
	while (id && is_mod(mt) && hops++ < KABI_MAX_TYPE_DEPTH)
		mt = bt(r, id = mt->type);
	if (id && btf_is_int(mt) &&
	    (btf_int_offset(mt) || btf_int_bits(mt) != mt->size * 8)) {
		m->bitpos += btf_int_offset(mt);
		m->bitsize = btf_int_bits(mt);
	}
}

static void read_member(struct breader *r, const struct btf_type *t, uint16_t i,
			struct bctx *ctx, struct sb *seg,
			const struct member *mv, struct member *m)
{
	uint32_t id = btf_members(t)[i].type;

	m->name = bname(r, btf_members(t)[i].name_off);
	if (m->name)
		m->name = bintern(r, m->name);
	member_bits(r, t, i, m);
	member_seg(seg, m, mv, i);
	ctx->seg = sb_str(seg);
	m->type = type_name(r, id, B_AS_WRITTEN, ctx);
	m->resolved = type_name(r, id, B_RESOLVED, ctx);
	m->size = bsize(r, id);
	if (m->bitsize && m->size > 0 && m->bitpos % 8 == 0 &&
	    (int64_t)m->bitsize == m->size * 8)
		m->bitsize = 0;
}

static void emit_composite(struct breader *r, uint32_t id, const char *name,
			   const char *parent)
{
	const struct btf_type *bt_ = bt(r, id);
	struct ktype t = { .kind = btf_is_union(bt_) ? KIND_UNION : KIND_STRUCT,
			   .name = name,
			   .parent = parent,
			   .size = bt_->size };
	uint16_t i, n = btf_vlen(bt_);
	struct member *mv = xcalloc(n ? n : 1, sizeof(*mv));
	struct sb full, seg, path;
	struct bctx ctx;

	sb_init(&full);
	sb_init(&seg);
	sb_init(&path);
	sb_add2(&full, kind_name(t.kind), " ");
	sb_add(&full, name);
	ctx.parent = bintern(r, sb_str(&full));
	sb_add2(&path, name, ".");
	ctx.path = sb_str(&path);
	ctx.intrinsic = false;
	if (!r->opts->compat)
		t.natural_align = members_align(r, id, 0);
	for (i = 0; i < n && !r->failed; i++) {
		mv[i].size = SIZE_UNKNOWN;
		read_member(r, bt_, i, &ctx, &seg, mv, &mv[i]);
	}
	t.n = n;
	t.members = mv;
	emit(r, &t);
	free(mv);
	sb_release(&full);
	sb_release(&seg);
	sb_release(&path);
}

static void emit_enum(struct breader *r, uint32_t id, const char *name,
		      const char *parent)
{
	const struct btf_type *b = bt(r, id);
	struct ktype t = { .kind = KIND_ENUM,
			   .name = name,
			   .parent = parent,
			   .size = b->size,
			   .is_signed = btf_kflag(b) };
	uint16_t i, n = btf_vlen(b);
	struct enumerator *ev = xcalloc(n ? n : 1, sizeof(*ev));
	char buf[32];

	for (i = 0; i < n; i++) {
		uint32_t off = btf_is_enum(b) ? btf_enum(b)[i].name_off :
						btf_enum64(b)[i].name_off;
		const char *en = bname(r, off);

		ev[i].name = bintern(r, en ? en : "<anon>");
		if (btf_is_enum64(b))
			ev[i].value = btf_enum64_value(&btf_enum64(b)[i]);
		else if (t.is_signed)
			ev[i].value = (uint64_t)(int64_t)btf_enum(b)[i].val;
		else
			ev[i].value = (uint32_t)btf_enum(b)[i].val;
	}
	snprintf(buf, sizeof(buf), "%sint%" PRId64, t.is_signed ? "" : "u",
		 t.size * 8);
	t.underlying = bintern(r, buf);
	t.n = n;
	t.enums = ev;
	emit(r, &t);
	free(ev);
}

static void emit_typedef(struct breader *r, uint32_t id, const char *name)
{
	struct ktype t = { .kind = KIND_TYPEDEF,
			   .name = name,
			   .size = SIZE_UNKNOWN };
	const char **chain = xcalloc(KABI_MAX_TYPE_DEPTH, sizeof(*chain));
	uint32_t cur = bt(r, id)->type;
	const char *owner = name;
	struct bctx ctx;
	struct sb path, parent;

	sb_init(&path);
	sb_init(&parent);
	for (;;) {
		sb_reset(&parent);
		sb_reset(&path);
		sb_addf(&parent, "typedef %s", owner);
		sb_addf(&path, "%s.", owner);
		/* not intrinsic: CUR may be the anonymous type itself */
		ctx = (struct bctx){ bintern(r, sb_str(&parent)), sb_str(&path),
				     "<anon>", false };
		if (!t.resolved)
			t.resolved = type_name(r, cur, B_RESOLVED, &ctx);
		chain[t.n++] = type_name(r, cur, B_AS_WRITTEN, &ctx);
		if (r->failed || !cur || !btf_is_typedef(bt(r, cur)))
			break;
		if (t.n >= KABI_MAX_TYPE_DEPTH) {
			bfail(r,
			      "typedef chain longer than %d at type ID %" PRIu32,
			      KABI_MAX_TYPE_DEPTH, id);
			break;
		}
		owner = bname(r, bt(r, cur)->name_off);
		owner = owner ? owner : "<anon>";
		cur = bt(r, cur)->type;
	}
	t.chain = chain;
	emit(r, &t);
	free(chain);
	sb_release(&path);
	sb_release(&parent);
}

/* An anonymous enum no use named, by its first enumerator. */
static void anon_enum_top(struct breader *r, uint32_t id)
{
	const struct btf_type *t = bt(r, id);
	const char *first;
	struct sb name;

	if (!btf_vlen(t))
		return;
	first = bname(r, btf_is_enum(t) ? btf_enum(t)[0].name_off :
					  btf_enum64(t)[0].name_off);
	if (!first)
		return;
	sb_init(&name);
	sb_addf(&name, "<anon:%s>", first);
	emit_enum(r, id, bintern(r, sb_str(&name)), NULL);
	sb_release(&name);
}

static void read_top(struct breader *r, uint32_t id)
{
	const struct btf_type *t = bt(r, id);
	const char *name = bname(r, t->name_off);

	if (!name)
		return;
	name = bintern(r, name);
	if (btf_is_composite(t))
		emit_composite(r, id, name, NULL);
	else if (btf_is_any_enum(t) && btf_vlen(t))
		emit_enum(r, id, name, NULL); /* vlen 0: a declaration */
	else if (btf_is_typedef(t))
		emit_typedef(r, id, name);
}

static void read_types(struct breader *r)
{
	uint32_t id;

	for (id = r->first; id < r->cnt && !r->failed; id++)
		read_top(r, id);
	for (id = r->first; id < r->cnt && !r->failed; id++) {
		const struct btf_type *t = bt(r, id);

		if (btf_is_any_enum(t) && !t->name_off &&
		    !r->anon_used[id - r->first])
			anon_enum_top(r, id);
	}
}

int btf_read_types(struct model *m, const char *path, const struct btf *btf,
		   const struct read_opts *o, char **err)
{
	const struct btf *base = btf__base_btf(btf);
	struct breader r = { .path = path,
			     .err = err,
			     .model = m,
			     .opts = o,
			     .btf = btf,
			     .first = base ? btf__type_cnt(base) : 1,
			     .cnt = btf__type_cnt(btf) };

	r.ptr_size = btf__pointer_size(btf);
	if (!r.ptr_size)
		r.ptr_size = sizeof(void *);
	r.align = xcalloc(r.cnt - r.first + 1, sizeof(*r.align));
	r.anon_used = xcalloc(r.cnt - r.first + 1, sizeof(*r.anon_used));
	r.memo = xcalloc(r.cnt, sizeof(*r.memo));
	read_types(&r);
	free(r.memo);
	free(r.align);
	free(r.anon_used);
	return r.failed ? -1 : 0;
}
