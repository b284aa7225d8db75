// SPDX-License-Identifier: GPL-2.0-only
/*
 * Comparing two definitions of one kind and name: each difference of
 * their layouts, members, enumerators or typedef chains becomes a
 * finding of the type's report, marked incompatible where it moves or
 * resizes something.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

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

void report_release(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].old);
		free(r->v[i].new);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
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

const struct member *find_member(const struct ktype *t,
				 const struct member *want, unsigned anon_idx)
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

unsigned anon_index(const struct ktype *t, const struct member *m)
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

void cmp_aggregate(struct report *r, const struct ktype *a,
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
bool value_changed(const struct ktype *a, const struct enumerator *x,
		   const struct ktype *b, const struct enumerator *y)
{
	char bx[41], by[41];

	if (a->size <= 8 && b->size <= 8)
		return x->value != y->value;
	return !streq(enum_value_str(bx, a, x), enum_value_str(by, b, y));
}

const struct enumerator *find_enum(const struct ktype *t, const char *name)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (streq(t->enums[i].name, name))
			return &t->enums[i];
	return NULL;
}

void cmp_enum(struct report *r, const struct ktype *a, const struct ktype *b)
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

void cmp_typedef(struct report *r, const struct ktype *a, const struct ktype *b,
		 bool only_layout)
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
	} else if (same_unqualified(a->resolved, b->resolved)) {
		if (only_layout) {
			free(ca);
			free(cb);
			return;
		}
		f = add(r, W_CHAIN_QUAL_ONLY, NULL, ca, cb, false, false);
	} else {
		f = add(r, W_CHAIN, NULL, ca, cb, false, false);
	}
	f->old_resolved = a->resolved;
	f->new_resolved = b->resolved;
}
