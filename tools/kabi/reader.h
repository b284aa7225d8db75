/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The DWARF reader's state, one reader per thread and input, and what
 * every part of it calls (reader.c): failing, interning, attributes.
 * Each part has a header of its own for the rest (input.h, lines.h,
 * size.h, spell.h, emit.h, fingerprint.h), included by its callers
 * only; read.c, the walk over the units, is their only common caller.
 * kabi.h is the public interface.
 */
#ifndef KABI_READER_H
#define KABI_READER_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "kabi.h"

struct die;
struct dec;

enum name_mode { AS_WRITTEN, RESOLVED };

/* How an anonymous aggregate met on the way is named. */
struct actx {
	const char *parent; /* full name of the user: "struct foo" */
	const char *path;   /* "foo" + ".", the prefix of the new name */
	const char *seg;    /* "<anon@8>", "s" or "<anon>" */
	bool intrinsic;	    /* set by the typedef itself: memo is safe */
};

/* A normalised file name by the addresses of the strings it came from
 * (units repeat the same line table entries): directory, name, unit's
 * compilation directory. */
struct fname_ent {
	const char *key[3];
	const char *norm;
};

/* A section's bytes as in the file. */
struct lsec {
	const unsigned char *p;
	size_t n;
};

struct memo_ent {
	Dwarf_Off off;
	const char *str[2]; /* per name_mode */
	int64_t align;	    /* members_align, 0 until known */
};

/* FP_AGG: a named aggregate, whose uses are fingerprinted (fpo_use),
 * under its offset with FPM_USE_PTR or FPM_USE_VAL set */
enum { FP_NONE, FP_BUSY, FP_DONE, FP_NEVER, FP_AGG };
#define FPM_USE_PTR (UINT64_C(1) << 63)
#define FPM_USE_VAL (UINT64_C(1) << 62)

/* The fingerprint of a DIE a reference reached in this unit. */
struct fpm_ent {
	uint64_t off;
	uint64_t fp[2]; /* once state is FP_DONE */
	uint32_t gen;	/* live while equal to the table's */
	uint8_t state;
};

/* Those fingerprints (fingerprint.c), apart from the spelling memo:
 * they are looked up for every member's type, and an entry holds all a
 * lookup reads. */
struct fpmemo {
	struct fpm_ent *slots;
	size_t nslots, n; /* a power of two; entries of this generation */
	uint32_t gen;
	/* the latest done, by offset modulo its size: most references in a
	 * unit go to a few types (int, size_t), found here in one step */
	struct fpm_ent recent[512];
};

/* File names (lines.c): the unit's file table and where names come from. */
struct lines {
	const char *comp_dir;
	/* the compilation directories of all units, normalised, shortest
	 * first: a file is named relative to the shortest that holds it,
	 * whichever unit names it (shared by the slots of one input) */
	const char *const *unit_dirs;
	size_t nunit_dirs;
	Dwarf_Files *files;
	size_t nfiles;
	const char **file_names; /* normalised, lazily */
	struct lsec line_sec, line_str_sec, str_sec;
	/* .debug_info where it is the file's own mapping, and how much of
	 * it is given back (info_release) */
	struct lsec info_sec;
	Dwarf_Off info_dropped;
	/* the unit's file table as read by line_files: directory (NULL for
	 * an absolute name) and name; used instead of files when own_files */
	const char *(*lfiles)[2];
	size_t nlfiles, lfiles_cap;
	bool own_files;
	/* decl_file names normalised so far, all units */
	struct hset fnames; /* of struct fname_ent, unused while norm is NULL */
};

/* Spelling types (spell.c): names memoised per unit, and the DIEs on the
 * way. */
struct spell {
	/* the memo: this unit's entries, found by offset through an open
	 * addressing index of memo_gen << 32 | (entry + 1), where a slot of
	 * another generation is empty: a new unit empties it in one step */
	struct memo_ent *ents;
	uint32_t nents, ents_cap;
	uint64_t *index;
	size_t nslots; /* a power of two */
	uint32_t memo_gen;
	/* anonymous DIEs materialised in this CU */
	Dwarf_Off *done;
	size_t ndone, done_cap;
	/* anonymous DIEs being materialised, against reference cycles */
	Dwarf_Off active[KABI_MAX_TYPE_DEPTH];
	unsigned nactive;
	unsigned depth;
	/* the DIEs being spelled, outermost first, and the work so far */
	Dwarf_Off spelling[KABI_MAX_TYPE_DEPTH + 1];
	unsigned long steps;
};

/* One reader: one input, or the units of one thread's slot of it. */
struct reader {
	const char *path;
	char **err; /* where the one failure message goes */
	const struct read_opts *opts;
	struct model *model;
	bool big_endian;
	bool failed;
	uint64_t info_size; /* .debug_info bytes, 0 if compressed */
	bool debug_relocs;  /* ET_REL with relocations for .debug_* */
	bool relocated;	    /* read through libdwfl, which applies them */
	size_t unit;	    /* index of the unit being read */
	size_t fail_unit;   /* where the failure was, to pick one */
	/* kabi's own decoder (info.h), unless --reader libdw, and where
	 * each unit of .debug_info is copied to, when the file has it as
	 * it is (info_fd >= 0; info_foff its offset in the file) */
	bool own;
	struct dec *dec;
	struct dec_tally *tally; /* the decoder's, once it is released */
	int info_fd;
	uint64_t info_foff;
	unsigned char *ubuf;
	size_t ubuf_cap;
	/* per CU */
	uint8_t addr_size;
	/* file-scope anonymous enums waiting to see whether a use names
	 * them first */
	struct die *anon_enums;
	size_t nanon_enums, anon_enums_cap;
	struct lines lines;
	struct spell spell;
	/* fingerprints of the types emitted so far, all units
	 * (fingerprint.c): uint64_t[2], (0, 0) unused, with sights followed
	 * by uint32_t[2], where in grp its types are */
	struct hset seen;
	struct fpmemo fpm;
	/* read_opts.sights: the types each file-scope type made when it
	 * was emitted (itself, and the anonymous types it names), one run
	 * per fingerprint of the seen set; capturing while grp_on */
	struct ktype **grp;
	size_t ngrp, grp_cap;
	bool grp_on;
};

/* reader.c */
/* Record the first failure of R: "cannot read 'PATH': MSG" into *R->err;
 * later ones are dropped. */
void rd_fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for a failed call to the DIE accessors of die.h, named by
 * the libdw function CALL: libdw's message, or the decoder's. */
void rd_dwfail(struct reader *r, const char *call);
/* S interned in the model being read. */
const char *intern(struct reader *r, const char *s);
/* Attribute AT of DIE as an unsigned number: 1 present, 0 absent, -1
 * error (reported). */
int attr_udata(struct reader *r, struct die *die, unsigned at, uint64_t *out);
/* DW_AT_byte_size, which must fit the model's signed sizes; 1, 0, -1. */
int attr_size(struct reader *r, struct die *die, uint64_t *out);
/* Flag AT of DIE; absent or unreadable is false. */
int attr_flag(struct die *die, unsigned at);
/* DW_AT_type target: 1 found, 0 none (void), -1 error (reported). */
int attr_type(struct reader *r, struct die *die, struct die *out);

#endif
