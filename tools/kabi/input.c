// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inputs: ELF checks, opening and closing, and separate debug files found
 * by build-id or .gnu_debuglink.
 */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/version.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

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
/* The ELF header of ELF, FSIZE bytes long, and where its section headers
 * and their names are; 0 with the latter in *SHSTRNDX, or -1 (failed). */
static int check_header(struct reader *r, Elf *elf, off_t fsize, bool *is_rel,
			size_t *shstrndx)
{
	GElf_Ehdr eh;
	size_t shnum;

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
		rd_fail(r,
			"section header table past the end of the file (truncated?)");
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
	if (shnum > ((uint64_t)fsize - eh.e_shoff) /
			    (eh.e_shentsize ? eh.e_shentsize : 1)) {
		rd_fail(r,
			"section header table past the end of the file (truncated?)");
		return -1;
	}
	if (elf_getshdrstrndx(elf, shstrndx) != 0) {
		rd_fail(r, "elf_getshdrstrndx: %s", elf_errmsg(-1));
		return -1;
	}
	return 0;
}

/* Compressed .debug_* section SCN, NAME: a method this libelf reads;
 * 0, or -1 (failed). */
static int check_compressed(struct reader *r, Elf_Scn *scn, const char *name)
{
	GElf_Chdr ch;

	if (!gelf_getchdr(scn, &ch)) {
		rd_fail(r, "gelf_getchdr: %s", elf_errmsg(-1));
		return -1;
	}
	/* elfutils reads zstd (ch_type 2) from 0.191 on */
	if (ch.ch_type != ELFCOMPRESS_ZLIB &&
	    (ch.ch_type != 2 || _ELFUTILS_VERSION < 191)) {
		rd_fail(r,
			"section '%s' is compressed with %s, which this libelf cannot read (zlib only)",
			name, ch.ch_type == 2 ? "zstd" : "an unknown method");
		return -1;
	}
	return 0;
}

/* String section SCN, NAME, of SIZE bytes ends in a NUL byte: libdw
 * trusts a string to end inside its section.  0, or -1 (failed). */
static int check_strings(struct reader *r, Elf_Scn *scn, uint64_t size,
			 const char *name)
{
	Elf_Data *d = elf_rawdata(scn, NULL);

	if (!d || !d->d_buf || d->d_size != size) {
		rd_fail(r, "elf_rawdata: %s", elf_errmsg(-1));
		return -1;
	}
	if (((const char *)d->d_buf)[d->d_size - 1] != '\0') {
		rd_fail(r, "section '%s' does not end in a NUL byte (corrupt)",
			name);
		return -1;
	}
	return 0;
}

/* Section SCN of ELF, FSIZE bytes long: noted in *HAS_INFO (.debug_info)
 * and *ALT (a supplementary file); 0, or -1 (failed). */
static int check_section(struct reader *r, Elf *elf, Elf_Scn *scn,
			 size_t shstrndx, off_t fsize, bool *has_info,
			 const char **alt)
{
	GElf_Shdr sh;
	const char *name;
	bool debug, compressed;

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
		rd_fail(r,
			"section '%s' extends past the end of the file (truncated?)",
			name);
		return -1;
	}
	debug = strncmp(name, ".debug_", 7) == 0;
	compressed = sh.sh_flags & SHF_COMPRESSED;
	if (debug && compressed && check_compressed(r, scn, name) < 0)
		return -1;
	if (debug && sh.sh_type == SHT_NOBITS) {
		rd_fail(r, "section '%s' has no contents (SHT_NOBITS)", name);
		return -1;
	}
	if (strncmp(name, ".rela.debug_", 12) == 0 ||
	    strncmp(name, ".rel.debug_", 11) == 0)
		r->debug_relocs = true;
	if (strcmp(name, ".debug_info") == 0) {
		*has_info = true;
		r->info_size = compressed ? 0 : sh.sh_size;
	} else if ((strcmp(name, ".debug_str") == 0 ||
		    strcmp(name, ".debug_line_str") == 0) &&
		   !compressed && sh.sh_size) {
		return check_strings(r, scn, sh.sh_size, name);
	} else if (strcmp(name, ".gnu_debugaltlink") == 0 ||
		   strcmp(name, ".debug_sup") == 0) {
		*alt = name; /* matters only beside .debug_info */
	} else if (strcmp(name, ".debug_info.dwo") == 0) {
		rd_fail(r, "split DWARF (.debug_info.dwo) is not supported");
		return -1;
	}
	return 0;
}

static int check_elf(struct reader *r, Elf *elf, off_t fsize, bool *is_rel)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	bool has_info = false;
	const char *alt = NULL;

	if (check_header(r, elf, fsize, is_rel, &shstrndx) < 0)
		return -1;
	while ((scn = elf_nextscn(elf, scn)))
		if (check_section(r, elf, scn, shstrndx, fsize, &has_info,
				  &alt) < 0)
			return -1;
	if (!has_info)
		return 1;
	if (alt) {
		rd_fail(r,
			"types in a supplementary file (%s, dwz) are not supported",
			alt);
		return -1;
	}
	return 0;
}

void handle_close(struct handle *h)
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
int handle_open(struct reader *r, const char *path, struct handle *h)
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
	const unsigned char *id; /* build-id, NULL if none */
	size_t nid;
	const char *name; /* .gnu_debuglink, NULL if none */
	const char *root; /* --debug-dir or the default */
	struct stat self; /* the stripped file, never its own match */
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
	rd_fail(r,
		"no DWARF (.debug_info missing); no debug file at %s (install its debug symbols, or see --debug-dir)",
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
	struct debug_link l = { .root = r->opts->debug_dir ?
						r->opts->debug_dir :
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

/* Open r->path, or the separate debug file of a stripped one, which then
 * becomes r->path (*DBG, for the caller to free).  0, or -1 after
 * rd_fail. */
int open_with_debug(struct reader *r, struct handle *h, char **dbg)
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

/* ---- sections for kabi's decoder ----------------------------------- */

/* Append S to the N sections *V. */
static void dsec_push(struct dsec **v, size_t *n, struct dsec s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* The decoder's section NAME into S; 0, or -1 (failed) when the file
 * has it twice: only .debug_info and .debug_types may repeat (one per
 * type unit in an object built with -fdebug-types-section). */
static int dsec_set(struct reader *r, struct dsec *s, const char *name,
		    struct dsec v)
{
	if (s->p) {
		rd_fail(r,
			"section '%s' appears twice, which kabi does not read",
			name);
		return -1;
	}
	*s = v;
	return 0;
}

/* The data of section SCN, NAME, decompressed; 0, or -1 (failed). */
static int section_data(struct reader *r, Elf_Scn *scn, const GElf_Shdr *sh,
			const char *name, struct dsec *v)
{
	Elf_Data *data;

	/* libdw decompresses the sections it reads, not all */
	if ((sh->sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0) {
		rd_fail(r, "elf_compress: section '%s': %s", name,
			elf_errmsg(-1));
		return -1;
	}
	data = elf_getdata(scn, NULL);
	if (!data) {
		rd_fail(r, "elf_getdata: section '%s': %s", name,
			elf_errmsg(-1));
		return -1;
	}
	*v = (struct dsec){ data->d_buf, data->d_buf ? data->d_size : 0 };
	return 0;
}

/* Section NAME, of data V, where the decoder (or lines.c: LINE) reads
 * it; 0, or -1 (failed). */
static int section_place(struct reader *r, const char *name, struct dsec v,
			 struct dsec *line)
{
	static const struct {
		const char *name;
		int dsec; /* DSEC_NR: .debug_line, which lines.c reads */
	} own[] = { { ".debug_abbrev", DSEC_ABBREV },
		    { ".debug_str", DSEC_STR },
		    { ".debug_line_str", DSEC_LINE_STR },
		    { ".debug_str_offsets", DSEC_STR_OFFSETS },
		    { ".debug_line", DSEC_NR } };
	struct dec *d = r->dec;
	size_t i;

	if (strcmp(name, ".debug_info") == 0) {
		dsec_push(&d->info, &d->ninfo, v);
		return 0;
	}
	if (strcmp(name, ".debug_types") == 0) {
		dsec_push(&d->types, &d->ntypes, v);
		return 0;
	}
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strcmp(name, own[i].name) == 0)
			return dsec_set(r,
					own[i].dsec == DSEC_NR ?
						line :
						&d->sec[own[i].dsec],
					name, v);
	return 0;
}

int input_sections(struct reader *r, struct handle *h)
{
	struct dsec line = { NULL, 0 };
	Elf *elf = dwarf_getelf(h->dw);
	struct dec *d = r->dec;
	Elf_Scn *scn = NULL;
	size_t shstrndx, fsize;
	const char *base;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0) {
		rd_fail(r, "elf_getshdrstrndx: %s", elf_errmsg(-1));
		return -1;
	}
	d->big_endian = r->big_endian;
	while ((scn = elf_nextscn(elf, scn))) {
		struct dsec v;
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strncmp(name, ".debug_", 7) != 0 ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		if (section_data(r, scn, &sh, name, &v) != 0 ||
		    section_place(r, name, v, &line) != 0)
			return -1;
	}
	r->lines.line_sec = (struct lsec){ line.p, line.n };
	r->lines.str_sec =
		(struct lsec){ d->sec[DSEC_STR].p, d->sec[DSEC_STR].n };
	r->lines.line_str_sec = (struct lsec){ d->sec[DSEC_LINE_STR].p,
					       d->sec[DSEC_LINE_STR].n };
	/* only pages of the file mapping can be given back and read again,
	 * and only the file's own bytes: libdwfl relocates in place */
	base = r->relocated ? NULL : elf_rawfile(elf, &fsize);
	r->info_fd = -1;
	if (d->ninfo == 1 && base && (const char *)d->info[0].p >= base &&
	    (const char *)d->info[0].p + d->info[0].n <= base + fsize) {
		r->lines.info_sec = (struct lsec){ d->info[0].p, d->info[0].n };
		r->info_fd = h->fd;
		r->info_foff = (uint64_t)((const char *)d->info[0].p - base);
	}
	return 0;
}
