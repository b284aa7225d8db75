// SPDX-License-Identifier: GPL-2.0-only
/*
 * The canonical dump: text for people and diff(1), JSON for programs.
 */
#include <inttypes.h>
#include <string.h>

#include "kabi.h"

/* V in decimal: the dump prints hundreds of thousands of numbers, and
 * fprintf's format parsing was a third of a BTF dump's time. */
static void put_u64(FILE *f, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	fputs(p, f);
}

static void put_size(FILE *f, const char *key, int64_t v)
{
	fputc(' ', f);
	fputs(key, f);
	if (v == SIZE_UNKNOWN) {
		fputs("=?", f);
	} else if (v < 0) {
		fprintf(f, "=%" PRId64, v);
	} else {
		fputc('=', f);
		put_u64(f, (uint64_t)v);
	}
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

			fputs("\tmember ", f);
			fputs(m->name ? m->name : "<anon>", f);
			fputs(" offset=", f);
			put_u64(f, m->bitpos / 8);
			if (m->bitsize)
				fprintf(f,
					" bit_offset=%" PRIu64
					" bit_size=%" PRIu32,
					m->bitpos % 8, m->bitsize);
			put_size(f, "size", m->size);
			fputs(" type=\"", f);
			fputs(m->type, f);
			fputc('"', f);
			if (m->type != m->resolved &&
			    strcmp(m->type, m->resolved) != 0) {
				fputs(" resolved=\"", f);
				fputs(m->resolved, f);
				fputc('"', f);
			}
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
			fputs("\tenumerator ", f);
			fputs(t->enums[i].name, f);
			fputs(" value=", f);
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
