// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the reading path: the input is one ELF file or
 * raw BTF, read as kabi reads it (the format found in the data).
 *
 * kabi reads files by name (libdwfl opens them itself), so the input is
 * handed over as a memfd and its /proc/self/fd name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libelf.h>

#include "../kabi.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct read_opts opts = { 0 };
	struct model *m;
	char *err = NULL;
	char path[64];
	int fd;

	elf_version(EV_CURRENT);
	fd = memfd_create("kabi-fuzz", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	m = model_new();
	if (read_input(m, path, &opts, &err) == 0) {
		FILE *null = fopen("/dev/null", "w");

		model_sort(m);
		if (null) {
			dump_text(null, m, NULL);
			dump_json(null, m, NULL);
			fclose(null);
		}
	}
	free(err);
	model_free(m);
	close(fd);
	return 0;
}
