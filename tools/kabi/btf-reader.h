/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BTF reader's state and what every part of it calls
 * (btf-reader.c).  btf-load.c finds and checks the BTF of an input,
 * btf-emit.c turns its types into model types (btf-emit.h) and
 * btf-spell.c spells the C name of a type ID (btf-spell.h).
 */
#ifndef KABI_BTF_READER_H
#define KABI_BTF_READER_H

#include <bpf/btf.h>

#include "kabi.h"

enum bname_mode { B_AS_WRITTEN, B_RESOLVED };

/* How an anonymous aggregate met on the way is named (as struct actx):
 * "OWNER.SEG", used by "KW OWNER".  Both strings are made only when an
 * anonymous type is met, which is rare. */
struct bctx {
	const char *kw;	   /* "struct", "union" or "typedef" */
	const char *owner; /* the user's name */
	const char *seg;   /* "<anon@8>", "s" or "<anon>" */
	bool intrinsic;	   /* a typedef's: names depend on it alone */
};

/* Scratch strings of one spelling or emission depth, kept for reuse:
 * most of the reader's time was malloc and realloc of short strings. */
enum { SCR_TMP, SCR_OUT, SCR_SEG, SCR_NAME, SCR_NR };

/* An interned name by its BTF string offset (+ 1; 0 unused). */
struct name_ent {
	uint64_t key;
	const char *s;
};

struct breader {
	const char *path;
	char **err;
	bool failed;
	struct model *model;
	const struct read_opts *opts;
	const struct btf *btf;
	const struct btf_type **types; /* by ID, base types too */
	uint32_t first, cnt;	       /* own types: [first, cnt) */
	size_t ptr_size;
	int64_t *align;		/* members' alignment per own id, 0: unknown */
	bool *anon_used;	/* anonymous enums materialised by a use */
	const char *(*memo)[2]; /* names per id and mode, when context free */
	struct hset names;	/* of struct name_ent */
	bool ctx_used;	   /* the spelling under way named by its context */
	bool typedef_seen; /* ... met a typedef (or may have) */
	uint32_t active[KABI_MAX_TYPE_DEPTH]; /* anonymous ones being emitted */
	unsigned nactive;
	uint32_t spelling[KABI_MAX_TYPE_DEPTH + 1];
	unsigned depth;
	unsigned long steps;
	struct sb scratch[KABI_MAX_TYPE_DEPTH + 2][SCR_NR];
	struct member *mv[KABI_MAX_TYPE_DEPTH + 2]; /* members, per depth */
	uint32_t mv_cap[KABI_MAX_TYPE_DEPTH + 2];
};

/* btf-reader.c */
/* A reader of the own types of BTF into M, failures into *ERR. */
struct breader *breader_new(struct model *m, const char *path,
			    const struct btf *btf, const struct read_opts *o,
			    char **err);
void breader_free(struct breader *r);
/* Record the first failure of R: "cannot read 'PATH': MSG" into *R->err;
 * later ones are dropped. */
void bfail(struct breader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Type ID, which btf-load.c has checked to be below cnt. */
static inline const struct btf_type *bt(const struct breader *r, uint32_t id)
{
	return r->types[id];
}
/* The string at OFF, NULL when empty. */
const char *bname(const struct breader *r, uint32_t off);
/* The same, interned, by its offset: no hashing of the text again. */
const char *bname_interned(struct breader *r, uint32_t off);
/* The N bytes at S, interned. */
const char *bintern(struct breader *r, const char *s, size_t n);
/* S, a string of the BTF, interned as itself (the model keeps the BTF). */
const char *bintern_btf(struct breader *r, const char *s);
/* Start fetching the name slots and type names of struct or union T's
 * members, before they are read one by one: each is otherwise a cache
 * miss of its own. */
void members_prefetch(struct breader *r, const struct btf_type *t);
/* Scratch string K of depth D, emptied. */
struct sb *scratch(struct breader *r, unsigned d, unsigned k);

#endif
