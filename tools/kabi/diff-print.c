// SPDX-License-Identifier: GPL-2.0-only
/*
 * Printing a changed type and its findings, as text or as JSON.
 */
#include <inttypes.h>
#include <string.h>

#include "diff.h"

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
	[W_CHAIN_QUAL_ONLY] = "typedef_qualifier_only",
};

/* A member's type finding F, after the tab. */
static void text_type_finding(FILE *out, const struct finding *f)
{
	switch (f->what) {
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
	default:
		break;
	}
}

static void text_finding(FILE *out, const struct finding *f, const char *indent)
{
	fputs(indent, out);
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
	case W_TYPEDEF_ONLY:
	case W_QUAL_ONLY:
		text_type_finding(out, f);
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
	case W_CHAIN_QUAL_ONLY:
		fprintf(out,
			"chain \"%s\" -> \"%s\" (qualifiers only, resolved \"%s\" -> \"%s\")",
			f->old, f->new, f->old_resolved, f->new_resolved);
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

void print_type(struct ctx *c, const struct ktype *old, const struct ktype *new,
		const struct report *r)
{
	const struct ktype *t = new ? new : old;
	const char *status = !old ? "only_new" : !new ? "only_old" : "changed";

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
		print_findings(c->f, r, true, NULL);
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
	print_findings(c->f, r, false, "\t");
}

void print_findings(FILE *f, const struct report *r, bool json,
		    const char *indent)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (json)
			json_finding(f, &r->v[i], i == 0);
		else
			text_finding(f, &r->v[i], indent);
	}
}
