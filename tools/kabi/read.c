// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading DWARF: one pass over the CU-level DIEs of every unit, the units
 * split across threads.
 *
 * Only CU-level struct, union, enum and typedef DIEs start a type; in C
 * every type is defined at CU level, so subprogram and variable subtrees
 * are skipped whole.  Anonymous aggregates are materialised where they are
 * used, under a name made of the path that reaches them, so their names do
 * not depend on DIE order.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "fingerprint.h"
#include "input.h"
#include "lines.h"
#include "reader.h"
#include "spell.h"

static void read_top(struct reader *r, Dwarf_Die *die)
{
	int tag = dwarf_tag(die);
	const char *name;
	struct fp f = { .h = { (uint64_t)r->addr_size, 0 } };

	if (!is_aggregate(tag) && tag != DW_TAG_typedef)
		return;
	if (attr_flag(die, DW_AT_declaration))
		return;
	name = dwarf_diename(die);
	if (!name) {
		/* anonymous structs and unions are emitted where used; so are
		 * anonymous enums, unless no use in this CU names them */
		if (tag == DW_TAG_enumeration_type) {
			if (r->nanon_enums == r->anon_enums_cap) {
				r->anon_enums_cap =
					r->anon_enums_cap ?
						2 * r->anon_enums_cap :
						16;
				r->anon_enums = xrealloc(
					r->anon_enums,
					r->anon_enums_cap *
						sizeof(*r->anon_enums));
			}
			r->anon_enums[r->nanon_enums++] = *die;
		}
		return;
	}
	fp_die(r, die, &f, 0, false);
	/* never (0, 0): that is the empty slot of the seen set */
	f.h[0] |= !f.h[0] && !f.h[1];
	if (!f.never && seen_has(r, f.h))
		return;
	name = intern(r, name);
	if (tag == DW_TAG_typedef)
		emit_typedef(r, die, name);
	else if (tag == DW_TAG_enumeration_type)
		emit_enum(r, die, name, NULL);
	else
		emit_aggregate(r, die, name, NULL);
	if (!f.never && !r->failed)
		seen_add(r, f.h);
}

/* Types declared inside function DIE (and its blocks), which BTF holds
 * as it holds any other: read against BTF only. */
static void read_scope(struct reader *r, Dwarf_Die *die, unsigned depth)
{
	Dwarf_Die c;
	int rc, tag;

	if (depth > KABI_MAX_TYPE_DEPTH)
		return;
	for (rc = dwarf_child(die, &c); rc == 0 && !r->failed;
	     rc = dwarf_siblingof(&c, &c)) {
		tag = dwarf_tag(&c);
		if (tag == DW_TAG_lexical_block || tag == DW_TAG_subprogram)
			read_scope(r, &c, depth + 1);
		else
			read_top(r, &c);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
}

static int off_cmp(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return x < y ? -1 : x > y;
}

static void read_unit(struct reader *r, Dwarf_Die *cudie)
{
	Dwarf_Die c;
	Dwarf_Attribute a;
	Dwarf_Word stmt;
	size_t i;
	int rc;

	r->cudie = *cudie;
	r->lines.comp_dir = NULL;
	if (dwarf_attr(cudie, DW_AT_comp_dir, &a))
		r->lines.comp_dir = dwarf_formstring(&a);
	r->lines.files = NULL;
	r->lines.nfiles = 0;
	r->lines.own_files = false;
	if (dwarf_attr(cudie, DW_AT_stmt_list, &a) &&
	    dwarf_formudata(&a, &stmt) == 0 && line_files(r, stmt) == 0) {
		r->lines.own_files = true;
		r->lines.nfiles = r->lines.nlfiles;
	} else if (dwarf_getsrcfiles(cudie, &r->lines.files,
				     &r->lines.nfiles) != 0) {
		r->lines.files = NULL;
		r->lines.nfiles = 0;
		(void)dwarf_errno(); /* a unit without line table has no decl_file */
	}
	free(r->lines.file_names);
	r->lines.file_names = xcalloc(r->lines.nfiles ? r->lines.nfiles : 1,
				      sizeof(*r->lines.file_names));
	memo_clear(r);

	r->spell.ndone = 0;
	r->nanon_enums = 0;
	rc = dwarf_child(cudie, &c);
	while (rc == 0 && !r->failed) {
		if (r->opts->compat && dwarf_tag(&c) == DW_TAG_subprogram)
			read_scope(r, &c, 0);
		else
			read_top(r, &c);
		rc = dwarf_siblingof(&c, &c);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
	if (r->spell.ndone)
		qsort(r->spell.done, r->spell.ndone, sizeof(*r->spell.done),
		      off_cmp);
	for (i = 0; i < r->nanon_enums && !r->failed; i++) {
		Dwarf_Off off = dwarf_dieoffset(&r->anon_enums[i]);

		if (!r->spell.ndone ||
		    !bsearch(&off, r->spell.done, r->spell.ndone,
			     sizeof(*r->spell.done), off_cmp))
			anon_enum_top(r, &r->anon_enums[i]);
	}
}

/* Unit headers must tile .debug_info exactly; libdw clamps a unit that
 * claims to run past the end instead of failing. */
static int check_units(struct reader *r, Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	Dwarf_Half version;
	uint8_t asz;
	size_t hsize;
	int rc;

	while ((rc = dwarf_next_unit(dw, off, &next, &hsize, &version, NULL,
				     &asz, NULL, NULL, NULL)) == 0) {
		if (r->info_size && next > r->info_size)
			break;
		if (version < 2 || version > 5) {
			rd_fail(r,
				"unsupported DWARF version %u at .debug_info offset 0x%" PRIx64
				" (kabi reads 2 to 5)",
				version, (uint64_t)off);
			return -1;
		}
		if (asz != 2 && asz != 4 && asz != 8) {
			rd_fail(r,
				"unsupported address size %u at .debug_info offset 0x%" PRIx64,
				asz, (uint64_t)off);
			return -1;
		}
		off = next;
	}
	if (rc < 0) {
		rd_dwfail(r, "dwarf_next_unit");
		return -1;
	}
	if (r->info_size && off != r->info_size) {
		rd_fail(r,
			"corrupt unit header at .debug_info offset 0x%" PRIx64,
			(uint64_t)off);
		return -1;
	}
	return 0;
}

/* Read the units whose index is SLOT modulo STRIDE. */
static void read_dwarf(struct reader *r, Dwarf *dw, size_t stride, size_t slot)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf_Die cudie, subdie;
	size_t idx = 0;
	int rc;

	line_sections(r, dw);
	while (!r->failed &&
	       (rc = dwarf_get_units(dw, cu, &next, &version, &unit_type,
				     &cudie, &subdie)) == 0) {
		uint8_t asz = 0, osz = 0;

		cu = next;
		r->unit = idx;
		if (idx++ % stride != slot)
			continue;
		info_release(r, dwarf_dieoffset(&cudie));
		if (version < 2 || version > 5) {
			rd_fail(r, "unsupported DWARF version %u", version);
			return;
		}
		/* libdw hands out a unit DIE for any unit type, and reading
		 * it crashes for types it does not know */
		if (version == 5 && (unit_type < DW_UT_compile ||
				     unit_type > DW_UT_split_type)) {
			rd_fail(r, "unsupported DWARF 5 unit type 0x%x",
				unit_type);
			return;
		}
		if (unit_type == DW_UT_skeleton ||
		    unit_type == DW_UT_split_compile ||
		    unit_type == DW_UT_split_type ||
		    dwarf_hasattr(&cudie, DW_AT_GNU_dwo_id) ||
		    dwarf_hasattr(&cudie, DW_AT_GNU_dwo_name) ||
		    dwarf_hasattr(&cudie, DW_AT_dwo_name)) {
			rd_fail(r,
				"split DWARF (skeleton unit, types in a .dwo file) is not supported");
			return;
		}
		if (!dwarf_diecu(&cudie, &cudie, &asz, &osz)) {
			rd_dwfail(r, "dwarf_diecu");
			return;
		}
		r->addr_size = asz;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			read_unit(
				r,
				&subdie); /* children of the type DIE's unit */
		else
			read_unit(r, &cudie);
	}
	if (!r->failed && rc < 0)
		rd_dwfail(r, "dwarf_get_units");
}

static int dir_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = strlen(x), ny = strlen(y);

	return nx != ny ? (nx < ny ? -1 : 1) : strcmp(x, y);
}

/* The distinct normalised DW_AT_comp_dir values of DW's units, shortest
 * first, into *DIRS (free with unit_dirs_free); their number. */
static size_t unit_dirs_collect(Dwarf *dw, char ***dirs)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	size_t n = 0, cap = 0, i, k = 0;
	struct sb b;

	*dirs = NULL;
	sb_init(&b);
	while (dwarf_get_units(dw, cu, &cu, NULL, NULL, &cudie, NULL) == 0) {
		Dwarf_Attribute a;
		const char *d = dwarf_attr(&cudie, DW_AT_comp_dir, &a) ?
					dwarf_formstring(&a) :
					NULL;

		if (!d)
			continue;
		path_normalise(&b, d);
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			*dirs = xrealloc(*dirs, cap * sizeof(**dirs));
		}
		(*dirs)[n++] = xstrdup(sb_str(&b));
	}
	sb_release(&b);
	if (n)
		qsort(*dirs, n, sizeof(**dirs), dir_cmp);
	for (i = 0; i < n; i++) {
		if (k && strcmp((*dirs)[k - 1], (*dirs)[i]) == 0)
			free((*dirs)[i]);
		else
			(*dirs)[k++] = (*dirs)[i];
	}
	return k;
}

static void unit_dirs_free(char **dirs, size_t n)
{
	while (n)
		free(dirs[--n]);
	free(dirs);
}

/* Entry sizes of the reader's tables, which start empty. */
static void reader_init(struct reader *r)
{
	hset_init(&r->lines.fnames, sizeof(struct fname_ent), 0);
	hset_init(&r->spell.memo, sizeof(struct memo_ent), 0);
	hset_init(&r->seen, 2 * sizeof(uint64_t), 0);
}

static void reader_release(struct reader *r)
{
	free(r->lines.file_names);
	free(r->lines.lfiles);
	hset_release(&r->lines.fnames);
	hset_release(&r->spell.memo);
	hset_release(&r->seen);
	free(r->spell.done);
	free(r->anon_enums);
}

/* A helper thread: the units of one slot, into a model of its own. */
struct slot {
	struct reader r;
	char *err;
	size_t stride, index;
	pthread_t tid;
	bool started;
};

static void *slot_main(void *arg)
{
	struct slot *s = arg;
	struct handle h;

	int rc = handle_open(&s->r, s->r.path, &h);

	if (rc > 0)
		handle_close(&h); /* read_file checked it has DWARF */
	if (rc != 0)
		return NULL;
	read_dwarf(&s->r, h.dw, s->stride, s->index);
	reader_release(&s->r);
	handle_close(&h);
	return NULL;
}

/* Slots 1 to NSLOTS - 1 of the input of R, each read on a thread of its
 * own, or here when no thread starts; slot 0 is R's. */
static struct slot *slots_start(const struct reader *r, size_t nslots)
{
	struct slot *slots = xcalloc(nslots, sizeof(*slots));
	size_t i;

	for (i = 1; i < nslots; i++) {
		struct slot *s = &slots[i];

		s->r = (struct reader){
			.path = r->path,
			.opts = r->opts,
			.model = model_new(),
			.err = &s->err,
			.lines = { .unit_dirs = r->lines.unit_dirs,
				   .nunit_dirs = r->lines.nunit_dirs }
		};
		reader_init(&s->r);
		s->stride = nslots;
		s->index = i;
		s->started = pthread_create(&s->tid, NULL, slot_main, s) == 0;
		if (!s->started)
			slot_main(s); /* no thread: same work, here */
	}
	return slots;
}

static size_t count_units(Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize, n = 0;

	while (dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, NULL,
			       NULL, NULL) == 0) {
		off = next;
		n++;
	}
	return n;
}

int read_file(struct model *m, const char *path, const struct read_opts *o,
	      char **err)
{
	struct reader r = { .path = path, .opts = o, .model = m, .err = err };
	struct slot *slots = NULL;
	size_t nslots = 1, i;
	struct reader *first;
	struct handle h;
	char *dbg = NULL, **dirs = NULL;
	size_t ndirs = 0;

	reader_init(&r);
	if (open_with_debug(&r, &h, &dbg) != 0)
		return -1;
	path = r.path;
	if (check_units(&r, h.dw) != 0)
		goto out;
	ndirs = unit_dirs_collect(h.dw, &dirs);
	r.lines.unit_dirs = (const char *const *)dirs;
	r.lines.nunit_dirs = ndirs;
	/* Large inputs are split by unit across threads, each with its own
	 * handles, since libdw handles are not shared between threads. */
	if (o->threads > 1) {
		nslots = count_units(h.dw) / 64 + 1;
		if (nslots > o->threads)
			nslots = o->threads;
	}
	if (nslots > 1)
		slots = slots_start(&r, nslots);
	read_dwarf(&r, h.dw, nslots, 0);
	reader_release(&r);

	/* join, keep the failure of the earliest unit, merge the rest */
	first = r.failed ? &r : NULL;
	for (i = 1; i < nslots; i++) {
		struct slot *s = &slots[i];

		if (s->started)
			pthread_join(s->tid, NULL);
		if (s->r.failed &&
		    (!first || s->r.fail_unit < first->fail_unit))
			first = &s->r;
	}
	if (first && first != &r) {
		free(*err);
		*err = *first->err;
		*first->err = NULL;
		r.failed = true;
	}
	for (i = 1; i < nslots; i++) {
		if (!r.failed)
			model_merge(m, slots[i].r.model);
		model_free(slots[i].r.model);
		free(slots[i].err);
	}
	free(slots);
out:
	handle_close(&h);
	unit_dirs_free(dirs, ndirs);
	free(dbg);
	return r.failed ? -1 : 0;
}
