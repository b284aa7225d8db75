// SPDX-License-Identifier: GPL-2.0-only
/*
 * --type and --kind selection, shared by dump and diff.
 */
#include <string.h>

#include "kabi.h"

bool filter_match(const struct filter *f, const struct ktype *t)
{
	const char *kn = kind_name(t->kind);
	size_t i, kl = strlen(kn);

	if (!f)
		return true;
	if (f->kinds && !(f->kinds & 1u << t->kind))
		return false;
	if (!f->nnames)
		return true;
	for (i = 0; i < f->nnames; i++) {
		const char *n = f->names[i];

		/* "struct foo" names one kind, "foo" every kind */
		if (strncmp(n, kn, kl) == 0 && n[kl] == ' ')
			n += kl + 1;
		else if (strchr(n, ' '))
			continue;
		if (strcmp(n, t->name) == 0)
			return true;
	}
	return false;
}

/* Whether --type NAME selects T under the rest of F. */
static bool name_match(const struct filter *f, const char *name,
		       const struct ktype *t)
{
	struct filter one = { .names = &name, .nnames = 1, .kinds = f->kinds };

	return filter_match(&one, t);
}

bool filter_selects_nothing(const struct filter *f,
			    const struct model *const *models, size_t n)
{
	size_t i, j, k;

	if (!f || !f->nnames)
		return false;
	for (i = 0; i < f->nnames; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < models[j]->ntypes; k++)
				if (name_match(f, f->names[i],
					       models[j]->types[k]))
					return false;
	return true;
}
