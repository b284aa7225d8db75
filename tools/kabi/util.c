// SPDX-License-Identifier: GPL-2.0-only
/*
 * Error reporting, allocation, arenas, strings and JSON quoting.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static const char prog[] = "kabi";

void kabi_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- memory budget -------------------------------------------------- */

/*
 * One limit for the process on the memory that holds types and names
 * (arena blocks and string buffers): a hostile input has to end with a
 * message, not with the OOM killer.  The limit is set by main() before
 * any thread starts and only read afterwards; the count is shared by the
 * reading threads, hence atomic.  libdw's own memory is not counted: it
 * grows with the size of the input, not with what the input describes.
 */
static uint64_t mem_limit = KABI_MEM_LIMIT_DEFAULT;
static atomic_uint_fast64_t mem_used;
static atomic_flag mem_reported = ATOMIC_FLAG_INIT;

void mem_set_limit(uint64_t bytes)
{
	mem_limit = bytes;
}

/* The limit in the unit it was most likely given in. */
static void mem_limit_str(char *buf, size_t n)
{
	static const char units[] = "GMK";
	unsigned shift = 30, i;

	for (i = 0; i < 3; i++, shift -= 10) {
		if (mem_limit >> shift &&
		    !(mem_limit & ((UINT64_C(1) << shift) - 1))) {
			snprintf(buf, n, "%" PRIu64 "%c", mem_limit >> shift,
				 units[i]);
			return;
		}
	}
	snprintf(buf, n, "%" PRIu64, mem_limit);
}

static void mem_charge(size_t n)
{
	uint64_t used =
		atomic_fetch_add_explicit(&mem_used, n, memory_order_relaxed) +
		n;
	char lim[32];

	if (!mem_limit || used <= mem_limit)
		return;
	/* Another thread may get here too: one message, then exit without
	 * running atexit handlers over half-built models. */
	if (atomic_flag_test_and_set(&mem_reported))
		for (;;)
			pause();
	mem_limit_str(lim, sizeof(lim));
	kabi_err(
		"memory limit of %s reached by the types and names read so far (see --max-memory)",
		lim);
	_Exit(KABI_EXIT_ERROR);
}

static void mem_uncharge(size_t n)
{
	atomic_fetch_sub_explicit(&mem_used, n, memory_order_relaxed);
}

static void oom(size_t n)
{
	kabi_err("cannot allocate %zu bytes: out of memory", n);
	exit(KABI_EXIT_ERROR);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		oom(n * sz);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

/* Below this, the zeroed tables come from malloc as anything else. */
#define ZTABLE_MIN (256 * 1024)

void *ztable_new(size_t n)
{
	void *p;

	if (n < ZTABLE_MIN)
		return xcalloc(1, n);
	/* zero pages mapped in one call rather than faulted in one by one
	 * when first written: a fault costs more than the page's zeroing */
	p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		oom(n);
	return p;
}

void ztable_free(void *p, size_t n)
{
	if (!p)
		return;
	if (n < ZTABLE_MIN)
		free(p);
	else
		munmap(p, n);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* ---- arena ----------------------------------------------------------- */

struct arena_blk {
	struct arena_blk *next;
	size_t used, size;
	max_align_t data[];
};

/* Blocks grow from the first to the last size: a small model takes
 * little, and a large one's blocks are mapped whole (ztable_new). */
#define ARENA_BLK_FIRST (64 * 1024)
#define ARENA_BLK_LAST (1024 * 1024)

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->blk = ARENA_BLK_FIRST;
}

void arena_release(struct arena *a)
{
	struct arena_blk *b, *next;

	if (!a)
		return;
	for (b = a->head; b; b = next) {
		next = b->next;
		mem_uncharge(sizeof(*b) + b->size);
		ztable_free(b, sizeof(*b) + b->size);
	}
	a->head = NULL;
}

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_blk *b = a->head;
	size_t al = sizeof(max_align_t);
	void *p;

	n = (n + al - 1) / al * al;
	if (!b || b->size - b->used < n) {
		size_t size = n > a->blk ? n : a->blk;

		mem_charge(sizeof(*b) + size);
		b = ztable_new(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = a->head;
		a->head = b;
		if (a->blk < ARENA_BLK_LAST)
			a->blk *= 2;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

/* ---- string builder -------------------------------------------------- */

void sb_init(struct sb *b)
{
	b->buf = NULL;
	b->len = b->cap = 0;
}

void sb_release(struct sb *b)
{
	mem_uncharge(b->cap);
	free(b->buf);
	sb_init(b);
}

char *sb_take(struct sb *b)
{
	char *buf = b->buf;

	mem_uncharge(b->cap);
	sb_init(b);
	return buf;
}

void sb_reset(struct sb *b)
{
	b->len = 0;
	if (b->buf)
		b->buf[0] = '\0';
}

static void sb_reserve(struct sb *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	mem_charge((b->len + n + 1) * 2 - b->cap);
	b->cap = (b->len + n + 1) * 2;
	b->buf = xrealloc(b->buf, b->cap);
}

void sb_addn(struct sb *b, const char *s, size_t n)
{
	sb_reserve(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

void sb_add(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

void sb_addf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_addu(struct sb *b, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	sb_addn(b, p, (size_t)(buf + sizeof(buf) - p));
}

void sb_add2(struct sb *b, const char *x, const char *y)
{
	sb_add(b, x);
	sb_add(b, y);
}

const char *sb_str(struct sb *b)
{
	return b->buf ? b->buf : "";
}

/* ---- JSON ------------------------------------------------------------ */

void json_str(FILE *f, const char *s)
{
	const unsigned char *c;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*c < 0x20)
				fprintf(f, "\\u%04x", *c);
			else
				fputc(*c, f);
		}
	}
	fputc('"', f);
}

/* A regular file (or a new one) is written beside its name and renamed
 * over it, so that a reader never sees half of it; anything else that
 * exists there (-o /dev/null, a pipe) is written in place: renaming a
 * file over a device would replace the device. */
int out_open(struct out *o, const char *path)
{
	struct stat st;
	char *dir;
	int fd;

	o->path = path;
	o->tmp = NULL;
	o->in_place = false;
	if (!path) {
		o->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (!(o->f = fopen(path, "w"))) {
			kabi_err("cannot write '%s': %s", path,
				 strerror(errno));
			return -1;
		}
		o->in_place = true;
		return 0;
	}
	dir = xstrdup(path);
	o->tmp = xmalloc(strlen(path) + 16);
	sprintf(o->tmp, "%s/.kabi.XXXXXX", dirname(dir));
	free(dir);
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		kabi_err("cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		return -1;
	}
	return 0;
}

/* Finish the output; on FAILED or a write error nothing is left behind. */
int out_close(struct out *o, bool failed)
{
	int rc = 0;

	if (fflush(o->f) != 0 || ferror(o->f)) {
		kabi_err("cannot write '%s': %s",
			 o->path ? o->path : "<stdout>", strerror(errno));
		rc = -1;
	}
	if (o->in_place && fclose(o->f) != 0 && !rc) {
		kabi_err("cannot write '%s': %s", o->path, strerror(errno));
		rc = -1;
	}
	if (!o->tmp)
		return rc;
	if (fclose(o->f) != 0 && !rc) {
		kabi_err("cannot write '%s': %s", o->path, strerror(errno));
		rc = -1;
	}
	if (failed || rc || rename(o->tmp, o->path) != 0) {
		if (!failed && !rc) {
			kabi_err("cannot write '%s': %s", o->path,
				 strerror(errno));
			rc = -1;
		}
		unlink(o->tmp);
	}
	free(o->tmp);
	return rc;
}
