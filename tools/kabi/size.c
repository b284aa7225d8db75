// SPDX-License-Identifier: GPL-2.0-only
/*
 * Type sizes and array bounds: what a type DIE takes in bytes, and the
 * bounds of an array's subranges as numbers and as text.
 */
#include <dwarf.h>
#include <inttypes.h>

#include "die.h"
#include "size.h"

/* ---- sizes ----------------------------------------------------------- */

/* An array bound.  dataN forms carry no sign; GCC and Clang write counts
 * and upper bounds such as 255 as data1 0xff, so only sdata and data8
 * (GCC's -1 upper bound of a zero-length array) are read as signed.
 * 1 read, 0 absent, 2 not a constant (a VLA), -1 error. */
static int attr_bound(struct reader *r, struct die *die, unsigned at,
		      int64_t *out)
{
	struct dattr a;
	uint64_t u;
	int64_t sv;

	if (!die_attr(die, at, &a))
		return 0;
	switch (a.form) {
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dattr_sdata(&a, &sv) != 0) {
			rd_dwfail(r, "dwarf_formsdata");
			return -1;
		}
		*out = sv;
		return 1;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (dattr_udata(&a, &u) != 0) {
			rd_dwfail(r, "dwarf_formudata");
			return -1;
		}
		*out = a.form == DW_FORM_data8 ? enum_value_signed(u) :
		       u > INT64_MAX	       ? INT64_MAX :
						 (int64_t)u;
		return 1;
	default:
		return 2;
	}
}

/* Element count of a subrange: 1 with *N (0 for [] and [0]), 2 for a
 * variable length, -1 error. */
static int subrange_count(struct reader *r, struct die *sub, int64_t *n)
{
	int64_t lo = 0, hi;
	int rc;

	*n = 0;
	rc = attr_bound(r, sub, DW_AT_count, n);
	if (rc == 1 && *n < 0)
		*n = 0;
	if (rc != 0)
		return rc;
	rc = attr_bound(r, sub, DW_AT_upper_bound, &hi);
	if (rc != 1)
		return rc == 0 ? 1 : rc;
	if (attr_bound(r, sub, DW_AT_lower_bound, &lo) < 0)
		return -1;
	*n = hi < lo ? 0 : hi - lo + 1;
	return 1;
}

static int64_t array_size(struct reader *r, struct die *die)
{
	struct die sub, elem;
	int64_t total, n;
	uint64_t v;
	int rc;

	if (attr_size(r, die, &v) == 1)
		return (int64_t)v;
	if (attr_type(r, die, &elem) != 1)
		return SIZE_UNKNOWN;
	total = type_size(r, &elem);
	if (total < 0)
		return SIZE_UNKNOWN;
	rc = die_child(die, &sub);
	while (rc == 0) {
		if (die_tag(&sub) == DW_TAG_subrange_type &&
		    subrange_count(r, &sub, &n) != 1)
			return SIZE_UNKNOWN;
		if (die_tag(&sub) == DW_TAG_subrange_type) {
			if (n && total > INT64_MAX / n)
				return SIZE_UNKNOWN;
			total *= n;
		}
		rc = die_sibling(&sub, &sub);
	}
	if (rc < 0) {
		rd_dwfail(r, "dwarf_siblingof");
		return SIZE_UNKNOWN;
	}
	return total;
}

int64_t type_size(struct reader *r, struct die *die)
{
	struct die t = *die;
	uint64_t v;
	unsigned hops;

	for (hops = 0; hops < KABI_MAX_TYPE_DEPTH; hops++) {
		switch (die_tag(&t)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (attr_type(r, &t, &t) != 1)
				return SIZE_UNKNOWN;
			continue;
		case DW_TAG_pointer_type:
		case DW_TAG_reference_type:
		case DW_TAG_rvalue_reference_type:
			if (attr_size(r, &t, &v) == 1)
				return (int64_t)v;
			return r->addr_size;
		case DW_TAG_array_type:
			if (++r->spell.depth > KABI_MAX_TYPE_DEPTH) {
				rd_fail(r,
					"type nesting deeper than %d at DIE 0x%" PRIx64,
					KABI_MAX_TYPE_DEPTH, die_offset(&t));
				return SIZE_UNKNOWN;
			}
			{
				int64_t s = array_size(r, &t);

				r->spell.depth--;
				return s;
			}
		case DW_TAG_subroutine_type:
			return SIZE_UNKNOWN;
		default:
			if (attr_size(r, &t, &v) == 1)
				return (int64_t)v;
			if (die_tag(&t) == DW_TAG_enumeration_type &&
			    attr_type(r, &t, &t) == 1)
				continue;
			return SIZE_UNKNOWN;
		}
	}
	rd_fail(r, "type reference cycle at DIE 0x%" PRIx64, die_offset(die));
	return SIZE_UNKNOWN;
}

/* ---- array bounds as text ------------------------------------------ */

/* Append the bound of subrange SUB to B; 0, or -1 on failure.  [0]
 * (Clang) and [] (GCC) are one layout. */
int array_bound(struct reader *r, struct die *sub, struct sb *b)
{
	int64_t n;

	switch (subrange_count(r, sub, &n)) {
	case 1:
		if (n > 0) {
			sb_add(b, "[");
			sb_addu(b, (uint64_t)n);
			sb_add(b, "]");
		} else {
			sb_add(b, "[]");
		}
		return 0;
	case 2:
		sb_add(b, "[*]");
		return 0;
	default:
		return -1;
	}
}

/* Append the bound of array DIE T as one dimension, the product of all
 * of its subranges; 0, or -1 on failure. */
int flat_bound(struct reader *r, struct die *t, struct sb *b)
{
	int64_t total = 1, n;
	struct die sub;
	int rc;

	for (rc = die_child(t, &sub); rc == 0; rc = die_sibling(&sub, &sub)) {
		if (die_tag(&sub) != DW_TAG_subrange_type)
			continue;
		switch (subrange_count(r, &sub, &n)) {
		case 1:
			total = n && total <= INT64_MAX / n ? total * n : 0;
			break;
		case 2:
			sb_add(b, "[*]");
			return 0;
		default:
			return -1;
		}
	}
	if (total > 0)
		sb_addf(b, "[%" PRId64 "]", total);
	else
		sb_add(b, "[]");
	return 0;
}
