// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inputs in either format: which one a file holds, and for BTF the bytes
 * (a raw file or an ELF .BTF section), the header, the base of split BTF
 * and the references between types, all checked before libbpf's data is
 * followed anywhere.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btf-emit.h"

#define BTF_MAGIC_LE 0xeB9F
#define BTF_HDR_MIN 24

/* A file's bytes, or its .BTF section's (in libelf's mapping, then not
 * ours to free). */
struct bytes {
	unsigned char *p;
	size_t n;
	bool owned;
};

static char *msg(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *msg(const char *path, const char *fmt, ...)
{
	char buf[512];
	struct sb b;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_init(&b);
	sb_add2(&b, "cannot read '", path);
	sb_add2(&b, "': ", buf);
	return sb_take(&b);
}

static char *lbpf_msg(const char *path, const char *call, int e)
{
	char buf[128];

	libbpf_strerror(e, buf, sizeof(buf));
	return msg(path, "%s: %s", call, buf);
}

/* All of FD's bytes, whatever its size says (sysfs says 4096). */
static int slurp(const char *path, int fd, struct bytes *b, char **err)
{
	size_t cap = 1 << 16;
	ssize_t got;

	b->n = 0;
	b->owned = true;
	b->p = xmalloc(cap);
	while ((got = pread(fd, b->p + b->n, cap - b->n, (off_t)b->n)) > 0) {
		b->n += (size_t)got;
		if (b->n == cap)
			b->p = xrealloc(b->p, cap *= 2);
	}
	if (got < 0) {
		*err = msg(path, "read: %s", strerror(errno));
		free(b->p);
		b->p = NULL;
		return -1;
	}
	return 0;
}

enum shape { S_OTHER, S_RAW_BTF, S_ELF };

static enum shape shape_of(const unsigned char *p, size_t n)
{
	if (n >= SELFMAG && memcmp(p, ELFMAG, SELFMAG) == 0)
		return S_ELF;
	if (n >= 2 &&
	    ((p[0] == 0x9f && p[1] == 0xeb) || (p[0] == 0xeb && p[1] == 0x9f)))
		return S_RAW_BTF;
	return S_OTHER;
}

/* An open input and what it holds. */
struct input {
	int fd;
	enum shape shape;
	Elf *elf;
	bool dwarf, btf, module;
	Elf_Scn *btf_scn;
};

static void input_close(struct input *in)
{
	elf_end(in->elf);
	if (in->fd >= 0)
		close(in->fd);
}

static int elf_look(const char *path, struct input *in, char **err)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	in->elf = elf_begin(in->fd, ELF_C_READ_MMAP, NULL);
	if (!in->elf || elf_getshdrstrndx(in->elf, &shstrndx) != 0) {
		*err = msg(path, "elf_begin: %s", elf_errmsg(-1));
		return -1;
	}
	while ((scn = elf_nextscn(in->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			break;
		name = elf_strptr(in->elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		in->dwarf |= strcmp(name, ".debug_info") == 0;
		in->module |= strcmp(name, ".modinfo") == 0;
		if (strcmp(name, ".BTF") == 0 && sh.sh_type != SHT_NOBITS) {
			in->btf = true;
			in->btf_scn = scn;
		}
	}
	return 0;
}

/* Open PATH and see what it holds; 0, or -1 with *ERR set. */
static int input_open(const char *path, struct input *in, char **err)
{
	unsigned char head[4];
	ssize_t n;

	*in = (struct input){ .fd = open(path, O_RDONLY | O_CLOEXEC) };
	if (in->fd < 0) {
		struct sb b;

		sb_init(&b);
		sb_add2(&b, "cannot open '", path);
		sb_add2(&b, "': ", strerror(errno));
		*err = sb_take(&b);
		return -1;
	}
	n = pread(in->fd, head, sizeof(head), 0);
	in->shape = shape_of(head, n > 0 ? (size_t)n : 0);
	if (in->shape == S_ELF && elf_look(path, in, err) != 0) {
		input_close(in);
		return -1;
	}
	return 0;
}

/* The bytes of IN's BTF: the .BTF section's or the whole file's. */
static int input_bytes(const char *path, struct input *in, struct bytes *b,
		       char **err)
{
	Elf_Data *d;

	if (in->shape != S_ELF)
		return slurp(path, in->fd, b, err);
	d = elf_rawdata(in->btf_scn, NULL);
	if (!d || (d->d_size && !d->d_buf)) {
		*err = msg(path, "elf_rawdata of '.BTF': %s", elf_errmsg(-1));
		return -1;
	}
	b->n = d->d_size;
	b->p = d->d_buf;
	b->owned = false;
	return 0;
}

static uint32_t get32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

/* The header of BTF data B, before libbpf reads it. */
static int check_header(const char *path, const struct bytes *b, char **err)
{
	uint16_t magic = b->n >= 2 ? (uint16_t)(b->p[0] | b->p[1] << 8) : 0;
	bool swap = magic != BTF_MAGIC_LE;
	uint32_t hl, toff, tlen, soff, slen;
	uint64_t body;

	if (b->n < 2 || (magic != BTF_MAGIC_LE && magic != 0x9feB)) {
		*err = msg(path, "not BTF (bad magic 0x%04x, want 0xeb9f)",
			   magic);
		return -1;
	}
	if (b->n < BTF_HDR_MIN) {
		*err = msg(path, "truncated BTF header (%zu bytes of %d)", b->n,
			   BTF_HDR_MIN);
		return -1;
	}
	if (b->p[2] != 1) {
		*err = msg(path, "unsupported BTF version %u (kabi reads 1)",
			   b->p[2]);
		return -1;
	}
	hl = get32(b->p + 4, swap);
	toff = get32(b->p + 8, swap);
	tlen = get32(b->p + 12, swap);
	soff = get32(b->p + 16, swap);
	slen = get32(b->p + 20, swap);
	if (hl < BTF_HDR_MIN || hl > b->n) {
		*err = msg(path,
			   "BTF header length %" PRIu32
			   " out of range (file %zu bytes)",
			   hl, b->n);
		return -1;
	}
	body = b->n - hl;
	if ((uint64_t)toff + tlen > body || (uint64_t)soff + slen > body) {
		*err = msg(
			path,
			"BTF %s section past the end of the data (truncated?)",
			(uint64_t)toff + tlen > body ? "type" : "string");
		return -1;
	}
	return 0;
}

/* The string section of BTF that is not split: every offset below N is
 * in it, at P + offset; N is 0 for split BTF (offsets go to libbpf). */
struct strsec {
	const char *p;
	uint32_t n;
};

/* The length of the string section of B, whose header is checked. */
static uint32_t str_len_of(const struct bytes *b)
{
	return get32(b->p + 20, b->p[0] != (BTF_MAGIC_LE & 0xff));
}

/* Whether string offset OFF of BTF is the start of a string in it. */
static bool str_ok(const struct btf *btf, const struct strsec *ss, uint32_t off)
{
	const char *prev;

	if (off < ss->n)
		return !off || ss->p[off - 1] == '\0';
	if (ss->n || !btf__str_by_offset(btf, off))
		return false;
	if (!off)
		return true;
	prev = btf__str_by_offset(btf, off - 1);
	return prev && *prev == '\0';
}

/* The type IDs and string offsets type T refers to; their number. */
static unsigned refs_of(const struct btf_type *t, uint32_t *ids, size_t nids,
			uint32_t *strs, size_t nstrs, unsigned *ns)
{
	unsigned n = 0, i, v = btf_vlen(t);

	*ns = 0;
	strs[(*ns)++] = t->name_off;
	if (btf_is_array(t)) {
		ids[n++] = btf_array(t)->type;
		ids[n++] = btf_array(t)->index_type;
	} else if (btf_is_composite(t)) {
		for (i = 0; i < v && n < nids && *ns < nstrs; i++) {
			ids[n++] = btf_members(t)[i].type;
			strs[(*ns)++] = btf_members(t)[i].name_off;
		}
	} else if (btf_is_func_proto(t)) {
		ids[n++] = t->type;
		for (i = 0; i < v && n < nids && *ns < nstrs; i++) {
			ids[n++] = btf_params(t)[i].type;
			strs[(*ns)++] = btf_params(t)[i].name_off;
		}
	} else if (btf_is_enum(t) || btf_is_enum64(t)) {
		for (i = 0; i < v && *ns < nstrs; i++)
			strs[(*ns)++] = btf_is_enum(t) ?
						btf_enum(t)[i].name_off :
						btf_enum64(t)[i].name_off;
	} else if (btf_is_datasec(t)) {
		for (i = 0; i < v && n < nids; i++)
			ids[n++] = btf_var_secinfos(t)[i].type;
	} else if (!btf_is_int(t) && !btf_is_float(t) && !btf_is_fwd(t)) {
		ids[n++] =
			t->type; /* ptr, typedef, modifiers, func, var, tags */
	}
	return n;
}

#define MAX_REFS (1 << 17)

/* References of the own types of BTF, with BASE naming the base file.
 * libbpf has checked each type's length and kind. */
static int check_refs(const char *path, const struct btf *btf, const char *base,
		      const struct strsec *ss, char **err)
{
	const struct btf *bb = btf__base_btf(btf);
	uint32_t first = bb ? btf__type_cnt(bb) : 1, cnt = btf__type_cnt(btf);
	uint32_t *ids = xmalloc(MAX_REFS * sizeof(*ids));
	uint32_t *strs = xmalloc(MAX_REFS * sizeof(*strs));
	char hint[320] = "";
	uint32_t id;
	unsigned n, ns, i;
	int rc = 0;

	if (base)
		snprintf(hint, sizeof(hint),
			 "; split BTF that does not fit base '%s' (%" PRIu32
			 " types): is the base another kernel's?",
			 base, first);
	else
		snprintf(
			hint, sizeof(hint),
			" (split BTF without its base? name it with --base-btf)");
	for (id = first; id < cnt && !rc; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		n = refs_of(t, ids, MAX_REFS, strs, MAX_REFS, &ns);
		for (i = 0; i < ns && !rc; i++) {
			if (str_ok(btf, ss, strs[i]))
				continue;
			*err = msg(path,
				   "type ID %" PRIu32
				   " names string offset %" PRIu32
				   ", which is %s%s",
				   id, strs[i],
				   btf__str_by_offset(btf, strs[i]) ?
					   "not the start of a string" :
					   "past the end of the strings",
				   hint);
			rc = -1;
		}
		for (i = 0; i < n && !rc; i++) {
			if (ids[i] < cnt)
				continue;
			*err = msg(path,
				   "type ID %" PRIu32
				   " refers to type ID %" PRIu32
				   ", past the last (%" PRIu32 ")%s",
				   id, ids[i], cnt - 1, hint);
			rc = -1;
		}
	}
	free(ids);
	free(strs);
	return rc;
}

static int no_print(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l, (void)f, (void)ap;
	return 0;
}

/* Parsed BTF of bytes B (header checked), split on BASE when given.
 * This libbpf exports no btf__new_split, so split BTF goes through a
 * memory file to btf__parse_raw_split, which takes a base. */
static struct btf *btf_from(const char *path, const struct bytes *b,
			    struct btf *base, char **err)
{
	struct btf *btf = NULL;
	char name[64];
	int fd;

	if (check_header(path, b, err) != 0)
		return NULL;
	if (b->n > UINT32_MAX) {
		*err = msg(path, "BTF of %zu bytes, more than BTF can say",
			   b->n);
		return NULL;
	}
	if (!base) {
		btf = btf__new(b->p, (uint32_t)b->n);
		if (!btf)
			*err = lbpf_msg(path, "btf__new", errno);
		return btf;
	}
	fd = memfd_create("kabi-btf", MFD_CLOEXEC);
	if (fd < 0 || write(fd, b->p, b->n) != (ssize_t)b->n) {
		*err = msg(path, "memfd_create: %s", strerror(errno));
		goto out;
	}
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	btf = btf__parse_raw_split(name, base);
	if (!btf)
		*err = lbpf_msg(path, "btf__parse_raw_split", errno);
out:
	if (fd >= 0)
		close(fd);
	return btf;
}

/* The BTF of PATH (a raw file or an ELF file's .BTF), split on BASE. */
static struct btf *btf_load(const char *path, struct btf *base,
			    const char *base_path, bool need_base, char **err)
{
	struct btf *btf = NULL;
	struct bytes b = { 0 };
	struct strsec ss = { 0 };
	struct input in;

	if (input_open(path, &in, err) != 0)
		return NULL;
	if (in.shape == S_ELF && !in.btf) {
		*err = msg(path, "no BTF (.BTF section missing)");
		goto out;
	}
	/* a kernel image is never split BTF, whatever --base-btf says */
	if (in.shape == S_ELF && !in.module)
		base = NULL;
	if (in.module && !base && need_base) {
		*err = msg(
			path,
			"a module's BTF is split BTF: name its kernel's BTF with --base-btf FILE");
		goto out;
	}
	if (input_bytes(path, &in, &b, err) != 0)
		goto out;
	btf = btf_from(path, &b, base, err);
	if (btf && !base) {
		ss.p = btf__str_by_offset(btf, 0);
		ss.n = ss.p ? str_len_of(&b) : 0;
	}
	if (btf &&
	    check_refs(path, btf, base ? base_path : NULL, &ss, err) != 0) {
		btf__free(btf);
		btf = NULL;
	}
out:
	if (b.owned)
		free(b.p);
	input_close(&in);
	return btf;
}

static void free_btf(void *btf)
{
	btf__free(btf);
}

int read_btf(struct model *m, const char *path, const struct read_opts *o,
	     char **err)
{
	struct btf *base = NULL, *btf;
	int rc = -1;

	libbpf_set_print(no_print);
	if (o->base_btf) {
		char *berr = NULL;

		base = btf_load(o->base_btf, NULL, NULL, false, &berr);
		if (!base) {
			*err = msg(path, "base BTF: %s", berr);
			free(berr);
			return -1;
		}
	}
	btf = btf_load(path, base, o->base_btf, true, err);
	if (btf)
		rc = btf_read_types(m, path, btf, o, err);
	/* the model's names are the BTF's own strings, not copies */
	if (btf)
		model_keep(m, free_btf, btf);
	if (base)
		model_keep(m, free_btf, base);
	return rc;
}

int input_format(const char *path, enum kabi_format *f, char **err)
{
	struct input in;

	/* a file that cannot be opened: the DWARF reader says so */
	*f = FORMAT_DWARF;
	if (access(path, R_OK) != 0)
		return 0;
	if (input_open(path, &in, err) != 0)
		return -1;
	/* anything else: the DWARF reader says what is wrong with it */
	*f = in.shape == S_RAW_BTF || (!in.dwarf && in.btf) ? FORMAT_BTF :
							      FORMAT_DWARF;
	input_close(&in);
	return 0;
}

int read_input(struct model *m, const char *path, const struct read_opts *o,
	       char **err)
{
	enum kabi_format f = o->format;

	int rc;

	if (f == FORMAT_AUTO && input_format(path, &f, err) != 0)
		return -1;
	rc = f == FORMAT_BTF ? read_btf(m, path, o, err) :
			       read_file(m, path, o, err);
	if (rc == 0 && o->compat)
		model_drop_anon_enum_copies(m);
	return rc;
}
