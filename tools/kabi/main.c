// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi: command table, options, and atomic output.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/version.h>
#include <libelf.h>

#include "kabi.h"

#ifndef KABI_VERSION
#define KABI_VERSION "0.1"
#endif

/* Everything a verb may be given; filled by parse_opts, checked after. */
struct opts {
	bool json;
	bool only_layout;
	bool only_common;
	bool layouts;
	bool by_name;
	bool help;
	int threads; /* 0: one per CPU */
	const char *output;
	const char *supp_path;
	struct filter filter;
	struct read_opts read;
	char **owned; /* --root values made absolute */
	size_t nowned;
	char **files;
	int nfiles;
};

/* The long options; a verb's table says which it takes, one bit each. */
enum {
	OPT_JSON = 256,
	OPT_ONLY_LAYOUT,
	OPT_ONLY_COMMON,
	OPT_LAYOUTS,
	OPT_SUPP,
	OPT_ROOT,
	OPT_TYPE,
	OPT_KIND,
	OPT_THREADS,
	OPT_MAX_MEMORY,
	OPT_DEBUG_DIR,
	OPT_FORMAT,
	OPT_BASE_BTF,
	OPT_OUTPUT, /* -o too */
	OPT_READER,
	OPT_STATS,
	OPT_BY_NAME,
};

#define OPT_BIT(c) (1u << (c - OPT_JSON)) /* C: an OPT_ constant */

struct cmd {
	const char *name;
	int (*fn)(struct opts *o);
	const char *usage;
	int min_files, max_files;
	unsigned allowed; /* OPT_BIT of each option this verb takes */
};

static int cmd_dump(struct opts *o);
static int cmd_diff(struct opts *o);
static int cmd_check(struct opts *o);
static int cmd_help(struct opts *o);

static const struct cmd cmds[] = {
	{ "dump", cmd_dump,
	  "usage: kabi dump [--json] [--root DIR]... [--type NAME]... [--kind KIND]\n"
	  "                 [--debug-dir DIR] [--threads N] [--max-memory SIZE]\n"
	  "                 [--stats] [-o FILE] FILE...\n"
	  "Print every named struct, union, enum and typedef in the DWARF of the\n"
	  "FILEs (vmlinux, .o, .ko), sorted and deduplicated.\n"
	  "  --json         print JSON instead of text\n"
	  "  --root DIR     make declaration paths relative to DIR (repeatable)\n"
	  "  --type NAME    only this type: \"foo\" or \"struct foo\" (repeatable)\n"
	  "  --kind KIND    only struct, union, enum or typedef (repeatable)\n"
	  "  --debug-dir DIR  separate debug files of stripped FILEs (default /usr/lib/debug)\n"
	  "  --threads N    read on N threads (default: one per CPU)\n"
	  "  --max-memory SIZE  stop when types and names need more (default 4G, 0: none)\n"
	  "  --format F     read dwarf or btf (default: DWARF if the file has it, else BTF)\n"
	  "  --base-btf FILE  the kernel BTF that a module's split BTF builds on\n"
	  "  --reader R     decode DWARF with kabi's own reader or libdw (default own)\n"
	  "  --stats        say on stderr how many DIEs kabi's own reader decoded\n"
	  "  -o FILE        write to FILE (atomically) instead of standard output\n",
	  1, -1,
	  OPT_BIT(OPT_JSON) | OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_TYPE) |
		  OPT_BIT(OPT_KIND) | OPT_BIT(OPT_DEBUG_DIR) |
		  OPT_BIT(OPT_THREADS) | OPT_BIT(OPT_MAX_MEMORY) |
		  OPT_BIT(OPT_FORMAT) | OPT_BIT(OPT_BASE_BTF) |
		  OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_READER) |
		  OPT_BIT(OPT_STATS) },
	{ "diff", cmd_diff,
	  "usage: kabi diff [--json [--layouts]] [--only-layout] [--only-common]\n"
	  "                 [--suppressions FILE] [--root DIR]... [--type NAME]...\n"
	  "                 [--kind KIND] [--debug-dir DIR] [-o FILE]\n"
	  "                 [--threads N] [--max-memory SIZE] OLD NEW\n"
	  "Compare the types of two builds and report layout changes.\n"
	  "  --json               print JSON instead of text\n"
	  "  --only-layout        ignore changes of typedef names or qualifiers alone\n"
	  "  --only-common        compare only the types both sides have\n"
	  "  --layouts            with --json, each changed type with both layouts\n"
	  "  --suppressions FILE  hide changes matched by [suppress_type] sections\n"
	  "  --root DIR           make declaration paths relative to DIR (repeatable)\n"
	  "  --type NAME          only this type: \"foo\" or \"struct foo\" (repeatable)\n"
	  "  --kind KIND          only struct, union, enum or typedef (repeatable)\n"
	  "  --debug-dir DIR      separate debug files of stripped inputs (default /usr/lib/debug)\n"
	  "  --threads N          read on N threads (default: one per CPU)\n"
	  "  --max-memory SIZE    stop when types and names need more (default 4G, 0: none)\n"
	  "  --format F           read dwarf or btf (default: DWARF if the file has it, else BTF)\n"
	  "  --base-btf FILE      the kernel BTF that a module's split BTF builds on\n"
	  "  --reader R           decode DWARF with kabi's own reader or libdw (default own)\n"
	  "  -o FILE              write to FILE (atomically) instead of standard output\n"
	  "DWARF against BTF compares only what BTF records (kabi(1), BTF).\n"
	  "Exit status: 0 identical, bits 1 error, 2 usage, 4 changes, 8 incompatible.\n",
	  2, 2,
	  OPT_BIT(OPT_JSON) | OPT_BIT(OPT_ONLY_LAYOUT) |
		  OPT_BIT(OPT_ONLY_COMMON) | OPT_BIT(OPT_LAYOUTS) |
		  OPT_BIT(OPT_SUPP) | OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_TYPE) |
		  OPT_BIT(OPT_KIND) | OPT_BIT(OPT_DEBUG_DIR) |
		  OPT_BIT(OPT_THREADS) | OPT_BIT(OPT_MAX_MEMORY) |
		  OPT_BIT(OPT_FORMAT) | OPT_BIT(OPT_BASE_BTF) |
		  OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_READER) },
	{ "check", cmd_check,
	  "usage: kabi check [--json] [--by-name] [--root DIR]... [--type NAME]...\n"
	  "                  [--kind KIND] [--debug-dir DIR] [--threads N]\n"
	  "                  [--max-memory SIZE] [--reader R] [-o FILE] FILE...\n"
	  "Report the types that units of one build (the FILEs together) see with\n"
	  "different layouts: one kind, name and declaration, two definitions.\n"
	  "  --json         print JSON instead of text\n"
	  "  --by-name      also one name declared in different places\n"
	  "  --root DIR     make declaration paths relative to DIR (repeatable)\n"
	  "  --type NAME    only this type: \"foo\" or \"struct foo\" (repeatable)\n"
	  "  --kind KIND    only struct, union, enum or typedef (repeatable)\n"
	  "  --debug-dir DIR  separate debug files of stripped FILEs (default /usr/lib/debug)\n"
	  "  --threads N    read on N threads (default: one per CPU)\n"
	  "  --max-memory SIZE  stop when types and names need more (default 4G, 0: none)\n"
	  "  --reader R     decode DWARF with kabi's own reader or libdw (default own)\n"
	  "  -o FILE        write to FILE (atomically) instead of standard output\n"
	  "Exit status: 0 none found, bits 1 error, 2 usage, 4 found, 8 incompatible.\n",
	  1, -1,
	  OPT_BIT(OPT_JSON) | OPT_BIT(OPT_BY_NAME) | OPT_BIT(OPT_ROOT) |
		  OPT_BIT(OPT_TYPE) | OPT_BIT(OPT_KIND) |
		  OPT_BIT(OPT_DEBUG_DIR) | OPT_BIT(OPT_THREADS) |
		  OPT_BIT(OPT_MAX_MEMORY) | OPT_BIT(OPT_OUTPUT) |
		  OPT_BIT(OPT_READER) },
	{ "help", cmd_help, "usage: kabi help [VERB]\n", 0, 1, 0 },
};

#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage_all(FILE *f)
{
	fputs("usage: kabi [--version] [--help] VERB [ARGS]\n"
	      "Dump and diff struct, union, enum and typedef layouts from DWARF or BTF.\n"
	      "Verbs:\n"
	      "  dump   print the types of one or more builds\n"
	      "  diff   compare the types of two builds\n"
	      "  check  find the types one build sees with different layouts\n"
	      "  help   show the usage of a verb\n"
	      "See 'kabi help VERB' and kabi(1).\n",
	      f);
}

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

static int cmd_help(struct opts *o)
{
	const struct cmd *c;

	if (o->nfiles == 0) {
		usage_all(stdout);
		return KABI_EXIT_OK;
	}
	c = find_cmd(o->files[0]);
	if (!c) {
		kabi_err("unknown verb '%s'", o->files[0]);
		usage_all(stderr);
		return KABI_EXIT_USAGE;
	}
	fputs(c->usage, stdout);
	return KABI_EXIT_OK;
}

/* ---- output ---------------------------------------------------------- */

/* ---- verbs ----------------------------------------------------------- */

/* Inputs are read on up to one thread per CPU, each into its own model
 * with its own libelf/libdw handles; nothing is shared but the queue. */
struct loader {
	struct read_opts ro;
	char **files;
	struct model **models;
	char **errs;
	int n, next;
	pthread_mutex_t lock;
};

static void *load_worker(void *arg)
{
	struct loader *l = arg;

	for (;;) {
		int i;

		pthread_mutex_lock(&l->lock);
		i = l->next++;
		pthread_mutex_unlock(&l->lock);
		if (i >= l->n)
			return NULL;
		l->models[i] = model_new();
		if (read_input(l->models[i], l->files[i], &l->ro,
			       &l->errs[i]) != 0) {
			model_free(l->models[i]);
			l->models[i] = NULL;
		}
	}
}

/* Whether FILES mix DWARF and BTF: then both readers leave out what BTF
 * cannot say.  A file that cannot be opened counts as neither; reading
 * it says why. */
static bool mixed_formats(const struct opts *o, char **files, int n)
{
	bool seen[FORMAT_BTF + 1] = { false };
	enum kabi_format f;
	char *err = NULL;
	int i;

	if (o->read.format != FORMAT_AUTO)
		return false;
	for (i = 0; i < n; i++) {
		if (input_format(files[i], &f, &err) == 0)
			seen[f] = true;
		free(err);
		err = NULL;
	}
	return seen[FORMAT_DWARF] && seen[FORMAT_BTF];
}

/* Read FILES into one model each; NULL after reporting every failure, in
 * the order of the inputs. */
static struct model **load_all(const struct opts *o, char **files, int n)
{
	struct loader l = { .ro = o->read, .files = files, .n = n };
	long cpus = o->threads ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);
	int nthreads = cpus < 1 ? 1 : cpus > n ? n : (int)cpus, i, started = 0;

	/* the CPUs left over per input split large inputs by unit */
	l.ro.threads = cpus > n ? (size_t)(cpus / n) : 1;
	pthread_t *tids = xcalloc((size_t)nthreads, sizeof(*tids));
	bool failed = false;

	l.models = xcalloc((size_t)n, sizeof(*l.models));
	l.errs = xcalloc((size_t)n, sizeof(*l.errs));
	l.ro.compat = mixed_formats(o, files, n);
	pthread_mutex_init(&l.lock, NULL);
	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&tids[i], NULL, load_worker, &l) != 0)
			break; /* fewer threads, same result */
		started = i;
	}
	load_worker(&l);
	for (i = 1; i <= started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&l.lock);
	free(tids);

	for (i = 0; i < n; i++) {
		if (l.errs[i]) {
			kabi_err("%s", l.errs[i]);
			free(l.errs[i]);
			failed = true;
		}
	}
	free(l.errs);
	if (failed) {
		for (i = 0; i < n; i++)
			model_free(l.models[i]);
		free(l.models);
		return NULL;
	}
	for (i = 0; i < n; i++)
		model_sort(l.models[i]);
	return l.models;
}

/* What kabi's decoder read of each of FILES (models V), on stderr. */
static void print_counts(char **files, struct model *const *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct read_count *c = &v[i]->count;

		if (!c->units) {
			fprintf(stderr,
				"kabi: '%s': no DWARF read by kabi's reader (BTF, or --reader libdw)\n",
				files[i]);
			continue;
		}
		fprintf(stderr,
			"kabi: '%s': %" PRIu64 " units, %" PRIu64
			" DIEs: %" PRIu64 " decoded, %" PRIu64
			" stepped over, %" PRIu64 " not reached\n",
			files[i], c->units, c->dies, c->decoded, c->stepped,
			c->dies - c->decoded - c->stepped);
	}
}

/* One model of all FILES, deduplicated across them. */
static struct model *load(const struct opts *o, char **files, int n)
{
	struct model **v = load_all(o, files, n), *m;
	int i;

	if (!v)
		return NULL;
	if (o->read.count)
		print_counts(files, v, n);
	m = v[0];
	for (i = 1; i < n; i++) {
		model_append(m, v[i]);
		model_free(v[i]);
	}
	free(v);
	if (n > 1)
		model_sort(m);
	return m;
}

/* 0, or KABI_EXIT_USAGE after saying that --type selects nothing. */
static int check_filter(const struct opts *o, const char *verb,
			const struct model *const *models, size_t n)
{
	const struct filter *f = &o->filter;

	if (!filter_selects_nothing(f, models, n))
		return 0;
	kabi_err("%s: --type '%s'%s matches no type%s", verb, f->names[0],
		 f->nnames > 1 ? " (and every other --type)" : "",
		 f->kinds ? " of the --kind given" : "");
	return KABI_EXIT_USAGE;
}

/*
 * The one model of a verb that reads one build: its FILES loaded, the
 * filter checked against it, the output opened. NULL with *rc set when
 * any of that failed (nothing is left to free).
 */
static struct model *load_one(struct opts *o, const char *verb, struct out *out,
			      int *rc)
{
	struct model *m = load(o, o->files, o->nfiles);

	*rc = KABI_EXIT_ERROR;
	if (!m)
		return NULL;
	*rc = check_filter(o, verb, (const struct model *const *)&m, 1);
	if (*rc) {
		model_free(m);
		return NULL;
	}
	if (out_open(out, o->output) != 0) {
		*rc = KABI_EXIT_ERROR;
		model_free(m);
		return NULL;
	}
	return m;
}

static int cmd_dump(struct opts *o)
{
	struct out out;
	int rc;
	struct model *m = load_one(o, "dump", &out, &rc);

	if (!m)
		return rc;
	if (o->json)
		dump_json(out.f, m, &o->filter);
	else
		dump_text(out.f, m, &o->filter);
	model_free(m);
	return out_close(&out, false) ? KABI_EXIT_ERROR : KABI_EXIT_OK;
}

static int cmd_diff(struct opts *o)
{
	struct diff_opts d = { .filter = &o->filter,
			       .only_layout = o->only_layout,
			       .only_common = o->only_common,
			       .json = o->json,
			       .layouts = o->layouts,
			       .old_name = o->files[0],
			       .new_name = o->files[1] };
	struct supp_set *supp = NULL;
	struct model *a, *b;
	struct out out;
	int rc;

	if (o->supp_path && !(supp = supp_load(o->supp_path)))
		return KABI_EXIT_ERROR;
	{
		/* both sides at once, one thread each */
		struct model **v = load_all(o, o->files, 2);

		if (!v) {
			supp_free(supp);
			return KABI_EXIT_ERROR;
		}
		a = v[0];
		b = v[1];
		free(v);
	}
	d.supp = supp;
	{
		const struct model *both[] = { a, b };

		rc = check_filter(o, "diff", both, 2);
		if (rc)
			goto free_models;
	}
	if (out_open(&out, o->output) != 0) {
		rc = KABI_EXIT_ERROR;
		goto free_models;
	}
	rc = diff_models(out.f, a, b, &d);
	if (out_close(&out, false))
		rc = KABI_EXIT_ERROR;
free_models:
	model_free(a);
	model_free(b);
	supp_free(supp);
	return rc;
}

static int cmd_check(struct opts *o)
{
	struct check_opts c = { .filter = &o->filter,
				.by_name = o->by_name,
				.json = o->json };
	struct model *m;
	struct out out;
	int rc;

	/* which units hold a type: BTF, deduplicated, cannot say */
	o->read.format = FORMAT_DWARF;
	o->read.sights = true;
	m = load_one(o, "check", &out, &rc);
	if (!m)
		return rc;
	rc = check_model(out.f, m, &c);
	model_free(m);
	return out_close(&out, false) ? KABI_EXIT_ERROR : rc;
}

/* ---- options --------------------------------------------------------- */

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "only-layout", no_argument, NULL, OPT_ONLY_LAYOUT },
	{ "only-common", no_argument, NULL, OPT_ONLY_COMMON },
	{ "layouts", no_argument, NULL, OPT_LAYOUTS },
	{ "suppressions", required_argument, NULL, OPT_SUPP },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "base-btf", required_argument, NULL, OPT_BASE_BTF },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "reader", required_argument, NULL, OPT_READER },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "by-name", no_argument, NULL, OPT_BY_NAME },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void push(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static const char *opt_name(int c)
{
	const struct option *lo;

	for (lo = long_opts; lo->name; lo++)
		if (lo->val == c)
			return lo->name;
	return "?";
}

/* DWARF paths are absolute; a relative --root is taken from the cwd. */
static const char *absolute(struct opts *o, const char *path)
{
	char cwd[4096];
	char *p;

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return path;
	p = xmalloc(strlen(cwd) + strlen(path) + 2);
	sprintf(p, "%s/%s", cwd, path);
	o->owned = xrealloc(o->owned, (o->nowned + 1) * sizeof(*o->owned));
	o->owned[o->nowned++] = p;
	return p;
}

/* SIZE: digits with an optional K, M or G (powers of 1024); 0 ok. */
static int parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	switch (*s) {
	case 'K':
		shift = 10;
		s++;
		break;
	case 'M':
		shift = 20;
		s++;
		break;
	case 'G':
		shift = 30;
		s++;
		break;
	}
	if (*s || v > UINT64_MAX >> shift)
		return -1;
	*out = v << shift;
	return 0;
}

/* Parse argv into O; 0 ok, KABI_EXIT_USAGE after a message. */
/* --threads ARG into O; 0, or KABI_EXIT_USAGE (reported). */
static int opt_threads(const struct cmd *cmd, const char *arg, struct opts *o)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end || v < 1 || v > 1024) {
		kabi_err(
			"%s: --threads takes a number from 1 to 1024, not '%s'",
			cmd->name, arg);
		return KABI_EXIT_USAGE;
	}
	o->threads = (int)v;
	return 0;
}

/* --max-memory ARG; 0, or KABI_EXIT_USAGE (reported). */
static int opt_max_memory(const struct cmd *cmd, const char *arg)
{
	uint64_t v;

	if (parse_size(arg, &v)) {
		kabi_err(
			"%s: --max-memory takes a size such as 512M or 4G (0: no limit), not '%s'",
			cmd->name, arg);
		return KABI_EXIT_USAGE;
	}
	mem_set_limit(v);
	return 0;
}

/* --format ARG; 0, or KABI_EXIT_USAGE (reported). */
static int opt_format(const struct cmd *cmd, const char *arg, struct opts *o)
{
	if (strcmp(arg, "dwarf") == 0) {
		o->read.format = FORMAT_DWARF;
	} else if (strcmp(arg, "btf") == 0) {
		o->read.format = FORMAT_BTF;
	} else {
		kabi_err("%s: --format takes dwarf or btf, not '%s'", cmd->name,
			 arg);
		return KABI_EXIT_USAGE;
	}
	return 0;
}

/* --reader ARG; 0, or KABI_EXIT_USAGE (reported). */
static int opt_reader(const struct cmd *cmd, const char *arg, struct opts *o)
{
	if (strcmp(arg, "own") == 0) {
		o->read.reader = READER_OWN;
	} else if (strcmp(arg, "libdw") == 0) {
		o->read.reader = READER_LIBDW;
	} else {
		kabi_err("%s: --reader takes own or libdw, not '%s'", cmd->name,
			 arg);
		return KABI_EXIT_USAGE;
	}
	return 0;
}

/* Option C with argument ARG into O; 0, or KABI_EXIT_USAGE (reported). */
static int set_opt(const struct cmd *cmd, int c, char *arg, struct opts *o)
{
	enum kind k;

	switch (c) {
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_ONLY_LAYOUT:
		o->only_layout = true;
		break;
	case OPT_ONLY_COMMON:
		o->only_common = true;
		break;
	case OPT_LAYOUTS:
		o->layouts = true;
		break;
	case OPT_SUPP:
		o->supp_path = arg;
		break;
	case OPT_ROOT:
		push(&o->read.roots, &o->read.nroots, absolute(o, arg));
		break;
	case OPT_TYPE:
		push(&o->filter.names, &o->filter.nnames, arg);
		break;
	case OPT_KIND:
		if (kind_parse(arg, &k)) {
			kabi_err(
				"%s: unknown kind '%s' (struct, union, enum, typedef)",
				cmd->name, arg);
			return KABI_EXIT_USAGE;
		}
		o->filter.kinds |= 1u << k;
		break;
	case OPT_THREADS:
		return opt_threads(cmd, arg, o);
	case OPT_MAX_MEMORY:
		return opt_max_memory(cmd, arg);
	case OPT_DEBUG_DIR:
		o->read.debug_dir = arg;
		break;
	case OPT_FORMAT:
		return opt_format(cmd, arg, o);
	case OPT_BASE_BTF:
		o->read.base_btf = arg;
		break;
	case OPT_OUTPUT:
		o->output = arg;
		break;
	case OPT_READER:
		return opt_reader(cmd, arg, o);
	case OPT_STATS:
		o->read.count = true;
		break;
	case OPT_BY_NAME:
		o->by_name = true;
		break;
	}
	return 0;
}

static int parse_opts(const struct cmd *cmd, int argc, char **argv,
		      struct opts *o)
{
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:h", long_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			if (optopt && optopt < 256)
				kabi_err(
					"%s: unknown or incomplete option '-%c'",
					cmd->name, optopt);
			else
				kabi_err(
					"%s: unknown or incomplete option '%s'",
					cmd->name, argv[optind - 1]);
			return KABI_EXIT_USAGE;
		}
		if (c == 'h') {
			o->help = true;
			continue;
		}
		if (c == 'o')
			c = OPT_OUTPUT;
		/* every verb parses the same set; reject what it does not take */
		if (!(cmd->allowed & OPT_BIT(c))) {
			kabi_err("%s: option '--%s' does not apply", cmd->name,
				 opt_name(c));
			return KABI_EXIT_USAGE;
		}
		rc = set_opt(cmd, c, optarg, o);
		if (rc)
			return rc;
	}
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return 0;
}

static int check_opts(const struct cmd *cmd, const struct opts *o)
{
	if (o->nfiles < cmd->min_files ||
	    (cmd->max_files >= 0 && o->nfiles > cmd->max_files)) {
		kabi_err("%s: expected %s", cmd->name,
			 cmd->max_files < 0  ? "at least one FILE" :
			 cmd->max_files == 2 ? "OLD and NEW" :
					       "at most one VERB");
		fputs(cmd->usage, stderr);
		return KABI_EXIT_USAGE;
	}
	if (o->layouts && !o->json) {
		kabi_err("%s: option '--layouts' needs '--json'", cmd->name);
		return KABI_EXIT_USAGE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;
	struct opts o = { 0 };
	int rc;

	if (argc < 2) {
		usage_all(stderr);
		return KABI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage_all(stdout);
		return KABI_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("kabi %s (elfutils %d.%d)\n", KABI_VERSION,
		       _ELFUTILS_VERSION / 1000, _ELFUTILS_VERSION % 1000);
		return KABI_EXIT_OK;
	}
	cmd = find_cmd(argv[1]);
	if (!cmd) {
		kabi_err("unknown verb '%s'", argv[1]);
		usage_all(stderr);
		return KABI_EXIT_USAGE;
	}
	elf_version(EV_CURRENT);
	rc = parse_opts(cmd, argc - 1, argv + 1, &o);
	if (!rc && o.help) {
		fputs(cmd->usage, stdout);
		goto out;
	}
	if (!rc)
		rc = check_opts(cmd, &o);
	if (!rc)
		rc = cmd->fn(&o);
out:
	while (o.nowned)
		free(o.owned[--o.nowned]);
	free(o.owned);
	free(o.read.roots);
	free(o.filter.names);
	return rc;
}
