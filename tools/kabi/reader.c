// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every part of the DWARF reader calls: the one failure of a
 * reader, interning into its model, and reading attributes.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <string.h>

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
	rd_fail(r, "%s: %s", call, dwarf_errmsg(-1));
}

const char *intern(struct reader *r, const char *s)
{
	return strtab_intern(r->model->strs, s);
}

int attr_udata(struct reader *r, Dwarf_Die *die, unsigned at, Dwarf_Word *out)
{
	Dwarf_Attribute a;

	if (!dwarf_attr(die, at, &a))
		return 0;
	if (dwarf_formudata(&a, out) != 0) {
		rd_dwfail(r, "dwarf_formudata");
		return -1;
	}
	return 1;
}

int attr_size(struct reader *r, Dwarf_Die *die, Dwarf_Word *out)
{
	int rc = attr_udata(r, die, DW_AT_byte_size, out);

	if (rc == 1 && *out > (Dwarf_Word)INT64_MAX / 8) {
		rd_fail(r,
			"DW_AT_byte_size %" PRIu64
			" too large at DIE 0x%" PRIx64,
			(uint64_t)*out, (uint64_t)dwarf_dieoffset(die));
		return -1;
	}
	return rc;
}

int attr_flag(Dwarf_Die *die, unsigned at)
{
	Dwarf_Attribute a;
	bool f = false;

	if (!dwarf_attr(die, at, &a) || dwarf_formflag(&a, &f) != 0)
		return 0;
	return f;
}

int attr_type(struct reader *r, Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	if (!dwarf_attr(die, DW_AT_type, &a))
		return 0;
	if (!dwarf_formref_die(&a, out)) {
		rd_dwfail(r, "dwarf_formref_die");
		return -1;
	}
	return 1;
}
