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
