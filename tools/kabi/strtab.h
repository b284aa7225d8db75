/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strtab.c: string interning, equal strings get the same pointer.
 */
#ifndef KABI_STRTAB_H
#define KABI_STRTAB_H

#include <stddef.h>

struct strtab;
struct strtab *strtab_new(void);
void strtab_free(struct strtab *t);
const char *strtab_intern(struct strtab *t, const char *s);
const char *strtab_intern_n(struct strtab *t, const char *s, size_t n);
/* The same, but S itself (N bytes, then a NUL) becomes the interned
 * string when new, not a copy: S must outlive T. */
const char *strtab_intern_kept(struct strtab *t, const char *s, size_t n);
/* Each of the N strings of V (NUL-terminated, outliving T) replaced by
 * its interned string, as strtab_intern_kept does, the table's memory
 * fetched a few strings at a time. */
void strtab_intern_kept_all(struct strtab *t, const char **v, size_t n);
/* Start fetching the table's memory that interning S will read. */
void strtab_prefetch(struct strtab *t, const char *s);
/* Room for N more strings without growing the table on the way. */
void strtab_reserve(struct strtab *t, size_t n);

#endif
