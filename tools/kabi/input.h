/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening a DWARF input (input.c): the ELF checks, libelf and libdw (or,
 * for a relocatable file, libdwfl) handles, and separate debug files.
 */
#ifndef KABI_INPUT_H
#define KABI_INPUT_H

#include <elfutils/libdwfl.h>

#include "info.h"
#include "reader.h"

/* One open input: libelf and libdw (or libdwfl) handles of its own. */
struct handle {
	int fd;
	Elf *elf;
	Dwfl *dwfl;
	Dwarf *dw;
};

/* Close what H holds; H may be partly open. */
void handle_close(struct handle *h);
/* Open and check PATH; 0, 1 when PATH has no .debug_info (H is open,
 * with its Elf only), or -1 after rd_fail (H is closed then). */
int handle_open(struct reader *r, const char *path, struct handle *h);
/* Open r->path, or the separate debug file of a stripped one, which then
 * becomes r->path (*DBG, for the caller to free).  0, or -1 after
 * rd_fail. */
int open_with_debug(struct reader *r, struct handle *h, char **dbg);
/* The sections of H that kabi's decoder (r->dec) and lines.c read, as
 * libdw or libdwfl give them (relocated and decompressed), and whether
 * .debug_info can be read from the file (r->info_fd); 0, or -1 after
 * rd_fail. */
int input_sections(struct reader *r, struct handle *h);

#endif
