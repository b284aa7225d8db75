// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every part of the DWARF reader calls: the one failure of a
 * reader, interning into its model, and reading attributes.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <string.h>

#include "die.h"
#include "reader.h"

void rd_fail(struct reader *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (r->failed)
		return;
	r->failed = true;
	r->fail_unit = r->unit;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	{
		struct sb b;

		sb_init(&b);
		sb_add2(&b, "cannot read '", r->path);
		sb_add2(&b, "': ", msg);
		*r->err = sb_take(&b);
	}
}

void rd_dwfail(struct reader *r, const char *call)
{
	if (!r->own)
		rd_fail(r, "%s: %s", call, dwarf_errmsg(-1));
	else if (r->dec->failed)
		rd_fail(r, "%s", r->dec->err);
	else
		rd_fail(r, "%s failed", call); /* the decoder says why */
}

const char *intern(struct reader *r, const char *s)
{
	return strtab_intern(r->model->strs, s);
}

int attr_udata(struct reader *r, struct die *die, unsigned at, uint64_t *out)
{
	struct dattr a;

	if (!die_attr(die, at, &a))
		return 0;
	if (dattr_udata(&a, out) != 0) {
		rd_dwfail(r, "dwarf_formudata");
		return -1;
	}
	return 1;
}

int attr_size(struct reader *r, struct die *die, uint64_t *out)
{
	int rc = attr_udata(r, die, DW_AT_byte_size, out);

	if (rc == 1 && *out > (uint64_t)INT64_MAX / 8) {
		rd_fail(r,
			"DW_AT_byte_size %" PRIu64
			" too large at DIE 0x%" PRIx64,
			*out, die_offset(die));
		return -1;
	}
	return rc;
}

int attr_flag(struct die *die, unsigned at)
{
	struct dattr a;
	bool f = false;

	if (!die_attr(die, at, &a) || dattr_flag(&a, &f) != 0)
		return 0;
	return f;
}

int attr_type(struct reader *r, struct die *die, struct die *out)
{
	struct dattr a;

	if (!die_attr(die, DW_AT_type, &a))
		return 0;
	if (dattr_ref(&a, out) != 0) {
		rd_dwfail(r, "dwarf_formref_die");
		return -1;
	}
	return 1;
}
