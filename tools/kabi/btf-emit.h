/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Making model types from BTF (btf-emit.c), with the rules of emit.c.
 * Spelling an anonymous aggregate emits it (btf-spell.h), and emitting
 * spells its members' types: the BTF reader's one recursion.
 */
#ifndef KABI_BTF_EMIT_H
#define KABI_BTF_EMIT_H

#include "btf-reader.h"

/* Every type of BTF (only its own, for split BTF) into M; 0, or -1 with
 * *ERR set to the one line to print.  BTF's references are checked. */
int btf_read_types(struct model *m, const char *path, const struct btf *btf,
		   const struct read_opts *o, char **err);
/* The struct or union ID as NAME, named by its path under PARENT when
 * anonymous, NULL at file scope. */
void btf_emit_composite(struct breader *r, uint32_t id, const char *name,
			const char *parent);
/* The same for an enum (ENUM or ENUM64). */
void btf_emit_enum(struct breader *r, uint32_t id, const char *name,
		   const char *parent);

#endif
