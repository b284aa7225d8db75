#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-includes.sh DIR: the include graph of kabi's parts in DIR (its
# tools/kabi), one edge "PART INCLUDED" a line, sorted: x.c and x.h are
# part x, and a part's own header is no edge.
set -eu

cd "$1"
for f in *.c *.h; do
	sed -n 's/^#include "\([A-Za-z0-9_-]*\)\.h"$/\1/p' "$f" | while read -r h; do
		[ "$h" = "${f%.*}" ] || echo "${f%.*} $h"
	done
done | sort -u
