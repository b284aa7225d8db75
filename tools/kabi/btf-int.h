/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BTF reader's private interface: btf-load.c finds and checks the
 * BTF of an input, btf.c turns it into model types.
 */
#ifndef KABI_BTF_INT_H
#define KABI_BTF_INT_H

#include "kabi.h"

struct btf;

/* Every type of BTF (only its own, for split BTF) into M; 0, or -1 with
 * *ERR set to the one line to print.  BTF's references are checked. */
int btf_read_types(struct model *m, const char *path, const struct btf *btf,
		   const struct read_opts *o, char **err);

#endif
