// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi check: the types one build sees with different layouts in
 * different units.
 *
 * The reader keeps one copy of each distinct definition (model.c), and
 * the declaration is part of what makes two definitions distinct; so
 * the definitions of one kind, name and declaration that the model holds
 * more than one of are the clashes, and the model, sorted, holds them
 * side by side.  Which units hold each comes from the reader's sights.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* One run: where it prints, what it was asked, the counts. */
struct chk {
	FILE *f;
	const struct check_opts *o;
	const struct model *m;
	size_t clashing, incompatible, alike;
	bool first_json;
};

static uint32_t units_of(const struct ktype *t)
{
	return t->sight ? t->sight->n : 0;
}

/* Most units first, then the one met first: the layout most of the build
 * sees is the one the others are compared with. */
static int variant_cmp(const void *a, const void *b)
{
	const struct ktype *x = *(const struct ktype *const *)a;
	const struct ktype *y = *(const struct ktype *const *)b;
	uint32_t nx = units_of(x), ny = units_of(y);

	if (nx != ny)
		return nx > ny ? -1 : 1;
	if (nx && x->sight->first[0] != y->sight->first[0])
		return x->sight->first[0] < y->sight->first[0] ? -1 : 1;
	return ktype_cmp(x, y);
}

/* Whether A and B belong to one group: one kind and name, and unless
 * --by-name one declaration, which must be known. */
static bool same_key(const struct chk *c, const struct ktype *a,
		     const struct ktype *b)
{
	if (a->kind != b->kind || !streq(a->name, b->name))
		return false;
	if (c->o->by_name)
		return true;
	return a->decl_file && streq(a->decl_file, b->decl_file) &&
	       a->decl_line == b->decl_line;
}

static void compare(struct report *r, const struct ktype *a,
		    const struct ktype *b)
{
	switch (a->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		cmp_aggregate(r, a, b, false);
		break;
	case KIND_ENUM:
		cmp_enum(r, a, b);
		break;
	case KIND_TYPEDEF:
		cmp_typedef(r, a, b, false);
		break;
	default:
		break;
	}
}

static const char *unit_name(const struct model *m, uint32_t u)
{
	return u < m->nunits && m->units[u] ? m->units[u] : "?";
}

/* "3 units: a.c, b.c, c.c and 37 more" */
static void text_units(FILE *f, const struct model *m, const struct ktype *t)
{
	uint32_t n = units_of(t), i, shown = n < SIGHT_KEEP ? n : SIGHT_KEEP;

	fprintf(f, "%" PRIu32 " unit%s", n, n == 1 ? "" : "s");
	for (i = 0; i < shown; i++)
		fprintf(f, "%s%s", i ? ", " : ": ",
			unit_name(m, t->sight->first[i]));
	if (n > shown)
		fprintf(f, " and %" PRIu32 " more", n - shown);
}

static void json_units(FILE *f, const struct model *m, const struct ktype *t)
{
	uint32_t n = units_of(t), i, shown = n < SIGHT_KEEP ? n : SIGHT_KEEP;

	fprintf(f, "\"units\":%" PRIu32 ",\"unit_names\":[", n);
	for (i = 0; i < shown; i++) {
		if (i)
			fputc(',', f);
		json_str(f, unit_name(m, t->sight->first[i]));
	}
	fputc(']', f);
}

/* Whether the variants V[0..N) have one declaration. */
static bool one_decl(struct ktype **v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!streq(v[i]->decl_file, v[0]->decl_file) ||
		    v[i]->decl_line != v[0]->decl_line)
			return false;
	return true;
}

static void text_head(struct chk *c, struct ktype **v, size_t n)
{
	fprintf(c->f, "%s %s", kind_name(v[0]->kind), v[0]->name);
	if (v[0]->decl_file && one_decl(v, n))
		fprintf(c->f, " at %s:%" PRIu32, v[0]->decl_file,
			v[0]->decl_line);
	fputc('\n', c->f);
}

static void text_variant(struct chk *c, const struct ktype *t, size_t k,
			 bool decl, const struct report *r)
{
	fprintf(c->f, "\tlayout %zu", k + 1);
	if (decl && t->decl_file)
		fprintf(c->f, " at %s:%" PRIu32, t->decl_file, t->decl_line);
	fputs(": ", c->f);
	if (t->kind != KIND_TYPEDEF) {
		if (t->size == SIZE_UNKNOWN)
			fputs("size ?, ", c->f);
		else
			fprintf(c->f, "size %" PRId64 ", ", t->size);
	}
	text_units(c->f, c->m, t);
	fputc('\n', c->f);
	if (r)
		print_findings(c->f, r, false, "\t\t");
}

static void json_head(struct chk *c, struct ktype **v, size_t n, bool incompat)
{
	bool decl = v[0]->decl_file && one_decl(v, n);

	fputs(c->first_json ? "\n" : ",\n", c->f);
	c->first_json = false;
	fputs("{\"kind\":", c->f);
	json_str(c->f, kind_name(v[0]->kind));
	fputs(",\"name\":", c->f);
	json_str(c->f, v[0]->name);
	fputs(",\"decl_file\":", c->f);
	json_str(c->f, decl ? v[0]->decl_file : NULL);
	if (decl)
		fprintf(c->f, ",\"decl_line\":%" PRIu32, v[0]->decl_line);
	fprintf(c->f, ",\"incompatible\":%s,\"layouts\":[",
		incompat ? "true" : "false");
}

static void json_variant(struct chk *c, const struct ktype *t, size_t k,
			 const struct report *r)
{
	fputs(k ? ",{" : "{", c->f);
	json_units(c->f, c->m, t);
	fputs(",\"layout\":", c->f);
	json_type(c->f, t);
	fputs(",\"findings\":[", c->f);
	if (r)
		print_findings(c->f, r, true, NULL);
	fputs("]}", c->f);
}

/* Whether the N definitions V have more than one layout: under
 * --by-name, definitions at two places may be laid out alike. */
static bool layouts_differ(struct ktype **v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!ktype_same_layout(v[0], v[i]))
			return true;
	return false;
}

/* The N definitions V of one group: a clash when their layouts differ. */
static void one_group(struct chk *c, struct ktype **v, size_t n)
{
	struct report *r;
	bool incompat = false, decl;
	size_t i;

	if (!filter_match(c->o->filter, v[0]))
		return;
	if (!layouts_differ(v, n)) {
		c->alike++;
		return;
	}
	qsort(v, n, sizeof(*v), variant_cmp);
	r = xcalloc(n, sizeof(*r));
	for (i = 1; i < n; i++) {
		compare(&r[i], v[0], v[i]);
		incompat |= r[i].incompatible;
	}
	c->clashing++;
	c->incompatible += incompat;
	decl = !one_decl(v, n);
	if (c->o->json)
		json_head(c, v, n, incompat);
	else
		text_head(c, v, n);
	for (i = 0; i < n; i++) {
		if (c->o->json)
			json_variant(c, v[i], i, i ? &r[i] : NULL);
		else
			text_variant(c, v[i], i, decl, i ? &r[i] : NULL);
		report_release(&r[i]);
	}
	if (c->o->json)
		fputs("]}", c->f);
	free(r);
}

int check_model(FILE *f, const struct model *m, const struct check_opts *o)
{
	struct chk c = { .f = f, .o = o, .m = m, .first_json = true };
	struct ktype **v = NULL;
	size_t i = 0, j, cap = 0;
	int rc = KABI_EXIT_OK;

	if (o->json)
		fputs("{\"version\":1,\"types\":[", f);
	/* sorted by kind, name, then declaration: a group is a run */
	while (i < m->ntypes) {
		for (j = i + 1;
		     j < m->ntypes && same_key(&c, m->types[i], m->types[j]);
		     j++)
			;
		if (j - i > cap) {
			cap = j - i;
			v = xrealloc(v, cap * sizeof(*v));
		}
		memcpy(v, m->types + i, (j - i) * sizeof(*v));
		one_group(&c, v, j - i);
		i = j;
	}
	free(v);
	if (o->json)
		fprintf(f,
			"\n],\"summary\":{\"clashing\":%zu,\"incompatible\":%zu,"
			"\"alike\":%zu,\"units\":%zu}}\n",
			c.clashing, c.incompatible, c.alike, m->nunits);
	else
		fprintf(f,
			"summary: %zu with different layouts (%zu incompatible), "
			"%zu alike, %zu units\n",
			c.clashing, c.incompatible, c.alike, m->nunits);
	if (c.clashing)
		rc |= KABI_EXIT_CHANGE;
	if (c.incompatible)
		rc |= KABI_EXIT_INCOMPATIBLE;
	return rc;
}
