/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Type fingerprints (fingerprint.c; fingerprint-own.c for DIEs of kabi's
 * decoder): a named file-scope type reduced to 128 bits before it is
 * spelled, and the set of those already emitted, so that a unit's copy
 * of a type seen before is skipped.
 */
#ifndef KABI_FINGERPRINT_H
#define KABI_FINGERPRINT_H

#include <dwarf.h>
#include <string.h>

#include "reader.h"

struct odie;

/* A fingerprint being made (fingerprint.c). */
struct fp {
	uint64_t h[2];
	bool never; /* cannot be fingerprinted: read in full */
};

/* Fingerprint of DIE into F: its children too, unless it is a named
 * aggregate below the top (DEPTH 0) of the walk.  CHILD: DIE is a
 * member, enumerator, parameter or subrange, reached only through its
 * parent, so not memoised. */
void fp_die(struct reader *r, struct die *die, struct fp *f, unsigned depth,
	    bool child);
/* A new unit: the fingerprints of its DIEs are its own. */
void fp_clear(struct reader *r);
void fp_release(struct reader *r);
/* Whether a type of fingerprint F was emitted in a unit before; with
 * read_opts.sights, the unit being read is counted as holding what
 * emitting it made (sight_note). */
bool seen_note(struct reader *r, const struct fp *f);
/* Around emitting the type of fingerprint F: seen_open before, which
 * returns where the types it makes start in r->grp, and seen_close
 * after, which counts the unit as holding them and records F. */
uint32_t seen_open(struct reader *r);
void seen_close(struct reader *r, const struct fp *f, uint32_t start);

/* ---- between fingerprint.c and fingerprint-own.c ---- */

/* The hash of offset OFF in the memo of fingerprints (struct fpmemo). */
static inline uint64_t fpm_hash(uint64_t off)
{
	return (off * UINT64_C(0x9e3779b97f4a7c15)) >> 24;
}

/* Mixing into a fingerprint: fp_mix a number, fp_mix2 two, fp_bytes N
 * bytes, fp_end when a DIE is done. */
static inline uint64_t fp_fmix(uint64_t v)
{
	v ^= v >> 33;
	v *= UINT64_C(0xff51afd7ed558ccd);
	v ^= v >> 33;
	v *= UINT64_C(0xc4ceb9fe1a85ec53);
	return v ^ (v >> 33);
}

/* One 64x64->128 multiply per lane, folded; fp_end finishes a DIE. */
static inline uint64_t fp_mum(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static inline void fp_mix(struct fp *f, uint64_t v)
{
	/* the constants added keep a lane from sticking at zero */
	f->h[0] = fp_mum(f->h[0] ^ v, UINT64_C(0x9e3779b97f4a7c15)) +
		  UINT64_C(0x2545f4914f6cdd1d);
	f->h[1] = fp_mum(f->h[1] + v, UINT64_C(0xc2b2ae3d27d4eb4f)) ^
		  UINT64_C(0x632be59bd9b4e019);
}

/* Two numbers at once, one multiply per lane: each lane takes both
 * numbers and both lanes, so neither is lost but by chance. */
static inline void fp_mix2(struct fp *f, uint64_t a, uint64_t b)
{
	uint64_t x = f->h[0] ^ a, y = f->h[1] ^ b;

	f->h[0] = fp_mum(x, y ^ UINT64_C(0x9e3779b97f4a7c15)) +
		  UINT64_C(0x2545f4914f6cdd1d);
	f->h[1] = fp_mum(y, x ^ UINT64_C(0xc2b2ae3d27d4eb4f)) ^
		  UINT64_C(0x632be59bd9b4e019);
}

static inline void fp_end(struct fp *f)
{
	f->h[0] = fp_fmix(f->h[0]);
	f->h[1] = fp_fmix(f->h[1] ^ UINT64_C(0x632be59bd9b4e019));
}

static inline void fp_bytes(struct fp *f, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t w;

	fp_mix(f, n);
	for (; n >= 8; n -= 8, c += 8) {
		memcpy(&w, c, 8);
		fp_mix(f, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, c, n);
		fp_mix(f, w);
	}
}

/* Attributes that reading takes with dattr_udata whatever the form. */
static inline bool fp_udata_attr(unsigned at)
{
	switch (at) {
	case DW_AT_decl_file:
	case DW_AT_decl_line:
	case DW_AT_decl_column:
	case DW_AT_byte_size:
	case DW_AT_bit_size:
	case DW_AT_bit_offset:
	case DW_AT_data_bit_offset:
	case DW_AT_data_member_location:
	case DW_AT_encoding:
	case DW_AT_alignment:
		return true;
	default:
		return false;
	}
}

static inline bool fp_const_form(unsigned form)
{
	switch (form) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		return true;
	default:
		return false;
	}
}

/* The entry of the DIE at OFF, made (FP_NONE) when new.  The table may
 * move when a later call makes an entry. */
struct fpm_ent *fpm_slot(struct reader *r, uint64_t off);
/* fp_die for a DIE of kabi's decoder (fingerprint-own.c). */
void fpo_die(struct reader *r, const struct odie *d, struct fp *f,
	     unsigned depth, bool child);

#endif
