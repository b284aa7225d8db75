// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwalk FILE: the bare libdw walk that make bench measures kabi against,
 * every DIE of every unit reached with dwarf_child and dwarf_siblingof
 * and its tag read, nothing decoded; prints the number of DIEs.
 */
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static unsigned long walk(Dwarf_Die *die)
{
	unsigned long n = 0;
	Dwarf_Die c;

	if (dwarf_child(die, &c) != 0)
		return 0;
	do {
		(void)dwarf_tag(&c); /* all a walk decodes */
		n += 1 + walk(&c);
	} while (dwarf_siblingof(&c, &c) == 0);
	return n;
}

int main(int argc, char **argv)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	unsigned long n = 0;
	Dwarf *dw;
	int fd;

	if (argc != 2) {
		fputs("usage: dwalk FILE\n", stderr);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	dw = fd < 0 ? NULL : dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		fprintf(stderr, "dwalk: cannot read '%s': %s\n", argv[1],
			fd < 0 ? "cannot open" : dwarf_errmsg(-1));
		return 1;
	}
	while (dwarf_get_units(dw, cu, &cu, NULL, NULL, &cudie, NULL) == 0)
		n += 1 + walk(&cudie);
	printf("%lu DIEs\n", n);
	dwarf_end(dw);
	close(fd);
	return 0;
}
