// SPDX-License-Identifier: GPL-2.0-only
/*
 * The canonical dump: text for people and diff(1), JSON for programs.
 */
#include <inttypes.h>
#include <string.h>

#include "kabi.h"

/* The text dump goes through a buffer of this size, flushed with one
 * fwrite: a dump is hundreds of thousands of short pieces, and stdio's
 * per-call locking and printf's format parsing were most of its time. */
#define TEXT_CHUNK (256 * 1024)

/* N bytes of S after what B holds; B is not kept NUL-terminated. */
static inline void put(struct sb *b, const char *s, size_t n)
{
	if (b->len + n >= b->cap) {
		sb_addn(b, s, n);
		return;
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

#define PUT(b, lit) put((b), (lit), sizeof(lit) - 1)

static void puts_(struct sb *b, const char *s)
{
	put(b, s, strlen(s));
}

static void put_u64(struct sb *b, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	put(b, p, (size_t)(buf + sizeof(buf) - p));
}

static void put_size(struct sb *b, int64_t v)
{
	if (v == SIZE_UNKNOWN) {
		PUT(b, " size=?");
	} else if (v < 0) {
		sb_addf(b, " size=%" PRId64, v);
	} else {
		PUT(b, " size=");
		put_u64(b, (uint64_t)v);
	}
}

static void put_value(FILE *f, const struct ktype *t,
		      const struct enumerator *e)
{
	char buf[41];

	fputs(enum_value_str(buf, t, e), f);
}

static void put_decl(struct sb *b, const struct ktype *t)
{
	if (t->decl_file) {
		PUT(b, " decl=");
		puts_(b, t->decl_file);
		PUT(b, ":");
		put_u64(b, t->decl_line);
	}
}

static void text_member(struct sb *b, const struct member *m)
{
	PUT(b, "\tmember ");
	puts_(b, m->name ? m->name : "<anon>");
	PUT(b, " offset=");
	put_u64(b, m->bitpos / 8);
	if (m->bitsize) {
		PUT(b, " bit_offset=");
		put_u64(b, m->bitpos % 8);
		PUT(b, " bit_size=");
		put_u64(b, m->bitsize);
	}
	put_size(b, m->size);
	PUT(b, " type=\"");
	puts_(b, m->type);
	if (m->type != m->resolved && strcmp(m->type, m->resolved) != 0) {
		PUT(b, "\" resolved=\"");
		puts_(b, m->resolved);
	}
	PUT(b, "\"\n");
}

static void text_enum(struct sb *b, const struct ktype *t)
{
	char buf[41];
	uint32_t i;

	put_size(b, t->size);
	if (t->underlying) {
		PUT(b, " underlying=\"");
		puts_(b, t->underlying);
		PUT(b, "\"");
	}
	put_decl(b, t);
	PUT(b, "\n");
	for (i = 0; i < t->n; i++) {
		PUT(b, "\tenumerator ");
		puts_(b, t->enums[i].name);
		PUT(b, " value=");
		puts_(b, enum_value_str(buf, t, &t->enums[i]));
		PUT(b, "\n");
	}
}

static void text_type(struct sb *b, const struct ktype *t)
{
	uint32_t i;

	puts_(b, kind_name(t->kind));
	PUT(b, " ");
	puts_(b, t->name);
	switch (t->kind) {
	case KIND_STRUCT:
	case KIND_UNION:
		put_size(b, t->size);
		if (t->align)
			sb_addf(b, " align=%" PRId64, t->align);
		put_decl(b, t);
		PUT(b, "\n");
		for (i = 0; i < t->n; i++)
			text_member(b, &t->members[i]);
		break;
	case KIND_ENUM:
		text_enum(b, t);
		break;
	case KIND_TYPEDEF:
		PUT(b, " chain=\"");
		for (i = 0; i < t->n; i++) {
			if (i)
				PUT(b, " -> ");
			puts_(b, t->chain[i]);
		}
		PUT(b, "\" resolved=\"");
		puts_(b, t->resolved);
		PUT(b, "\"");
		put_decl(b, t);
		PUT(b, "\n");
		break;
	default:
		break;
	}
}

void dump_text(FILE *f, const struct model *m, const struct filter *flt)
{
	struct sb b;
	size_t i;

	sb_init(&b);
	for (i = 0; i < m->ntypes; i++) {
		if (!filter_match(flt, m->types[i]))
			continue;
		text_type(&b, m->types[i]);
		if (b.len >= TEXT_CHUNK) {
			fwrite(b.buf, 1, b.len, f);
			sb_reset(&b);
		}
	}
	if (b.len)
		fwrite(b.buf, 1, b.len, f);
	sb_release(&b);
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
