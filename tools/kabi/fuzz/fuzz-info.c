// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for kabi's own DWARF decoder (info.c) alone: the input
 * is a flags byte (bit 0: big-endian, bit 1: count what is read, as
 * kabi dump --stats does) and the bytes of .debug_info,
 * .debug_abbrev, .debug_str, .debug_line_str and .debug_str_offsets,
 * joined by a separator (missing ones are empty).  Every unit is
 * surveyed, every DIE walked, and every attribute read with every
 * accessor, as the reader reads them and as it never would.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "../info.h"
#include "../util.h"

#define SEP "KABI-FUZZ-SPLIT"
#define MAX_STEPS 20000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every value of attribute I of DIE D, read every way. */
static void read_attr(const struct odie *d, uint16_t i)
{
	struct oattr a;
	struct odie t;
	const unsigned char *p;
	uint64_t u;
	int64_t s;
	size_t n;
	bool f;

	if (!dec_attr_at(d, i, &a))
		return;
	(void)dec_udata(&a, &u);
	(void)dec_sdata(&a, &s);
	(void)dec_flag(&a, &f);
	(void)dec_string(&a);
	(void)dec_strp_near(&a);
	if (dec_block(&a, &p, &n) == 0 && n)
		u = p[0] + p[n - 1]; /* the bytes are there */
	(void)dec_member_offset(&a, &u);
	(void)dec_ref_near(&a, &u);
	if (dec_ref(&a, &t) == 0)
		(void)dec_attr(&t, DW_AT_name, &a);
}

/* The DIEs from D on, siblings and children, at most *STEPS of them. */
static void walk(struct odie *d, unsigned depth, unsigned long *steps)
{
	struct odie c;
	int rc = 0;
	uint16_t i;

	while (rc == 0 && (*steps)++ < MAX_STEPS && depth < 64) {
		for (i = 0; i < d->ab->n; i++)
			read_attr(d, i);
		if (dec_child(d, &c) == 0)
			walk(&c, depth + 1, steps);
		c = *d;
		(void)dec_signed(&c);
		rc = dec_sibling(d, d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dsec part[5] = { { NULL, 0 } };
	struct dec d = { 0 };
	unsigned long steps = 0;
	struct dec_count c;
	size_t i, k;
	bool count;

	if (size < 1)
		return 0;
	d.big_endian = data[0] & 1;
	count = data[0] & 2;
	data++;
	size--;
	for (k = 0; k < 5; k++) {
		const uint8_t *sep = memmem(data, size, SEP, strlen(SEP));
		size_t n = sep ? (size_t)(sep - data) : size;

		part[k] = (struct dsec){ n ? data : NULL, n };
		if (!sep)
			break;
		data = sep + strlen(SEP);
		size -= n + strlen(SEP);
	}
	d.info = xcalloc(1, sizeof(*d.info));
	d.info[0] = part[0];
	d.ninfo = part[0].n ? 1 : 0;
	d.sec[DSEC_ABBREV] = part[1];
	d.sec[DSEC_STR] = part[2];
	d.sec[DSEC_LINE_STR] = part[3];
	d.sec[DSEC_STR_OFFSETS] = part[4];
	if (dec_units(&d) == 0) {
		if (count)
			dec_tally_start(&d);
		for (i = 0; i < d.nunits && steps < MAX_STEPS; i++) {
			struct odie cu;
			char *dir = NULL;

			if (dec_unit_string(&d.units[i], DW_AT_comp_dir, &dir) >
			    0)
				free(dir);
			if (dec_unit_die(&d.units[i], &cu) == 0)
				walk(&cu, 0, &steps);
			dec_unit_done(&d.units[i]);
			d.failed = false; /* read on: every unit is a test */
		}
	}
	if (d.tally) {
		d.failed = false;
		(void)dec_tally_count(&d, &c);
	}
	dec_release(&d);
	return 0;
}
