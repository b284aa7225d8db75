// SPDX-License-Identifier: GPL-2.0-only
/*
 * The canonical dump: text for people and diff(1), JSON for programs.
 */
#include <inttypes.h>
#include <string.h>

#include "kabi.h"

static void put_size(FILE *f, const char *key, int64_t v)
{
	if (v == SIZE_UNKNOWN)
		fprintf(f, " %s=?", key);
	else
		fprintf(f, " %s=%" PRId64, key, v);
}

static void put_value(FILE *f, const struct ktype *t,
		      const struct enumerator *e)
{
	char buf[41];

	fputs(enum_value_str(buf, t, e), f);
}

static void put_decl(FILE *f, const struct ktype *t)
{
	if (t->decl_file)
		fprintf(f, " decl=%s:%" PRIu32, t->decl_file, t->decl_line);
}

static void text_type(FILE *f, const struct ktype *t)
{
	uint32_t i;

	fprintf(f, "%s %s", kind_name(t->kind), t->name);
	switch (t->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		put_size(f, "size", t->size);
		if (t->align)
			fprintf(f, " align=%" PRId64, t->align);
		put_decl(f, t);
		fputc('\n', f);
		for (i = 0; i < t->n; i++) {
			const struct member *m = &t->members[i];

			fprintf(f, "\tmember %s offset=%" PRIu64,
				m->name ? m->name : "<anon>", m->bitpos / 8);
			if (m->bitsize)
				fprintf(f,
					" bit_offset=%" PRIu64
					" bit_size=%" PRIu32,
					m->bitpos % 8, m->bitsize);
			put_size(f, "size", m->size);
			fprintf(f, " type=\"%s\"", m->type);
			if (strcmp(m->type, m->resolved) != 0)
				fprintf(f, " resolved=\"%s\"", m->resolved);
			fputc('\n', f);
		}
		break;
	case KIND_ENUM:
		put_size(f, "size", t->size);
		if (t->underlying)
			fprintf(f, " underlying=\"%s\"", t->underlying);
		put_decl(f, t);
		fputc('\n', f);
		for (i = 0; i < t->n; i++) {
			fprintf(f, "\tenumerator %s value=", t->enums[i].name);
			put_value(f, t, &t->enums[i]);
			fputc('\n', f);
		}
		break;
	case KIND_TYPEDEF:
		fputs(" chain=\"", f);
		for (i = 0; i < t->n; i++)
			fprintf(f, "%s%s", i ? " -> " : "", t->chain[i]);
		fprintf(f, "\" resolved=\"%s\"", t->resolved);
		put_decl(f, t);
		fputc('\n', f);
		break;
	default:
		break;
	}
}

void dump_text(FILE *f, const struct model *m, const struct filter *flt)
{
	size_t i;

	for (i = 0; i < m->ntypes; i++)
		if (filter_match(flt, m->types[i]))
			text_type(f, m->types[i]);
}

static void json_size(FILE *f, const char *key, int64_t v)
{
	if (v == SIZE_UNKNOWN)
		fprintf(f, ",\"%s\":null", key);
	else
		fprintf(f, ",\"%s\":%" PRId64, key, v);
}

void json_type(FILE *f, const struct ktype *t)
{
	uint32_t i;

	fputs("{\"kind\":", f);
	json_str(f, kind_name(t->kind));
	fputs(",\"name\":", f);
	json_str(f, t->name);
	if (t->kind != KIND_TYPEDEF)
		json_size(f, "size", t->size);
	if (t->align)
		fprintf(f, ",\"align\":%" PRId64, t->align);
	fputs(",\"decl_file\":", f);
	json_str(f, t->decl_file);
	if (t->decl_file)
		fprintf(f, ",\"decl_line\":%" PRIu32, t->decl_line);
	else
		fputs(",\"decl_line\":null", f);
	if (t->parent) {
		fputs(",\"parent\":", f);
		json_str(f, t->parent);
	}
	switch (t->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		fputs(",\"members\":[", f);
		for (i = 0; i < t->n; i++) {
			const struct member *m = &t->members[i];

			fputs(i ? ",{\"name\":" : "{\"name\":", f);
			json_str(f, m->name);
			fprintf(f, ",\"offset\":%" PRIu64, m->bitpos / 8);
			if (m->bitsize)
				fprintf(f,
					",\"bit_offset\":%" PRIu64
					",\"bit_size\":%" PRIu32,
					m->bitpos % 8, m->bitsize);
			json_size(f, "size", m->size);
			fputs(",\"type\":", f);
			json_str(f, m->type);
			fputs(",\"resolved\":", f);
			json_str(f, m->resolved);
			fputc('}', f);
		}
		fputc(']', f);
		break;
	case KIND_ENUM:
		fputs(",\"underlying\":", f);
		json_str(f, t->underlying);
		fputs(",\"enumerators\":[", f);
		for (i = 0; i < t->n; i++) {
			fputs(i ? ",{\"name\":" : "{\"name\":", f);
			json_str(f, t->enums[i].name);
			fputs(",\"value\":", f);
			put_value(f, t, &t->enums[i]);
			fputc('}', f);
		}
		fputc(']', f);
		break;
	case KIND_TYPEDEF:
		fputs(",\"chain\":[", f);
		for (i = 0; i < t->n; i++) {
			if (i)
				fputc(',', f);
			json_str(f, t->chain[i]);
		}
		fputs("],\"resolved\":", f);
		json_str(f, t->resolved);
		break;
	default:
		break;
	}
	fputc('}', f);
}

void dump_json(FILE *f, const struct model *m, const struct filter *flt)
{
	size_t i;
	bool first = true;

	fputs("{\"version\":1,\"types\":[", f);
	for (i = 0; i < m->ntypes; i++) {
		if (!filter_match(flt, m->types[i]))
			continue;
		fputs(first ? "\n" : ",\n", f);
		json_type(f, m->types[i]);
		first = false;
	}
	fputs("\n]}\n", f);
}
