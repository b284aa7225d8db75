// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading: ELF checks, then one pass over the CU-level DIEs of every unit.
 *
 * Only CU-level struct, union, enum and typedef DIEs start a type; in C
 * every type is defined at CU level, so subprogram and variable subtrees
 * are skipped whole.  Anonymous aggregates are materialised where they are
 * used, under a name made of the path that reaches them, so their names do
 * not depend on DIE order.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <elfutils/version.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kabi.h"

enum name_mode { AS_WRITTEN, RESOLVED };

/* How an anonymous aggregate met on the way is named. */
struct actx {
	const char *parent;	/* full name of the user: "struct foo" */
	const char *path;	/* "foo" + ".", the prefix of the new name */
	const char *seg;	/* "<anon@8>", "s" or "<anon>" */
	bool intrinsic;		/* set by the typedef itself: memo is safe */
};

/* A normalised file name by the addresses of the strings it came from
 * (units repeat the same line table entries): directory, name, unit's
 * compilation directory. */
struct fname_ent {
	const char *key[3];
	const char *norm;
};

/* A section's bytes as in the file. */
struct lsec {
	const unsigned char *p;
	size_t n;
};

struct memo_ent {
	Dwarf_Off off;
	const char *str[2];	/* per name_mode */
	uint64_t fp[2];		/* fingerprint, once fp_state is FP_DONE */
	uint32_t gen;		/* live while equal to the reader's memo_gen */
	uint8_t fp_state;
	int64_t align;		/* members_align, 0 until known */
};

enum { FP_NONE, FP_BUSY, FP_DONE, FP_NEVER };

struct reader {
	const char *path;
	char **err;		/* where the one failure message goes */
	const struct read_opts *opts;
	struct model *model;
	bool big_endian;
	bool failed;
	uint64_t info_size;	/* .debug_info bytes, 0 if compressed */
	bool debug_relocs;	/* ET_REL with relocations for .debug_* */
	bool relocated;		/* read through libdwfl, which applies them */
	size_t unit;		/* index of the unit being read */
	size_t fail_unit;	/* where the failure was, to pick one */
	/* per CU */
	Dwarf_Die cudie;
	uint8_t addr_size;
	const char *comp_dir;
	/* the compilation directories of all units, normalised, shortest
	 * first: a file is named relative to the shortest that holds it,
	 * whichever unit names it (shared by the slots of one input) */
	const char *const *unit_dirs;
	size_t nunit_dirs;
	Dwarf_Files *files;
	size_t nfiles;
	const char **file_names;	/* normalised, lazily */
	/* the unit's file table as read by line_files: directory (NULL for
	 * an absolute name) and name; used instead of files when own_files */
	struct lsec line_sec, line_str_sec, str_sec;
	/* .debug_info where it is the file's own mapping, and how much of
	 * it is given back (info_release) */
	struct lsec info_sec;
	Dwarf_Off info_dropped;
	const char *(*lfiles)[2];
	size_t nlfiles, lfiles_cap;
	bool own_files;
	/* decl_file names normalised so far, all units */
	struct fname_ent *fnames;
	size_t fnames_slots, fnames_n;
	struct memo_ent *memo;
	size_t memo_slots, memo_n;
	uint32_t memo_gen;	/* a new unit empties the memo in one step */
	/* fingerprints of the types emitted so far, all units */
	uint64_t (*seen)[2];
	size_t seen_slots, seen_n;
	/* anonymous DIEs materialised in this CU, and file-scope anonymous
	 * enums waiting to see whether a use names them first */
	Dwarf_Off *done;
	size_t ndone, done_cap;
	Dwarf_Die *anon_enums;
	size_t nanon_enums, anon_enums_cap;
	/* anonymous DIEs being materialised, against reference cycles */
	Dwarf_Off active[KABI_MAX_TYPE_DEPTH];
	unsigned nactive;
	unsigned depth;
	/* the DIEs being spelled, outermost first, and the work so far */
	Dwarf_Off spelling[KABI_MAX_TYPE_DEPTH + 1];
	unsigned long steps;
};

static void rd_fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void rd_fail(struct reader *r, const char *fmt, ...)
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

static void rd_dwfail(struct reader *r, const char *call)
{
	rd_fail(r, "%s: %s", call, dwarf_errmsg(-1));
}

static const char *intern(struct reader *r, const char *s)
{
	return strtab_intern(r->model->strs, s);
}

/* ---- attributes ------------------------------------------------------ */

/* 1 present, 0 absent, -1 error (reported) */
static int attr_udata(struct reader *r, Dwarf_Die *die, unsigned at,
		      Dwarf_Word *out)
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

/* DW_AT_byte_size, which must fit the model's signed sizes; 1, 0, -1 */
static int attr_size(struct reader *r, Dwarf_Die *die, Dwarf_Word *out)
{
	int rc = attr_udata(r, die, DW_AT_byte_size, out);

	if (rc == 1 && *out > (Dwarf_Word)INT64_MAX / 8) {
		rd_fail(r, "DW_AT_byte_size %" PRIu64 " too large at DIE 0x%" PRIx64,
			(uint64_t)*out, (uint64_t)dwarf_dieoffset(die));
		return -1;
	}
	return rc;
}

static int attr_flag(Dwarf_Die *die, unsigned at)
{
	Dwarf_Attribute a;
	bool f = false;

	if (!dwarf_attr(die, at, &a) || dwarf_formflag(&a, &f) != 0)
		return 0;
	return f;
}

/* DW_AT_type target; 1 found, 0 none (void), -1 error */
static int attr_type(struct reader *r, Dwarf_Die *die, Dwarf_Die *out)
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

/* ---- file names ------------------------------------------------------ */

/* Lexically normalise an absolute or relative path: drop "." and "//",
 * fold "dir/..", keep leading ".." of a relative path. */
static void path_normalise(struct sb *out, const char *p)
{
	bool abs = p[0] == '/';
	size_t base;

	sb_reset(out);
	if (abs)
		sb_add(out, "/");
	base = out->len;
	while (*p) {
		const char *e;
		size_t n;

		while (*p == '/')
			p++;
		e = strchr(p, '/');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.' &&
			   out->len > base &&
			   !(out->len - base >= 2 && strcmp(out->buf + out->len - 2, "..") == 0 &&
			     (out->len - base == 2 || out->buf[out->len - 3] == '/'))) {
			char *slash = strrchr(out->buf + base, '/');

			out->len = slash ? (size_t)(slash - out->buf) : base;
			out->buf[out->len] = '\0';
		} else if (!(n == 2 && p[0] == '.' && p[1] == '.' && abs)) {
			if (out->len > base)
				sb_add(out, "/");
			sb_addn(out, p, n);
		}
		p += n;
	}
}

static const char *strip_prefix(const char *p, const char *root)
{
	size_t n = strlen(root);

	while (n > 1 && root[n - 1] == '/')
		n--;
	/* "." normalises to "", which is no directory to strip */
	if (n && strncmp(p, root, n) == 0 && p[n] == '/')
		return p + n + 1;
	return NULL;
}

/* ---- file names from the line table header ---------------------------- */

/*
 * dwarf_getsrcfiles of elfutils before 0.191 decodes a unit's whole line
 * program to reach the file table in its header, and keeps the result
 * until dwarf_end: on a distro vmlinux that was a fifth of the time and
 * half of the memory.  For DWARF 5 units whose header uses the forms GCC
 * and Clang write, the table is read here from the header alone, with
 * libdw's spelling (a relative name joined to its directory by "/");
 * every other unit, and relocatable or compressed input, still goes
 * through libdw.
 */
struct lcur {
	const unsigned char *p, *end;
	bool big_endian, bad;
};

static uint64_t lc_fixed(struct lcur *c, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)c->p[c->big_endian ? n - 1 - i : i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t lc_uleb(struct lcur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (!c->bad) {
		unsigned char b;

		if (c->p == c->end || shift > 63) {
			c->bad = true;
			break;
		}
		b = *c->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static void lc_skip(struct lcur *c, uint64_t n)
{
	if (c->bad || (uint64_t)(c->end - c->p) < n)
		c->bad = true;
	else
		c->p += n;
}

/* A string of FORM at C; NULL (and C bad) for forms not read here. */
static const char *lc_string(struct reader *r, struct lcur *c, uint64_t form,
			     unsigned offsz)
{
	const struct lsec *s;
	const unsigned char *z;
	uint64_t off;

	switch (form) {
	case DW_FORM_string:
		z = c->bad ? NULL : memchr(c->p, '\0', (size_t)(c->end - c->p));
		if (!z) {
			c->bad = true;
			return NULL;
		}
		s = (const void *)c->p;	/* any pointer: the string starts here */
		c->p = z + 1;
		return (const char *)s;
	case DW_FORM_line_strp:
	case DW_FORM_strp:
		s = form == DW_FORM_strp ? &r->str_sec : &r->line_str_sec;
		off = lc_fixed(c, offsz);
		/* both sections end in a NUL (check_elf) */
		if (c->bad || !s->p || off >= s->n) {
			c->bad = true;
			return NULL;
		}
		return (const char *)s->p + off;
	default:
		c->bad = true;
		return NULL;
	}
}

/* Skip a value of FORM that is not a string. */
static uint64_t lc_value(struct lcur *c, uint64_t form)
{
	switch (form) {
	case DW_FORM_data1:
		return lc_fixed(c, 1);
	case DW_FORM_data2:
		return lc_fixed(c, 2);
	case DW_FORM_data4:
		return lc_fixed(c, 4);
	case DW_FORM_data8:
		return lc_fixed(c, 8);
	case DW_FORM_udata:
		return lc_uleb(c);
	case DW_FORM_data16:
		lc_skip(c, 16);
		return 0;
	case DW_FORM_block:
		lc_skip(c, lc_uleb(c));
		return 0;
	default:
		c->bad = true;
		return 0;
	}
}

#define LINE_MAX_FORMATS 16

/* Read the entry formats of a DWARF 5 directory or file table. */
static unsigned lc_formats(struct lcur *c, uint64_t fmt[][2])
{
	unsigned n = (unsigned)lc_fixed(c, 1), i;

	if (n > LINE_MAX_FORMATS) {
		c->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++) {
		fmt[i][0] = lc_uleb(c);
		fmt[i][1] = lc_uleb(c);
	}
	return n;
}

/* The file table of the unit whose line table is at OFF into r->lfiles:
 * 0, or -1 when libdw is to read it. */
static int line_files(struct reader *r, Dwarf_Word off)
{
	struct lcur c = { .big_endian = r->big_endian };
	uint64_t fmt[LINE_MAX_FORMATS][2], len, ndirs, nfiles, i;
	unsigned offsz = 4, nfmt, k;
	const char **dirs = NULL;

	r->nlfiles = 0;
	if (!r->line_sec.p || off >= r->line_sec.n)
		return -1;
	c.p = r->line_sec.p + off;
	c.end = r->line_sec.p + r->line_sec.n;
	len = lc_fixed(&c, 4);
	if (len == 0xffffffff) {
		offsz = 8;
		len = lc_fixed(&c, 8);
	}
	if (c.bad || len > (uint64_t)(c.end - c.p))
		return -1;
	c.end = c.p + len;
	if (lc_fixed(&c, 2) != 5)
		return -1;
	lc_skip(&c, 2);			/* address and segment selector size */
	lc_skip(&c, offsz);		/* header_length */
	lc_skip(&c, 4);			/* min_inst, max_ops, is_stmt, line_base */
	lc_skip(&c, 1);			/* line_range */
	k = (unsigned)lc_fixed(&c, 1);	/* opcode_base */
	lc_skip(&c, k ? k - 1 : 0);

	nfmt = lc_formats(&c, fmt);
	ndirs = lc_uleb(&c);
	if (c.bad || ndirs > (uint64_t)(c.end - c.p))
		return -1;
	dirs = xcalloc(ndirs ? ndirs : 1, sizeof(*dirs));
	for (i = 0; i < ndirs && !c.bad; i++)
		for (k = 0; k < nfmt; k++) {
			if (fmt[k][0] == DW_LNCT_path)
				dirs[i] = lc_string(r, &c, fmt[k][1], offsz);
			else
				lc_value(&c, fmt[k][1]);
		}
	nfmt = lc_formats(&c, fmt);
	nfiles = lc_uleb(&c);
	if (c.bad || nfiles > (uint64_t)(c.end - c.p)) {
		free(dirs);
		return -1;
	}
	if (nfiles > r->lfiles_cap) {
		r->lfiles_cap = nfiles;
		r->lfiles = xrealloc(r->lfiles, nfiles * sizeof(*r->lfiles));
	}
	for (i = 0; i < nfiles && !c.bad; i++) {
		const char *name = NULL;
		uint64_t dir = 0;

		for (k = 0; k < nfmt; k++) {
			if (fmt[k][0] == DW_LNCT_path)
				name = lc_string(r, &c, fmt[k][1], offsz);
			else if (fmt[k][0] == DW_LNCT_directory_index)
				dir = lc_value(&c, fmt[k][1]);
			else
				lc_value(&c, fmt[k][1]);
		}
		if (!name || dir >= ndirs || !dirs[dir])
			c.bad = true;
		else {
			r->lfiles[i][0] = name[0] == '/' ? NULL : dirs[dir];
			r->lfiles[i][1] = name;
		}
	}
	free(dirs);
	if (c.bad)
		return -1;
	r->nlfiles = nfiles;
	return 0;
}

/* Find the sections line_files reads, when it may read them. */
static void line_sections(struct reader *r, Dwarf *dw)
{
	Elf *elf = dwarf_getelf(dw);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || r->relocated || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		struct lsec *s;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(name, ".debug_info") == 0)
			s = &r->info_sec;
		else if (strcmp(name, ".debug_line") == 0)
			s = &r->line_sec;
		else if (strcmp(name, ".debug_line_str") == 0)
			s = &r->line_str_sec;
		else if (strcmp(name, ".debug_str") == 0)
			s = &r->str_sec;
		else
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) || sh.sh_type == SHT_NOBITS ||
		    !(d = elf_rawdata(scn, NULL)) || !d->d_buf || d->d_size != sh.sh_size)
			continue;
		s->p = d->d_buf;
		s->n = d->d_size;
	}
	/* only pages of the file mapping can be given back and read again */
	{
		size_t fsize;
		const char *base = elf_rawfile(elf, &fsize);
		const unsigned char *p = r->info_sec.p;

		if (!base || !p || (const char *)p < base ||
		    (const char *)p + r->info_sec.n > base + fsize)
			r->info_sec.p = NULL;
	}
}

/*
 * Give back the pages of .debug_info before offset UPTO.  The reader
 * rarely looks back (only DW_FORM_ref_addr does), and a page given back
 * is read again from the file if it does; without this, the resident
 * size of a run grows with .debug_info rather than with the types.
 */
static void info_release(struct reader *r, Dwarf_Off upto)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, to;

	if (!r->info_sec.p || upto <= r->info_dropped || page == (uintptr_t)-1)
		return;
	if (upto > r->info_sec.n)
		upto = r->info_sec.n;
	from = ((uintptr_t)r->info_sec.p + r->info_dropped) & ~(page - 1);
	to = ((uintptr_t)r->info_sec.p + upto) & ~(page - 1);
	if (to > from)
		(void)madvise((void *)from, to - from, MADV_DONTNEED);
	r->info_dropped = upto;
}

/* The slot of KEY in r->fnames: where it is, or the empty one to use. */
static struct fname_ent *fname_slot(struct reader *r, const char *const key[3])
{
	size_t i;

	if (2 * (r->fnames_n + 1) > r->fnames_slots) {
		struct fname_ent *old = r->fnames;
		size_t n = r->fnames_slots;

		r->fnames_slots = n ? 2 * n : 1024;
		r->fnames = xcalloc(r->fnames_slots, sizeof(*r->fnames));
		for (i = 0; i < n; i++)
			if (old[i].norm)
				*fname_slot(r, old[i].key) = old[i];
		free(old);
	}
	i = hash_bytes(key, 3 * sizeof(*key), 0) & (r->fnames_slots - 1);
	while (r->fnames[i].norm && memcmp(r->fnames[i].key, key, 3 * sizeof(*key)))
		i = (i + 1) & (r->fnames_slots - 1);
	return &r->fnames[i];
}

/* The last component of RAW when it is a compiler's pseudo-file such as
 * "<built-in>", which no directory qualifies; else NULL. */
static const char *pseudo_file(const char *raw)
{
	const char *base = strrchr(raw, '/');
	size_t n;

	base = base ? base + 1 : raw;
	n = strlen(base);
	return n > 2 && base[0] == '<' && base[n - 1] == '>' ? base : NULL;
}

/* NORM relative to a --root, else to the shortest unit directory that
 * holds it, else to the unit's own; NULL if none holds it.  ROOT is
 * scratch. */
static const char *relative_name(struct reader *r, const char *norm,
				 struct sb *root)
{
	const char *rel = NULL;
	size_t i;

	for (i = 0; i < r->opts->nroots && !rel; i++) {
		path_normalise(root, r->opts->roots[i]);
		rel = strip_prefix(norm, sb_str(root));
	}
	for (i = 0; i < r->nunit_dirs && !rel; i++)
		rel = strip_prefix(norm, r->unit_dirs[i]);
	if (!rel && r->comp_dir) {
		path_normalise(root, r->comp_dir);
		rel = strip_prefix(norm, sb_str(root));
	}
	return rel;
}

static const char *decl_file_name(struct reader *r, Dwarf_Word idx)
{
	struct sb raw, norm, root;
	const char *name, *rel = NULL;
	struct fname_ent *fe = NULL;

	if ((!r->files && !r->own_files) || idx >= r->nfiles)
		return NULL;
	if (r->file_names[idx])
		return r->file_names[idx];
	if (r->own_files) {
		const char *key[3] = { r->lfiles[idx][0], r->lfiles[idx][1], r->comp_dir };

		fe = fname_slot(r, key);
		if (fe->norm)
			return r->file_names[idx] = fe->norm;
		memcpy(fe->key, key, sizeof(key));
	}
	sb_init(&raw);
	sb_init(&norm);
	sb_init(&root);
	if (r->own_files && r->lfiles[idx][0]) {
		sb_add2(&raw, r->lfiles[idx][0], "/");
		sb_add(&raw, r->lfiles[idx][1]);
	} else if (r->own_files) {
		sb_add(&raw, r->lfiles[idx][1]);
	} else if ((name = dwarf_filesrc(r->files, idx, NULL, NULL))) {
		sb_add(&raw, name);
	} else {
		sb_release(&raw);
		return NULL;
	}
	if ((name = pseudo_file(sb_str(&raw)))) {
		rel = name;
	} else if (raw.buf[0] != '/' && r->comp_dir) {
		name = xstrdup(sb_str(&raw));
		sb_reset(&raw);
		sb_add2(&raw, r->comp_dir, "/");
		sb_add(&raw, name);
		free((char *)name);
	}
	if (!rel) {
		path_normalise(&norm, sb_str(&raw));
		rel = relative_name(r, sb_str(&norm), &root);
	}
	r->file_names[idx] = intern(r, rel ? rel : sb_str(&norm));
	if (fe) {
		fe->norm = r->file_names[idx];
		r->fnames_n++;
	}
	sb_release(&raw);
	sb_release(&norm);
	sb_release(&root);
	return r->file_names[idx];
}

static void get_decl(struct reader *r, Dwarf_Die *die, struct ktype *t)
{
	Dwarf_Word file, line;

	if (attr_udata(r, die, DW_AT_decl_file, &file) == 1) {
		t->decl_file = decl_file_name(r, file);
		if (attr_udata(r, die, DW_AT_decl_line, &line) == 1)
			t->decl_line = (uint32_t)line;
	}
}

/* ---- memo of type names, per CU -------------------------------------- */

static struct memo_ent *memo_slot(struct reader *r, Dwarf_Off off)
{
	size_t i;

	if (2 * (r->memo_n + 1) > r->memo_slots) {
		struct memo_ent *old = r->memo;
		size_t n = r->memo_slots;

		r->memo_slots = n ? 2 * n : 4096;
		r->memo = xcalloc(r->memo_slots, sizeof(*r->memo));
		r->memo_n = 0;
		for (i = 0; i < n; i++) {
			if (old[i].gen == r->memo_gen) {
				*memo_slot(r, old[i].off) = old[i];
			}
		}
		free(old);
	}
	i = (off * UINT64_C(0x9e3779b97f4a7c15)) >> 20 & (r->memo_slots - 1);
	while (r->memo[i].gen == r->memo_gen && r->memo[i].off != off)
		i = (i + 1) & (r->memo_slots - 1);
	if (r->memo[i].gen != r->memo_gen) {
		memset(&r->memo[i], 0, sizeof(r->memo[i]));
		r->memo[i].off = off;
		r->memo[i].gen = r->memo_gen;
		r->memo_n++;
	}
	return &r->memo[i];
}

static void memo_clear(struct reader *r)
{
	if (++r->memo_gen == 0) {
		if (r->memo)
			memset(r->memo, 0, r->memo_slots * sizeof(*r->memo));
		r->memo_gen = 1;
	}
	r->memo_n = 0;
}

/* ---- sizes ----------------------------------------------------------- */

/* An array bound.  dataN forms carry no sign; GCC and Clang write counts
 * and upper bounds such as 255 as data1 0xff, so only sdata and data8
 * (GCC's -1 upper bound of a zero-length array) are read as signed.
 * 1 read, 0 absent, 2 not a constant (a VLA), -1 error. */
static int attr_bound(struct reader *r, Dwarf_Die *die, unsigned at,
		      int64_t *out)
{
	Dwarf_Attribute a;
	Dwarf_Word u;
	Dwarf_Sword sv;

	if (!dwarf_attr(die, at, &a))
		return 0;
	switch (dwarf_whatform(&a)) {
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(&a, &sv) != 0) {
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
		if (dwarf_formudata(&a, &u) != 0) {
			rd_dwfail(r, "dwarf_formudata");
			return -1;
		}
		*out = dwarf_whatform(&a) == DW_FORM_data8 ? enum_value_signed(u) :
			u > INT64_MAX ? INT64_MAX : (int64_t)u;
		return 1;
	default:
		return 2;
	}
}

/* Element count of a subrange: 1 with *N (0 for [] and [0]), 2 for a
 * variable length, -1 error. */
static int subrange_count(struct reader *r, Dwarf_Die *sub, int64_t *n)
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

static int64_t type_size(struct reader *r, Dwarf_Die *die);

static int64_t array_size(struct reader *r, Dwarf_Die *die)
{
	Dwarf_Die sub, elem;
	int64_t total, n;
	Dwarf_Word v;
	int rc;

	if (attr_size(r, die, &v) == 1)
		return (int64_t)v;
	if (attr_type(r, die, &elem) != 1)
		return SIZE_UNKNOWN;
	total = type_size(r, &elem);
	if (total < 0)
		return SIZE_UNKNOWN;
	rc = dwarf_child(die, &sub);
	while (rc == 0) {
		if (dwarf_tag(&sub) == DW_TAG_subrange_type &&
		    subrange_count(r, &sub, &n) != 1)
			return SIZE_UNKNOWN;
		if (dwarf_tag(&sub) == DW_TAG_subrange_type) {
			if (n && total > INT64_MAX / n)
				return SIZE_UNKNOWN;
			total *= n;
		}
		rc = dwarf_siblingof(&sub, &sub);
	}
	if (rc < 0) {
		rd_dwfail(r, "dwarf_siblingof");
		return SIZE_UNKNOWN;
	}
	return total;
}

static int64_t type_size(struct reader *r, Dwarf_Die *die)
{
	Dwarf_Die t = *die;
	Dwarf_Word v;
	unsigned hops;

	for (hops = 0; hops < KABI_MAX_TYPE_DEPTH; hops++) {
		switch (dwarf_tag(&t)) {
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
			if (++r->depth > KABI_MAX_TYPE_DEPTH) {
				rd_fail(r, "type nesting deeper than %d at DIE 0x%" PRIx64,
					KABI_MAX_TYPE_DEPTH, (uint64_t)dwarf_dieoffset(&t));
				return SIZE_UNKNOWN;
			}
			{
				int64_t s = array_size(r, &t);

				r->depth--;
				return s;
			}
		case DW_TAG_subroutine_type:
			return SIZE_UNKNOWN;
		default:
			if (attr_size(r, &t, &v) == 1)
				return (int64_t)v;
			if (dwarf_tag(&t) == DW_TAG_enumeration_type &&
			    attr_type(r, &t, &t) == 1)
				continue;
			return SIZE_UNKNOWN;
		}
	}
	rd_fail(r, "type reference cycle at DIE 0x%" PRIx64,
		(uint64_t)dwarf_dieoffset(die));
	return SIZE_UNKNOWN;
}

/* ---- names ----------------------------------------------------------- */

static const char *base_name(struct reader *r, Dwarf_Die *die, struct sb *out)
{
	Dwarf_Word enc = 0, size = 0;
	unsigned bits;

	attr_udata(r, die, DW_AT_encoding, &enc);
	attr_size(r, die, &size);
	bits = (unsigned)size * 8;
	/* Spelled from encoding and size, so "long unsigned int" (GCC) and
	 * "unsigned long" (Clang) are one type. */
	switch (enc) {
	case DW_ATE_signed:
	case DW_ATE_signed_char:
		sb_addf(out, "int%u", bits);
		break;
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
		sb_addf(out, "uint%u", bits);
		break;
	case DW_ATE_boolean:
		if (bits == 8)
			sb_add(out, "bool");
		else
			sb_addf(out, "bool%u", bits);
		break;
	case DW_ATE_float:
		sb_addf(out, "float%u", bits);
		break;
	case DW_ATE_complex_float:
		sb_addf(out, "complex%u", bits);
		break;
	case DW_ATE_UTF:
		sb_addf(out, "char%u", bits);
		break;
	default:
		sb_addf(out, "base%u_%u", (unsigned)enc, bits);
	}
	return sb_str(out);
}

static bool is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type || tag == DW_TAG_enumeration_type;
}

static enum kind tag_kind(int tag)
{
	switch (tag) {
	case DW_TAG_union_type:
		return KIND_UNION;
	case DW_TAG_enumeration_type:
		return KIND_ENUM;
	case DW_TAG_typedef:
		return KIND_TYPEDEF;
	default:
		return KIND_STRUCT;
	}
}

static void emit_aggregate(struct reader *r, Dwarf_Die *die, const char *name,
			   const char *parent);
/*
 * An enumerator value held in a block: Clang writes the values of an enum
 * with a 128-bit underlying type as 16-byte blocks, and DWARF 5 has
 * DW_FORM_data16 for the same.  The bytes are in the target's order.
 * Values up to 128 bits are read; a value that does not fit its enum is
 * an error rather than a silent truncation.
 */
static bool enum_block_value(struct reader *r, Dwarf_Attribute *a,
			     Dwarf_Die *die, const char *name,
			     const struct ktype *t, struct enumerator *e)
{
	Dwarf_Block blk;
	uint64_t lo = 0, hi = 0;
	size_t i;

	if (dwarf_formblock(a, &blk) != 0) {
		rd_dwfail(r, "dwarf_formblock");
		return false;
	}
	if (blk.length == 0 || blk.length > 16) {
		rd_fail(r, "enumerator '%s' at DIE 0x%" PRIx64 " has a %zu-byte value; kabi reads values of 1 to 16 bytes",
			name, (uint64_t)dwarf_dieoffset(die), (size_t)blk.length);
		return false;
	}
	for (i = 0; i < blk.length; i++) {
		/* byte i from the least significant end */
		uint64_t byte = blk.data[r->big_endian ? blk.length - 1 - i : i];

		if (i < 8)
			lo |= byte << (8 * i);
		else
			hi |= byte << (8 * (i - 8));
	}
	if (t->is_signed && blk.length < 16 &&
	    blk.data[r->big_endian ? 0 : blk.length - 1] & 0x80) {
		/* sign-extend from blk.length bytes to 128 bits */
		if (blk.length < 8) {
			lo |= ~UINT64_C(0) << (8 * blk.length);
			hi = ~UINT64_C(0);
		} else {
			hi |= blk.length == 8 ? ~UINT64_C(0) :
			      ~UINT64_C(0) << (8 * (blk.length - 8));
		}
	}
	if (t->size <= 8 && t->size > 0) {
		/* an enum of up to 64 bits keeps its value in 'value' */
		uint64_t ext = t->is_signed && lo >> 63 ? ~UINT64_C(0) : 0;

		if (hi != ext) {
			rd_fail(r, "enumerator '%s' at DIE 0x%" PRIx64 " has a value wider than its %" PRId64 "-byte enum",
				name, (uint64_t)dwarf_dieoffset(die), t->size);
			return false;
		}
		hi = 0;
	}
	e->value = lo;
	e->hi = hi;
	return true;
}

static void emit_enum(struct reader *r, Dwarf_Die *die, const char *name,
		      const char *parent);

/* Name of an anonymous aggregate met through CTX; materialise it. */
static const char *anon_name(struct reader *r, Dwarf_Die *die,
			     enum name_mode mode, const struct actx *ctx,
			     struct sb *out)
{
	int tag = dwarf_tag(die);
	enum kind k = tag_kind(tag);
	const char *name;
	Dwarf_Off off = dwarf_dieoffset(die);
	unsigned i;
	struct sb full;

	sb_init(&full);
	if (ctx)
		sb_add2(&full, ctx->path, ctx->seg);
	else
		sb_add(&full, "<anon>");
	name = intern(r, sb_str(&full));
	sb_release(&full);
	sb_add2(out, kind_name(k), " ");
	sb_add(out, name);
	/* materialised once, from the as-written pass */
	if (mode != AS_WRITTEN)
		return sb_str(out);
	for (i = 0; i < r->nactive; i++)
		if (r->active[i] == off)
			return sb_str(out);	/* a cycle: named, not re-emitted */
	if (r->nactive == KABI_MAX_TYPE_DEPTH) {
		rd_fail(r, "anonymous types nested deeper than %d at DIE 0x%" PRIx64,
			KABI_MAX_TYPE_DEPTH, (uint64_t)off);
		return sb_str(out);
	}
	r->active[r->nactive++] = off;
	if (r->ndone == r->done_cap) {
		r->done_cap = r->done_cap ? 2 * r->done_cap : 64;
		r->done = xrealloc(r->done, r->done_cap * sizeof(*r->done));
	}
	r->done[r->ndone++] = off;
	if (k == KIND_ENUM)
		emit_enum(r, die, name, ctx ? ctx->parent : NULL);
	else
		emit_aggregate(r, die, name, ctx ? ctx->parent : NULL);
	r->nactive--;
	return sb_str(out);
}

/* Qualifier bits in print order. */
enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_ATOMIC = 8 };

static void add_quals(struct sb *b, unsigned q)
{
	if (q & Q_CONST)
		sb_add(b, "const ");
	if (q & Q_VOLATILE)
		sb_add(b, "volatile ");
	if (q & Q_RESTRICT)
		sb_add(b, "restrict ");
	if (q & Q_ATOMIC)
		sb_add(b, "_Atomic ");
}

static void join(struct sb *out, const char *head, const char *inner)
{
	sb_add(out, head);
	if (*inner) {
		sb_add(out, " ");
		sb_add(out, inner);
	}
}

static void type_decl(struct reader *r, Dwarf_Die *die, enum name_mode mode,
		      const struct actx *ctx, const char *inner, struct sb *out,
		      bool *ctx_used);
static void type_decl_q(struct reader *r, Dwarf_Die *die, enum name_mode mode,
			const struct actx *ctx, const char *inner,
			struct sb *out, bool *ctx_used, unsigned q0);

static void params_decl(struct reader *r, Dwarf_Die *fn, enum name_mode mode,
			const struct actx *ctx, struct sb *out, bool *ctx_used)
{
	Dwarf_Die p, t;
	int rc, n = 0;
	struct sb one;

	sb_add(out, "(");
	sb_init(&one);
	rc = dwarf_child(fn, &p);
	while (rc == 0) {
		int tag = dwarf_tag(&p);

		if (tag == DW_TAG_formal_parameter) {
			sb_reset(&one);
			switch (attr_type(r, &p, &t)) {
			case 1:
				type_decl(r, &t, mode, ctx, "", &one, ctx_used);
				break;
			case 0:
				sb_add(&one, "void");
				break;
			default:
				break;
			}
			sb_add(out, n++ ? ", " : "");
			sb_add(out, sb_str(&one));
		} else if (tag == DW_TAG_unspecified_parameters) {
			sb_add(out, n++ ? ", ..." : "...");
		}
		rc = dwarf_siblingof(&p, &p);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
	if (n == 0 && attr_flag(fn, DW_AT_prototyped))
		sb_add(out, "void");
	sb_add(out, ")");
	sb_release(&one);
}

static void type_decl(struct reader *r, Dwarf_Die *die, enum name_mode mode,
		      const struct actx *ctx, const char *inner, struct sb *out,
		      bool *ctx_used)
{
	type_decl_q(r, die, mode, ctx, inner, out, ctx_used, 0);
}

/*
 * What a pointer to DIE points at, for the spelling: the tag seen through
 * qualifiers and, when MODE resolves them, typedefs.  A pointer to an
 * array or function needs parentheses: "int32 (*)[4]", "void (*)(int32)";
 * a typedef hides that only while its name is printed.
 */
static int pointee_tag(struct reader *r, Dwarf_Die *die, enum name_mode mode)
{
	Dwarf_Die t = *die;
	unsigned hops = 0;
	int tag = dwarf_tag(&t);

	while ((tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
		tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type ||
		(tag == DW_TAG_typedef && mode == RESOLVED)) &&
	       hops++ < KABI_MAX_TYPE_DEPTH && attr_type(r, &t, &t) == 1)
		tag = dwarf_tag(&t);
	return tag;
}

/* The declarator of pointer (or reference) DIE with TAG and qualifiers
 * QUALS around INNER; see type_decl_q. */
static void pointer_decl(struct reader *r, Dwarf_Die *die, int tag,
			 unsigned quals, enum name_mode mode,
			 const struct actx *ctx, const char *inner,
			 struct sb *out, bool *ctx_used)
{
	const char *star = tag == DW_TAG_pointer_type ? "*" :
			   tag == DW_TAG_reference_type ? "&" : "&&";
	struct sb tmp, head;
	Dwarf_Die next;
	int rc;

	sb_init(&tmp);
	sb_init(&head);
	sb_add(&tmp, star);
	if (quals) {
		sb_add(&tmp, " ");
		add_quals(&tmp, quals);
		tmp.len--;	/* drop the trailing space */
		tmp.buf[tmp.len] = '\0';
	}
	if (*inner) {
		if (quals || (inner[0] != '*' && inner[0] != '(' && inner[0] != '&'))
			sb_add(&tmp, " ");
		sb_add(&tmp, inner);
	}
	rc = attr_type(r, die, &next);
	if (rc == 0)
		join(out, "void", sb_str(&tmp));
	if (rc <= 0)
		goto out;
	/* qualifiers on a function type are GCC's way to say noreturn or
	 * const (a "volatile" function), not C: the function case of
	 * type_decl_q drops them */
	tag = pointee_tag(r, &next, mode);
	if (tag == DW_TAG_array_type || tag == DW_TAG_subroutine_type) {
		sb_add2(&head, "(", sb_str(&tmp));
		sb_add(&head, ")");
		type_decl(r, &next, mode, ctx, sb_str(&head), out, ctx_used);
	} else {
		type_decl(r, &next, mode, ctx, sb_str(&tmp), out, ctx_used);
	}
out:
	sb_release(&tmp);
	sb_release(&head);
}

/*
 * C declarator for DIE around INNER: pointer and qualifier text goes to
 * the left of INNER, array and function suffixes to its right.  Q0 holds
 * qualifiers applied from outside, through a typedef being resolved.
 */
static void type_decl_q(struct reader *r, Dwarf_Die *die, enum name_mode mode,
			const struct actx *ctx, const char *inner,
			struct sb *out, bool *ctx_used, unsigned q0)
{
	Dwarf_Die t = *die, next;
	unsigned quals = q0, qhops = 0;
	struct sb tmp, head;
	const char *name;
	int tag, rc;

	if (r->failed)
		return;
	if (++r->depth > KABI_MAX_TYPE_DEPTH) {
		rd_fail(r, "type reference cycle or nesting deeper than %d at DIE 0x%" PRIx64,
			KABI_MAX_TYPE_DEPTH, (uint64_t)dwarf_dieoffset(die));
		r->depth--;
		return;
	}
	/* A DIE inside its own spelling is a cycle no C type has; shared
	 * function and pointer types could still make the spelling grow
	 * exponentially, hence the step budget. */
	{
		Dwarf_Off off = dwarf_dieoffset(die);
		unsigned i;

		for (i = 0; i + 1 < r->depth; i++) {
			if (r->spelling[i] == off) {
				rd_fail(r, "type reference cycle at DIE 0x%" PRIx64,
					(uint64_t)off);
				r->depth--;
				return;
			}
		}
		r->spelling[r->depth - 1] = off;
		if (++r->steps > KABI_MAX_NAME_STEPS) {
			rd_fail(r, "type at DIE 0x%" PRIx64 " takes more than %d steps to spell",
				(uint64_t)r->spelling[0], KABI_MAX_NAME_STEPS);
			r->depth--;
			return;
		}
	}
	sb_init(&tmp);
	sb_init(&head);
	/* Qualifiers collapse into one set: producers order them differently. */
	for (;;) {
		tag = dwarf_tag(&t);
		if (tag == DW_TAG_const_type)
			quals |= Q_CONST;
		else if (tag == DW_TAG_volatile_type)
			quals |= Q_VOLATILE;
		else if (tag == DW_TAG_restrict_type)
			quals |= Q_RESTRICT;
		else if (tag == DW_TAG_atomic_type)
			quals |= Q_ATOMIC;
		else
			break;
		rc = attr_type(r, &t, &t);
		if (rc < 0)
			goto out;
		if (rc == 0) {
			add_quals(&head, quals);
			sb_add(&head, "void");
			join(out, sb_str(&head), inner);
			goto out;
		}
		if (++qhops > KABI_MAX_TYPE_DEPTH) {
			rd_fail(r, "type reference cycle through qualifiers at DIE 0x%" PRIx64,
				(uint64_t)dwarf_dieoffset(die));
			goto out;
		}
	}

	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		pointer_decl(r, &t, tag, quals, mode, ctx, inner, out, ctx_used);
		goto out;
	case DW_TAG_array_type: {
		Dwarf_Die sub;

		sb_add(&tmp, inner);
		rc = dwarf_child(&t, &sub);
		while (rc == 0) {
			if (dwarf_tag(&sub) == DW_TAG_subrange_type) {
				int64_t n;

				/* [0] (Clang) and [] (GCC) are one layout */
				switch (subrange_count(r, &sub, &n)) {
				case 1:
					if (n > 0)
{
						sb_add(&tmp, "[");
						sb_addu(&tmp, (uint64_t)n);
						sb_add(&tmp, "]");
					}
					else
						sb_add(&tmp, "[]");
					break;
				case 2:
					sb_add(&tmp, "[*]");
					break;
				default:
					goto out;
				}
			}
			rc = dwarf_siblingof(&sub, &sub);
		}
		if (rc < 0) {
			rd_dwfail(r, "dwarf_siblingof");
			goto out;
		}
		rc = attr_type(r, &t, &next);
		if (rc <= 0) {
			if (rc == 0)
				rd_fail(r, "array without element type at DIE 0x%" PRIx64,
					(uint64_t)dwarf_dieoffset(&t));
			goto out;
		}
		/* qualifiers of an array apply to its elements */
		type_decl_q(r, &next, mode, ctx, sb_str(&tmp), out, ctx_used, quals);
		goto out;
	}
	case DW_TAG_subroutine_type: {
		sb_add(&tmp, inner);
		params_decl(r, &t, mode, ctx, &tmp, ctx_used);
		rc = attr_type(r, &t, &next);
		if (rc < 0)
			goto out;
		if (rc == 0)
			join(out, "void", sb_str(&tmp));
		else
			type_decl(r, &next, mode, ctx, sb_str(&tmp), out, ctx_used);
		goto out;
	}
	case DW_TAG_typedef:
		if (mode == RESOLVED) {
			struct actx tctx;
			struct sb path;
			bool unused = false;

			rc = attr_type(r, &t, &next);
			if (rc < 0)
				goto out;
			if (rc == 0) {
				add_quals(&head, quals);
				sb_add(&head, "void");
				join(out, sb_str(&head), inner);
				goto out;
			}
			sb_init(&path);
			name = dwarf_diename(&t);
			sb_addf(&path, "typedef %s", name ? name : "<anon>");
			tctx.parent = intern(r, sb_str(&path));
			sb_reset(&path);
			sb_addf(&path, "%s.", name ? name : "<anon>");
			tctx.path = sb_str(&path);
			tctx.seg = "<anon>";
			tctx.intrinsic = true;
			/* "const T" with T a pointer typedef is "U * const" */
			type_decl_q(r, &next, mode, &tctx, inner, out, &unused, quals);
			sb_release(&path);
			goto out;
		}
		/* fall through */
	default:
		name = dwarf_diename(&t);
		add_quals(&head, quals);
		if (tag == DW_TAG_base_type) {
			base_name(r, &t, &head);
		} else if (tag == DW_TAG_typedef || tag == DW_TAG_unspecified_type) {
			sb_add(&head, name ? name : "<anon>");
		} else if (is_aggregate(tag)) {
			if (name) {
				sb_add2(&head, kind_name(tag_kind(tag)), " ");
				sb_add(&head, name);
			} else if (!attr_flag(&t, DW_AT_declaration)) {
				if (ctx && !ctx->intrinsic)
					*ctx_used = true;
				anon_name(r, &t, mode, ctx, &head);
			} else {
				sb_addf(&head, "%s <anon>", kind_name(tag_kind(tag)));
			}
		} else {
			rd_fail(r, "unexpected DWARF tag 0x%x as a type at DIE 0x%" PRIx64,
				(unsigned)tag, (uint64_t)dwarf_dieoffset(&t));
			goto out;
		}
		join(out, sb_str(&head), inner);
	}
out:
	r->depth--;
	sb_release(&tmp);
	sb_release(&head);
}

/* Interned name of the type DIE, memoised when context free. */
static const char *type_name(struct reader *r, Dwarf_Die *die,
			     enum name_mode mode, const struct actx *ctx)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	struct memo_ent *e = memo_slot(r, off);
	bool ctx_used = false;
	const char *s;
	struct sb out;

	if (e->str[mode])
		return e->str[mode];
	if (r->depth == 0)
		r->steps = 0;
	sb_init(&out);
	type_decl(r, die, mode, ctx, "", &out, &ctx_used);
	s = intern(r, sb_str(&out));
	sb_release(&out);
	if (!ctx_used && !r->failed)
		memo_slot(r, off)->str[mode] = s;
	return s;
}


/* ---- alignment ------------------------------------------------------- */

/*
 * The alignment C gives a type, from what DWARF says about it, for the
 * diff: producers record DW_AT_alignment differently (GCC the alignment a
 * struct ends up with, Clang the attribute's value, and a member's
 * attribute on the member only), but the largest explicit alignment met,
 * raised to what the members need, is one number for both.  A scalar
 * needs the largest power of two dividing its size (a complex number
 * half that); a struct with a member at an offset its alignment does not
 * allow, or a size that is not a multiple of it, is packed and counts
 * only explicit alignments.  Exact for the ABIs kabi is used on; where a
 * psABI aligns a scalar below its size (i386 double), both sides of a
 * diff are off the same way.
 */
static int64_t members_align(struct reader *r, Dwarf_Die *die, unsigned depth);
static int member_location(struct reader *r, Dwarf_Die *die, Dwarf_Word *off);

static int64_t scalar_align(struct reader *r, Dwarf_Die *die, int64_t size)
{
	Dwarf_Word enc = 0;

	if (dwarf_tag(die) == DW_TAG_base_type &&
	    attr_udata(r, die, DW_AT_encoding, &enc) == 1 &&
	    enc == DW_ATE_complex_float)
		size /= 2;
	return size > 0 ? size & -size : 1;
}

static int64_t type_align(struct reader *r, Dwarf_Die *die, unsigned depth)
{
	Dwarf_Die t = *die;
	int64_t best = 1, a = 1;
	unsigned hops;
	Dwarf_Word v;

	for (hops = 0; hops < KABI_MAX_TYPE_DEPTH && !r->failed; hops++) {
		int tag = dwarf_tag(&t);

		if (attr_udata(r, &t, DW_AT_alignment, &v) == 1 && (int64_t)v > best)
			best = (int64_t)v;
		if (tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
		    tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
		    tag == DW_TAG_atomic_type || tag == DW_TAG_array_type) {
			if (attr_type(r, &t, &t) != 1)
				break;
			continue;
		}
		if (is_aggregate(tag) && tag != DW_TAG_enumeration_type)
			a = members_align(r, &t, depth + 1);
		else if (tag != DW_TAG_subroutine_type)
			a = scalar_align(r, &t, type_size(r, &t));
		break;
	}
	return a > best ? a : best;
}

/* Whether member C, of alignment A, sits where A does not allow. */
static bool misplaced(struct reader *r, Dwarf_Die *c, int64_t a)
{
	Dwarf_Word loc;

	if (dwarf_hasattr(c, DW_AT_bit_size) || a <= 1)
		return false;
	return member_location(r, c, &loc) == 1 && loc % (Dwarf_Word)a != 0;
}

/* The alignment the members of struct or union DIE give it, memoised. */
static int64_t members_align(struct reader *r, Dwarf_Die *die, unsigned depth)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	int64_t nat = 1, expl = 1, a;
	bool packed = false;
	Dwarf_Die c, mt;
	Dwarf_Word v;
	int rc;

	if (memo_slot(r, off)->align)
		return memo_slot(r, off)->align;
	if (depth > KABI_MAX_TYPE_DEPTH)
		return 1;	/* a struct inside itself: no C type */
	for (rc = dwarf_child(die, &c); rc == 0 && !r->failed;
	     rc = dwarf_siblingof(&c, &c)) {
		if (dwarf_tag(&c) != DW_TAG_member)
			continue;
		if (attr_udata(r, &c, DW_AT_alignment, &v) == 1 && (int64_t)v > expl)
			expl = (int64_t)v;
		a = attr_type(r, &c, &mt) == 1 ? type_align(r, &mt, depth) : 1;
		packed |= misplaced(r, &c, a);
		nat = a > nat ? a : nat;
	}
	if (attr_size(r, die, &v) == 1 && v % (Dwarf_Word)nat != 0)
		packed = true;
	a = packed || expl > nat ? expl : nat;
	memo_slot(r, off)->align = a;
	return a;
}

/* ---- types ----------------------------------------------------------- */

static int member_location(struct reader *r, Dwarf_Die *die, Dwarf_Word *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	*off = 0;
	if (!dwarf_attr(die, DW_AT_data_member_location, &a))
		return 0;
	switch (dwarf_whatform(&a)) {
	case DW_FORM_exprloc:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		if (dwarf_getlocation(&a, &ops, &n) != 0) {
			rd_dwfail(r, "dwarf_getlocation");
			return -1;
		}
		if (n == 1 && (ops[0].atom == DW_OP_plus_uconst ||
			       ops[0].atom == DW_OP_constu)) {
			*off = ops[0].number;
			return 1;
		}
		rd_fail(r, "unsupported member location expression at DIE 0x%" PRIx64,
			(uint64_t)dwarf_dieoffset(die));
		return -1;
	default:
		if (dwarf_formudata(&a, off) != 0) {
			rd_dwfail(r, "dwarf_formudata");
			return -1;
		}
		return 1;
	}
}

static void emit(struct reader *r, struct ktype *t)
{
	if (!r->failed)
		model_add(r->model, t);
}

static void emit_aggregate(struct reader *r, Dwarf_Die *die, const char *name,
			   const char *parent)
{
	struct ktype t = { .kind = tag_kind(dwarf_tag(die)), .name = name,
			   .parent = parent, .size = SIZE_UNKNOWN };
	struct member *mv = NULL;
	size_t cap = 0;
	Dwarf_Die c, mt;
	Dwarf_Word v;
	int rc;
	struct sb full, seg, path;
	const char *parent_name;

	sb_init(&full);
	sb_init(&seg);
	sb_init(&path);
	sb_add2(&full, kind_name(t.kind), " ");
	sb_add(&full, name);
	parent_name = intern(r, sb_str(&full));
	sb_add2(&path, name, ".");
	if (attr_size(r, die, &v) == 1)
		t.size = (int64_t)v;
	if (attr_udata(r, die, DW_AT_alignment, &v) == 1)
		t.align = (int64_t)v;
	t.natural_align = members_align(r, die, 0);
	get_decl(r, die, &t);

	rc = dwarf_child(die, &c);
	while (rc == 0 && !r->failed) {
		struct member m = { .size = SIZE_UNKNOWN };
		Dwarf_Word loc, bs, bo, storage;
		struct actx ctx;
		uint32_t i;

		if (dwarf_tag(&c) != DW_TAG_member)
			goto next;
		m.name = dwarf_diename(&c);
		if (m.name)
			m.name = intern(r, m.name);
		if (member_location(r, &c, &loc) < 0)
			break;
		if (attr_udata(r, &c, DW_AT_data_bit_offset, &bo) == 1) {
			m.bitpos = bo;
		} else {
			m.bitpos = loc * 8;
		}
		if (attr_udata(r, &c, DW_AT_bit_size, &bs) == 1 && bs) {
			m.bitsize = (uint32_t)bs;
			if (!dwarf_hasattr(&c, DW_AT_data_bit_offset) &&
			    attr_udata(r, &c, DW_AT_bit_offset, &bo) == 1) {
				/* DWARF 2-4: offset of the storage unit plus a
				 * bit offset counted from its most significant
				 * bit; the storage unit is DW_AT_byte_size or
				 * the member type's size. */
				if (attr_size(r, &c, &storage) != 1) {
					int64_t s = -1;

					if (attr_type(r, &c, &mt) == 1)
						s = type_size(r, &mt);
					storage = s < 0 ? 0 : (Dwarf_Word)s;
				}
				if (r->big_endian)
					m.bitpos = loc * 8 + bo;
				else
					m.bitpos = loc * 8 + storage * 8 - bo - bs;
			}
		}
		/* anonymous types met from here are named by this member */
		sb_reset(&seg);
		if (m.name) {
			sb_add(&seg, m.name);
		} else {
			unsigned dup = 1;

			for (i = 0; i < t.n; i++)
				if (!mv[i].name && mv[i].bitpos / 8 == m.bitpos / 8)
					dup++;
			sb_add(&seg, "<anon@");
			sb_addu(&seg, m.bitpos / 8);
			if (dup > 1)
				sb_addf(&seg, "#%u", dup);
			sb_add(&seg, ">");
		}
		{
			ctx.parent = parent_name;
			ctx.path = sb_str(&path);
			ctx.seg = sb_str(&seg);
			ctx.intrinsic = false;
			rc = attr_type(r, &c, &mt);
			if (rc == 1) {
				m.type = type_name(r, &mt, AS_WRITTEN, &ctx);
				m.resolved = type_name(r, &mt, RESOLVED, &ctx);
				m.size = type_size(r, &mt);
				/* Clang drops DW_AT_bit_size from a bitfield
				 * that fills its type; GCC keeps it */
				if (m.bitsize && m.size > 0 && m.bitpos % 8 == 0 &&
				    (int64_t)m.bitsize == m.size * 8)
					m.bitsize = 0;
			} else if (rc == 0) {
				rd_fail(r, "member without type at DIE 0x%" PRIx64,
					(uint64_t)dwarf_dieoffset(&c));
			}
		}
		if (r->failed)
			break;
		if (t.n == cap) {
			cap = cap ? 2 * cap : 16;
			mv = xrealloc(mv, cap * sizeof(*mv));
		}
		mv[t.n++] = m;
next:
		rc = dwarf_siblingof(&c, &c);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
	t.members = mv;
	emit(r, &t);
	free(mv);
	sb_release(&full);
	sb_release(&seg);
	sb_release(&path);
}

static void emit_enum(struct reader *r, Dwarf_Die *die, const char *name,
		      const char *parent)
{
	struct ktype t = { .kind = KIND_ENUM, .name = name, .parent = parent,
			   .size = SIZE_UNKNOWN };
	struct enumerator *ev = NULL;
	size_t cap = 0;
	Dwarf_Die c, ut;
	Dwarf_Word v;
	int rc, pass;
	bool known = false;

	if (attr_size(r, die, &v) == 1)
		t.size = (int64_t)v;
	get_decl(r, die, &t);
	if (attr_type(r, die, &ut) == 1) {
		Dwarf_Die b = ut;
		Dwarf_Word enc;

		t.underlying = type_name(r, &ut, RESOLVED, NULL);
		while (dwarf_tag(&b) == DW_TAG_typedef && attr_type(r, &b, &b) == 1)
			;
		if (attr_udata(r, &b, DW_AT_encoding, &enc) == 1) {
			t.is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
			known = true;
		}
	}

	/* pass 0 collects values and, without DW_AT_type, the signedness */
	for (pass = 0; pass < 2 && !r->failed; pass++) {
		rc = dwarf_child(die, &c);
		t.n = 0;
		while (rc == 0 && !r->failed) {
			Dwarf_Attribute a;
			struct enumerator e;
			unsigned form;

			if (dwarf_tag(&c) != DW_TAG_enumerator)
				goto next;
			e.name = intern(r, dwarf_diename(&c) ? dwarf_diename(&c) : "<anon>");
			if (!dwarf_attr(&c, DW_AT_const_value, &a)) {
				rd_fail(r, "enumerator without value at DIE 0x%" PRIx64,
					(uint64_t)dwarf_dieoffset(&c));
				break;
			}
			form = dwarf_whatform(&a);
			e.hi = 0;
			if (form == DW_FORM_data16 || form == DW_FORM_block1 ||
			    form == DW_FORM_block2 || form == DW_FORM_block4 ||
			    form == DW_FORM_block) {
				if (!enum_block_value(r, &a, &c, e.name, &t, &e))
					break;
			} else if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
				Dwarf_Sword s;

				if (dwarf_formsdata(&a, &s) != 0) {
					rd_dwfail(r, "dwarf_formsdata");
					break;
				}
				e.value = (uint64_t)s;
				if (s < 0 && !known && pass == 0)
					t.is_signed = true;
			} else if (form == DW_FORM_udata || form == DW_FORM_data1 ||
				   form == DW_FORM_data2 || form == DW_FORM_data4 ||
				   form == DW_FORM_data8) {
				if (dwarf_formudata(&a, &e.value) != 0) {
					rd_dwfail(r, "dwarf_formudata");
					break;
				}
				/* Fixed-size forms carry no sign.  A form as
				 * wide as a signed enum holds its two's
				 * complement; a narrower one is GCC's way to
				 * write a positive value (it uses sdata for
				 * negative ones), e.g. data4 0x80000000 in an
				 * 8-byte enum. */
				unsigned bits = form == DW_FORM_data1 ? 8 :
						form == DW_FORM_data2 ? 16 :
						form == DW_FORM_data4 ? 32 : 64;

				if (t.is_signed && form != DW_FORM_udata && bits < 64 &&
				    t.size > 0 && (int64_t)bits >= t.size * 8) {
					if (e.value >> (bits - 1) & 1)
						e.value |= ~UINT64_C(0) << bits;
				}
			} else {
				rd_fail(r, "enumerator '%s' at DIE 0x%" PRIx64 " has a value of form 0x%x, which is not a constant",
					e.name, (uint64_t)dwarf_dieoffset(&c), form);
				break;
			}
			/* a negative value in an enum wider than 64 bits */
			if (t.size > 8 && t.is_signed && e.hi == 0 &&
			    form != DW_FORM_data16 && form != DW_FORM_block1 &&
			    form != DW_FORM_block2 && form != DW_FORM_block4 &&
			    form != DW_FORM_block && e.value >> 63)
				e.hi = ~UINT64_C(0);
			if (pass == 1) {
				if (t.n == cap) {
					cap = cap ? 2 * cap : 16;
					ev = xrealloc(ev, cap * sizeof(*ev));
				}
				ev[t.n] = e;
			}
			t.n++;
next:
			rc = dwarf_siblingof(&c, &c);
		}
		if (rc < 0)
			rd_dwfail(r, "dwarf_siblingof");
	}
	if (!t.underlying && t.size > 0) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%sint%" PRId64, t.is_signed ? "" : "u",
			 t.size * 8);
		t.underlying = intern(r, buf);
	}
	t.enums = ev;
	emit(r, &t);
	free(ev);
}

static void chain_add(const char ***chain, size_t *cap, uint32_t *n,
		      const char *s)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		*chain = xrealloc(*chain, *cap * sizeof(**chain));
	}
	(*chain)[(*n)++] = s;
}

/* The naming context of a typedef's anonymous target: "struct NAME.<anon>" */
static void typedef_ctx(struct reader *r, const char *name, struct sb *path,
			struct actx *ctx)
{
	struct sb parent;

	sb_init(&parent);
	sb_addf(&parent, "typedef %s", name);
	sb_reset(path);
	sb_addf(path, "%s.", name);
	ctx->parent = intern(r, sb_str(&parent));
	ctx->path = sb_str(path);
	ctx->seg = "<anon>";
	ctx->intrinsic = true;
	sb_release(&parent);
}

static void emit_typedef(struct reader *r, Dwarf_Die *die, const char *name)
{
	struct ktype t = { .kind = KIND_TYPEDEF, .name = name, .size = SIZE_UNKNOWN };
	const char **chain = NULL;
	size_t cap = 0;
	Dwarf_Die cur;
	struct actx ctx;
	struct sb path;
	int rc;

	get_decl(r, die, &t);
	sb_init(&path);
	typedef_ctx(r, name, &path, &ctx);
	rc = attr_type(r, die, &cur);
	if (rc == 0) {
		t.resolved = intern(r, "void");
		chain_add(&chain, &cap, &t.n, t.resolved);
	} else if (rc == 1) {
		t.resolved = type_name(r, &cur, RESOLVED, &ctx);
	}
	/* each link's anonymous target is named after the typedef that
	 * points at it, not after the head of the chain */
	while (rc == 1 && !r->failed) {
		const char *owner;

		chain_add(&chain, &cap, &t.n, type_name(r, &cur, AS_WRITTEN, &ctx));
		if (dwarf_tag(&cur) != DW_TAG_typedef)
			break;
		if (t.n >= KABI_MAX_TYPE_DEPTH) {
			rd_fail(r, "typedef chain longer than %d at DIE 0x%" PRIx64,
				KABI_MAX_TYPE_DEPTH, (uint64_t)dwarf_dieoffset(die));
			break;
		}
		owner = dwarf_diename(&cur);
		typedef_ctx(r, owner ? owner : "<anon>", &path, &ctx);
		rc = attr_type(r, &cur, &cur);
		if (rc == 0)
			chain_add(&chain, &cap, &t.n, intern(r, "void"));
	}
	t.chain = chain;
	emit(r, &t);
	free(chain);
	sb_release(&path);
}

static void anon_enum_top(struct reader *r, Dwarf_Die *die)
{
	Dwarf_Die c;
	int rc = dwarf_child(die, &c);
	struct sb name;

	while (rc == 0 && dwarf_tag(&c) != DW_TAG_enumerator)
		rc = dwarf_siblingof(&c, &c);
	if (rc != 0 || !dwarf_diename(&c))
		return;
	sb_init(&name);
	sb_addf(&name, "<anon:%s>", dwarf_diename(&c));
	emit_enum(r, die, intern(r, sb_str(&name)), NULL);
	sb_release(&name);
}

/* ---- fingerprints ---------------------------------------------------- */

/*
 * Most units describe again the types of the units before them: every
 * unit that includes <linux/sched.h> has its own struct task_struct.
 * Spelling a type costs far more than reading its DIEs, so a named type
 * is first reduced to a 128-bit fingerprint of everything reading it can
 * look at, and skipped when this reader has emitted that fingerprint
 * before.  In go the tag, every attribute but DW_AT_sibling, and the
 * children; a file index as the file name it stands for; a reference as
 * the fingerprint of its target.  A named aggregate reached through a
 * reference adds its own attributes only (a use spells its name and reads
 * its size), which also ends the recursion of C's types.  Strings in
 * .debug_str go in by address: one reader maps one copy, so one address
 * is one string, and a string that is stored twice only costs a miss.
 * A type that reaches an anonymous enum is never skipped, because
 * reading it decides whether that enum is listed on its own.
 */
struct fp {
	uint64_t h[2];
	bool never;		/* cannot be fingerprinted: read in full */
};

static uint64_t fmix(uint64_t v)
{
	v ^= v >> 33;
	v *= UINT64_C(0xff51afd7ed558ccd);
	v ^= v >> 33;
	v *= UINT64_C(0xc4ceb9fe1a85ec53);
	return v ^ (v >> 33);
}

/* One 64x64->128 multiply per lane, folded; fp_end finishes a DIE. */
static uint64_t mum(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static void fp_mix(struct fp *f, uint64_t v)
{
	/* the constants added keep a lane from sticking at zero */
	f->h[0] = mum(f->h[0] ^ v, UINT64_C(0x9e3779b97f4a7c15)) + UINT64_C(0x2545f4914f6cdd1d);
	f->h[1] = mum(f->h[1] + v, UINT64_C(0xc2b2ae3d27d4eb4f)) ^ UINT64_C(0x632be59bd9b4e019);
}

static void fp_end(struct fp *f)
{
	f->h[0] = fmix(f->h[0]);
	f->h[1] = fmix(f->h[1] ^ UINT64_C(0x632be59bd9b4e019));
}

static void fp_bytes(struct fp *f, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t w;

	fp_mix(f, n);
	for (; n >= 8; n -= 8, c += 8) {
		memcpy(&w, c, 8);
		fp_mix(f, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, c, n);
		fp_mix(f, w);
	}
}

static void fp_die(struct reader *r, Dwarf_Die *die, struct fp *f,
		   unsigned depth, bool child);

struct fp_walk {
	struct reader *r;
	struct fp *f;
	unsigned depth;
	int tag;		/* of the DIE whose attributes these are */
};

/* A named aggregate as a use reads it: its name, and unless the use is a
 * pointer, its size (or for an enum without one, its type's). */
static void fp_use(struct reader *r, Dwarf_Die *die, int tag, bool pointer,
		   struct fp *f, unsigned depth)
{
	const char *name = dwarf_diename(die);
	Dwarf_Attribute a;
	Dwarf_Word size;
	Dwarf_Die t;

	fp_mix(f, (uint64_t)tag | UINT64_C(1) << 32);
	if (!name) {
		f->never = true;
		return;
	}
	fp_bytes(f, name, strlen(name));
	if (pointer)
		return;
	if (dwarf_attr(die, DW_AT_byte_size, &a)) {
		if (dwarf_formudata(&a, &size) != 0)
			f->never = true;
		fp_mix(f, size + 1);
		return;
	}
	fp_mix(f, 0);
	if (tag == DW_TAG_enumeration_type && dwarf_attr(die, DW_AT_type, &a)) {
		struct fp u = { .h = { 0, 0 } };

		if (!dwarf_formref_die(&a, &t)) {
			f->never = true;
			return;
		}
		fp_die(r, &t, &u, depth + 1, false);
		f->never |= u.never;
		fp_mix(f, u.h[0]);
		fp_mix(f, u.h[1]);
	}
}

/* Attributes that reading takes with dwarf_formudata whatever the form. */
static bool udata_attr(unsigned at)
{
	switch (at) {
	case DW_AT_decl_file:
	case DW_AT_decl_line:
	case DW_AT_decl_column:
	case DW_AT_byte_size:
	case DW_AT_bit_size:
	case DW_AT_bit_offset:
	case DW_AT_data_bit_offset:
	case DW_AT_data_member_location:
	case DW_AT_encoding:
	case DW_AT_alignment:
		return true;
	default:
		return false;
	}
}

static bool const_form(unsigned form)
{
	switch (form) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		return true;
	default:
		return false;
	}
}

static int fp_attr(Dwarf_Attribute *a, void *arg)
{
	struct fp_walk *w = arg;
	struct fp *f = w->f;
	unsigned at = dwarf_whatattr(a), form = dwarf_whatform(a);
	Dwarf_Word u = 0;
	Dwarf_Sword sv = 0;
	Dwarf_Block blk;
	Dwarf_Die target;
	const char *s;
	bool flag = false;

	if (at == DW_AT_sibling)
		return DWARF_CB_OK;
	/* producers pick the smallest form per unit; where reading takes
	 * any constant form as an unsigned number, only that number counts */
	if (udata_attr(at) && const_form(form)) {
		if (dwarf_formudata(a, &u) != 0)
			f->never = true;
		else if (at == DW_AT_decl_file)
			u = (uintptr_t)decl_file_name(w->r, u);	/* interned */
		fp_mix(f, (uint64_t)at << 16 | 0xffff);
		fp_mix(f, u);
		return f->never ? DWARF_CB_ABORT : DWARF_CB_OK;
	}
	fp_mix(f, (uint64_t)at << 16 | form);
	switch (form) {
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
	case DW_FORM_ref_udata:
	case DW_FORM_ref_addr:
	case DW_FORM_ref_sig8:
		if (!dwarf_formref_die(a, &target)) {
			f->never = true;
			break;
		}
		{
			struct fp t = { .h = { 0, 0 } };
			struct memo_ent *e = memo_slot(w->r, dwarf_dieoffset(&target));
			int tag;

			/* a memoised target needs no abbreviation lookup */
			if (e->fp_state == FP_DONE) {
				fp_mix(f, e->fp[0]);
				fp_mix(f, e->fp[1]);
				break;
			}
			tag = dwarf_tag(&target);
			if (is_aggregate(tag) && dwarf_hasattr(&target, DW_AT_name))
				fp_use(w->r, &target, tag,
				       w->tag == DW_TAG_pointer_type ||
				       w->tag == DW_TAG_reference_type ||
				       w->tag == DW_TAG_rvalue_reference_type,
				       &t, w->depth);
			else
				fp_die(w->r, &target, &t, w->depth + 1, false);
			f->never |= t.never;
			fp_mix(f, t.h[0]);
			fp_mix(f, t.h[1]);
		}
		break;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_strx:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
	case DW_FORM_GNU_strp_alt:
		if (!(s = dwarf_formstring(a)))
			f->never = true;
		else
			fp_mix(f, (uint64_t)(uintptr_t)s);
		break;
	case DW_FORM_string:
		if (!(s = dwarf_formstring(a)))
			f->never = true;
		else
			fp_bytes(f, s, strlen(s));
		break;
	case DW_FORM_flag:
	case DW_FORM_flag_present:
		if (dwarf_formflag(a, &flag) != 0)
			f->never = true;
		fp_mix(f, flag);
		break;
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(a, &sv) != 0)
			f->never = true;
		fp_mix(f, (uint64_t)sv);
		break;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (dwarf_formudata(a, &u) != 0)
			f->never = true;
		fp_mix(f, u);
		break;
	case DW_FORM_exprloc:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_data16:
		if (dwarf_formblock(a, &blk) != 0)
			f->never = true;
		else
			fp_bytes(f, blk.data, blk.length);
		break;
	default:
		f->never = true;
	}
	if (f->never) {
		(void)dwarf_errno();	/* reading in full reports it */
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* Fingerprint of DIE into F: its children too, unless it is a named
 * aggregate below the top (DEPTH 0) of the walk.  Only DIEs that a
 * reference can reach are memoised, not CHILDren (members, enumerators,
 * parameters, subranges), which only their parent reaches. */
static void fp_die(struct reader *r, Dwarf_Die *die, struct fp *f,
		   unsigned depth, bool child)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	int tag = dwarf_tag(die);
	bool named_agg = is_aggregate(tag) && dwarf_hasattr(die, DW_AT_name);
	bool deep = depth == 0 || !named_agg;
	struct fp_walk w = { .r = r, .f = f, .depth = depth, .tag = tag };
	struct memo_ent *e;
	Dwarf_Die c;
	int rc;

	/* the one deep walk of a named aggregate is not memoised */
	e = child || (named_agg && depth == 0) ? NULL : memo_slot(r, off);
	if (e && e->fp_state == FP_DONE) {
		f->h[0] = e->fp[0];
		f->h[1] = e->fp[1];
		return;
	}
	if ((e && e->fp_state != FP_NONE) || depth > KABI_MAX_TYPE_DEPTH ||
	    (tag == DW_TAG_enumeration_type && !named_agg)) {
		f->never = true;	/* a cycle, too deep, or an anonymous enum */
		return;
	}
	if (e)
		e->fp_state = FP_BUSY;
	fp_mix(f, (uint64_t)tag);
	if (dwarf_getattrs(die, fp_attr, &w, 0) != 1)
		f->never = true;
	if (deep && !f->never && dwarf_haschildren(die)) {
		rc = dwarf_child(die, &c);
		while (rc == 0 && !f->never) {
			struct fp t = { .h = { 0, 0 } };

			fp_die(r, &c, &t, depth + 1, true);
			f->never |= t.never;
			fp_mix(f, t.h[0]);
			fp_mix(f, t.h[1]);
			rc = dwarf_siblingof(&c, &c);
		}
		if (rc < 0)
			f->never = true;
	}
	fp_end(f);
	if (!e)
		return;
	e = memo_slot(r, off);	/* the table may have grown */
	e->fp_state = f->never ? FP_NEVER : FP_DONE;
	e->fp[0] = f->h[0];
	e->fp[1] = f->h[1];
}

/* Slot of key K in the seen set: where it is, or the empty one to use. */
static size_t seen_slot(struct reader *r, const uint64_t k[2])
{
	size_t i = k[0] & (r->seen_slots - 1);

	while ((r->seen[i][0] || r->seen[i][1]) &&
	       (r->seen[i][0] != k[0] || r->seen[i][1] != k[1]))
		i = (i + 1) & (r->seen_slots - 1);
	return i;
}

static bool seen_has(struct reader *r, const uint64_t k[2])
{
	size_t i;

	if (!r->seen_slots)
		return false;
	i = seen_slot(r, k);
	return r->seen[i][0] || r->seen[i][1];
}

static void seen_add(struct reader *r, const uint64_t k[2])
{
	size_t i;

	if (2 * (r->seen_n + 1) > r->seen_slots) {
		uint64_t (*old)[2] = r->seen;
		size_t n = r->seen_slots;

		r->seen_slots = n ? 2 * n : 4096;
		r->seen = xcalloc(r->seen_slots, sizeof(*r->seen));
		for (i = 0; i < n; i++)
			if (old[i][0] || old[i][1])
				memcpy(r->seen[seen_slot(r, old[i])], old[i], sizeof(*old));
		free(old);
	}
	i = seen_slot(r, k);
	if (!r->seen[i][0] && !r->seen[i][1]) {
		memcpy(r->seen[i], k, sizeof(r->seen[i]));
		r->seen_n++;
	}
}

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
				r->anon_enums_cap = r->anon_enums_cap ? 2 * r->anon_enums_cap : 16;
				r->anon_enums = xrealloc(r->anon_enums,
							 r->anon_enums_cap * sizeof(*r->anon_enums));
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
	r->comp_dir = NULL;
	if (dwarf_attr(cudie, DW_AT_comp_dir, &a))
		r->comp_dir = dwarf_formstring(&a);
	r->files = NULL;
	r->nfiles = 0;
	r->own_files = false;
	if (dwarf_attr(cudie, DW_AT_stmt_list, &a) &&
	    dwarf_formudata(&a, &stmt) == 0 && line_files(r, stmt) == 0) {
		r->own_files = true;
		r->nfiles = r->nlfiles;
	} else if (dwarf_getsrcfiles(cudie, &r->files, &r->nfiles) != 0) {
		r->files = NULL;
		r->nfiles = 0;
		(void)dwarf_errno();	/* a unit without line table has no decl_file */
	}
	free(r->file_names);
	r->file_names = xcalloc(r->nfiles ? r->nfiles : 1, sizeof(*r->file_names));
	memo_clear(r);

	r->ndone = 0;
	r->nanon_enums = 0;
	rc = dwarf_child(cudie, &c);
	while (rc == 0 && !r->failed) {
		read_top(r, &c);
		rc = dwarf_siblingof(&c, &c);
	}
	if (rc < 0)
		rd_dwfail(r, "dwarf_siblingof");
	if (r->ndone)
		qsort(r->done, r->ndone, sizeof(*r->done), off_cmp);
	for (i = 0; i < r->nanon_enums && !r->failed; i++) {
		Dwarf_Off off = dwarf_dieoffset(&r->anon_enums[i]);

		if (!r->ndone ||
		    !bsearch(&off, r->done, r->ndone, sizeof(*r->done), off_cmp))
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
			rd_fail(r, "unsupported DWARF version %u at .debug_info offset 0x%" PRIx64 " (kabi reads 2 to 5)",
				version, (uint64_t)off);
			return -1;
		}
		if (asz != 2 && asz != 4 && asz != 8) {
			rd_fail(r, "unsupported address size %u at .debug_info offset 0x%" PRIx64,
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
		rd_fail(r, "corrupt unit header at .debug_info offset 0x%" PRIx64,
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
			rd_fail(r, "unsupported DWARF 5 unit type 0x%x", unit_type);
			return;
		}
		if (unit_type == DW_UT_skeleton || unit_type == DW_UT_split_compile ||
		    unit_type == DW_UT_split_type ||
		    dwarf_hasattr(&cudie, DW_AT_GNU_dwo_id) ||
		    dwarf_hasattr(&cudie, DW_AT_GNU_dwo_name) ||
		    dwarf_hasattr(&cudie, DW_AT_dwo_name)) {
			rd_fail(r, "split DWARF (skeleton unit, types in a .dwo file) is not supported");
			return;
		}
		if (!dwarf_diecu(&cudie, &cudie, &asz, &osz)) {
			rd_dwfail(r, "dwarf_diecu");
			return;
		}
		r->addr_size = asz;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			read_unit(r, &subdie);	/* children of the type DIE's unit */
		else
			read_unit(r, &cudie);
	}
	if (!r->failed && rc < 0)
		rd_dwfail(r, "dwarf_get_units");
}

/* ---- ELF ------------------------------------------------------------- */

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name,
			const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Checks libelf leaves to the first use: sections inside the file, no
 * features kabi does not read.  Returns 0, 1 when the file has no
 * .debug_info (a stripped file: look for a separate one), or -1 after
 * reporting. */
static int check_elf(struct reader *r, Elf *elf, off_t fsize, bool *is_rel)
{
	GElf_Ehdr eh;
	size_t shstrndx, shnum;
	Elf_Scn *scn = NULL;
	bool has_info = false;
	const char *alt = NULL;

	if (elf_kind(elf) != ELF_K_ELF) {
		rd_fail(r, "not an ELF file");
		return -1;
	}
	if (!gelf_getehdr(elf, &eh)) {
		rd_fail(r, "gelf_getehdr: %s", elf_errmsg(-1));
		return -1;
	}
	r->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	*is_rel = eh.e_type == ET_REL;
	if (eh.e_shoff > (uint64_t)fsize) {
		rd_fail(r, "section header table past the end of the file (truncated?)");
		return -1;
	}
	if (elf_getshdrnum(elf, &shnum) != 0) {
		rd_fail(r, "elf_getshdrnum: %s", elf_errmsg(-1));
		return -1;
	}
	if (shnum == 0) {
		rd_fail(r, "no section headers (e_shnum is 0)");
		return -1;
	}
	if (shnum > ((uint64_t)fsize - eh.e_shoff) / (eh.e_shentsize ? eh.e_shentsize : 1)) {
		rd_fail(r, "section header table past the end of the file (truncated?)");
		return -1;
	}
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
		rd_fail(r, "elf_getshdrstrndx: %s", elf_errmsg(-1));
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh)) {
			rd_fail(r, "gelf_getshdr: %s", elf_errmsg(-1));
			return -1;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name) {
			rd_fail(r, "elf_strptr: %s", elf_errmsg(-1));
			return -1;
		}
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > (uint64_t)fsize ||
		     sh.sh_size > (uint64_t)fsize - sh.sh_offset)) {
			rd_fail(r, "section '%s' extends past the end of the file (truncated?)",
				name);
			return -1;
		}
		if (strncmp(name, ".debug_", 7) == 0 && (sh.sh_flags & SHF_COMPRESSED)) {
			GElf_Chdr ch;

			if (!gelf_getchdr(scn, &ch)) {
				rd_fail(r, "gelf_getchdr: %s", elf_errmsg(-1));
				return -1;
			}
			/* elfutils reads zstd (ch_type 2) from 0.191 on */
			if (ch.ch_type != ELFCOMPRESS_ZLIB &&
			    (ch.ch_type != 2 || _ELFUTILS_VERSION < 191)) {
				rd_fail(r, "section '%s' is compressed with %s, which this libelf cannot read (zlib only)",
					name, ch.ch_type == 2 ? "zstd" : "an unknown method");
				return -1;
			}
		}
		if (strncmp(name, ".debug_", 7) == 0 && sh.sh_type == SHT_NOBITS) {
			rd_fail(r, "section '%s' has no contents (SHT_NOBITS)", name);
			return -1;
		}
		if (strncmp(name, ".rela.debug_", 12) == 0 ||
		    strncmp(name, ".rel.debug_", 11) == 0)
			r->debug_relocs = true;
		if (strcmp(name, ".debug_info") == 0) {
			has_info = true;
			r->info_size = sh.sh_flags & SHF_COMPRESSED ? 0 : sh.sh_size;
		} else if ((strcmp(name, ".debug_str") == 0 ||
			    strcmp(name, ".debug_line_str") == 0) &&
			   !(sh.sh_flags & SHF_COMPRESSED) && sh.sh_size) {
			/* libdw trusts a string to end inside its section */
			Elf_Data *d = elf_rawdata(scn, NULL);

			if (!d || !d->d_buf || d->d_size != sh.sh_size) {
				rd_fail(r, "elf_rawdata: %s", elf_errmsg(-1));
				return -1;
			}
			if (((const char *)d->d_buf)[d->d_size - 1] != '\0') {
				rd_fail(r, "section '%s' does not end in a NUL byte (corrupt)",
					name);
				return -1;
			}
		} else if (strcmp(name, ".gnu_debugaltlink") == 0 ||
			 strcmp(name, ".debug_sup") == 0) {
			alt = name;	/* matters only beside .debug_info */
		} else if (strcmp(name, ".debug_info.dwo") == 0) {
			rd_fail(r, "split DWARF (.debug_info.dwo) is not supported");
			return -1;
		}
	}
	if (!has_info)
		return 1;
	if (alt) {
		rd_fail(r, "types in a supplementary file (%s, dwz) are not supported",
			alt);
		return -1;
	}
	return 0;
}

/* One open input: libelf and libdw (or libdwfl) handles of its own. */
struct handle {
	int fd;
	Elf *elf;
	Dwfl *dwfl;
	Dwarf *dw;
};

static void handle_close(struct handle *h)
{
	if (h->dw && !h->dwfl)
		dwarf_end(h->dw);
	dwfl_end(h->dwfl);
	elf_end(h->elf);
	if (h->fd >= 0)
		close(h->fd);
}

/* Open and check PATH; 0, 1 when PATH has no .debug_info (H is open,
 * with its Elf only), or -1 after rd_fail (H is closed then). */
static int handle_open(struct reader *r, const char *path, struct handle *h)
{
	struct stat st;
	bool is_rel = false;
	int rc;

	memset(h, 0, sizeof(*h));
	h->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (h->fd < 0) {
		struct sb b;

		sb_init(&b);
		sb_add2(&b, "cannot open '", path);
		sb_add2(&b, "': ", strerror(errno));
		*r->err = sb_take(&b);
		r->failed = true;
		return -1;
	}
	if (fstat(h->fd, &st) != 0)
		rd_fail(r, "fstat: %s", strerror(errno));
	else if (S_ISDIR(st.st_mode))
		rd_fail(r, "is a directory");
	else if (!S_ISREG(st.st_mode))
		rd_fail(r, "not a regular file");
	else if (st.st_size == 0)
		rd_fail(r, "empty file");
	else if (!(h->elf = elf_begin(h->fd, ELF_C_READ_MMAP, NULL)))
		rd_fail(r, "elf_begin: %s", elf_errmsg(-1));
	if (r->failed || (rc = check_elf(r, h->elf, st.st_size, &is_rel)) < 0)
		goto fail;
	if (rc == 1)
		return 1;

	if (is_rel && r->debug_relocs) {
		/* libdw leaves ET_REL relocations unapplied; libdwfl does. */
		Dwfl_Module *mod;
		Dwarf_Addr bias;
		int dfd = dup(h->fd);

		h->dwfl = dwfl_begin(&offline_callbacks);
		if (!h->dwfl || dfd < 0) {
			if (dfd >= 0)
				close(dfd);
			rd_fail(r, "dwfl_begin: %s", dwfl_errmsg(-1));
			goto fail;
		}
		mod = dwfl_report_offline(h->dwfl, path, path, dfd);
		if (!mod || dwfl_report_end(h->dwfl, NULL, NULL) != 0) {
			rd_fail(r, "dwfl_report_offline: %s", dwfl_errmsg(-1));
			goto fail;
		}
		r->relocated = true;
		h->dw = dwfl_module_getdwarf(mod, &bias);
		if (!h->dw) {
			rd_fail(r, "dwfl_module_getdwarf: %s", dwfl_errmsg(-1));
			goto fail;
		}
	} else {
		h->dw = dwarf_begin_elf(h->elf, DWARF_C_READ, NULL);
		if (!h->dw) {
			rd_dwfail(r, "dwarf_begin_elf");
			goto fail;
		}
	}
	return 0;
fail:
	handle_close(h);
	return -1;
}

/* ---- separate debug files ------------------------------------------ */

#define DEBUG_DIR_DEFAULT "/usr/lib/debug"

/* What a stripped file says about its debug file, and where it is. */
struct debug_link {
	const unsigned char *id;	/* build-id, NULL if none */
	size_t nid;
	const char *name;		/* .gnu_debuglink, NULL if none */
	const char *root;		/* --debug-dir or the default */
	struct stat self;		/* the stripped file, never its own match */
};

/* Whether PATH is a regular file other than the stripped one and, when
 * that has a build-id, an ELF file with the same build-id. */
static bool debug_candidate(const struct debug_link *l, const char *path)
{
	const void *id;
	struct stat st;
	bool ok = false;
	Elf *elf;
	int fd;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (st.st_dev == l->self.st_dev && st.st_ino == l->self.st_ino))
		return false;
	if (!l->id)
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && dwelf_elf_gnu_build_id(elf, &id) == (ssize_t)l->nid)
		ok = memcmp(id, l->id, l->nid) == 0;
	elf_end(elf);
	close(fd);
	return ok;
}

/* Append ROOT/.build-id/xx/yyyy.debug for the build-id of L to B. */
static void build_id_path(const struct debug_link *l, struct sb *b)
{
	size_t i;

	sb_add2(b, l->root, "/.build-id/");
	for (i = 0; i < l->nid; i++)
		sb_addf(b, i == 1 ? "/%02x" : "%02x", l->id[i]);
	sb_add(b, ".debug");
}

/* The .gnu_debuglink candidates, as GDB looks: beside PATH, in .debug/
 * beside it, and below ROOT at PATH's absolute directory.  Returns the
 * first that fits, for the caller to free, or NULL. */
static char *debuglink_find(const struct debug_link *l, const char *path)
{
	char *real = realpath(path, NULL), *slash, *found = NULL;
	const char *fmt[] = { "%s%s/%s", "%s%s/.debug/%s", "%s%s/%s" };
	struct sb b;
	size_t i;

	if (!real)
		return NULL;
	slash = strrchr(real, '/');
	*slash = '\0';
	sb_init(&b);
	for (i = 0; i < 3 && !found; i++) {
		sb_reset(&b);
		sb_addf(&b, fmt[i], i == 2 ? l->root : "", real, l->name);
		if (debug_candidate(l, sb_str(&b)))
			found = sb_take(&b);
	}
	sb_release(&b);
	free(real);
	return found;
}

/* The one line for a file without DWARF: where the debug file was
 * looked for, if the file names one.  B is scratch. */
static void debug_file_fail(struct reader *r, const struct debug_link *l,
			    struct sb *b)
{
	if (!l->id && !l->name) {
		rd_fail(r, "no DWARF (.debug_info missing)");
		return;
	}
	sb_reset(b);
	if (l->id) {
		sb_add(b, "'");
		build_id_path(l, b);
		sb_add(b, l->name ? "' or " : "'");
	}
	if (l->name) {
		sb_add2(b, "by .gnu_debuglink '", l->name);
		sb_add(b, "'");
	}
	rd_fail(r, "no DWARF (.debug_info missing); no debug file at %s (install its debug symbols, or see --debug-dir)",
		sb_str(b));
}

/*
 * The separate debug file of stripped PATH (ELF), for the caller to free;
 * NULL after rd_fail saying where it looked.  The build-id path comes
 * first, as in GDB; a .gnu_debuglink match must carry the same build-id
 * when PATH has one (the CRC is not checked).
 */
static char *debug_file(struct reader *r, Elf *elf, int fd)
{
	struct debug_link l = { .root = r->opts->debug_dir ? r->opts->debug_dir :
				DEBUG_DIR_DEFAULT };
	GElf_Word crc;
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	char *found = NULL;
	struct sb b;

	sb_init(&b);
	if (n > 1) {
		l.id = id;
		l.nid = (size_t)n;
	}
	l.name = dwelf_elf_gnu_debuglink(elf, &crc);
	(void)fstat(fd, &l.self);
	if (l.id) {
		build_id_path(&l, &b);
		if (debug_candidate(&l, sb_str(&b)))
			found = sb_take(&b);
	}
	if (!found && l.name)
		found = debuglink_find(&l, r->path);
	if (!found)
		debug_file_fail(r, &l, &b);
	sb_release(&b);
	return found;
}

static void reader_release(struct reader *r)
{
	free(r->file_names);
	free(r->lfiles);
	free(r->fnames);
	free(r->memo);
	free(r->seen);
	free(r->done);
	free(r->anon_enums);
}

/* Open r->path, or the separate debug file of a stripped one, which then
 * becomes r->path (*DBG, for the caller to free).  0, or -1 after
 * rd_fail. */
static int open_with_debug(struct reader *r, struct handle *h, char **dbg)
{
	int rc = handle_open(r, r->path, h);

	if (rc <= 0)
		return rc;
	*dbg = debug_file(r, h->elf, h->fd);
	handle_close(h);
	if (!*dbg)
		return -1;
	r->path = *dbg;
	rc = handle_open(r, r->path, h);
	if (rc > 0) {
		handle_close(h);
		rd_fail(r, "no DWARF (.debug_info missing)");
		return -1;
	}
	return rc;
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
				dwarf_formstring(&a) : NULL;

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
		handle_close(&h);	/* read_file checked it has DWARF */
	if (rc != 0)
		return NULL;
	read_dwarf(&s->r, h.dw, s->stride, s->index);
	reader_release(&s->r);
	handle_close(&h);
	return NULL;
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

	if (open_with_debug(&r, &h, &dbg) != 0)
		return -1;
	path = r.path;
	if (check_units(&r, h.dw) != 0)
		goto out;
	ndirs = unit_dirs_collect(h.dw, &dirs);
	r.unit_dirs = (const char *const *)dirs;
	r.nunit_dirs = ndirs;
	/* Large inputs are split by unit across threads, each with its own
	 * handles, since libdw handles are not shared between threads. */
	if (o->threads > 1) {
		nslots = count_units(h.dw) / 64 + 1;
		if (nslots > o->threads)
			nslots = o->threads;
	}
	if (nslots > 1) {
		slots = xcalloc(nslots, sizeof(*slots));
		for (i = 1; i < nslots; i++) {
			struct slot *s = &slots[i];

			s->r = (struct reader){ .path = path, .opts = o,
						.model = model_new(), .err = &s->err,
						.unit_dirs = r.unit_dirs,
						.nunit_dirs = ndirs };
			s->stride = nslots;
			s->index = i;
			s->started = pthread_create(&s->tid, NULL, slot_main, s) == 0;
			if (!s->started)
				slot_main(s);	/* no thread: same work, here */
		}
	}
	read_dwarf(&r, h.dw, nslots, 0);
	reader_release(&r);

	/* join, keep the failure of the earliest unit, merge the rest */
	first = r.failed ? &r : NULL;
	for (i = 1; i < nslots; i++) {
		struct slot *s = &slots[i];

		if (s->started)
			pthread_join(s->tid, NULL);
		if (s->r.failed && (!first || s->r.fail_unit < first->fail_unit))
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
