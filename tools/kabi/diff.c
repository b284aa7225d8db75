// SPDX-License-Identifier: GPL-2.0-only
/*
 * Comparing two models.
 *
 * Types are matched by kind and name.  Where a side holds several
 * same-name definitions (one per #ifdef variant, or per driver: a kernel
 * has two struct dma_chan), each definition is matched by what it is, not
 * by its name alone: equal layouts pair first, then declaration files,
 * then the closest layout, then a lone survivor on each side; what is
 * left has no counterpart on the other side.
 *
 * This file pairs the definitions; diff-compare.c compares a pair and
 * diff-print.c prints what changed.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* A type without a counterpart, with --only-common: Clang leaves out
 * unused enums that GCC keeps, and a module uses one of the kernel's two
 * struct dma_chan, which says nothing about the layouts both sides have. */
static bool left_out(struct ctx *c, const struct ktype *old,
		     const struct ktype *new)
{
	if (!c->o->only_common || (old && new))
		return false;
	c->tot.left_out++;
	return true;
}

static void one_pair(struct ctx *c, const struct ktype *old,
		     const struct ktype *new)
{
	struct report r = { 0 };

	if (!filter_match(c->o->filter, new ? new : old))
		return;
	if (left_out(c, old, new))
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

/* Whether declaration files X and Y name one file: equal, or the
 * relative one the tail of the other after a '/'.  A module built
 * against a headers package names include/linux/dmaengine.h by the
 * package's absolute path, the kernel's own DWARF relative to its tree. */
static bool same_file(const char *x, const char *y)
{
	size_t nx, ny;

	if (!x || !y)
		return false;
	nx = strlen(x);
	ny = strlen(y);
	if (nx > ny) {
		const char *t = x;

		x = y;
		y = t;
		nx = ny;
		ny = strlen(y);
	}
	if (nx == ny)
		return strcmp(x, y) == 0;
	return x[0] != '/' && y[ny - nx - 1] == '/' &&
	       strcmp(y + ny - nx, x) == 0;
}

/* How A and B are declared alike: 2 one file and line, 1 one file, 0
 * neither or not known (BTF names no file). */
static unsigned decl_tier(const struct ktype *a, const struct ktype *b)
{
	if (!same_file(a->decl_file, b->decl_file))
		return 0;
	return a->decl_line == b->decl_line ? 2 : 1;
}

/* How much of A's layout B keeps: one point for an equal size, and per
 * member (enumerator) of A that B has too, one for being there and one
 * for each of its place and size (value) being the same; a typedef's
 * points are for an equal target. */
static unsigned likeness(const struct ktype *a, const struct ktype *b)
{
	unsigned n = a->size == b->size;
	uint32_t i;

	switch (a->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		for (i = 0; i < a->n; i++) {
			const struct member *m = &a->members[i];
			const struct member *o;

			/* the same place is the usual answer, and cheap */
			o = i < b->n && m->name &&
					    streq(b->members[i].name, m->name) ?
				    &b->members[i] :
				    find_member(b, m, anon_index(a, m));
			if (o)
				n += 1 + (o->bitpos == m->bitpos) +
				     (o->size == m->size);
		}
		break;
	case KIND_ENUM:
		for (i = 0; i < a->n; i++) {
			const struct enumerator *o =
				find_enum(b, a->enums[i].name);

			if (o)
				n += 1 + !value_changed(a, &a->enums[i], b, o);
		}
		break;
	case KIND_TYPEDEF:
		n = 2 * streq(a->resolved, b->resolved) +
		    (a->n && b->n && streq(a->chain[0], b->chain[0]));
		break;
	default:
		break;
	}
	return n;
}

/* A possible pairing of old A[I] with new B[J], and how good it is. */
struct cand {
	size_t i, j;
	unsigned tier, score;
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *p = x, *q = y;

	if (p->tier != q->tier)
		return p->tier > q->tier ? -1 : 1;
	if (p->score != q->score)
		return p->score > q->score ? -1 : 1;
	if (p->i != q->i)
		return p->i < q->i ? -1 : 1;
	return p->j < q->j ? -1 : p->j > q->j;
}

/* Beyond this many candidate pairs in one group (a hostile input), a
 * definition pairs with the first one declared in the same file. */
#define MAX_SCORED_PAIRS (1u << 16)

static void pair_first_file(struct ktype **a, size_t na, struct ktype **b,
			    size_t nb, size_t *pa, bool *ub)
{
	size_t i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb && !pa[i]; j++)
			if (!ub[j] && decl_tier(a[i], b[j])) {
				pa[i] = j + 1;
				ub[j] = true;
			}
}

/* Pair what pass 1 left of A and B (PA[i]: B's index + 1, 0 unpaired;
 * UB[j]: paired) by declaration file, then by the closest layout: the
 * best pairs first, a pair only when it shares a file or something of
 * its layout. */
static void pair_closest(struct ktype **a, size_t na, struct ktype **b,
			 size_t nb, size_t *pa, bool *ub, size_t left_a,
			 size_t left_b)
{
	struct cand *v;
	size_t i, j, n = 0;

	if (!left_a || !left_b)
		return;
	if (left_a * left_b > MAX_SCORED_PAIRS) {
		pair_first_file(a, na, b, nb, pa, ub);
		return;
	}
	v = xmalloc(left_a * left_b * sizeof(*v));
	for (i = 0; i < na; i++) {
		if (pa[i])
			continue;
		for (j = 0; j < nb; j++) {
			struct cand k = { i, j, 0, 0 };

			if (ub[j])
				continue;
			k.tier = decl_tier(a[i], b[j]);
			k.score = likeness(a[i], b[j]);
			if (k.tier || k.score)
				v[n++] = k;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cand_cmp);
	for (i = 0; i < n; i++) {
		if (pa[v[i].i] || ub[v[i].j])
			continue;
		pa[v[i].i] = v[i].j + 1;
		ub[v[i].j] = true;
	}
	free(v);
}

/* Pair the same-key runs A[0..na) and B[0..nb). */
static void one_group(struct ctx *c, struct ktype **a, size_t na,
		      struct ktype **b, size_t nb)
{
	size_t *pa = xcalloc(na + 1, sizeof(*pa));
	bool *ub = xcalloc(nb + 1, 1), *same = xcalloc(na + 1, 1);
	size_t i, j, left_a = na, left_b = nb;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (!ub[j] && ktype_same_layout(a[i], b[j])) {
				pa[i] = j + 1;
				ub[j] = same[i] = true;
				left_a--, left_b--;
				c->tot.unchanged +=
					filter_match(c->o->filter, a[i]);
				break;
			}
	/* several definitions on a side: each finds its own */
	if (na > 1 || nb > 1) {
		pair_closest(a, na, b, nb, pa, ub, left_a, left_b);
		for (i = 0, left_a = 0; i < na; i++)
			left_a += !pa[i];
		for (j = 0, left_b = 0; j < nb; j++)
			left_b += !ub[j];
	}
	if (left_a == 1 && left_b == 1) {
		for (i = 0; pa[i]; i++)
			;
		for (j = 0; ub[j]; j++)
			;
		pa[i] = j + 1;
		ub[j] = true;
	}
	for (i = 0; i < na; i++)
		if (pa[i] && !same[i])
			one_pair(c, a[i], b[pa[i] - 1]);
	for (i = 0; i < na; i++)
		if (!pa[i])
			one_pair(c, a[i], NULL);
	for (j = 0; j < nb; j++)
		if (!ub[j])
			one_pair(c, NULL, b[j]);
	free(pa);
	free(ub);
	free(same);
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
