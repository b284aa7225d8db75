// SPDX-License-Identifier: GPL-2.0-only
/*
 * File names: DWARF 5 line table headers read directly, and decl_file
 * names normalised and made relative to a --root or a unit directory.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "die.h"
#include "lines.h"

/* ---- file names ------------------------------------------------------ */

/* Lexically normalise an absolute or relative path: drop "." and "//",
 * fold "dir/..", keep leading ".." of a relative path. */
void path_normalise(struct sb *out, const char *p)
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
			   !(out->len - base >= 2 &&
			     strcmp(out->buf + out->len - 2, "..") == 0 &&
			     (out->len - base == 2 ||
			      out->buf[out->len - 3] == '/'))) {
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
		s = (const void *)c->p; /* any pointer: the string starts here */
		c->p = z + 1;
		return (const char *)s;
	case DW_FORM_line_strp:
	case DW_FORM_strp:
		s = form == DW_FORM_strp ? &r->lines.str_sec :
					   &r->lines.line_str_sec;
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

/* Room for N entries in r->lines.lfiles. */
static void lfiles_reserve(struct reader *r, uint64_t n)
{
	if (n > r->lines.lfiles_cap) {
		r->lines.lfiles_cap = n;
		r->lines.lfiles =
			xrealloc(r->lines.lfiles, n * sizeof(*r->lines.lfiles));
	}
}

/*
 * The directory and file tables of a DWARF 2 to 4 line table header at
 * C (past its version), named as libdw names them:
 * directory 0 is the unit's compilation directory, a relative name is
 * joined to its directory (which may be relative), and file 0, which
 * such tables do not have, is "???".  0, or -1 (C bad).
 */
static int line_files_v4(struct reader *r, struct lcur *c, unsigned version,
			 unsigned offsz)
{
	const char **dirs = NULL, *name;
	uint64_t ndirs = 1, nfiles = 1, dir;
	size_t cap = 8;
	unsigned k;

	lc_skip(c, offsz); /* header_length */
	/* min_inst, (4:) max_ops, is_stmt, line_base, line_range */
	lc_skip(c, version == 4 ? 5 : 4);
	k = (unsigned)lc_fixed(c, 1); /* opcode_base */
	lc_skip(c, k ? k - 1 : 0);

	dirs = xcalloc(cap, sizeof(*dirs));
	dirs[0] = r->lines.comp_dir;
	while (!c->bad && (name = lc_string(r, c, DW_FORM_string, 4)) &&
	       *name) {
		if (ndirs == cap) {
			cap *= 2;
			dirs = xrealloc(dirs, cap * sizeof(*dirs));
		}
		dirs[ndirs++] = name;
	}
	lfiles_reserve(r, 16);
	r->lines.lfiles[0][0] = NULL;
	r->lines.lfiles[0][1] = "???";
	while (!c->bad && (name = lc_string(r, c, DW_FORM_string, 4)) &&
	       *name) {
		dir = lc_uleb(c);
		lc_uleb(c); /* modification time */
		lc_uleb(c); /* length */
		if (c->bad || dir >= ndirs) {
			c->bad = true;
			break;
		}
		if (nfiles == r->lines.lfiles_cap)
			lfiles_reserve(r, 2 * nfiles);
		r->lines.lfiles[nfiles][0] = name[0] == '/' ? NULL : dirs[dir];
		r->lines.lfiles[nfiles][1] = name;
		nfiles++;
	}
	free(dirs);
	if (c->bad)
		return -1;
	r->lines.nlfiles = nfiles;
	return 0;
}

/* The file table of the unit whose line table is at OFF into r->lines.lfiles:
 * 0, or -1 when libdw is to read it. */
int line_files(struct reader *r, uint64_t off)
{
	struct lcur c = { .big_endian = r->big_endian };
	uint64_t fmt[LINE_MAX_FORMATS][2], len, ndirs, nfiles, i;
	unsigned offsz = 4, nfmt, k;
	const char **dirs = NULL;

	r->lines.nlfiles = 0;
	if (!r->lines.line_sec.p || off >= r->lines.line_sec.n)
		return -1;
	c.p = r->lines.line_sec.p + off;
	c.end = r->lines.line_sec.p + r->lines.line_sec.n;
	len = lc_fixed(&c, 4);
	if (len == 0xffffffff) {
		offsz = 8;
		len = lc_fixed(&c, 8);
	}
	if (c.bad || len > (uint64_t)(c.end - c.p))
		return -1;
	c.end = c.p + len;
	k = (unsigned)lc_fixed(&c, 2);
	if (r->own && k >= 2 && k <= 4)
		return line_files_v4(r, &c, k, offsz);
	if (k != 5)
		return -1;
	lc_skip(&c, 2);	    /* address and segment selector size */
	lc_skip(&c, offsz); /* header_length */
	lc_skip(&c, 4);	    /* min_inst, max_ops, is_stmt, line_base */
	lc_skip(&c, 1);	    /* line_range */
	k = (unsigned)lc_fixed(&c, 1); /* opcode_base */
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
	lfiles_reserve(r, nfiles);
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
			r->lines.lfiles[i][0] = name[0] == '/' ? NULL :
								 dirs[dir];
			r->lines.lfiles[i][1] = name;
		}
	}
	free(dirs);
	if (c.bad)
		return -1;
	r->lines.nlfiles = nfiles;
	return 0;
}

/* Find the sections line_files reads, when it may read them. */
void line_sections(struct reader *r, Dwarf *dw)
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
			s = &r->lines.info_sec;
		else if (strcmp(name, ".debug_line") == 0)
			s = &r->lines.line_sec;
		else if (strcmp(name, ".debug_line_str") == 0)
			s = &r->lines.line_str_sec;
		else if (strcmp(name, ".debug_str") == 0)
			s = &r->lines.str_sec;
		else
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) ||
		    sh.sh_type == SHT_NOBITS || !(d = elf_rawdata(scn, NULL)) ||
		    !d->d_buf || d->d_size != sh.sh_size)
			continue;
		s->p = d->d_buf;
		s->n = d->d_size;
	}
	/* only pages of the file mapping can be given back and read again */
	{
		size_t fsize;
		const char *base = elf_rawfile(elf, &fsize);
		const unsigned char *p = r->lines.info_sec.p;

		if (!base || !p || (const char *)p < base ||
		    (const char *)p + r->lines.info_sec.n > base + fsize)
			r->lines.info_sec.p = NULL;
	}
}

/*
 * Give back the pages of .debug_info before offset UPTO.  The reader
 * rarely looks back (only DW_FORM_ref_addr does), and a page given back
 * is read again from the file if it does; without this, the resident
 * size of a run grows with .debug_info rather than with the types.
 */
void info_release(struct reader *r, Dwarf_Off upto)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, to;

	if (!r->lines.info_sec.p || upto <= r->lines.info_dropped ||
	    page == (uintptr_t)-1)
		return;
	if (upto > r->lines.info_sec.n)
		upto = r->lines.info_sec.n;
	from = ((uintptr_t)r->lines.info_sec.p + r->lines.info_dropped) &
	       ~(page - 1);
	to = ((uintptr_t)r->lines.info_sec.p + upto) & ~(page - 1);
	if (to > from)
		(void)madvise((void *)from, to - from, MADV_DONTNEED);
	r->lines.info_dropped = upto;
}

static bool fname_used(const void *e, const void *ctx)
{
	(void)ctx;
	return ((const struct fname_ent *)e)->norm != NULL;
}

static uint64_t fname_hash(const void *e, const void *ctx)
{
	(void)ctx;
	return hash_bytes(((const struct fname_ent *)e)->key,
			  3 * sizeof(const char *), 0);
}

static bool fname_match(const void *e, const void *key, const void *ctx)
{
	(void)ctx;
	return !memcmp(((const struct fname_ent *)e)->key, key,
		       3 * sizeof(const char *));
}

/* The slot of KEY in r->lines.fnames: where it is, or the empty one to use. */
static struct fname_ent *fname_slot(struct reader *r, const char *const key[3])
{
	struct hset *s = &r->lines.fnames;

	hset_reserve(s, 1024, fname_used, fname_hash, NULL);
	return hset_find(s, hash_bytes(key, 3 * sizeof(*key), 0), fname_used,
			 fname_match, key, NULL);
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
	for (i = 0; i < r->lines.nunit_dirs && !rel; i++)
		rel = strip_prefix(norm, r->lines.unit_dirs[i]);
	if (!rel && r->lines.comp_dir) {
		path_normalise(root, r->lines.comp_dir);
		rel = strip_prefix(norm, sb_str(root));
	}
	return rel;
}

/* The file named RAW in the unit being read, normalised, made relative
 * and interned; NORM and ROOT are scratch. */
static const char *file_name(struct reader *r, struct sb *raw, struct sb *norm,
			     struct sb *root)
{
	const char *name, *rel = NULL;

	if ((name = pseudo_file(sb_str(raw)))) {
		rel = name;
	} else if (raw->buf[0] != '/' && r->lines.comp_dir) {
		name = xstrdup(sb_str(raw));
		sb_reset(raw);
		sb_add2(raw, r->lines.comp_dir, "/");
		sb_add(raw, name);
		free((char *)name);
	}
	if (!rel) {
		path_normalise(norm, sb_str(raw));
		rel = relative_name(r, sb_str(norm), root);
	}
	return intern(r, rel ? rel : sb_str(norm));
}

const char *decl_file_name(struct reader *r, uint64_t idx)
{
	struct sb raw, norm, root;
	const char *name;
	struct fname_ent *fe = NULL;

	if ((!r->lines.files && !r->lines.own_files) || idx >= r->lines.nfiles)
		return NULL;
	if (r->lines.file_names[idx])
		return r->lines.file_names[idx];
	if (r->lines.own_files) {
		const char *key[3] = { r->lines.lfiles[idx][0],
				       r->lines.lfiles[idx][1],
				       r->lines.comp_dir };

		fe = fname_slot(r, key);
		if (fe->norm)
			return r->lines.file_names[idx] = fe->norm;
		memcpy(fe->key, key, sizeof(key));
	}
	sb_init(&raw);
	sb_init(&norm);
	sb_init(&root);
	if (r->lines.own_files && r->lines.lfiles[idx][0]) {
		sb_add2(&raw, r->lines.lfiles[idx][0], "/");
		sb_add(&raw, r->lines.lfiles[idx][1]);
	} else if (r->lines.own_files) {
		sb_add(&raw, r->lines.lfiles[idx][1]);
	} else if ((name = dwarf_filesrc(r->lines.files, idx, NULL, NULL))) {
		sb_add(&raw, name);
	} else {
		sb_release(&raw);
		return NULL;
	}
	r->lines.file_names[idx] = file_name(r, &raw, &norm, &root);
	if (fe) {
		fe->norm = r->lines.file_names[idx];
		r->lines.fnames.n++;
	}
	sb_release(&raw);
	sb_release(&norm);
	sb_release(&root);
	return r->lines.file_names[idx];
}

const char *unit_file_name(struct reader *r, const char *name)
{
	struct sb raw, norm, root;
	const char *n;

	sb_init(&raw);
	sb_init(&norm);
	sb_init(&root);
	sb_add(&raw, name);
	n = file_name(r, &raw, &norm, &root);
	sb_release(&raw);
	sb_release(&norm);
	sb_release(&root);
	return n;
}

void get_decl(struct reader *r, struct die *die, struct ktype *t)
{
	uint64_t file, line;

	if (r->opts->compat)
		return; /* BTF has no declaration files */
	if (attr_udata(r, die, DW_AT_decl_file, &file) == 1) {
		t->decl_file = decl_file_name(r, file);
		if (attr_udata(r, die, DW_AT_decl_line, &line) == 1)
			t->decl_line = (uint32_t)line;
	}
}
