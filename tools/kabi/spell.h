/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Spelling types (spell.c): the canonical C name of a type DIE, one
 * function per kind of type, memoised per unit.  Spelling an anonymous
 * aggregate emits it (emit.h), and emitting spells its members' types:
 * the one recursion between the reader's parts.
 */
#ifndef KABI_SPELL_H
#define KABI_SPELL_H

#include "reader.h"

/* The memo entry of the DIE at OFF in this unit, made empty when new. */
struct memo_ent *memo_slot(struct reader *r, Dwarf_Off off);
/* Empty the memo, for a new unit. */
void memo_clear(struct reader *r);
/* Whether TAG is a struct, union, class or enum. */
bool is_aggregate(int tag);
/* The model's kind of an aggregate or typedef TAG. */
enum kind tag_kind(int tag);
/* Interned name of the type DIE, as written or RESOLVED; CTX names the
 * anonymous aggregates met (NULL: none expected).  Memoised when the
 * name does not depend on CTX. */
const char *type_name(struct reader *r, struct die *die, enum name_mode mode,
		      const struct actx *ctx);

#endif
