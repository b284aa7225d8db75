// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi's own decoding of .debug_info: units, abbreviations, DIEs and the
 * values of their attributes.
 *
 * libdw decodes every attribute through a generic path, finds each
 * abbreviation through a locked hash table, and keeps every unit's
 * tables until the end.  Reading a distro vmlinux is almost all
 * attribute reading (the fingerprints of each unit's copy of its
 * headers' types), so here an abbreviation knows, when its forms allow,
 * where each attribute starts and how long all of them are: finding an
 * attribute is a short scan of the abbreviation and an add, stepping
 * over a DIE one add.  A unit's table is freed once the unit is read.
 *
 * Every length and offset read from the input is checked before it is
 * followed: a failure is recorded once (dec_fail), the function returns
 * -1 (NULL, false), and the reader reports the record.
 *
 * This file finds the units and reads their headers; info-abbrev.c
 * parses the abbreviation tables, info-die.c walks the DIEs and
 * info-attr.c reads the values of their attributes.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "util.h"

void dec_fail(struct dec *d, const char *fmt, ...)
{
	va_list ap;

	if (d->failed)
		return;
	d->failed = true;
	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
}

/* ---- units ----------------------------------------------------------- */

struct unit *dec_unit_at(struct dec *d, uint64_t off)
{
	size_t lo = 0, hi = d->nunits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->units[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nunits && d->units[lo].off <= off ? &d->units[lo] : NULL;
}

/* The table and string offsets base of U, before its first DIE. */
int dec_unit_prepare(struct unit *u)
{
	struct oattr a;
	struct odie cu;
	uint64_t v;

	if (dec_unit_table(u->dec, u) != 0)
		return -1;
	if (u->str_base_read)
		return 0;
	u->str_base_read = true;
	if (dec_die(u, u->die0, &cu) != 1) {
		if (!u->dec->failed)
			dec_fail(u->dec,
				 "unit at offset 0x%" PRIx64 " has no unit DIE",
				 u->off);
		return -1;
	}
	if (dec_attr(&cu, DW_AT_str_offsets_base, &a)) {
		if (dec_udata(&a, &v) != 0)
			return -1;
		u->str_off_base = v;
	}
	return 0;
}

/* The longest unit header: 64-bit DWARF 5 type unit. */
#define UNIT_HEADER_MAX 40

/* N bytes of .debug_info at OFF into BUF through d->peek, when the
 * decoder has one (and S is .debug_info): not through its mapping.
 * 0, or -1 (failed). */
static int peek_info(struct dec *d, const struct dsec *s, bool types,
		     uint64_t off, unsigned char *buf, size_t n)
{
	if (!d->peek || types)
		return 0;
	if (d->peek(d->peek_ctx, off, buf, n) != 0) {
		dec_fail(
			d,
			"cannot read %zu bytes of .debug_info at offset 0x%" PRIx64,
			n, off);
		return -1;
	}
	(void)s;
	return 0;
}

/* Where the attribute specs of abbreviation CODE of U's table start, read
 * from .debug_abbrev without parsing the table: usually the first. */
static const unsigned char *abbrev_seek(const struct unit *u, uint64_t code)
{
	const struct dsec *ab = &u->dec->sec[DSEC_ABBREV];
	const unsigned char *q = ab->p + u->abbrev_off, *end = ab->p + ab->n;
	uint64_t c, tag, at, form;
	int64_t implicit;

	for (;;) {
		if (dec_uleb(&q, end, &c) != 0 || c == 0 ||
		    dec_uleb(&q, end, &tag) != 0 || q == end)
			return NULL;
		q++; /* children */
		if (c == code)
			return q;
		do {
			if (dec_uleb(&q, end, &at) != 0 ||
			    dec_uleb(&q, end, &form) != 0 ||
			    (form == DW_FORM_implicit_const &&
			     dec_sleb(&q, end, &implicit) != 0))
				return NULL;
		} while (at || form);
	}
}

/* dec_unit_string the long way, which says what is wrong, if anything. */
static int unit_string_parsed(struct unit *u, unsigned at, char **str)
{
	struct odie die;
	struct oattr a;
	const char *s;
	int rc = 0;

	if (dec_unit_die(u, &die) != 0)
		return -1;
	if (dec_attr(&die, at, &a)) {
		s = dec_string(&a);
		rc = s ? 1 : -1;
		if (s)
			*str = xstrdup(s);
	}
	dec_unit_done(u);
	return rc;
}

int dec_unit_string(struct unit *u, unsigned at, char **str)
{
	struct dec *d = u->dec;
	const struct dsec *ab = &d->sec[DSEC_ABBREV];
	unsigned char buf[4096];
	const unsigned char *p = dec_at_off(u, u->die0), *end = dec_unit_end(u),
			    *q;
	struct atable sizes = { .addr_size = u->addr_size,
				.offset_size = u->offset_size,
				.ref_addr_size = u->version == 2 ?
							 u->addr_size :
							 u->offset_size };
	struct oattr a = { .u = u, .die_off = u->die0 };
	uint64_t code, sat, form;
	int64_t implicit;
	bool found = false;

	if (d->peek && !u->types) {
		size_t n = u->end - u->die0 < sizeof(buf) ? u->end - u->die0 :
							    sizeof(buf);

		if (peek_info(d, NULL, false, u->die0 - u->sbase, buf, n) != 0)
			return -1;
		p = buf;
		end = buf + n;
	}
	a.e = end;
	if (dec_uleb(&p, end, &code) != 0 || code == 0 ||
	    !(q = abbrev_seek(u, code)))
		return unit_string_parsed(u, at, str);
	for (;;) {
		if (dec_uleb(&q, ab->p + ab->n, &sat) != 0 ||
		    dec_uleb(&q, ab->p + ab->n, &form) != 0 ||
		    (form == DW_FORM_implicit_const &&
		     dec_sleb(&q, ab->p + ab->n, &implicit) != 0) ||
		    form == DW_FORM_indirect || form > 0xffff)
			return unit_string_parsed(u, at, str);
		if (!sat && !form)
			break;
		if (sat == at) {
			a.at = (unsigned)sat;
			a.form = (unsigned)form;
			a.v = p;
			found = true;
		} else if (sat == DW_AT_str_offsets_base &&
			   form == DW_FORM_sec_offset &&
			   end - p >= u->offset_size) {
			u->str_off_base =
				dec_fixed(p, u->offset_size, d->big_endian);
		}
		p = dec_skip_form(u, &sizes, (unsigned)form, p, end);
		if (!p)
			return unit_string_parsed(u, at, str);
	}
	if (!found)
		return 0;
	{
		const char *s = dec_string(&a);

		if (!s)
			return -1;
		*str = xstrdup(s);
	}
	return 1;
}

int dec_unit_die(struct unit *u, struct odie *die)
{
	int rc;

	if (!u->tab && dec_unit_prepare(u) != 0)
		return -1;
	rc = dec_die(u, u->die0, die);
	if (rc == 0)
		dec_fail(u->dec, "unit at offset 0x%" PRIx64 " has no unit DIE",
			 u->off);
	return rc == 1 ? 0 : -1;
}

/* The fields of a unit header after its length and version at *P
 * (before END) into U; *P moves past them.  0, 1 for a corrupt header,
 * or -1 (failed). */
static int unit_fields(struct dec *d, struct unit *u, const unsigned char **pp,
		       const unsigned char *end, bool types, const char *name,
		       uint64_t off)
{
	const unsigned char *p = *pp;
	long osz = u->offset_size;

	if (u->version == 5) {
		if (end - p < 2 + osz)
			return 1;
		u->unit_type = p[0];
		u->addr_size = p[1];
		u->abbrev_off = dec_fixed(p + 2, (unsigned)osz, d->big_endian);
		p += 2 + osz;
		if (u->unit_type < DW_UT_compile ||
		    u->unit_type > DW_UT_split_type) {
			dec_fail(
				d,
				"unsupported DWARF 5 unit type 0x%x at %s offset 0x%" PRIx64,
				u->unit_type, name, off);
			return -1;
		}
	} else {
		if (end - p < 1 + osz)
			return 1;
		u->unit_type = types ? DW_UT_type : DW_UT_compile;
		u->abbrev_off = dec_fixed(p, (unsigned)osz, d->big_endian);
		u->addr_size = p[osz];
		p += 1 + osz;
	}
	if (u->addr_size != 2 && u->addr_size != 4 && u->addr_size != 8) {
		dec_fail(d,
			 "unsupported address size %u at %s offset 0x%" PRIx64,
			 u->addr_size, name, off);
		return -1;
	}
	if (u->unit_type == DW_UT_skeleton ||
	    u->unit_type == DW_UT_split_compile ||
	    u->unit_type == DW_UT_split_type) {
		dec_fail(
			d,
			"split DWARF (skeleton unit, types in a .dwo file) is not supported");
		return -1;
	}
	if (u->unit_type == DW_UT_type) {
		if (end - p < 8 + osz)
			return 1;
		u->sig = dec_fixed(p, 8, d->big_endian);
		u->type_off = dec_fixed(p + 8, (unsigned)osz, d->big_endian);
		p += 8 + osz;
	}
	*pp = p;
	return 0;
}

/* The header of the unit at OFF of section S, which starts at SBASE, into
 * U, from H, its first HN bytes (the section's, or a copy); 0, or -1
 * (failed). */
static int unit_header(struct dec *d, const struct dsec *s,
		       const unsigned char *h, size_t hn, uint64_t sbase,
		       uint64_t off, bool types, struct unit *u)
{
	const unsigned char *p = h, *end = h + hn;
	const char *name = types ? ".debug_types" : ".debug_info";
	uint64_t len, version, rest = s->n - off; /* from the unit on */
	int rc;

	memset(u, 0, sizeof(*u));
	u->dec = d;
	u->mapped = u->data = s->p + off;
	u->sbase = sbase;
	u->off = sbase + off;
	u->types = types;
	u->offset_size = 4;
	if (end - p < 4)
		goto corrupt;
	len = dec_fixed(p, 4, d->big_endian);
	p += 4;
	if (len == 0xffffffff) {
		u->offset_size = 8;
		if (end - p < 8)
			goto corrupt;
		len = dec_fixed(p, 8, d->big_endian);
		p += 8;
	} else if (len >= 0xfffffff0) {
		goto corrupt;
	}
	if (len > rest - (uint64_t)(p - h) || len < 2)
		goto corrupt;
	u->end = u->off + (uint64_t)(p - h) + len;
	if ((uint64_t)(end - p) > len)
		end = p + len;
	version = dec_fixed(p, 2, d->big_endian);
	p += 2;
	if (version < 2 || version > 5) {
		dec_fail(d,
			 "unsupported DWARF version %u at %s offset 0x%" PRIx64
			 " (kabi reads 2 to 5)",
			 (unsigned)version, name, off);
		return -1;
	}
	u->version = (uint8_t)version;
	rc = unit_fields(d, u, &p, end, types, name, off);
	if (rc < 0)
		return -1;
	u->die0 = u->off + (uint64_t)(p - h);
	if (rc > 0 || u->die0 >= u->end ||
	    (u->unit_type == DW_UT_type && (u->type_off >= u->end - u->off ||
					    u->off + u->type_off < u->die0)))
		goto corrupt;
	if (!d->sec[DSEC_ABBREV].p || u->abbrev_off >= d->sec[DSEC_ABBREV].n) {
		dec_fail(d,
			 "abbreviation offset 0x%" PRIx64
			 " of the unit at %s offset 0x%" PRIx64
			 " is past the end of .debug_abbrev",
			 u->abbrev_off, name, off);
		return -1;
	}
	u->str_off_base = u->offset_size == 8 ? 16 : 8;
	return 0;
corrupt:
	dec_fail(d, "corrupt unit header at %s offset 0x%" PRIx64, name, off);
	return -1;
}

/* The units of the N sections S, which start at *BASE (moved past them). */
static int scan_units(struct dec *d, const struct dsec *s, size_t n, bool types,
		      uint64_t *base, size_t *cap)
{
	size_t k;

	for (k = 0; k < n; k++) {
		uint64_t off = 0;

		while (off < s[k].n) {
			unsigned char h[UNIT_HEADER_MAX];
			size_t hn = s[k].n - off < sizeof(h) ? s[k].n - off :
							       sizeof(h);
			struct unit *u;

			if (d->nunits == *cap) {
				*cap = *cap ? 2 * *cap : 256;
				d->units = xrealloc(d->units,
						    *cap * sizeof(*d->units));
			}
			u = &d->units[d->nunits];
			if (peek_info(d, s, types, off, h, hn) != 0)
				return -1;
			if (unit_header(d, &s[k],
					d->peek && !types ? h : s[k].p + off,
					hn, *base, off, types, u) != 0)
				return -1;
			d->nunits++;
			off = u->end - *base;
		}
		*base += s[k].n;
	}
	return 0;
}

/* String sections must end in a NUL: a string is then always ended. */
static int check_strings(struct dec *d, unsigned i, const char *name)
{
	const struct dsec *s = &d->sec[i];

	if (s->p && s->n && s->p[s->n - 1] != '\0') {
		dec_fail(d, "section '%s' does not end in a NUL byte (corrupt)",
			 name);
		return -1;
	}
	return 0;
}

int dec_sig_cmp(const void *a, const void *b)
{
	const struct sig_ent *x = a, *y = b;

	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

int dec_units(struct dec *d)
{
	uint64_t base = 0;
	size_t cap = 0, i, nsig = 0;

	if (check_strings(d, DSEC_STR, ".debug_str") != 0 ||
	    check_strings(d, DSEC_LINE_STR, ".debug_line_str") != 0)
		return -1;
	if (scan_units(d, d->info, d->ninfo, false, &base, &cap) != 0 ||
	    scan_units(d, d->types, d->ntypes, true, &base, &cap) != 0)
		return -1;
	for (i = 0; i < d->nunits; i++)
		nsig += d->units[i].unit_type == DW_UT_type;
	if (nsig) {
		d->sigs = xcalloc(nsig, sizeof(*d->sigs));
		for (i = 0; i < d->nunits; i++)
			if (d->units[i].unit_type == DW_UT_type)
				d->sigs[d->nsigs++] =
					(struct sig_ent){ d->units[i].sig,
							  &d->units[i] };
		qsort(d->sigs, d->nsigs, sizeof(*d->sigs), dec_sig_cmp);
	}
	return 0;
}

struct dec *dec_snapshot(const struct dec *d)
{
	struct dec *s = xcalloc(1, sizeof(*s));
	size_t i;

	s->ninfo = d->ninfo;
	s->info = xcalloc(d->ninfo + 1, sizeof(*s->info));
	for (i = 0; i < d->ninfo; i++)
		s->info[i] = d->info[i];
	s->ntypes = d->ntypes;
	s->types = xcalloc(d->ntypes + 1, sizeof(*s->types));
	for (i = 0; i < d->ntypes; i++)
		s->types[i] = d->types[i];
	s->nunits = d->nunits;
	s->units = xcalloc(d->nunits + 1, sizeof(*s->units));
	for (i = 0; i < d->nunits; i++) {
		s->units[i] = d->units[i];
		s->units[i].tab = NULL;
	}
	s->nsigs = d->nsigs;
	s->sigs = xcalloc(d->nsigs + 1, sizeof(*s->sigs));
	for (i = 0; i < d->nsigs; i++)
		s->sigs[i] =
			(struct sig_ent){ d->sigs[i].sig,
					  &s->units[d->sigs[i].u - d->units] };
	return s;
}

int dec_units_share(struct dec *d, const struct dec *from)
{
	uint64_t info_total = 0, base;
	size_t i, k, n;

	if (d->ninfo != from->ninfo || d->ntypes != from->ntypes)
		goto changed;
	for (k = 0; k < d->ninfo; k++) {
		if (d->info[k].n != from->info[k].n)
			goto changed;
		info_total += d->info[k].n;
	}
	for (k = 0; k < d->ntypes; k++)
		if (d->types[k].n != from->types[k].n)
			goto changed;
	d->units = xcalloc(from->nunits + 1, sizeof(*d->units));
	for (i = 0; i < from->nunits; i++) {
		struct unit *u = &d->units[i];
		const struct dsec *s;

		*u = from->units[i];
		u->dec = d;
		u->tab = NULL;
		/* the unit's section: the one whose offsets hold it */
		s = u->types ? d->types : d->info;
		n = u->types ? d->ntypes : d->ninfo;
		base = u->types ? info_total : 0;
		for (k = 0; k < n && base != u->sbase; k++)
			base += s[k].n;
		if (k == n)
			goto changed;
		u->mapped = u->data = s[k].p + (u->off - u->sbase);
		d->nunits++;
	}
	if (from->nsigs) {
		d->sigs = xcalloc(from->nsigs, sizeof(*d->sigs));
		d->nsigs = from->nsigs;
		for (i = 0; i < d->nsigs; i++)
			d->sigs[i] = (struct sig_ent){
				from->sigs[i].sig,
				&d->units[from->sigs[i].u - from->units]
			};
	}
	return 0;
changed:
	dec_fail(d, "the sections of the input changed while it was read");
	return -1;
}

void dec_release(struct dec *d)
{
	size_t i;

	for (i = 0; i < d->ntabs; i++)
		atable_free(d->tabs[i]);
	free(d->tabs);
	free(d->units);
	free(d->sigs);
	free(d->info);
	free(d->types);
	dec_tally_free(d->tally);
	memset(d, 0, sizeof(*d));
}
