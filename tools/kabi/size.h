/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Type sizes, and array bounds as numbers and as text (size.c).
 */
#ifndef KABI_SIZE_H
#define KABI_SIZE_H

#include "reader.h"

/* The size of the type DIE in bytes, through typedefs, qualifiers and
 * arrays; SIZE_UNKNOWN when it has none (or after rd_fail). */
int64_t type_size(struct reader *r, struct die *die);
/* Append the bound of subrange SUB ("[4]", "[]", "[*]") to B; 0, or -1
 * on failure. */
int array_bound(struct reader *r, struct die *sub, struct sb *b);
/* Append the bound of array DIE T as one dimension, the product of all
 * of its subranges; 0, or -1 on failure. */
int flat_bound(struct reader *r, struct die *t, struct sb *b);

#endif
