/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Making model types (emit.c): structs, unions, enums and typedefs of
 * the DWARF turned into struct ktype and added to the model, with their
 * alignment.  Called from the walk over a unit (read.c) and, for an
 * anonymous aggregate, from its spelling (spell.h).
 */
#ifndef KABI_EMIT_H
#define KABI_EMIT_H

#include "reader.h"

/* The struct or union DIE as NAME, named by its path under PARENT (the
 * user's full name) when anonymous, NULL at file scope. */
void emit_aggregate(struct reader *r, struct die *die, const char *name,
		    const char *parent);
/* The same for an enum. */
void emit_enum(struct reader *r, struct die *die, const char *name,
	       const char *parent);
/* The typedef DIE named NAME, and the anonymous type it names. */
void emit_typedef(struct reader *r, struct die *die, const char *name);
/* A file-scope anonymous enum no use named, by its first enumerator. */
void anon_enum_top(struct reader *r, struct die *die);

#endif
