#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/diagnose-series.sh walking a quilt series back: on the small
# build of tests/diagnose.bash with five real quilt patches applied (a
# header gains a finding, a file nothing compiles, a header's findings
# move, a unit gains one GCC shares, a header loses one), then on the
# kernel tree with the series: the two backports that remove Clang's
# findings, replayed where the tree's own Kbuild compiled them.

load common
load diagnose

setup() {
	need_tool clang-19
	need_tool jq
	need_tool quilt
	W=$TOP/scripts/diagnose-series.sh
	T=$BATS_TEST_TMPDIR
	B=$T/b
	S=$T/b.src
}

# qpatch NAME SUBJECT FILE CONTENT: a quilt patch NAME with SUBJECT that
# makes FILE's text CONTENT, pushed onto $S's series
qpatch() {
	(
		cd "$S"
		quilt --quiltrc /dev/null new "$1"
		quilt --quiltrc /dev/null add "$3"
		printf '%b' "$4" >"$3"
		printf 'From: kparity tests <tests@localhost>\nSubject: [PATCH] %s\n\n' "$2" |
			quilt --quiltrc /dev/null header -r
		quilt --quiltrc /dev/null refresh
	) >/dev/null
}

# series_build: dep_build's tree with five patches applied, built again;
# GCC's log has c.c's new finding
series_build() {
	dep_build
	qpatch 0001-h-add-g.patch 'h: add g' include/h.h \
		'static inline int h(void) { int h_unused; return 0; }\nstatic inline int g(void) { int g_unused; return 0; }\n'
	qpatch 0002-readme.patch 'README: say what it is' README 'a tree\n'
	qpatch 0003-h-comment.patch 'h: say what it holds' include/h.h \
		'/* inline helpers */\nstatic inline int h(void) { int h_unused; return 0; }\nstatic inline int g(void) { int g_unused; return 0; }\n'
	qpatch 0004-c-add-f.patch 'c: add f' c.c 'int c;\nint f(void) { int c_unused; return 0; }\n'
	qpatch 0005-h-drop-h_unused.patch 'h: h needs no variable' include/h.h \
		'/* inline helpers */\nstatic inline int h(void) { return 0; }\nstatic inline int g(void) { int g_unused; return 0; }\n'
	printf "%s/c.c:2:21: warning: unused variable 'c_unused' [-Wunused-variable]\n" "$S" >"$B/build.log"
	at '3 hours ago' "$S"/*.c "$S/include/h.h" "$S/README" "$B"/*.o "$B/vmlinux"
}

@test "diagnose-series: each patch's new and gone findings, its reach, and a moved line is no change" {
	series_build
	run -0 --separate-stderr "$W" -c clang-19 -j 1 -o "$T/out" "$B"
	local version
	version=$(clang-19 --version | head -n 1)
	cat >"$T/expected" <<EOF
b with $version, W=1: 5 patches, 2 of them change Clang's findings
1 0001-h-add-g.patch
  h: add g
  reaches 2 units; 1 new, 0 gone
  + include/h.h:2:33: warning: unused variable 'g_unused' [-Wunused-variable]
2 0002-readme.patch
  README: say what it is
  reaches no unit of this build; 0 new, 0 gone
3 0003-h-comment.patch
  h: say what it holds
  reaches 2 units; 0 new, 0 gone
4 0004-c-add-f.patch
  c: add f
  reaches 1 unit (c.c); 0 new, 0 gone (1 new where GCC warns too, not listed)
5 0005-h-drop-h_unused.patch
  h: h needs no variable
  reaches 2 units; 0 new, 1 gone
  - include/h.h:2:33: warning: unused variable 'h_unused' [-Wunused-variable]
EOF
	printf "%s\n" "$output" >"$T/got"
	run -0 diff -u "$T/expected" "$T/got"
	# the tree the build was made from is the patched one still
	run -0 cat "$S/.pc/applied-patches"
	assert_line --index 4 0005-h-drop-h_unused.patch
	run -0 cat "$S/include/h.h"
	assert_line --index 1 'static inline int h(void) { return 0; }'
	[ ! -e "$T/out/series/tree" ]
	local prog='[.patches[] | [.index, .units, (.new | length), (.gone | length), .gcc_too]]'
	run -0 jq -c "$prog" "$T/out/series.json"
	assert_output '[[1,["a.c","b.c"],1,0,0],[2,[],0,0,0],[3,["a.c","b.c"],0,0,0],[4,["c.c"],0,0,1],[5,["a.c","b.c"],0,1,0]]'
	local row='^| [0-9]'
	run -0 grep -c "$row" "$T/out/series.md"
	assert_output 5
}

@test "diagnose-series: a tree without an applied series, and no build, say so and exit 2" {
	dep_build
	run -2 --separate-stderr "$W" -c clang-19 -o "$T/out" "$B"
	assert_equal "$stderr" "diagnose-series.sh: '$S' has no applied quilt series (no .pc/applied-patches); nothing to walk"
	run -2 --separate-stderr "$W" -c clang-19 "$T/none"
	assert_equal "$stderr" "diagnose-series.sh: no build directory '$T/none'"
	run -2 --separate-stderr "$W" -C no-such-cell -O "$T/root"
	assert_equal "$stderr" "diagnose-series.sh: no cell 'no-such-cell' in '$T/root/kernel' (make parity first)"
}

@test "diagnose-series: the series' two backports take Clang 22's W=1 findings out of the units they reach" {
	need_tool clang-22
	local b=${KPARITY_BUILD:-$TOP/build} cell src k=$T/k prog
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$b/cache}
	echo "# building x86_64/gcc (cached after the first run)" >&3
	cell=$(dirname "$(nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$b" -t x86_64 -c gcc -j 2)")
	src=$(readlink -f "$cell/source")
	# the tiny cell's configuration with the code the two patches change,
	# and only their two units compiled, by the tree's Kbuild
	mkdir -p "$k"
	cp "$cell/.config" "$k/.config"
	"$src/scripts/config" --file "$k/.config" -e HYPERVISOR_GUEST -e PARAVIRT -e ACPI -e PNP
	"$TOP/scripts/kernel-make.sh" -t x86_64 -c gcc "$src" O="$k" -s olddefconfig
	nice -n 10 "$TOP/scripts/kernel-make.sh" -t x86_64 -c gcc "$src" O="$k" -j 2 \
		arch/x86/kernel/paravirt.o drivers/pnp/quirks.o >"$k/build.log" 2>&1
	# the link that vmlinux would be, of those two
	echo 'cmd_vmlinux.o := ld -r -o vmlinux.o arch/x86/kernel/paravirt.o drivers/pnp/quirks.o' >"$k/.vmlinux.o.cmd"
	: >"$k/vmlinux"
	run -0 --separate-stderr "$W" -c clang-22 -j 2 -o "$T/out" "$k"
	assert_line --index 0 --regexp "^k with .*clang version 22.*, W=1: 12 patches, 2 of them change Clang's findings$"
	assert_line '  reaches 1 unit (arch/x86/kernel/paravirt.c); 0 new, 1 gone'
	assert_line "  - arch/x86/kernel/paravirt.c:320:4: warning: cast from 'void (*)(struct mmu_gather *, struct page *)' to 'void (*)(struct mmu_gather *, void *)' converts to incompatible function type [-Wcast-function-type-strict]"
	assert_line '  reaches 1 unit (drivers/pnp/quirks.c); 0 new, 18 gone'
	prog='[.patches[] | select(.new + .gone != []) | [.index, .units, (.gone | length), (.gone | map(.flag) | unique)]]'
	run -0 jq -c "$prog" "$T/out/series.json"
	assert_output '[[11,["arch/x86/kernel/paravirt.c"],1,["-Wcast-function-type-strict"]],[12,["drivers/pnp/quirks.c"],18,["-Wunterminated-string-initialization"]]]'
	prog='[.patches[] | select(.units == []) | .index]'
	run -0 jq -c "$prog" "$T/out/series.json"
	assert_output '[1,2,3,4,5,6,7,8,9,10]'
}
