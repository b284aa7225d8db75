// SPDX-License-Identifier: GPL-2.0-only
/*
 * Comparing two models.
 *
 * Types are matched by kind and name.  Where one side holds several
 * same-name definitions (one per #ifdef variant, or per driver), equal
 * layouts pair first, then equal declaration files, then a lone survivor
 * on each side; what is left is reported as present on one side only.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kabi.h"

enum what {
	W_SIZE,
	W_ALIGN,
	W_OFFSET,
	W_BITFIELD,
	W_MEMBER_SIZE,
	W_TYPE,
	W_TYPEDEF_ONLY,
	W_QUAL_ONLY,
	W_ADDED,
	W_REMOVED,
	W_UNDERLYING,
	W_VALUE,
	W_ENUM_ADDED,
	W_ENUM_REMOVED,
	W_CHAIN,
	W_CHAIN_ONLY,
};

static const char *const what_names[] = {
	[W_SIZE] = "size",
	[W_ALIGN] = "alignment",
	[W_OFFSET] = "offset",
	[W_BITFIELD] = "bitfield",
	[W_MEMBER_SIZE] = "member_size",
	[W_TYPE] = "type",
	[W_TYPEDEF_ONLY] = "typedef_only",
	[W_QUAL_ONLY] = "qualifier_only",
	[W_ADDED] = "member_added",
	[W_REMOVED] = "member_removed",
	[W_UNDERLYING] = "underlying",
	[W_VALUE] = "enumerator_value",
	[W_ENUM_ADDED] = "enumerator_added",
	[W_ENUM_REMOVED] = "enumerator_removed",
	[W_CHAIN] = "typedef_target",
	[W_CHAIN_ONLY] = "typedef_chain_only",
};

struct finding {
	enum what what;
	const char *subject; /* member or enumerator name, or NULL */
	char *old, *new;     /* rendered values */
	bool numeric;
	const char *old_resolved, *new_resolved;
	const char *type; /* of an added or removed member */
	bool incompatible;
};

struct report {
	struct finding *v;
	size_t n, cap;
	bool incompatible;
};

struct totals {
	size_t changed, incompatible, only_old, only_new, unchanged, suppressed;
	size_t left_out; /* --only-common: named on one side only */
};

struct ctx {
	FILE *f;
	const struct diff_opts *o;
	struct totals tot;
	bool first_json;
};

static char *fmt_num(int64_t v)
{
	struct sb b;

	sb_init(&b);
	if (v == SIZE_UNKNOWN)
		sb_add(&b, "?");
	else
		sb_addf(&b, "%" PRId64, v);
	return sb_take(&b);
}

static char *fmt_str(const char *s)
{
	return xstrdup(s ? s : "");
}

static struct finding *add(struct report *r, enum what w, const char *subject,
			   char *old, char *new, bool numeric,
			   bool incompatible)
{
	struct finding *f;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	f = &r->v[r->n++];
	memset(f, 0, sizeof(*f));
	f->what = w;
	f->subject = subject;
	f->old = old;
	f->new = new;
	f->numeric = numeric;
	f->incompatible = incompatible;
	r->incompatible |= incompatible;
	return f;
}

static void report_release(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].old);
		free(r->v[i].new);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static bool streq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Equal once every qualifier keyword is removed.  Qualifiers never change
 * a layout, and producers drop some: Clang loses the const of an anonymous
 * const struct member (struct vm_fault). */
static void strip_quals(const char *s, struct sb *out)
{
	static const char *const quals[] = { "const", "volatile", "restrict",
					     "_Atomic" };

	while (*s) {
		size_t n = strcspn(s, " "), i;
		bool q = false;

		for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++)
			q |= n == strlen(quals[i]) &&
			     strncmp(s, quals[i], n) == 0;
		if (!q) {
			sb_addn(out, s, n);
			sb_add(out, " ");
		}
		s += n;
		s += strspn(s, " ");
	}
}

static bool same_unqualified(const char *a, const char *b)
{
	struct sb x, y;
	bool same;

	sb_init(&x);
	sb_init(&y);
	strip_quals(a, &x);
	strip_quals(b, &y);
	same = strcmp(sb_str(&x), sb_str(&y)) == 0;
	sb_release(&x);
	sb_release(&y);
	return same;
}

static char *fmt_bits(const struct member *m)
{
	struct sb b;

	sb_init(&b);
	sb_addf(&b, "offset=%" PRIu64, m->bitpos / 8);
	if (m->bitsize)
		sb_addf(&b, " bit_offset=%" PRIu64 " bit_size=%" PRIu32,
			m->bitpos % 8, m->bitsize);
	return sb_take(&b);
}

static void cmp_member(struct report *r, const struct member *a,
		       const struct member *b, bool only_layout)
{
	const char *subj = b->name ? b->name : "<anon>";
	struct finding *f;

	if (a->bitsize || b->bitsize) {
		if (a->bitpos != b->bitpos || a->bitsize != b->bitsize)
			add(r, W_BITFIELD, subj, fmt_bits(a), fmt_bits(b),
			    false, true);
	} else if (a->bitpos != b->bitpos) {
		add(r, W_OFFSET, subj, fmt_num((int64_t)(a->bitpos / 8)),
		    fmt_num((int64_t)(b->bitpos / 8)), true, true);
	}
	if (a->size != b->size)
		add(r, W_MEMBER_SIZE, subj, fmt_num(a->size), fmt_num(b->size),
		    true, true);
	if (streq(a->type, b->type) && streq(a->resolved, b->resolved))
		return;
	if (streq(a->resolved, b->resolved)) {
		if (only_layout)
			return;
		f = add(r, W_TYPEDEF_ONLY, subj, fmt_str(a->type),
			fmt_str(b->type), false, false);
		f->old_resolved = f->new_resolved = a->resolved;
		return;
	}
	if (same_unqualified(a->resolved, b->resolved)) {
		if (only_layout)
			return;
		f = add(r, W_QUAL_ONLY, subj, fmt_str(a->type),
			fmt_str(b->type), false, false);
	} else {
		f = add(r, W_TYPE, subj, fmt_str(a->type), fmt_str(b->type),
			false, false);
	}
	f->old_resolved = a->resolved;
	f->new_resolved = b->resolved;
}

static const struct member *
find_member(const struct ktype *t, const struct member *want, unsigned anon_idx)
{
	uint32_t i;
	unsigned k = 0;

	for (i = 0; i < t->n; i++) {
		const struct member *m = &t->members[i];

		if (want->name ? streq(m->name, want->name) :
				 (!m->name && k++ == anon_idx))
			return m;
	}
	return NULL;
}

static unsigned anon_index(const struct ktype *t, const struct member *m)
{
	unsigned k = 0;
	const struct member *p;

	for (p = t->members; p < m; p++)
		k += !p->name;
	return k;
}

/* The alignment to compare: what DWARF records raised to what the
 * members need.  GCC records the alignment a type ends up with, Clang
 * the value of its aligned attribute (struct file: 8 and 4), and only
 * on the member when a member's attribute raised it; both agree here. */
static int64_t align_of(const struct ktype *t)
{
	return t->align > t->natural_align ? t->align : t->natural_align;
}

/* The bytes T's members reach, bitfields rounded up. */
static int64_t extent(const struct ktype *t)
{
	int64_t end = 0, e;
	uint32_t i;

	for (i = 0; i < t->n; i++) {
		const struct member *m = &t->members[i];

		if (m->bitsize)
			e = (int64_t)((m->bitpos + m->bitsize + 7) / 8);
		else if (m->size >= 0)
			e = (int64_t)(m->bitpos / 8) + m->size;
		else
			continue;
		if (e > end)
			end = e;
	}
	return end;
}

/* Whether T, whose DWARF records no alignment, may have alignment A all
 * the same: its size is a multiple of A and padded past what its members
 * need, which only an alignment of its own explains.  ARM's GCC 12 writes
 * no DW_AT_alignment for an aligned(8) struct whose members need 4, Clang
 * writes 8 (ARM's struct aux_sigframe, 8 bytes around one 4-byte member). */
static bool may_have_align(const struct ktype *t, int64_t a)
{
	int64_t nat = t->natural_align > 0 ? t->natural_align : 1;
	int64_t padded = (extent(t) + nat - 1) / nat * nat;

	return a > 0 && t->size % a == 0 && t->size > padded;
}

/* The alignments to compare for A and B: where only one side records an
 * alignment that the other's layout may well have (may_have_align), the
 * two are taken to agree. */
static void align_pair(const struct ktype *a, const struct ktype *b, int64_t *x,
		       int64_t *y)
{
	*x = align_of(a);
	*y = align_of(b);
	if (!a->align && b->align && may_have_align(a, *y))
		*x = *y;
	else if (a->align && !b->align && may_have_align(b, *x))
		*y = *x;
}

/* Whether B resizes A or moves one of the members both have. */
static bool moved(const struct ktype *a, const struct ktype *b)
{
	uint32_t i;

	if (a->size != b->size)
		return true;
	for (i = 0; i < a->n; i++) {
		const struct member *m = &a->members[i];
		const struct member *o = find_member(b, m, anon_index(a, m));

		if (o && o->bitpos != m->bitpos)
			return true;
	}
	return false;
}

static void cmp_aggregate(struct report *r, const struct ktype *a,
			  const struct ktype *b, bool only_layout)
{
	int64_t x, y;
	uint32_t i;

	if (a->size != b->size)
		add(r, W_SIZE, NULL, fmt_num(a->size), fmt_num(b->size), true,
		    true);
	align_pair(a, b, &x, &y);
	if (x != y)
		add(r, W_ALIGN, NULL, fmt_num(x), fmt_num(y), true,
		    moved(a, b));
	for (i = 0; i < a->n; i++) {
		const struct member *m = &a->members[i];
		const struct member *o = find_member(b, m, anon_index(a, m));

		if (o)
			cmp_member(r, m, o, only_layout);
		else
			add(r, W_REMOVED, m->name ? m->name : "<anon>",
			    fmt_bits(m), NULL, false, false)
				->type = m->type;
	}
	for (i = 0; i < b->n; i++) {
		const struct member *m = &b->members[i];

		if (!find_member(a, m, anon_index(b, m)))
			add(r, W_ADDED, m->name ? m->name : "<anon>", NULL,
			    fmt_bits(m), false, false)
				->type = m->type;
	}
}

static char *fmt_value(const struct ktype *t, const struct enumerator *e)
{
	char buf[41];

	return xstrdup(enum_value_str(buf, t, e));
}

/* Bits compare within 64-bit enums, numbers once either side is wider:
 * -1 in an 8-byte enum is -1 in a 16-byte one. */
static bool value_changed(const struct ktype *a, const struct enumerator *x,
			  const struct ktype *b, const struct enumerator *y)
{
	char bx[41], by[41];

	if (a->size <= 8 && b->size <= 8)
		return x->value != y->value;
	return !streq(enum_value_str(bx, a, x), enum_value_str(by, b, y));
}

static const struct enumerator *find_enum(const struct ktype *t,
					  const char *name)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (streq(t->enums[i].name, name))
			return &t->enums[i];
	return NULL;
}

static void cmp_enum(struct report *r, const struct ktype *a,
		     const struct ktype *b)
{
	uint32_t i;

	if (a->size != b->size)
		add(r, W_SIZE, NULL, fmt_num(a->size), fmt_num(b->size), true,
		    true);
	if (!streq(a->underlying, b->underlying))
		add(r, W_UNDERLYING, NULL, fmt_str(a->underlying),
		    fmt_str(b->underlying), false, false);
	for (i = 0; i < a->n; i++) {
		const struct enumerator *e = &a->enums[i];
		const struct enumerator *o = find_enum(b, e->name);

		if (!o)
			add(r, W_ENUM_REMOVED, e->name, fmt_value(a, e), NULL,
			    true, false);
		else if (value_changed(a, e, b, o))
			add(r, W_VALUE, e->name, fmt_value(a, e),
			    fmt_value(b, o), true, false);
	}
	for (i = 0; i < b->n; i++)
		if (!find_enum(a, b->enums[i].name))
			add(r, W_ENUM_ADDED, b->enums[i].name, NULL,
			    fmt_value(b, &b->enums[i]), true, false);
}

static char *fmt_chain(const struct ktype *t)
{
	struct sb b;
	uint32_t i;

	sb_init(&b);
	for (i = 0; i < t->n; i++)
		sb_addf(&b, "%s%s", i ? " -> " : "", t->chain[i]);
	return b.buf ? sb_take(&b) : xstrdup("");
}

static void cmp_typedef(struct report *r, const struct ktype *a,
			const struct ktype *b, bool only_layout)
{
	char *ca = fmt_chain(a), *cb = fmt_chain(b);
	struct finding *f;

	if (strcmp(ca, cb) == 0 && streq(a->resolved, b->resolved)) {
		free(ca);
		free(cb);
		return;
	}
	if (streq(a->resolved, b->resolved)) {
		if (only_layout) {
			free(ca);
			free(cb);
			return;
		}
		f = add(r, W_CHAIN_ONLY, NULL, ca, cb, false, false);
	} else {
		f = add(r, W_CHAIN, NULL, ca, cb, false, false);
	}
	f->old_resolved = a->resolved;
	f->new_resolved = b->resolved;
}

/* ---- output ---------------------------------------------------------- */

static void text_finding(FILE *out, const struct finding *f)
{
	fputc('\t', out);
	switch (f->what) {
	case W_SIZE:
	case W_ALIGN:
	case W_UNDERLYING:
		fprintf(out, f->numeric ? "%s %s -> %s" : "%s \"%s\" -> \"%s\"",
			what_names[f->what], f->old, f->new);
		break;
	case W_OFFSET:
		fprintf(out, "member %s: offset %s -> %s", f->subject, f->old,
			f->new);
		break;
	case W_MEMBER_SIZE:
		fprintf(out, "member %s: size %s -> %s", f->subject, f->old,
			f->new);
		break;
	case W_BITFIELD:
		fprintf(out, "member %s: bitfield %s -> %s", f->subject, f->old,
			f->new);
		break;
	case W_TYPE:
		fprintf(out, "member %s: type \"%s\" -> \"%s\"", f->subject,
			f->old, f->new);
		if (!streq(f->old, f->old_resolved) ||
		    !streq(f->new, f->new_resolved))
			fprintf(out, " (resolved \"%s\" -> \"%s\")",
				f->old_resolved, f->new_resolved);
		break;
	case W_TYPEDEF_ONLY:
		fprintf(out,
			"member %s: type \"%s\" -> \"%s\" (typedef only, resolved \"%s\")",
			f->subject, f->old, f->new, f->old_resolved);
		break;
	case W_QUAL_ONLY:
		fprintf(out,
			"member %s: type \"%s\" -> \"%s\" (qualifiers only",
			f->subject, f->old, f->new);
		if (!streq(f->old, f->old_resolved) ||
		    !streq(f->new, f->new_resolved))
			fprintf(out, ", resolved \"%s\" -> \"%s\"",
				f->old_resolved, f->new_resolved);
		fputc(')', out);
		break;
	case W_ADDED:
		fprintf(out, "member %s: added at %s, type \"%s\"", f->subject,
			f->new, f->type);
		break;
	case W_REMOVED:
		fprintf(out, "member %s: removed from %s, type \"%s\"",
			f->subject, f->old, f->type);
		break;
	case W_VALUE:
		fprintf(out, "enumerator %s: value %s -> %s", f->subject,
			f->old, f->new);
		break;
	case W_ENUM_ADDED:
		fprintf(out, "enumerator %s: added, value %s", f->subject,
			f->new);
		break;
	case W_ENUM_REMOVED:
		fprintf(out, "enumerator %s: removed, value %s", f->subject,
			f->old);
		break;
	case W_CHAIN:
		fprintf(out,
			"chain \"%s\" -> \"%s\" (resolved \"%s\" -> \"%s\")",
			f->old, f->new, f->old_resolved, f->new_resolved);
		break;
	case W_CHAIN_ONLY:
		fprintf(out,
			"chain \"%s\" -> \"%s\" (typedef only, resolved \"%s\")",
			f->old, f->new, f->old_resolved);
		break;
	}
	if (f->incompatible)
		fputs(" [incompatible]", out);
	fputc('\n', out);
}

static void json_value(FILE *out, const char *s, bool numeric)
{
	if (!s)
		fputs("null", out);
	else if (numeric && strcmp(s, "?") != 0)
		fputs(s, out);
	else if (numeric)
		fputs("null", out);
	else
		json_str(out, s);
}

static void json_finding(FILE *out, const struct finding *f, bool first)
{
	fputs(first ? "{\"what\":" : ",{\"what\":", out);
	json_str(out, what_names[f->what]);
	fputs(",\"subject\":", out);
	json_str(out, f->subject);
	fputs(",\"old\":", out);
	json_value(out, f->old, f->numeric);
	fputs(",\"new\":", out);
	json_value(out, f->new, f->numeric);
	if (f->type) {
		fputs(",\"type\":", out);
		json_str(out, f->type);
	}
	if (f->old_resolved) {
		fputs(",\"old_resolved\":", out);
		json_str(out, f->old_resolved);
		fputs(",\"new_resolved\":", out);
		json_str(out, f->new_resolved);
	}
	fprintf(out, ",\"incompatible\":%s}",
		f->incompatible ? "true" : "false");
}

static void print_type(struct ctx *c, const struct ktype *old,
		       const struct ktype *new, const struct report *r)
{
	const struct ktype *t = new ? new : old;
	const char *status = !old ? "only_new" : !new ? "only_old" : "changed";
	size_t i;

	if (c->o->json) {
		fputs(c->first_json ? "\n" : ",\n", c->f);
		c->first_json = false;
		fputs("{\"kind\":", c->f);
		json_str(c->f, kind_name(t->kind));
		fputs(",\"name\":", c->f);
		json_str(c->f, t->name);
		fputs(",\"decl_file\":", c->f);
		json_str(c->f, t->decl_file);
		if (t->decl_file)
			fprintf(c->f, ",\"decl_line\":%" PRIu32, t->decl_line);
		fprintf(c->f,
			",\"status\":\"%s\",\"incompatible\":%s,\"findings\":[",
			status, r->incompatible ? "true" : "false");
		for (i = 0; i < r->n; i++)
			json_finding(c->f, &r->v[i], i == 0);
		fputc(']', c->f);
		if (c->o->layouts && old && new) {
			fputs(",\"old_layout\":", c->f);
			json_type(c->f, old);
			fputs(",\"new_layout\":", c->f);
			json_type(c->f, new);
		}
		fputc('}', c->f);
		return;
	}
	fprintf(c->f, "%s %s", kind_name(t->kind), t->name);
	if (t->decl_file)
		fprintf(c->f, " at %s:%" PRIu32, t->decl_file, t->decl_line);
	fputc('\n', c->f);
	if (!old)
		fputs("\tonly in new\n", c->f);
	else if (!new)
		fputs("\tonly in old\n", c->f);
	for (i = 0; i < r->n; i++)
		text_finding(c->f, &r->v[i]);
}

/* A type whose kind and name the other side lacks, with --only-common:
 * Clang leaves out unused enums that GCC keeps, which says nothing about
 * the layouts both sides have. */
static bool left_out(struct ctx *c, const struct ktype *old,
		     const struct ktype *new, bool absent)
{
	if (!c->o->only_common || !absent || (old && new))
		return false;
	c->tot.left_out++;
	return true;
}

static void one_pair(struct ctx *c, const struct ktype *old,
		     const struct ktype *new, bool absent)
{
	struct report r = { 0 };

	if (!filter_match(c->o->filter, new ? new : old))
		return;
	if (left_out(c, old, new, absent))
		return;
	if (old && new) {
		switch (old->kind) {
		case KIND_STRUCT:
		case KIND_UNION:
			cmp_aggregate(&r, old, new, c->o->only_layout);
			break;
		case KIND_ENUM:
			cmp_enum(&r, old, new);
			break;
		case KIND_TYPEDEF:
			cmp_typedef(&r, old, new, c->o->only_layout);
			break;
		default:
			break;
		}
		if (!r.n) {
			c->tot.unchanged++;
			return;
		}
	}
	if (supp_match(c->o->supp, old, new)) {
		c->tot.suppressed++;
		report_release(&r);
		return;
	}
	if (!old)
		c->tot.only_new++;
	else if (!new)
		c->tot.only_old++;
	else
		c->tot.changed++;
	c->tot.incompatible += r.incompatible;
	print_type(c, old, new, &r);
	report_release(&r);
}

static int key_cmp(const struct ktype *a, const struct ktype *b)
{
	int r = strcmp(kind_name(a->kind), kind_name(b->kind));

	return r ? r : strcmp(a->name, b->name);
}

/* Pair the same-key runs A[0..na) and B[0..nb). */
static void one_group(struct ctx *c, struct ktype **a, size_t na,
		      struct ktype **b, size_t nb)
{
	bool *ua = xcalloc(na + 1, 1), *ub = xcalloc(nb + 1, 1);
	size_t i, j, left_a = na, left_b = nb;
	bool absent = na == 0 || nb == 0;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (!ub[j] && ktype_same_layout(a[i], b[j])) {
				ua[i] = ub[j] = true;
				left_a--, left_b--;
				c->tot.unchanged +=
					filter_match(c->o->filter, a[i]);
				break;
			}
	for (i = 0; i < na; i++)
		for (j = 0; j < nb && !ua[i]; j++)
			if (!ub[j] && a[i]->decl_file &&
			    streq(a[i]->decl_file, b[j]->decl_file)) {
				ua[i] = ub[j] = true;
				left_a--, left_b--;
				one_pair(c, a[i], b[j], false);
			}
	if (left_a == 1 && left_b == 1) {
		for (i = 0; ua[i]; i++)
			;
		for (j = 0; ub[j]; j++)
			;
		ua[i] = ub[j] = true;
		one_pair(c, a[i], b[j], false);
	}
	for (i = 0; i < na; i++)
		if (!ua[i])
			one_pair(c, a[i], NULL, absent);
	for (j = 0; j < nb; j++)
		if (!ub[j])
			one_pair(c, NULL, b[j], absent);
	free(ua);
	free(ub);
}

int diff_models(FILE *f, const struct model *old, const struct model *new,
		const struct diff_opts *o)
{
	struct ctx c = { .f = f, .o = o, .first_json = true };
	size_t i = 0, j = 0;
	int rc = KABI_EXIT_OK;

	if (o->json) {
		fputs("{\"version\":1,\"old\":", f);
		json_str(f, o->old_name);
		fputs(",\"new\":", f);
		json_str(f, o->new_name);
		fputs(",\"types\":[", f);
	}
	/* both models are sorted by kind, name, then declaration */
	while (i < old->ntypes || j < new->ntypes) {
		size_t ei = i, ej = j;
		int k;

		if (i == old->ntypes)
			k = 1;
		else if (j == new->ntypes)
			k = -1;
		else
			k = key_cmp(old->types[i], new->types[j]);
		if (k <= 0)
			while (ei < old->ntypes &&
			       key_cmp(old->types[ei], old->types[i]) == 0)
				ei++;
		if (k >= 0)
			while (ej < new->ntypes &&
			       key_cmp(new->types[ej], new->types[j]) == 0)
				ej++;
		/* no arithmetic on the NULL array of an empty model */
		one_group(&c, ei > i ? old->types + i : NULL, ei - i,
			  ej > j ? new->types + j : NULL, ej - j);
		i = ei;
		j = ej;
	}

	if (o->json) {
		fprintf(f,
			"\n],\"summary\":{\"changed\":%zu,\"incompatible\":%zu,"
			"\"only_old\":%zu,\"only_new\":%zu,\"unchanged\":%zu,"
			"\"suppressed\":%zu",
			c.tot.changed, c.tot.incompatible, c.tot.only_old,
			c.tot.only_new, c.tot.unchanged, c.tot.suppressed);
		if (o->only_common)
			fprintf(f, ",\"left_out\":%zu", c.tot.left_out);
		fputs("}}\n", f);
	} else {
		fprintf(f,
			"summary: %zu changed (%zu incompatible), %zu only in old, "
			"%zu only in new, %zu unchanged, %zu suppressed",
			c.tot.changed, c.tot.incompatible, c.tot.only_old,
			c.tot.only_new, c.tot.unchanged, c.tot.suppressed);
		if (o->only_common)
			fprintf(f, ", %zu on one side left out",
				c.tot.left_out);
		fputc('\n', f);
	}
	if (c.tot.changed || c.tot.only_old || c.tot.only_new)
		rc |= KABI_EXIT_CHANGE;
	if (c.tot.incompatible)
		rc |= KABI_EXIT_INCOMPATIBLE;
	return rc;
}
