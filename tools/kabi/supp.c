// SPDX-License-Identifier: GPL-2.0-only
/*
 * Suppressions: the [suppress_type] subset of libabigail's format.
 *
 * A section suppresses a changed, added or removed type when every
 * property it names matches.  Unknown sections and properties are errors:
 * a typo must not silently widen or narrow what is hidden.
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "kabi.h"

struct supp {
	char *label;
	char *name;
	regex_t name_re;
	bool has_name_re;
	regex_t loc_not_re;
	bool has_loc_not_re;
	unsigned kinds;	 /* 0: any */
	int size_change; /* -1 any, 0 no, 1 yes */
};

struct supp_set {
	struct supp *v;
	size_t n;
};

static void supp_release(struct supp *s)
{
	free(s->label);
	free(s->name);
	if (s->has_name_re)
		regfree(&s->name_re);
	if (s->has_loc_not_re)
		regfree(&s->loc_not_re);
}

void supp_free(struct supp_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->n; i++)
		supp_release(&set->v[i]);
	free(set->v);
	free(set);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int compile(regex_t *re, const char *pat, const char *path,
		   unsigned line)
{
	char msg[128];
	int rc = regcomp(re, pat, REG_EXTENDED | REG_NOSUB);

	if (rc == 0)
		return 0;
	regerror(rc, re, msg, sizeof(msg));
	kabi_err("cannot parse '%s': line %u: bad regular expression '%s': %s",
		 path, line, pat, msg);
	return -1;
}

static int set_prop(struct supp *s, char *key, char *val, const char *path,
		    unsigned line)
{
	enum kind k;

	if (strcmp(key, "label") == 0) {
		free(s->label);
		s->label = xstrdup(val);
	} else if (strcmp(key, "name") == 0) {
		free(s->name);
		s->name = xstrdup(val);
	} else if (strcmp(key, "name_regexp") == 0 && !s->has_name_re) {
		if (compile(&s->name_re, val, path, line))
			return -1;
		s->has_name_re = true;
	} else if (strcmp(key, "source_location_not_regexp") == 0 &&
		   !s->has_loc_not_re) {
		if (compile(&s->loc_not_re, val, path, line))
			return -1;
		s->has_loc_not_re = true;
	} else if (strcmp(key, "type_kind") == 0) {
		/* libabigail says "class" for C++ classes and C structs */
		if (strcmp(val, "class") == 0)
			val = "struct";
		if (kind_parse(val, &k)) {
			kabi_err(
				"cannot parse '%s': line %u: unknown type_kind '%s' (struct, class, union, enum, typedef)",
				path, line, val);
			return -1;
		}
		s->kinds |= 1u << k;
	} else if (strcmp(key, "has_size_change") == 0) {
		if (strcmp(val, "yes") == 0 || strcmp(val, "true") == 0)
			s->size_change = 1;
		else if (strcmp(val, "no") == 0 || strcmp(val, "false") == 0)
			s->size_change = 0;
		else {
			kabi_err(
				"cannot parse '%s': line %u: has_size_change takes yes or no, not '%s'",
				path, line, val);
			return -1;
		}
	} else {
		kabi_err(
			"cannot parse '%s': line %u: unsupported property '%s'",
			path, line, key);
		return -1;
	}
	return 0;
}

struct supp_set *supp_load(const char *path)
{
	struct supp_set *set = xcalloc(1, sizeof(*set));
	struct supp *cur = NULL;
	char *buf = NULL;
	size_t cap = 0;
	unsigned line = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		kabi_err("cannot open '%s': %s", path, strerror(errno));
		free(set);
		return NULL;
	}
	while (getline(&buf, &cap, f) > 0) {
		char *s = trim(buf), *eq;

		line++;
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			if (strcmp(s, "[suppress_type]") != 0) {
				kabi_err(
					"cannot parse '%s': line %u: unsupported section '%s' (only [suppress_type])",
					path, line, s);
				goto fail;
			}
			set->v = xrealloc(set->v,
					  (set->n + 1) * sizeof(*set->v));
			cur = &set->v[set->n++];
			memset(cur, 0, sizeof(*cur));
			cur->size_change = -1;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			kabi_err(
				"cannot parse '%s': line %u: expected 'property = value'",
				path, line);
			goto fail;
		}
		if (!cur) {
			kabi_err(
				"cannot parse '%s': line %u: property outside a [suppress_type] section",
				path, line);
			goto fail;
		}
		*eq = '\0';
		if (set_prop(cur, trim(s), trim(eq + 1), path, line))
			goto fail;
	}
	if (ferror(f)) {
		kabi_err("cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	free(buf);
	fclose(f);
	return set;
fail:
	free(buf);
	fclose(f);
	supp_free(set);
	return NULL;
}

static bool one_match(const struct supp *s, const struct ktype *t,
		      bool size_changed)
{
	if (s->kinds && !(s->kinds & 1u << t->kind))
		return false;
	if (s->name && strcmp(s->name, t->name) != 0)
		return false;
	if (s->has_name_re && regexec(&s->name_re, t->name, 0, NULL, 0) != 0)
		return false;
	if (s->has_loc_not_re && t->decl_file &&
	    regexec(&s->loc_not_re, t->decl_file, 0, NULL, 0) == 0)
		return false;
	if (s->size_change >= 0 && s->size_change != size_changed)
		return false;
	return true;
}

bool supp_match(const struct supp_set *set, const struct ktype *old,
		const struct ktype *new)
{
	const struct ktype *t = new ? new : old;
	bool size_changed = old && new && old->size != new->size;
	size_t i;

	if (!set)
		return false;
	for (i = 0; i < set->n; i++)
		if (one_match(&set->v[i], t, size_changed))
			return true;
	return false;
}
