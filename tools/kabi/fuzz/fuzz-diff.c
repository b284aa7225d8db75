// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the diff path: the input is split in two ELF
 * files at the first occurrence of a separator, and both are diffed
 * against each other in text and JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libelf.h>

#include "../kabi.h"

#define SEP "KABI-FUZZ-SPLIT"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* under libFuzzer's -rss_limit_mb, so that an input describing
	 * gigabytes of names ends in kabi's own message */
	mem_set_limit(UINT64_C(512) << 20);
	return 0;
}

/* Whether DATA is ELF, not raw BTF: either side may be either. */
static bool is_elf(const uint8_t *data, size_t size)
{
	return size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

static struct model *load(const uint8_t *data, size_t size, bool compat)
{
	const struct read_opts opts = { .compat = compat };
	struct model *m = model_new();
	char *err = NULL;
	char path[64];
	int fd = memfd_create("kabi-fuzz", MFD_CLOEXEC);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		model_free(m);
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (read_input(m, path, &opts, &err) != 0) {
		free(err);
		model_free(m);
		m = NULL;
	} else {
		model_sort(m);
	}
	close(fd);
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, SEP, strlen(SEP));
	struct model *a, *b;
	FILE *null;

	if (!sep)
		return 0;
	elf_version(EV_CURRENT);
	{
		size_t na = (size_t)(sep - data);
		size_t nb = size - na - strlen(SEP);
		const uint8_t *db = sep + strlen(SEP);
		bool compat = is_elf(data, na) != is_elf(db, nb);

		a = load(data, na, compat);
		b = load(db, nb, compat);
	}
	null = fopen("/dev/null", "w");
	if (a && b && null) {
		struct diff_opts o = { .old_name = "a", .new_name = "b" };

		diff_models(null, a, b, &o);
		o.json = true;
		o.only_layout = true;
		diff_models(null, a, b, &o);
	}
	if (null)
		fclose(null);
	model_free(a);
	model_free(b);
	return 0;
}
