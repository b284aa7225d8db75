/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Spelling BTF types (btf-spell.c), with the rules of spell.c.
 */
#ifndef KABI_BTF_SPELL_H
#define KABI_BTF_SPELL_H

#include "btf-reader.h"

/* Interned name of type ID, as written or B_RESOLVED; CTX names the
 * anonymous aggregates met.  Memoised when its context does not show. */
const char *btf_type_name(struct breader *r, uint32_t id, enum bname_mode mode,
			  const struct bctx *ctx);

#endif
