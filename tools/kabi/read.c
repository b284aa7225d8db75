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
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "emit.h"
#include "fingerprint.h"
#include "input.h"
#include "lines.h"
#include "reader.h"
#include "spell.h"

static void read_top(struct reader *r, struct die *die)
{
	int tag = die_tag(die);
	const char *name;
	struct fp f = { .h = { (uint64_t)r->addr_size, 0 } };
	uint32_t start;

	if (!is_aggregate(tag) && tag != DW_TAG_typedef)
		return;
	if (attr_flag(die, DW_AT_declaration))
		return;
	name = die_name(die);
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
	if (seen_note(r, &f))
		return;
	name = intern(r, name);
	start = seen_open(r);
	if (tag == DW_TAG_typedef)
		emit_typedef(r, die, name);
	else if (tag == DW_TAG_enumeration_type)
		emit_enum(r, die, name, NULL);
	else
		emit_aggregate(r, die, name, NULL);
	seen_close(r, &f, start);
}

/* Types declared inside function DIE (and its blocks), which BTF holds
 * as it holds any other: read against BTF only. */
static void read_scope(struct reader *r, struct die *die, unsigned depth)
{
	struct die c;
	int rc, tag;

	if (depth > KABI_MAX_TYPE_DEPTH)
		return;
	for (rc = die_child(die, &c); rc == 0 && !r->failed;
	     rc = die_sibling(&c, &c)) {
		tag = die_tag(&c);
		if (tag == DW_TAG_lexical_block || tag == DW_TAG_subprogram)
			read_scope(r, &c, depth + 1);
		else
			read_top(r, &c);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
}

/* A file-scope anonymous enum no use named, listed unless this reader
 * listed the same before: every unit that includes a header with such
 * an enum has a copy, and its fingerprint says what listing it reads. */
static void anon_top(struct reader *r, struct die *die)
{
	struct fp f = { .h = { (uint64_t)r->addr_size, 1 } };
	uint32_t start;

	fp_die(r, die, &f, 0, true);
	f.h[0] |= !f.h[0] && !f.h[1];
	if (seen_note(r, &f))
		return;
	start = seen_open(r);
	anon_enum_top(r, die);
	seen_close(r, &f, start);
}

static int off_cmp(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return x < y ? -1 : x > y;
}

/* The file table of the unit of CUDIE into r->lines; 0, or -1 after
 * rd_fail (kabi's decoder reads every table it is given). */
static int unit_files(struct reader *r, struct die *cudie)
{
	struct dattr a;
	uint64_t stmt;

	r->lines.comp_dir = NULL;
	if (die_attr(cudie, DW_AT_comp_dir, &a))
		r->lines.comp_dir = dattr_string(&a);
	/* file names are memoised by the addresses of their strings, and
	 * a unit read from a copy (read_own) has its strings there */
	if (r->lines.comp_dir && die_own(cudie))
		r->lines.comp_dir = intern(r, r->lines.comp_dir);
	r->lines.files = NULL;
	r->lines.nfiles = 0;
	r->lines.own_files = false;
	if (die_attr(cudie, DW_AT_stmt_list, &a) &&
	    dattr_udata(&a, &stmt) == 0 && line_files(r, stmt) == 0) {
		r->lines.own_files = true;
		r->lines.nfiles = r->lines.nlfiles;
	} else if (die_own(cudie)) {
		if (r->dec->failed) {
			rd_dwfail(r, "dwarf_getsrcfiles");
			return -1;
		}
		if (die_has_attr(cudie, DW_AT_stmt_list)) {
			rd_fail(r,
				"line table header of the unit at .debug_info offset 0x%" PRIx64
				" is corrupt or uses a form kabi does not read",
				die_offset(cudie));
			return -1;
		}
	} else if (dwarf_getsrcfiles(&cudie->dw, &r->lines.files,
				     &r->lines.nfiles) != 0) {
		r->lines.files = NULL;
		r->lines.nfiles = 0;
		(void)dwarf_errno(); /* a unit without line table has no decl_file */
	}
	return 0;
}

/* A failure kabi's decoder keeps, reported. */
static bool dec_check(struct reader *r)
{
	if (r->own && r->dec->failed && !r->failed)
		rd_dwfail(r, "");
	return r->failed;
}

/* With sights: the name of the unit of CUDIE into the model, its file
 * named as declaration files are; a unit without one (a type unit) by
 * where it is. */
static void unit_name(struct reader *r, struct die *cudie)
{
	const char *name = die_name(cudie);
	char buf[48];

	if (name) {
		name = unit_file_name(r, name);
	} else {
		snprintf(buf, sizeof(buf), "<unit at 0x%" PRIx64 ">",
			 (uint64_t)die_offset(cudie));
		name = intern(r, buf);
	}
	model_unit(r->model, r->unit, name);
}

static void read_unit(struct reader *r, struct die *cudie)
{
	struct die c;
	size_t i;
	int rc;

	if (unit_files(r, cudie) != 0)
		return;
	if (r->opts->sights)
		unit_name(r, cudie);
	free(r->lines.file_names);
	r->lines.file_names = xcalloc(r->lines.nfiles ? r->lines.nfiles : 1,
				      sizeof(*r->lines.file_names));
	memo_clear(r);
	fp_clear(r);

	r->spell.ndone = 0;
	r->nanon_enums = 0;
	rc = die_child(cudie, &c);
	while (rc == 0 && !r->failed) {
		if (r->opts->compat && die_tag(&c) == DW_TAG_subprogram)
			read_scope(r, &c, 0);
		else
			read_top(r, &c);
		if (dec_check(r))
			return;
		rc = die_sibling(&c, &c);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
	if (r->spell.ndone)
		qsort(r->spell.done, r->spell.ndone, sizeof(*r->spell.done),
		      off_cmp);
	for (i = 0; i < r->nanon_enums && !r->failed; i++) {
		Dwarf_Off off = die_offset(&r->anon_enums[i]);

		if (!r->spell.ndone ||
		    !bsearch(&off, r->spell.done, r->spell.ndone,
			     sizeof(*r->spell.done), off_cmp))
			anon_top(r, &r->anon_enums[i]);
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

/* Whether unit DIE CUDIE of a unit of UNIT_TYPE is split DWARF, which
 * kabi does not read: then failed. */
static bool split_unit(struct reader *r, struct die *cudie, unsigned unit_type)
{
	if (unit_type != DW_UT_skeleton && unit_type != DW_UT_split_compile &&
	    unit_type != DW_UT_split_type &&
	    !die_has_attr(cudie, DW_AT_GNU_dwo_id) &&
	    !die_has_attr(cudie, DW_AT_GNU_dwo_name) &&
	    !die_has_attr(cudie, DW_AT_dwo_name))
		return false;
	rd_fail(r,
		"split DWARF (skeleton unit, types in a .dwo file) is not supported");
	return true;
}

/* Read the units whose index is SLOT modulo STRIDE, with libdw. */
static void read_dwarf(struct reader *r, Dwarf *dw, size_t stride, size_t slot)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t unit_type;
	struct die cudie = { .o.a = NULL }, subdie = { .o.a = NULL };
	size_t idx = 0;
	int rc;

	line_sections(r, dw);
	while (!r->failed &&
	       (rc = dwarf_get_units(dw, cu, &next, &version, &unit_type,
				     &cudie.dw, &subdie.dw)) == 0) {
		uint8_t asz = 0, osz = 0;

		cu = next;
		r->unit = idx;
		if (idx++ % stride != slot)
			continue;
		info_release(r, die_offset(&cudie));
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
		if (split_unit(r, &cudie, unit_type))
			return;
		if (!dwarf_diecu(&cudie.dw, &cudie.dw, &asz, &osz)) {
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

/*
 * Unit U of .debug_info read into r->ubuf, when the file holds the
 * section as it is.  A unit is read whole, and its copy reused for the
 * next: mapping the section and giving its pages back once read
 * (info_release) spent more time in the kernel than reading took.  0, or
 * -1 (failed).
 */
static int unit_copy(struct reader *r, struct unit *u)
{
	uint64_t n = u->end - u->off;
	ssize_t got;

	if (r->info_fd < 0 || u->types)
		return 0;
	if (n > r->ubuf_cap) {
		free(r->ubuf);
		r->ubuf_cap = n;
		r->ubuf = xmalloc(n);
	}
	got = pread(r->info_fd, r->ubuf, n, (off_t)(r->info_foff + u->off));
	if (got != (ssize_t)n) {
		rd_fail(r, "pread: %s",
			got < 0 ? strerror(errno) :
				  "file shorter than its sections");
		return -1;
	}
	dec_unit_data(u, r->ubuf);
	return 0;
}

/* Read the units whose index is SLOT modulo STRIDE, with kabi's decoder.
 * A type unit is read as a compilation unit is: its unit DIE's children
 * are the type and what it needs. */
static void read_own(struct reader *r, size_t stride, size_t slot)
{
	struct dec *d = r->dec;
	struct die cudie = { .o.a = NULL };
	size_t i;

	for (i = slot; i < d->nunits && !r->failed; i += stride) {
		struct unit *u = &d->units[i];

		r->unit = i;
		if (unit_copy(r, u) != 0)
			return;
		if (dec_unit_die(u, &cudie.o) != 0) {
			dec_check(r);
			return;
		}
		if (split_unit(r, &cudie, u->unit_type))
			return;
		r->addr_size = u->addr_size;
		read_unit(r, &cudie);
		dec_unit_data(u, NULL);
		dec_unit_done(u);
		dec_check(r);
	}
}

/* dec->peek: .debug_info read from the file, not its mapping. */
static int peek_file(void *ctx, uint64_t off, void *buf, size_t n)
{
	const struct reader *r = ctx;

	return pread(r->info_fd, buf, n, (off_t)(r->info_foff + off)) ==
			       (ssize_t)n ?
		       0 :
		       -1;
}

/* The sections and units of H for kabi's decoder, the units those FROM
 * (another thread's decoder of the input) found when given; 0, or -1
 * (failed). */
static int own_open(struct reader *r, struct handle *h, const struct dec *from)
{
	if (input_sections(r, h) != 0)
		return -1;
	if (r->info_fd >= 0) {
		r->dec->peek = peek_file;
		r->dec->peek_ctx = r;
	}
	if (from ? dec_units_share(r->dec, from) != 0 :
		   dec_units(r->dec) != 0) {
		dec_check(r);
		return -1;
	}
	if (r->opts->count)
		dec_tally_start(r->dec);
	return 0;
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

/* The same with kabi's decoder: the comp_dir of every unit DIE. */
static size_t unit_dirs_own(struct reader *r, char ***dirs)
{
	struct dec *d = r->dec;
	size_t n = 0, i, k = 0;
	struct sb b;

	*dirs = xcalloc(d->nunits + 1, sizeof(**dirs));
	sb_init(&b);
	for (i = 0; i < d->nunits; i++) {
		char *dir = NULL;

		if (dec_unit_string(&d->units[i], DW_AT_comp_dir, &dir) < 0)
			break;
		if (!dir)
			continue;
		path_normalise(&b, dir);
		free(dir);
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

/* Entry sizes of the reader's tables, which start empty; the decoder,
 * unless R reads with libdw. */
static void reader_init(struct reader *r)
{
	hset_init(&r->lines.fnames, sizeof(struct fname_ent), 0);
	r->spell.memo_gen = 1;
	r->fpm.gen = 1;
	hset_init(&r->seen, 2 * sizeof(uint64_t) + (r->opts->sights ? 8 : 0),
		  0);
	r->own = r->opts->reader != READER_LIBDW;
	r->info_fd = -1;
	if (r->own)
		r->dec = xcalloc(1, sizeof(*r->dec));
}

static void reader_release(struct reader *r)
{
	free(r->lines.file_names);
	free(r->lines.lfiles);
	hset_release(&r->lines.fnames);
	free(r->spell.ents);
	free(r->spell.index);
	fp_release(r);
	hset_release(&r->seen);
	free(r->spell.done);
	free(r->anon_enums);
	free(r->grp);
	r->grp = NULL;
	if (r->dec) {
		/* a thread's, kept for read_file to add to its own */
		r->tally = r->dec->tally;
		r->dec->tally = NULL;
		dec_release(r->dec);
	}
	free(r->dec);
	r->dec = NULL;
	free(r->ubuf);
	r->ubuf = NULL;
}

/* A helper thread: the units of one slot, into a model of its own. */
struct slot {
	struct reader r;
	const struct dec *from; /* slot 0's units, for kabi's decoder */
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
	if (!s->r.own)
		read_dwarf(&s->r, h.dw, s->stride, s->index);
	else if (own_open(&s->r, &h, s->from) == 0)
		read_own(&s->r, s->stride, s->index);
	reader_release(&s->r);
	handle_close(&h);
	return NULL;
}

/* Slots 1 to NSLOTS - 1 of the input of R, each read on a thread of its
 * own, or here when no thread starts; slot 0 is R's. */
static struct slot *slots_start(const struct reader *r, size_t nslots,
				const struct dec *from)
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
			.big_endian = r->big_endian,
			.lines = { .unit_dirs = r->lines.unit_dirs,
				   .nunit_dirs = r->lines.nunit_dirs }
		};
		reader_init(&s->r);
		s->from = from;
		s->stride = nslots;
		s->index = i;
		s->started = pthread_create(&s->tid, NULL, slot_main, s) == 0;
		if (!s->started)
			slot_main(s); /* no thread: same work, here */
	}
	return slots;
}

/* Join the threads of SLOTS (NSLOTS of them, from 1): keep the failure
 * of the earliest unit in R, or add their models to R's, and what their
 * decoders saw to R's decoder's tally. */
static void slots_finish(struct reader *r, struct slot *slots, size_t nslots)
{
	struct reader *first = r->failed ? r : NULL;
	struct dec_tally *t = r->dec ? r->dec->tally : NULL;
	size_t i;

	for (i = 1; i < nslots; i++) {
		struct slot *s = &slots[i];

		if (s->started)
			pthread_join(s->tid, NULL);
		if (s->r.failed &&
		    (!first || s->r.fail_unit < first->fail_unit))
			first = &s->r;
	}
	if (first && first != r) {
		free(*r->err);
		*r->err = *first->err;
		*first->err = NULL;
		r->failed = true;
	}
	for (i = 1; i < nslots; i++) {
		if (!r->failed)
			model_merge(r->model, slots[i].r.model);
		model_free(slots[i].r.model);
		free(slots[i].err);
		if (t && slots[i].r.tally)
			dec_tally_merge(t, slots[i].r.tally);
		dec_tally_free(slots[i].r.tally);
	}
	free(slots);
}

/* What the decoders of R's input saw (read_opts.count), into R's model. */
static void count_read(struct reader *r)
{
	struct dec_count c;

	if (dec_tally_count(r->dec, &c) != 0) {
		dec_check(r);
		return;
	}
	r->model->count = (struct read_count){ .units = c.units,
					       .dies = c.dies,
					       .decoded = c.decoded,
					       .stepped = c.stepped };
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

/* The units of R's input, checked, and the directories they name; 0, or
 * -1 (failed). */
static int units_survey(struct reader *r, struct handle *h, char ***dirs,
			size_t *ndirs, size_t *nunits)
{
	if (!r->own) {
		if (check_units(r, h->dw) != 0)
			return -1;
		*ndirs = unit_dirs_collect(h->dw, dirs);
		*nunits = count_units(h->dw);
		return 0;
	}
	if (own_open(r, h, NULL) != 0)
		return -1;
	*ndirs = unit_dirs_own(r, dirs);
	*nunits = r->dec->nunits;
	return dec_check(r) ? -1 : 0;
}

int read_file(struct model *m, const char *path, const struct read_opts *o,
	      char **err)
{
	struct reader r = { .path = path, .opts = o, .model = m, .err = err };
	struct slot *slots = NULL;
	size_t nslots = 1, nunits = 0;
	struct handle h;
	char *dbg = NULL, **dirs = NULL;
	size_t ndirs = 0;
	struct dec *snap = NULL;

	reader_init(&r);
	if (open_with_debug(&r, &h, &dbg) != 0) {
		reader_release(&r);
		return -1;
	}
	path = r.path;
	if (units_survey(&r, &h, &dirs, &ndirs, &nunits) != 0) {
		reader_release(&r);
		goto out;
	}
	r.lines.unit_dirs = (const char *const *)dirs;
	r.lines.nunit_dirs = ndirs;
	/* Large inputs are split by unit across threads, each with its own
	 * handles, since libdw handles are not shared between threads. */
	if (o->threads > 1) {
		nslots = nunits / 64 + 1;
		if (nslots > o->threads)
			nslots = o->threads;
	}
	/* kabi's decoders of the other threads take the units found here,
	 * from a copy that the reading here does not touch */
	if (nslots > 1 && r.own)
		snap = dec_snapshot(r.dec);
	if (nslots > 1)
		slots = slots_start(&r, nslots, snap);
	if (r.own)
		read_own(&r, nslots, 0);
	else
		read_dwarf(&r, h.dw, nslots, 0);
	slots_finish(&r, slots, nslots);
	/* and the units after the last one read */
	if (o->sights && nunits)
		model_unit(m, nunits - 1, NULL);
	if (r.dec && r.dec->tally && !r.failed)
		count_read(&r);
	reader_release(&r);
	if (snap)
		dec_release(snap);
	free(snap);
out:
	dec_tally_free(r.tally);
	handle_close(&h);
	unit_dirs_free(dirs, ndirs);
	free(dbg);
	return r.failed ? -1 : 0;
}
