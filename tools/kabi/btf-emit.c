// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading BTF: a vmlinux's or module's .BTF section, or a raw BTF file
 * (/sys/kernel/btf/vmlinux), into the same model the DWARF reader makes.
 *
 * The types follow emit.c rule for rule (their names btf-spell.c, as
 * spell.c).  What BTF does not record is left out here and, with
 * read_opts.compat, on the DWARF side too (Documentation/kabi.1, "BTF").
 *
 * libbpf parses and indexes the data; it checks the header and each
 * type's length but (in the versions Debian ships) not the references
 * between types, so btf-load.c checks those before anything follows them.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "btf-emit.h"
#include "btf-spell.h"

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

	m->name = bname_interned(r, btf_members(t)[i].name_off);
	member_bits(r, t, i, m);
	member_seg(seg, m, mv, i);
	ctx->seg = sb_str(seg);
	m->type = btf_type_name(r, id, B_AS_WRITTEN, ctx);
	m->resolved = btf_type_name(r, id, B_RESOLVED, ctx);
	m->size = bsize(r, id);
	if (m->bitsize && m->size > 0 && m->bitpos % 8 == 0 &&
	    (int64_t)m->bitsize == m->size * 8)
		m->bitsize = 0;
}

/* The member array of depth D, room for N, zeroed. */
static struct member *members_at(struct breader *r, unsigned d, uint32_t n)
{
	if (n > r->mv_cap[d] || !r->mv[d]) {
		free(r->mv[d]);
		r->mv_cap[d] = n < 64 ? 64 : n;
		r->mv[d] = xcalloc(r->mv_cap[d], sizeof(*r->mv[d]));
	}
	memset(r->mv[d], 0, n * sizeof(*r->mv[d]));
	return r->mv[d];
}

void btf_emit_composite(struct breader *r, uint32_t id, const char *name,
			const char *parent)
{
	const struct btf_type *bt_ = bt(r, id);
	struct ktype t = { .kind = btf_is_union(bt_) ? KIND_UNION : KIND_STRUCT,
			   .name = name,
			   .parent = parent,
			   .size = bt_->size };
	uint16_t i, n = btf_vlen(bt_);
	unsigned d = r->depth;
	struct member *mv = members_at(r, d, n);
	struct sb *seg = scratch(r, d, SCR_SEG);
	struct bctx ctx = { kind_name(t.kind), name, "", false };

	members_prefetch(r, bt_);
	if (!r->opts->compat)
		t.natural_align = members_align(r, id, 0);
	for (i = 0; i < n && !r->failed; i++) {
		mv[i].size = SIZE_UNKNOWN;
		read_member(r, bt_, i, &ctx, seg, mv, &mv[i]);
	}
	t.n = n;
	t.members = mv;
	emit(r, &t);
}

/* The interned names of enum B's enumerators, in an array to free. */
static const char **enum_names(struct breader *r, const struct btf_type *b)
{
	uint16_t i, n = btf_vlen(b);
	const char **v = xcalloc(n ? n : 1, sizeof(*v));

	for (i = 0; i < n; i++) {
		v[i] = bname(r, btf_is_enum(b) ? btf_enum(b)[i].name_off :
						 btf_enum64(b)[i].name_off);
		v[i] = v[i] ? v[i] : "<anon>";
	}
	strtab_intern_kept_all(r->model->strs, v, n);
	return v;
}

void btf_emit_enum(struct breader *r, uint32_t id, const char *name,
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
	const char **names = enum_names(r, b);
	char buf[32];

	for (i = 0; i < n; i++) {
		ev[i].name = names[i];
		if (btf_is_enum64(b))
			ev[i].value = btf_enum64_value(&btf_enum64(b)[i]);
		else if (t.is_signed)
			ev[i].value = (uint64_t)(int64_t)btf_enum(b)[i].val;
		else
			ev[i].value = (uint32_t)btf_enum(b)[i].val;
	}
	free(names);
	snprintf(buf, sizeof(buf), "%sint%" PRId64, t.is_signed ? "" : "u",
		 t.size * 8);
	t.underlying = bintern(r, buf, strlen(buf));
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
	const char *chain[KABI_MAX_TYPE_DEPTH];
	uint32_t cur = bt(r, id)->type;
	struct bctx ctx = { "typedef", name, "<anon>", false };

	for (;;) {
		/* not intrinsic: CUR may be the anonymous type itself */
		if (!t.resolved)
			t.resolved = btf_type_name(r, cur, B_RESOLVED, &ctx);
		chain[t.n++] = btf_type_name(r, cur, B_AS_WRITTEN, &ctx);
		if (r->failed || !cur || !btf_is_typedef(bt(r, cur)))
			break;
		if (t.n >= KABI_MAX_TYPE_DEPTH) {
			bfail(r,
			      "typedef chain longer than %d at type ID %" PRIu32,
			      KABI_MAX_TYPE_DEPTH, id);
			break;
		}
		ctx.owner = bname(r, bt(r, cur)->name_off);
		ctx.owner = ctx.owner ? ctx.owner : "<anon>";
		cur = bt(r, cur)->type;
	}
	t.chain = chain;
	emit(r, &t);
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
	sb_add2(&name, "<anon:", first);
	sb_add(&name, ">");
	btf_emit_enum(r, id, bintern(r, name.buf, name.len), NULL);
	sb_release(&name);
}

static void read_top(struct breader *r, uint32_t id)
{
	const struct btf_type *t = bt(r, id);
	const char *name;

	/* most types are functions, variables, pointers: no name wanted */
	if (!t->name_off || !(btf_is_composite(t) || btf_is_typedef(t) ||
			      (btf_is_any_enum(t) && btf_vlen(t))))
		return;
	name = bname(r, t->name_off);
	if (!name)
		return;
	name = bintern_btf(r, name);
	if (btf_is_composite(t))
		btf_emit_composite(r, id, name, NULL);
	else if (btf_is_any_enum(t))
		btf_emit_enum(r, id, name, NULL); /* vlen 0: a declaration */
	else
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
	struct breader *r = breader_new(m, path, btf, o, err);
	int rc;

	read_types(r);
	rc = r->failed ? -1 : 0;
	breader_free(r);
	return rc;
}
