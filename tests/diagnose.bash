# SPDX-License-Identifier: GPL-2.0-only
# A small GCC build for the diagnose suites: a tree $S with a.c and b.c,
# which include include/h.h, and c.c, which does not, built into $B with
# each unit's .cmd file as Kbuild's fixdep writes it. The suites set $T,
# $B and $S.

# at WHEN FILE...: set FILE's time to WHEN (touch -d), as if made then
at() {
	local when=$1
	shift
	touch -d "$when" "$@"
}

# dep_build: $B, a GCC build of $S's a.c and b.c, which include h.h, and
# c.c, which does not, each unit's .cmd file listing its source and
# dependencies as fixdep writes them; every file three hours old
dep_build() {
	local u
	mkdir -p "$B" "$S/scripts" "$S/include"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$S/Makefile"
	printf 'CLANG_TARGET_FLAGS_x86\t\t:= x86_64-linux-gnu\n' >"$S/scripts/Makefile.clang"
	printf 'static inline int h(void) { int h_unused; return 0; }\n' >"$S/include/h.h"
	printf '#include "h.h"\nint a;\n' >"$S/a.c"
	printf '#include "h.h"\nint b;\n' >"$S/b.c"
	printf 'int c;\n' >"$S/c.c"
	: >"$S/README"
	echo '# Linux/x86_64 6.1.0 Kernel Configuration' >"$B/.config"
	echo built >"$B/.kparity-config"
	echo built >"$B/.kparity-built"
	ln -s "$S" "$B/source"
	echo 'cmd_vmlinux.o := ld -r -o vmlinux.o a.o b.o c.o' >"$B/.vmlinux.o.cmd"
	for u in a b c; do
		: >"$B/$u.o"
		{
			echo "cmd_$u.o := gcc -nostdinc -Wall -I$S/include -c -o $u.o $S/$u.c"
			echo "source_$u.o := $S/$u.c"
			echo "deps_$u.o := \\"
			[ "$u" = c ] || echo "  $S/include/h.h \\"
			# shellcheck disable=SC1003,SC2016 # fixdep's make text, as it is
			echo '    $(wildcard include/config/SMP) \'
			echo ''
			echo "$u.o: \$(deps_$u.o)"
		} >"$B/.$u.o.cmd"
	done
	printf '%s\n' a b c | jq -R --arg d "$B" --arg s "$S" \
		'{directory: $d, file: "\($s)/\(.).c", command: "gcc -nostdinc -Wall -I\($s)/include -c -o \(.).o \($s)/\(.).c"}' |
		jq -s . >"$B/compile_commands.json"
	: >"$B/vmlinux"
	at '3 hours ago' "$S"/*.c "$S/include/h.h" "$S/README" "$B"/*.o "$B/vmlinux"
}
