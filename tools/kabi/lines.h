/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Declaration files (lines.c): a unit's file table, from its DWARF 5
 * line table header or from libdw, and names normalised and made
 * relative; the pages of .debug_info already read, given back.
 */
#ifndef KABI_LINES_H
#define KABI_LINES_H

#include "reader.h"

/* Lexically normalise an absolute or relative path into OUT: drop "."
 * and "//", fold "dir/..", keep leading ".." of a relative path. */
void path_normalise(struct sb *out, const char *p);
/* Find the sections line_files reads, when it may read them. */
void line_sections(struct reader *r, Dwarf *dw);
/* The file table of the unit whose line table is at OFF into
 * r->lines.lfiles: 0, or -1 when libdw is to read it. */
int line_files(struct reader *r, uint64_t off);
/* Give back the pages of .debug_info before offset UPTO. */
void info_release(struct reader *r, Dwarf_Off upto);
/* The normalised name of file IDX of the unit's table, interned; NULL
 * when there is none. */
const char *decl_file_name(struct reader *r, uint64_t idx);
/* The name NAME of the unit being read (its DW_AT_name), normalised,
 * relative and interned as decl_file_name's are. */
const char *unit_file_name(struct reader *r, const char *name);
/* decl_file_name, in line once the name is known. */
static inline const char *decl_file(struct reader *r, uint64_t idx)
{
	if (idx < r->lines.nfiles && r->lines.file_names[idx])
		return r->lines.file_names[idx];
	return decl_file_name(r, idx);
}
/* T's decl_file and decl_line from DIE (none against BTF). */
void get_decl(struct reader *r, struct die *die, struct ktype *t);

#endif
