/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Comparing two models (kabi.h: diff_models), in three files: diff.c
 * pairs the definitions of the two sides, diff-compare.c compares a pair
 * into a report of findings, and diff-print.c prints the report.
 * check.c compares the layouts one build has of one type the same way.
 */
#ifndef KABI_DIFF_H
#define KABI_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kabi.h"

/* What a finding is about (diff-print.c: what_names). */
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
	W_CHAIN_QUAL_ONLY,
};

/* One difference between two definitions. */
struct finding {
	enum what what;
	const char *subject; /* member or enumerator name, or NULL */
	char *old, *new;     /* rendered values */
	bool numeric;
	const char *old_resolved, *new_resolved;
	const char *type; /* of an added or removed member */
	bool incompatible;
};

/* The findings of one pair of definitions. */
struct report {
	struct finding *v;
	size_t n, cap;
	bool incompatible;
};

/* What a run counted, for the summary. */
struct totals {
	size_t changed, incompatible, only_old, only_new, unchanged, suppressed;
	size_t left_out; /* --only-common: without a counterpart */
};

/* One diff_models run: where it prints, what it was asked, the counts. */
struct ctx {
	FILE *f;
	const struct diff_opts *o;
	struct totals tot;
	bool first_json;
};

/* Equal strings, or both NULL. */
static inline bool streq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* ---- diff-compare.c ---- */

/* Free what R holds (not R). */
void report_release(struct report *r);
/* Into R, what changed from A to B, two structs or unions, two enums or
 * two typedefs of one name; with ONLY_LAYOUT, leave out what only
 * renames a type (typedef or qualifiers). */
void cmp_aggregate(struct report *r, const struct ktype *a,
		   const struct ktype *b, bool only_layout);
void cmp_enum(struct report *r, const struct ktype *a, const struct ktype *b);
void cmp_typedef(struct report *r, const struct ktype *a, const struct ktype *b,
		 bool only_layout);
/* The member of T that stands for WANT: the one of its name, or for an
 * anonymous member the ANON_IDX-th anonymous one (anon_index). */
const struct member *find_member(const struct ktype *t,
				 const struct member *want, unsigned anon_idx);
/* How many anonymous members of T come before M. */
unsigned anon_index(const struct ktype *t, const struct member *m);
/* The enumerator NAME of T, or NULL. */
const struct enumerator *find_enum(const struct ktype *t, const char *name);
/* Whether enumerator X of A and Y of B have different values. */
bool value_changed(const struct ktype *a, const struct enumerator *x,
		   const struct ktype *b, const struct enumerator *y);

/* ---- diff-print.c ---- */

/* The report R on the pair OLD and NEW (either NULL: only on the other
 * side), as C's options say. */
void print_type(struct ctx *c, const struct ktype *old, const struct ktype *new,
		const struct report *r);
/* The findings of R: as text, one line each after INDENT, or as the
 * JSON objects of an array, comma-separated. */
void print_findings(FILE *f, const struct report *r, bool json,
		    const char *indent);

#endif
