/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Type fingerprints (fingerprint.c): a named file-scope type reduced to
 * 128 bits before it is spelled, and the set of those already emitted,
 * so that a unit's copy of a type seen before is skipped.
 */
#ifndef KABI_FINGERPRINT_H
#define KABI_FINGERPRINT_H

#include "reader.h"

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
/* Whether a type of fingerprint K was emitted; K is never (0, 0). */
bool seen_has(struct reader *r, const uint64_t k[2]);
/* Record that a type of fingerprint K was emitted. */
void seen_add(struct reader *r, const uint64_t k[2]);

#endif
