/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabi's own reading of .debug_info: unit headers (info.c), abbreviation
 * tables (info-abbrev.c), DIEs (info-die.c) and attribute values
 * (info-attr.c), DWARF 2 to 5 as GCC and Clang write them, 32- and
 * 64-bit DWARF, type units.  Sections come from libelf (through libdw
 * or libdwfl, which relocate and decompress them); what is decoded is
 * checked against the bounds of its section, and the first failure is
 * kept, with the DIE and form it concerns, for the reader to report
 * (dec->failed, dec->err).
 *
 * A DIE is decoded as far as its abbreviation: its attributes are found
 * by their forms' sizes and only those asked for are read.  Subtrees a
 * caller does not walk are passed over by DW_AT_sibling where the
 * producer wrote one, else by the sizes of their forms.
 */
#ifndef KABI_INFO_H
#define KABI_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The sections the decoder reads. */
enum {
	DSEC_ABBREV,
	DSEC_STR,
	DSEC_LINE_STR,
	DSEC_STR_OFFSETS,
	DSEC_NR,
};

/* A section's bytes. */
struct dsec {
	const unsigned char *p;
	size_t n;
};

/* One attribute of an abbreviation. */
struct aspec {
	uint32_t at;
	uint32_t form;
	int32_t off;	  /* from the first attribute when every form before
			   * it has a fixed size, else -1 */
	int16_t size;	  /* its size when fixed, else -1 */
	uint8_t user;	  /* a byte its reader keeps for it, 0 until then
			   * (fingerprint-own.c: what to do with the value) */
	int64_t implicit; /* DW_FORM_implicit_const's value */
};

struct abbrev {
	uint64_t code;
	uint32_t tag;
	bool children;
	uint16_t n;	   /* attributes */
	uint16_t bad;	   /* 1 + the attribute of a form the decoder does
			   * not know, or 0 */
	int32_t fixed;	   /* bytes of all attributes when every form has a
			   * fixed size, else -1 */
	int32_t sibling;   /* index of DW_AT_sibling, -1 none */
	int32_t name;	   /* index of DW_AT_name, -1 none */
	int32_t signature; /* index of DW_AT_signature, -1 none */
	uint64_t has[2];   /* bit AT set for each attribute AT below 128 */
	uint64_t user;	   /* a word its reader keeps for it, 0 until then
			   * (fingerprint-own.c: the hash of its tag and
			   * attributes) */
	void *plan;	   /* what its reader planned for its DIEs, freed
			   * with the table (fingerprint-own.c: how to
			   * fingerprint them from their bytes) */
	struct aspec *spec;
};

/* A parsed abbreviation table, for units of one set of sizes. */
struct atable {
	uint64_t off;
	uint8_t addr_size, offset_size, ref_addr_size;
	unsigned users;	  /* units pointing at it */
	struct abbrev *v; /* sorted by code */
	size_t n;
	struct abbrev **dense; /* by code, codes below ndense */
	size_t ndense;
	struct aspec *specs;
};

/* What a decoder read, kept when a caller asks (kabi dump --stats): one
 * bit per byte of the units' offsets, set where a DIE was decoded and
 * where one was only stepped over by the sizes of its forms. */
struct dec_tally {
	uint64_t *decoded, *stepped;
	size_t nwords;
};

/* What a tally says: units, DIEs in them, DIEs decoded, and DIEs only
 * stepped over. */
struct dec_count {
	uint64_t units, dies, decoded, stepped;
};

/* One unit; DIE offsets are offsets into the one address space the
 * decoder gives all .debug_info sections, then all .debug_types ones,
 * laid end to end (a linked file has one of each: section offsets). */
struct unit {
	struct dec *dec;
	const unsigned char *data;   /* its bytes, from off */
	const unsigned char *mapped; /* the same in its section */
	uint64_t sbase;		     /* its section's first offset */
	uint64_t off, end;	     /* the unit header, and past the unit */
	uint64_t die0;		     /* the unit DIE */
	uint64_t abbrev_off;
	uint64_t str_off_base;	/* DW_AT_str_offsets_base, or the default */
	uint64_t sig, type_off; /* type units: signature, type DIE */
	uint8_t version, unit_type, addr_size, offset_size;
	bool types;	    /* in .debug_types */
	bool str_base_read; /* str_off_base is from the unit DIE */
	struct atable *tab; /* parsed when first needed */
};

/* A type unit by its signature. */
struct sig_ent {
	uint64_t sig;
	struct unit *u;
};

/* The decoder of one input, one per reader (not shared by threads). */
struct dec {
	struct dsec sec[DSEC_NR];
	struct dsec *info; /* .debug_info sections, ninfo of them */
	size_t ninfo;
	struct dsec *types; /* .debug_types sections */
	size_t ntypes;
	bool big_endian;
	struct unit *units; /* every unit, in order of offset */
	size_t nunits;
	struct atable **tabs; /* the abbreviation tables units hold */
	size_t ntabs, tabs_cap;
	struct sig_ent *sigs; /* type units by signature, sorted */
	size_t nsigs;
	/* N bytes of .debug_info at OFF into BUF, or -1: how unit headers
	 * are read when set, so that they are not mapped in */
	int (*peek)(void *ctx, uint64_t off, void *buf, size_t n);
	void *peek_ctx;
	struct dec_tally *tally; /* NULL unless counting */
	bool failed;
	char err[384];
};

/* A DIE: its abbreviation, where its attributes are, its unit. */
struct odie {
	const unsigned char *a; /* the first attribute */
	const unsigned char *e; /* past the last */
	const struct abbrev *ab;
	struct unit *u;
	uint64_t off;
};

/* An attribute of a DIE: its name, form and value. */
struct oattr {
	unsigned at, form;
	const unsigned char *v; /* the value */
	const unsigned char *e; /* past the DIE's attributes */
	struct unit *u;		/* the DIE's unit and offset */
	uint64_t die_off;
	int64_t implicit; /* DW_FORM_implicit_const's value */
};

/* ---- numbers, for the readers of values ---- */

/* The N-byte number at P in the byte order BE says. */
static inline uint64_t dec_fixed(const unsigned char *p, unsigned n, bool be)
{
	uint64_t v = 0;
	unsigned i;

	if (!be) {
		switch (n) {
		case 1:
			return p[0];
		case 2:
			return (uint64_t)p[0] | (uint64_t)p[1] << 8;
		case 4:
			return (uint64_t)p[0] | (uint64_t)p[1] << 8 |
			       (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
		}
		for (i = 0; i < n; i++)
			v |= (uint64_t)p[i] << (8 * i);
		return v;
	}
	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* An unsigned LEB128 number at *P before END; *P moves past it.  0, or
 * -1 when it runs past END or past 64 bits. */
static inline int dec_uleb(const unsigned char **p, const unsigned char *end,
			   uint64_t *v)
{
	const unsigned char *q = *p;
	uint64_t r = 0;
	unsigned shift = 0;

	if (q < end && !(*q & 0x80)) {
		*v = *q;
		*p = q + 1;
		return 0;
	}
	for (;;) {
		if (q >= end || shift > 63)
			return -1;
		r |= (uint64_t)(*q & 0x7f) << shift;
		shift += 7;
		if (!(*q++ & 0x80))
			break;
	}
	*v = r;
	*p = q;
	return 0;
}

/* A signed LEB128 number at *P before END; *P moves past it.  0, or -1
 * when it runs past END or past 64 bits. */
static inline int dec_sleb(const unsigned char **p, const unsigned char *end,
			   int64_t *v)
{
	const unsigned char *q = *p;
	uint64_t r = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (q >= end || shift > 63)
			return -1;
		b = *q++;
		r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		r |= ~UINT64_C(0) << shift;
	*v = (int64_t)r;
	*p = q;
	return 0;
}

/* Note that the DIE at OFF of D's units was decoded, or (STEPPED) only
 * stepped over, when D counts. */
static inline void dec_note(const struct dec *d, uint64_t off, bool stepped)
{
	struct dec_tally *t = d->tally;

	if (t && off / 64 < t->nwords)
		(stepped ? t->stepped : t->decoded)[off / 64] |= UINT64_C(1)
								 << (off % 64);
}

/* Count from now on what D reads: a tally of D's units, which are found. */
void dec_tally_start(struct dec *d);
/* Add what SRC saw (another decoder's of the same input) to DST. */
void dec_tally_merge(struct dec_tally *dst, const struct dec_tally *src);
/* Count every DIE of D's units into C, by what D's tally saw of it: each
 * DIE is stepped over once more, not noted.  0, or -1 (failed). */
int dec_tally_count(struct dec *d, struct dec_count *c);
void dec_tally_free(struct dec_tally *t);

/* Record the first failure of D (later ones are dropped). */
void dec_fail(struct dec *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A copy of D's units (and section sizes), for other threads' decoders
 * of the input: free it with dec_release and free. */
struct dec *dec_snapshot(const struct dec *d);
/* The units FROM (a snapshot of another decoder of the same input)
 * found, for D: its sections are not read again.  0, or -1 (failed). */
int dec_units_share(struct dec *d, const struct dec *from);
/* Free what D holds (not D). */
void dec_release(struct dec *d);
/* Find the units of D's sections and check their headers; 0, or -1
 * (failed). */
int dec_units(struct dec *d);
/* String attribute AT of unit U's unit DIE, read without parsing U's
 * abbreviation table: 1 with *S (a copy, for the caller to free), 0
 * when the DIE has none, -1 failed. */
int dec_unit_string(struct unit *u, unsigned at, char **s);
/* The unit DIE of unit U into DIE; 0, or -1 (failed). */
int dec_unit_die(struct unit *u, struct odie *die);
/* Read U from DATA, a copy of its bytes, from now on; NULL: from its
 * section again.  DIEs and strings read so far stay where they were. */
void dec_unit_data(struct unit *u, const unsigned char *data);
/* Done with U for now: its table is freed unless another unit uses it
 * (it is parsed again if needed). */
void dec_unit_done(struct unit *u);
/* The unit holding offset OFF, or NULL. */
struct unit *dec_unit_at(struct dec *d, uint64_t off);

/* Abbreviation CODE of U's table (which is parsed), or NULL. */
const struct abbrev *dec_abbrev(const struct unit *u, uint64_t code);
/* The entry at OFF of unit U: 1 a DIE into D, 0 a null entry, -1
 * failed. */
int dec_die(struct unit *u, uint64_t off, struct odie *d);
/* Past the value of FORM at P, before END, in unit U; NULL when it runs
 * past END or the form is unknown (not recorded). */
const unsigned char *dec_skip_form(const struct unit *u, const struct atable *t,
				   unsigned form, const unsigned char *p,
				   const unsigned char *end);
/* When DIE T stands for a type of a type unit (DW_AT_signature), that
 * type instead: producers write such a stub where a unit uses the type.
 * 0, or -1 (failed). */
int dec_signed(struct odie *t);
/* Where reference A leads, without decoding the DIE there: its unit and
 * offset; 0, or -1 (failed).  The DIE there may be a stub (dec_signed). */
int dec_ref_off(const struct oattr *a, struct unit **tu, uint64_t *off);

/* The common case of dec_ref_off in line: a reference of a fixed-size
 * form into A's unit; 1 with *OFF, 0 for every other (then call
 * dec_ref_off). */
static inline int dec_ref_near(const struct oattr *a, uint64_t *off)
{
	const struct unit *u = a->u;
	uint64_t rel;

	switch (a->form) {
	case DW_FORM_ref4:
		rel = dec_fixed(a->v, 4, u->dec->big_endian);
		break;
	case DW_FORM_ref1:
		rel = a->v[0];
		break;
	case DW_FORM_ref2:
		rel = dec_fixed(a->v, 2, u->dec->big_endian);
		break;
	default:
		return 0;
	}
	if (rel >= u->end - u->off || u->off + rel < u->die0)
		return 0; /* dec_ref_off says what is wrong */
	*off = u->off + rel;
	return 1;
}

/* The common case of dec_string in line: DW_FORM_strp inside .debug_str;
 * NULL for every other (then call dec_string). */
static inline const char *dec_strp_near(const struct oattr *a)
{
	const struct dec *d = a->u->dec;
	uint64_t off;

	if (a->form != DW_FORM_strp)
		return NULL;
	off = dec_fixed(a->v, a->u->offset_size, d->big_endian);
	return off < d->sec[DSEC_STR].n ?
		       (const char *)d->sec[DSEC_STR].p + off :
		       NULL;
}

/* The DIE accessors of die.h, for DIEs of the decoder: the same
 * meanings and return values. */
int dec_child(const struct odie *d, struct odie *c);
int dec_sibling(const struct odie *d, struct odie *s);
bool dec_attr(const struct odie *d, unsigned at, struct oattr *a);
/* Attribute I of D's abbreviation into A. */
bool dec_attr_at(const struct odie *d, uint16_t i, struct oattr *a);
int dec_udata(const struct oattr *a, uint64_t *v);
int dec_sdata(const struct oattr *a, int64_t *v);
int dec_flag(const struct oattr *a, bool *v);
const char *dec_string(const struct oattr *a);
int dec_block(const struct oattr *a, const unsigned char **p, size_t *n);
int dec_ref(const struct oattr *a, struct odie *t);
/* A DW_AT_data_member_location expression of one DW_OP_plus_uconst or
 * DW_OP_constu: its number; 1, 0 for another expression, -1 (failed). */
int dec_member_offset(const struct oattr *a, uint64_t *v);

/* ---- between the decoder's files (info*.c) ---- */

/* Abbreviation CODE of table T, or NULL. */
static inline const struct abbrev *dec_abbrev_find(const struct atable *t,
						   uint64_t code)
{
	size_t lo = 0, hi = t->n;

	if (code < t->ndense)
		return t->dense[code];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->v[lo].code == code ? &t->v[lo] : NULL;
}

/* Unit U's data at OFF (which is inside it), and where it ends. */
static inline const unsigned char *dec_at_off(const struct unit *u,
					      uint64_t off)
{
	return u->data + (off - u->off);
}

static inline const unsigned char *dec_unit_end(const struct unit *u)
{
	return dec_at_off(u, u->end);
}

/* The size of a value of FORM in a unit of these sizes; negative when
 * the size is in the value, or kabi does not know the form. */
int dec_form_size(unsigned form, unsigned addr_size, unsigned offset_size,
		  unsigned ref_addr_size);
void atable_free(struct atable *t);
/* U's abbreviation table, parsed or shared with a unit of the same
 * sizes (info-abbrev.c); 0, or -1 (failed). */
int dec_unit_table(struct dec *d, struct unit *u);
/* U's table and string offsets base, before its first DIE is read
 * (info.c); 0, or -1 (failed). */
int dec_unit_prepare(struct unit *u);
/* The order of type units by signature (struct sig_ent). */
int dec_sig_cmp(const void *a, const void *b);

#endif
