/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabi - dump and diff the data layout recorded in DWARF.
 *
 * The model is deliberately flat: a model is a set of named types (struct,
 * union, enum, typedef), each already reduced to the canonical strings and
 * numbers that the dump prints.  Everything that differs between two
 * producers without changing the layout (base type spelling, qualifier
 * order, DWARF 4 vs 5 bitfield encoding, CU order) is normalised away while
 * reading, so comparing two models is comparing values.
 */
#ifndef KABI_H
#define KABI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hash.h"
#include "strtab.h"
#include "util.h"

/* Limits against pathological input; see kabi(1), LIMITS. */
#define KABI_MAX_TYPE_DEPTH 256	      /* nesting of one type reference chain */
#define KABI_MAX_NAME_STEPS (1 << 20) /* DIEs visited to spell one type */

/* ---- model.c --------------------------------------------------------- */

/* In the order of their names ("enum" < "struct" < ...): the dump's. */
enum kind {
	KIND_ENUM,
	KIND_STRUCT,
	KIND_TYPEDEF,
	KIND_UNION,
	KIND_NR,
};

const char *kind_name(enum kind k);
int kind_parse(const char *s, enum kind *k);

#define SIZE_UNKNOWN INT64_C(-1)

struct member {
	const char *name;     /* NULL for an anonymous member */
	uint64_t bitpos;      /* DW_AT_data_bit_offset semantics */
	uint32_t bitsize;     /* 0 unless a bitfield */
	int64_t size;	      /* bytes, SIZE_UNKNOWN if not known */
	const char *type;     /* as written: typedef names kept */
	const char *resolved; /* typedefs resolved */
};

struct enumerator {
	const char *name;
	uint64_t value; /* two's complement when the enum is signed */
	uint64_t hi;	/* bits 64-127, in enums wider than 8 bytes */
};

struct ktype {
	enum kind kind;
	const char *name;
	const char *parent;    /* "struct foo" for a type named by its path */
	const char *decl_file; /* NULL if unknown */
	uint32_t decl_line;
	int64_t size;
	int64_t align;	       /* 0: not recorded (DW_AT_alignment absent) */
	int64_t natural_align; /* struct, union: what the members need;
				 * not dumped, compared with align by diff */
	/* enum */
	bool is_signed;
	const char *underlying;
	/* typedef: chain[0] is the target as written, chain[n-1] the last
	 * link before a non-typedef; resolved has no typedef left. */
	const char *resolved;
	uint32_t n; /* members, enumerators or chain links */
	union {
		struct member *members;
		struct enumerator *enums;
		const char **chain;
	};
	uint64_t hash;	     /* of everything above */
	struct sight *sight; /* read_opts.sights: the units that hold it */
};

/* The units (of all inputs, numbered in input order) whose DWARF holds a
 * type: how many, and the first few by number (kabi check). */
#define SIGHT_KEEP 3
struct sight {
	uint32_t n;
	uint32_t last; /* the latest unit counted, + 1 */
	uint32_t first[SIGHT_KEEP];
};

/* All types of one or more inputs, deduplicated. */
/* What kabi's DWARF decoder read into a model, when asked to count
 * (read_opts.count): units, DIEs in them, DIEs decoded, and DIEs only
 * stepped over by the sizes of their forms; the rest it passed by
 * DW_AT_sibling without reading.  All 0 for BTF and the libdw reader. */
struct read_count {
	uint64_t units, dies, decoded, stepped;
};

struct model {
	struct arena arena;
	struct strtab *strs;
	struct ktype **types;
	size_t ntypes, cap;
	/* types[] by ktype.hash: entries hold an index + 1, 0 is unused */
	struct hset set;
	struct kept *kept; /* what strs points into, freed with the model */
	struct read_count count;
	/* read_opts.sights: the name of each unit, by number; NULL where
	 * another thread's model has it, or the unit has none */
	const char **units;
	size_t nunits;
};

struct model *model_new(void);
void model_free(struct model *m);
/* Free P with FREE_FN only when M is freed: M's strings point into it. */
void model_keep(struct model *m, void (*free_fn)(void *), void *p);
/* Add a copy of T unless an equal type is present; T's strings must be
 * interned in M->strs.  The type in M. */
struct ktype *model_add(struct model *m, const struct ktype *t);
/* Add every type of SRC to DST (strings re-interned): SRC read other
 * units of DST's input (a thread's share of them). */
void model_merge(struct model *dst, const struct model *src);
/* The same for the model of another input, whose units are numbered
 * after DST's. */
void model_append(struct model *dst, const struct model *src);
/* Unit U of M is named NAME (interned in M->strs; NULL: unknown); with
 * U == M->nunits - 1 and NAME NULL, only says M has U + 1 units. */
void model_unit(struct model *m, size_t u, const char *name);
/* Count unit U as holding T (units come in increasing order). */
void sight_note(struct model *m, struct ktype *t, uint32_t u);
/* Drop each "<anon:FIRST>" enum (one no use named) that a use names
 * elsewhere in M: BTF holds one copy of an enum, DWARF one per unit. */
void model_drop_anon_enum_copies(struct model *m);
/* Sort types into dump order. */
void model_sort(struct model *m);
/* Into SEG, the path segment member M (after the N members MV) gives the
 * anonymous types met through it: its name, or "<anon@BYTE>" ("#K" for
 * the K-th anonymous member at that byte), as both readers name them. */
void member_seg(struct sb *seg, const struct member *m, const struct member *mv,
		uint32_t n);
uint64_t ktype_hash(const struct ktype *t);
/* Total order used for the dump; 0 only for equal types. */
int ktype_cmp(const struct ktype *a, const struct ktype *b);
/* Same, ignoring the declaration location. */
bool ktype_same_layout(const struct ktype *a, const struct ktype *b);
int64_t enum_value_signed(uint64_t v);
/* Decimal text of enumerator E of enum T into BUF (at least 41 bytes). */
const char *enum_value_str(char *buf, const struct ktype *t,
			   const struct enumerator *e);

/* ---- read.c ---------------------------------------------------------- */

enum kabi_format { FORMAT_AUTO, FORMAT_DWARF, FORMAT_BTF };

/* What decodes DWARF: kabi's own decoder, or libdw (--reader). */
enum kabi_reader { READER_OWN, READER_LIBDW };

struct read_opts {
	const char **roots; /* path prefixes to strip from decl_file */
	size_t nroots;
	const char *debug_dir; /* of separate debug files; NULL: /usr/lib/debug */
	size_t threads;	       /* per input; 0 or 1: read on the caller's */
	enum kabi_format format; /* FORMAT_AUTO: DWARF if present, else BTF */
	const char *base_btf;	 /* base of split BTF (a module's) */
	enum kabi_reader reader;
	/* leave out what BTF cannot say, in either reader, so that DWARF
	 * and BTF of one build give one model (kabi(1), "BTF") */
	bool compat;
	/* count what kabi's decoder reads, into the model's read_count */
	bool count;
	/* record which units hold each type (struct sight), for check */
	bool sights;
};

/* Read every named type of PATH into M.  On failure set *ERR to the one
 * line to print (without "kabi: "; the caller frees it) and return -1; M
 * may then hold part of PATH and must not be printed.  Nothing here
 * prints or touches global state, so files may be read on threads. */
int read_file(struct model *m, const char *path, const struct read_opts *o,
	      char **err);

/* ---- btf-load.c ----------------------------------------------------- */

/* As read_file, from BTF: a raw file or an ELF file's .BTF section; with
 * o->base_btf, split BTF on that base. */
int read_btf(struct model *m, const char *path, const struct read_opts *o,
	     char **err);
/* The format FORMAT_AUTO picks for PATH; 0, or -1 with *ERR set. */
int input_format(const char *path, enum kabi_format *f, char **err);
/* read_file or read_btf, as o->format says or PATH holds. */
int read_input(struct model *m, const char *path, const struct read_opts *o,
	       char **err);

/* ---- filter.c -------------------------------------------------------- */

struct filter {
	const char **names; /* --type; "foo" or "struct foo" */
	size_t nnames;
	unsigned kinds; /* bit per enum kind; 0 = all */
};
bool filter_match(const struct filter *f, const struct ktype *t);
/* Whether F has --type names and none of them selects a type of
 * MODELS[0..N): a filter that matches nothing is a mistake, not an empty
 * answer.  Each name alone may miss ("struct foo" and "union foo"). */
bool filter_selects_nothing(const struct filter *f,
			    const struct model *const *models, size_t n);

/* ---- supp.c ---------------------------------------------------------- */

struct supp_set;
struct supp_set *supp_load(const char *path); /* NULL on error (printed) */
void supp_free(struct supp_set *s);
/* Whether a change to T (OLD or NEW side may be NULL) is suppressed. */
bool supp_match(const struct supp_set *s, const struct ktype *old,
		const struct ktype *new);

/* ---- dump.c / diff.c ------------------------------------------------- */

void dump_text(FILE *f, const struct model *m, const struct filter *flt);
void dump_json(FILE *f, const struct model *m, const struct filter *flt);
/* One type as a JSON object, no newline. */
void json_type(FILE *f, const struct ktype *t);

struct diff_opts {
	const struct filter *filter;
	const struct supp_set *supp;
	bool only_layout;
	bool only_common; /* leave out types whose name one side lacks */
	bool json;
	bool layouts; /* with json: each changed type's two layouts too */
	const char *old_name, *new_name;
};
/* Print the report; return KABI_EXIT_* bits (0, CHANGE, INCOMPATIBLE). */
int diff_models(FILE *f, const struct model *old, const struct model *new,
		const struct diff_opts *o);

/* ---- check.c --------------------------------------------------------- */

struct check_opts {
	const struct filter *filter;
	bool by_name; /* one name at different declarations clashes too */
	bool json;
};
/* Print the types of M (read with sights, sorted) that the units of one
 * build see with different layouts; KABI_EXIT_* bits (0, CHANGE,
 * INCOMPATIBLE). */
int check_model(FILE *f, const struct model *m, const struct check_opts *o);

#endif
