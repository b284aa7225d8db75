#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The quilt series tools on a scratch tree: the check report for a patch
# that needs an offset, fuzz, one with a rejected hunk and one whose file
# is missing; the version pin; local changes and an interrupted push;
# status, round-trip and refresh.

load common

setup() {
	need_tool quilt
	need_tool patch
	T=$BATS_TEST_TMPDIR
	S=$TOP/scripts
	cp -r "$TOP/tests/fixtures/series/." "$T/"
	# The tree a kernel tarball would give: a Makefile with the version.
	mkdir -p "$T/tree"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION =\n' >"$T/tree/Makefile"
	seq 1 30 | sed 's/^/line /' >"$T/tree/a.c"
	seq 1 30 | sed 's/^/row /' >"$T/tree/b.c"
	# What kernel-src.sh records beside a tree it extracts.
	(cd "$T/tree" && md5sum ./Makefile ./a.c ./b.c) >"$T/tree.sums"
	# What a stock Debian quiltrc sets for diff and refresh.
	printf '%s\n' 'QUILT_DIFF_ARGS="--no-timestamps"' \
		'QUILT_REFRESH_ARGS="--no-timestamps --backup"' \
		'QUILT_DIFF_OPTS="--show-c-function"' >"$T/debian.quiltrc"
}

# mq ARG...: quilt in the tree as a maintainer runs it: a stock Debian
# quiltrc (TREE.orig/ and TREE/ prefixes, Index: lines), no QUILT_PATCHES,
# so the patch directory comes from .pc/.quilt_patches.
mq() {
	(cd "$T/tree" && env -u QUILT_PATCHES -u QUILT_PC quilt --quiltrc "$T/debian.quiltrc" "$@")
}

# maintainer_edits: the series pushed by kernel-patch.sh, 0006 pushed by
# 'quilt push', then 'quilt new', 'quilt add' and an edit not refreshed.
maintainer_edits() {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	echo 0006-more.patch >>"$T/patches/series"
	mq push -q >/dev/null
	mq new 0007-x.patch >/dev/null
	mq add a.c >/dev/null
	sed -i 's/^line 20$/line twenty, unsaved/' "$T/tree/a.c"
}

# assert_edit_survives: a.c still has maintainer_edits' edit.
assert_edit_survives() {
	run -0 sed -n 20p "$T/tree/a.c"
	assert_output "line twenty, unsaved"
}

# changes_line: how the tools stop on a.c changed before 0001 is pushed.
changes_line() {
	printf '%s' "'$T/tree' has changes no patch holds in files the series is still to patch: a.c (in 0001-offset.patch); save them if they are yours, then extract the tree afresh ('make series-tree FRESH=1 DISCARD=1'); a push interrupted and then retried with 'quilt push' leaves such changes too"
}

# interrupt_push: what a first push killed inside patch(1) leaves: quilt's
# .pc/ with its backup of the original in .pc/PATCH/, a half-written file,
# and no applied-patches entry.
interrupt_push() {
	mkdir -p "$T/tree/.pc/0001-offset.patch"
	echo 2 >"$T/tree/.pc/.version"
	echo "$T/patches" >"$T/tree/.pc/.quilt_patches"
	echo series >"$T/tree/.pc/.quilt_series"
	cp "$T/tree/a.c" "$T/tree/.pc/0001-offset.patch/a.c"
	printf 'half\n' >"$T/tree/a.c"
}

# good_series: a series of the two patches that apply.
good_series() {
	printf '# Kernel: 6.1.192\n0001-offset.patch\n0005-clean.patch\n' >"$T/patches/series"
}

@test "kernel-patch: a run with nothing to do writes nothing in the tree" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	touch "$T/mark"
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	# kernel-build.sh takes anything newer in the tree for a change to build
	run -0 find "$T/tree" -newer "$T/mark"
	assert_output ""
}

@test "series-check: offset, fuzz, reject and missing file, one line each" {
	run -1 --separate-stderr "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(cat "$T/expected/check.txt")"
	assert_equal "$stderr" ""
}

@test "series-check: the same report as JSON" {
	need_tool jq
	run -1 --separate-stderr "$S/series-check.sh" -j -s "$T/tree" -p "$T/patches"
	assert_output "$(cat "$T/expected/check.json")"
	local status_filter='[.patches[].status] | join(" ")'
	run -0 jq -r "$status_filter" <<<"$output"
	assert_output "offset fuzz rejected missing"
}

@test "series-check: the tree is left untouched" {
	local before
	before=$(cd "$T/tree" && md5sum Makefile a.c b.c)
	run -1 "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	run -0 ls -A "$T/tree"
	assert_output "$(printf 'Makefile\na.c\nb.c')"
	assert_equal "$(cd "$T/tree" && md5sum Makefile a.c b.c)" "$before"
}

@test "series-check: a series that applies exits 0" {
	good_series
	run -0 "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"0001-offset.patch: offset (a.c hunk 1 offset -2)" \
		"0005-clean.patch: applies" \
		"2 patches: 1 applies, 1 offset, 0 fuzz, 0 rejected, 0 missing")"
}

@test "series-check: a tree of another kernel version is refused" {
	sed -i 's/^SUBLEVEL = 192$/SUBLEVEL = 193/' "$T/tree/Makefile"
	run -2 --separate-stderr "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_output ""
	assert_equal "$stderr" "series-check.sh: '$T/patches/series' is for Linux 6.1.192, but '$T/tree' is Linux 6.1.193"
}

@test "kernel-patch: a tree of another kernel version is refused before quilt runs" {
	good_series
	sed -i 's/^PATCHLEVEL = 1$/PATCHLEVEL = 6/' "$T/tree/Makefile"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: '$T/patches/series' is for Linux 6.1.192, but '$T/tree' is Linux 6.6.192"
	assert [ ! -e "$T/tree/.pc" ]
}

@test "kernel-patch: local changes where the series works are found before pushing" {
	good_series
	sed -i 's/^line 11$/line eleven/' "$T/tree/a.c"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: $(changes_line)"
	assert [ ! -e "$T/tree/.pc" ]
}

@test "kernel-patch: an edit not refreshed stops the run, and survives it" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	printf '# Kernel: 6.1.192\n0001-offset.patch\n0005-clean.patch\n0006-more.patch\n' >"$T/patches/series"
	sed -i 's/^line thirteen$/line 13!/' "$T/tree/a.c"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: '$T/tree' has work no patch file holds: 0001-offset.patch (edits not refreshed); keep it with 'cd $T/tree && quilt refresh 0001-offset.patch', or drop it with 'scripts/kernel-patch.sh --discard -s $T/tree'"
	run -0 sed -n 13p "$T/tree/a.c"
	assert_output "line 13!"
}

@test "kernel-patch: without quilt, the Debian package to install is named" {
	good_series
	local f
	mkdir "$T/bin"
	for f in /usr/bin/* /bin/*; do
		[ "${f##*/}" = quilt ] || ln -sf "$f" "$T/bin/"
	done
	run -2 --separate-stderr env PATH="$T/bin" "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: cannot find 'quilt' (Debian package: quilt)"
	assert [ ! -e "$T/tree/.pc" ]
}

@test "kernel-patch: an interrupted push is reported with the way back, -r takes it" {
	good_series
	# What a first push killed inside patch(1) leaves: quilt's .pc/ with
	# its backup of the original in .pc/PATCH/, a half-written file, and no
	# applied-patches entry.
	mkdir -p "$T/tree/.pc/0001-offset.patch"
	echo 2 >"$T/tree/.pc/.version"
	echo "$T/patches" >"$T/tree/.pc/.quilt_patches"
	echo series >"$T/tree/.pc/.quilt_series"
	cp "$T/tree/a.c" "$T/tree/.pc/0001-offset.patch/a.c"
	printf 'half\n' >"$T/tree/a.c"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: a push of '0001-offset.patch' was interrupted in '$T/tree'; undo it with 'kernel-patch.sh -r -s $T/tree' or (cd '$T/tree' && /usr/share/quilt/scripts/backup-files -r -t -B .pc/0001-offset.patch/ -)"
	run -0 merged "$S/kernel-patch.sh" -r -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"  RESTORE 0001-offset.patch (interrupted push) from $T/tree/.pc/0001-offset.patch/" \
		"  PATCH   2 of 2 patches")"
	run -0 sed -n 13p "$T/tree/a.c"
	assert_output "line thirteen"
}

@test "kernel-patch: a patch changed or left the series since it was applied is pushed again" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	sed -i 's/^+line thirteen$/+line 13 changed/' "$T/patches/0001-offset.patch"
	run -0 merged "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"  UNPATCH 0001-offset.patch changed or left the series since it was applied" \
		"  PATCH   2 of 2 patches")"
	run -0 sed -n 13p "$T/tree/a.c"
	assert_output "line 13 changed"
}

@test "kernel-patch: a patch renamed in the series is popped with those above it" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	mv "$T/patches/0001-offset.patch" "$T/patches/0002-offset.patch"
	printf '# Kernel: 6.1.192\n0002-offset.patch\n0005-clean.patch\n' >"$T/patches/series"
	run -0 merged "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"  UNPATCH 0001-offset.patch changed or left the series since it was applied" \
		"  PATCH   2 of 2 patches")"
	run -0 cat "$T/tree/.pc/applied-patches"
	assert_output "$(printf '0002-offset.patch\n0005-clean.patch')"
}

@test "kernel-patch: patches quilt pushed by hand are kept where they stand" {
	good_series
	(cd "$T/tree" && QUILT_PATCHES="$T/patches" quilt --quiltrc /dev/null push -q 0001-offset.patch >/dev/null)
	run -0 merged "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_output "  PATCH   1 of 2 patches"
	run -0 cat "$T/tree/.pc/applied-patches"
	assert_output "$(printf '0001-offset.patch\n0005-clean.patch')"
}

# status_applied: what series-status prints first for the good series
# pushed: the series, the tree, and the two applied patches.
status_applied() {
	printf '%s\n' \
		"series  $T/patches/series (Linux 6.1.192)" \
		"tree    $T/tree" \
		"applied    0001-offset.patch  a: thirteen in words" \
		"             a.c" \
		"applied    0005-clean.patch  b: twenty in words" \
		"             b.c"
}

@test "series-status: applied and unapplied patches, subjects and files" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	printf '# Kernel: 6.1.192\n0001-offset.patch\n0005-clean.patch\n0006-more.patch\n' >"$T/patches/series"
	run -0 --separate-stderr "$S/series-status.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"$(status_applied)" \
		"unapplied  0006-more.patch  a, b: one more" \
		"             a.c" \
		"             b.c" \
		"2 of 3 patches applied")"
}

@test "series-status: a patch changed since it was applied is noted, not taken for a local change" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	sed -i 's/^+row twenty$/+row 20 changed/' "$T/patches/0005-clean.patch"
	run -0 --separate-stderr "$S/series-status.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"$(status_applied)" \
		"2 of 2 patches applied" \
		"note: 0005-clean.patch changed or left the series since it was applied; scripts/kernel-patch.sh -s $T/tree pushes the series again from there")"
	assert_equal "$stderr" ""
}

@test "series-roundtrip: a tree patched by an older series keeps the patches below the first stale one" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	# the series changes under the applied tree: its top patch is renamed
	mv "$T/patches/0005-clean.patch" "$T/patches/0006-clean.patch"
	printf '# Kernel: 6.1.192\n0001-offset.patch\n0006-clean.patch\n' >"$T/patches/series"
	run -0 --separate-stderr "$S/series-roundtrip.sh" -s "$T/tree" -p "$T/patches"
	assert_line -n 2 "round-trip: byte-identical"
	assert_equal "$stderr" "series-roundtrip.sh: '0005-clean.patch' changed or left the series since it was applied: the tree is left with the patches up to '0001-offset.patch' applied ('scripts/kernel-patch.sh' applies the series)"
	run -0 sed -n 13p "$T/tree/a.c"
	assert_output "line thirteen"
	seq 1 30 | sed 's/^/row /' >"$T/b.want"
	run -0 cmp "$T/tree/b.c" "$T/b.want"
	run -0 cat "$T/tree/.pc/applied-patches"
	assert_output "0001-offset.patch"
}

@test "series-roundtrip: a patch file changed under the applied tree is popped from quilt's backups" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	sed -i 's/^+line thirteen$/+line 13 changed/' "$T/patches/0001-offset.patch"
	run -0 --separate-stderr "$S/series-roundtrip.sh" -s "$T/tree" -p "$T/patches"
	assert_line -n 2 "round-trip: byte-identical"
	assert_equal "$stderr" "series-roundtrip.sh: '0001-offset.patch' changed or left the series since it was applied: the tree is left with no patch applied ('scripts/kernel-patch.sh' applies the series)"
	seq 1 30 | sed 's/^/line /' >"$T/a.want"
	seq 1 30 | sed 's/^/row /' >"$T/b.want"
	run -0 cmp "$T/tree/a.c" "$T/a.want"
	run -0 cmp "$T/tree/b.c" "$T/b.want"
	assert [ ! -s "$T/tree/.pc/applied-patches" ]
}

@test "series-refresh: a tree patched by an older series is refused, nothing written" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	mv "$T/patches/0005-clean.patch" "$T/patches/0006-clean.patch"
	printf '# Kernel: 6.1.192\n0001-offset.patch\n0006-clean.patch\n' >"$T/patches/series"
	ls "$T/patches" >"$T/before"
	run -2 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	assert_output ""
	assert_equal "$stderr" "series-refresh.sh: '0005-clean.patch' is applied in '$T/tree' but changed or left the series since; bring the tree to the series with 'scripts/kernel-patch.sh -s $T/tree' first"
	ls "$T/patches" >"$T/after"
	run -0 diff "$T/before" "$T/after"
}

@test "series-refresh: a newer version of an applied patch is not overwritten" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	# a new version of the series arrives (git pull) under the applied tree
	sed -i 's/^+line thirteen$/+line 13 changed/' "$T/patches/0001-offset.patch"
	cp "$T/patches/0001-offset.patch" "$T/new.patch"
	run -2 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	assert_output ""
	assert_equal "$stderr" "series-refresh.sh: '0001-offset.patch' is applied in '$T/tree' but changed or left the series since; bring the tree to the series with 'scripts/kernel-patch.sh -s $T/tree' first"
	run -0 cmp "$T/patches/0001-offset.patch" "$T/new.patch"
}

@test "series-roundtrip: push -a and pop -a leave the tree byte-identical" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	run -0 "$S/series-roundtrip.sh" -s "$T/tree" -p "$T/patches"
	local sum='[0-9a-f]{32}'
	assert_line -n 0 --regexp "^before  $sum  3 files\$"
	assert_line -n 1 --regexp "^after   $sum  3 files\$"
	assert_equal "${lines[0]#before  }" "${lines[1]#after   }"
	assert_line -n 2 "round-trip: byte-identical"
	# The patches applied before are applied again.
	run -0 cat "$T/tree/.pc/applied-patches"
	assert_output "$(printf '0001-offset.patch\n0005-clean.patch')"
}

@test "series-refresh: timestamps and Index lines go, the header stays" {
	good_series
	cp "$T/patches/0005-clean.patch" "$T/clean.orig"
	cp "$T/unnormalised.patch" "$T/patches/0005-clean.patch"
	run -0 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	# 0001's hunk moves to where it applies.
	assert_output "$(printf 'refreshed 0001-offset.patch\nrefreshed 0005-clean.patch')"
	run -0 grep -x '@@ -10,7 +10,7 @@ line 9' "$T/patches/0001-offset.patch"
	run -0 diff -u "$T/clean.orig" "$T/patches/0005-clean.patch"
	run -0 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf 'unchanged 0001-offset.patch\nunchanged 0005-clean.patch')"
}

# unsaved_line TOOL: how TOOL stops on maintainer_edits' work.
unsaved_line() {
	printf '%s' "$1: '$T/tree' has work no patch file holds: 0007-x.patch (no patch file: quilt new, never refreshed); keep it with 'cd $T/tree && quilt refresh 0007-x.patch', or drop it with 'scripts/kernel-patch.sh --discard -s $T/tree'"
}

@test "kernel-patch: a 'quilt new' patch with an edit stops the run, the edit survives" {
	maintainer_edits
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "$(unsaved_line kernel-patch.sh)"
	assert_edit_survives
	run -0 cat "$T/tree/.pc/applied-patches"
	assert_output "$(printf '0001-offset.patch\n0005-clean.patch\n0006-more.patch\n0007-x.patch')"
}

@test "series-roundtrip: a 'quilt new' patch with an edit stops it, the edit survives" {
	maintainer_edits
	run -2 --separate-stderr "$S/series-roundtrip.sh" -s "$T/tree" -p "$T/patches"
	assert_output ""
	assert_equal "$stderr" "$(unsaved_line series-roundtrip.sh)"
	assert_edit_survives
}

@test "series-bisect: a 'quilt new' patch with an edit in its tree stops it, the edit survives" {
	maintainer_edits
	# enough of a kernel tree for kernel-src.sh to take it as KSRC
	mkdir -p "$T/tree/scripts" "$T/build"
	: >"$T/tree/Kconfig"
	: >"$T/tree/scripts/Kbuild.include"
	run -2 --separate-stderr env KSRC="$T/tree" "$S/series-bisect.sh" -o "$T/build" \
		-p "$T/patches" -t x86_64 -c gcc
	assert_output ""
	assert_equal "$stderr" "$(unsaved_line series-bisect.sh)"
	assert_edit_survives
}

@test "series-status: a 'quilt new' patch is listed and its edit noted" {
	maintainer_edits
	run -0 --separate-stderr "$S/series-status.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"$(status_applied)" \
		"applied    0006-more.patch  a, b: one more" \
		"             a.c" \
		"             b.c" \
		"applied    0007-x.patch  (no file yet: quilt refresh writes it)" \
		"4 of 4 patches applied" \
		"note: $(unsaved_line series-status.sh | sed 's/^series-status.sh: //')")"
	assert_edit_survives
}

@test "series-check: a 'quilt new' patch without a file fails, the edit survives" {
	maintainer_edits
	run -1 --separate-stderr "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"0001-offset.patch: offset (a.c hunk 1 offset -2)" \
		"0005-clean.patch: applies" \
		"0006-more.patch: applies" \
		"0007-x.patch: failed (no patch file (quilt refresh writes it))" \
		"4 patches: 2 applies, 1 offset, 0 fuzz, 0 rejected, 0 missing, 1 failed")"
	assert_edit_survives
}

@test "series-refresh: the top patch's edit is refreshed into it, the others normalised" {
	maintainer_edits
	run -0 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' refreshed\ 0001-offset.patch unchanged\ 0005-clean.patch \
		refreshed\ 0006-more.patch refreshed\ 0007-x.patch)"
	assert_edit_survives
	run -0 grep -x '+line twenty, unsaved' "$T/patches/0007-x.patch"
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_edit_survives
}

@test "series-refresh: an edit below the top patch stops it, the edit survives" {
	maintainer_edits
	mq refresh >/dev/null
	sed -i 's/^row 30$/row thirty, unsaved/' "$T/tree/b.c"
	run -2 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "series-refresh.sh: '$T/tree' has work no patch file holds: 0006-more.patch (edits not refreshed); keep it with 'cd $T/tree && quilt refresh 0006-more.patch', or drop it with 'scripts/kernel-patch.sh --discard -s $T/tree'"
	run -0 tail -n 1 "$T/tree/b.c"
	assert_output "row thirty, unsaved"
	assert_edit_survives
}

@test "kernel-patch: --discard pops the unsaved patch and restores its files" {
	maintainer_edits
	# the maintainer gives up on 0007: out of the series, work dropped
	sed -i '/^0007-x.patch$/d' "$T/patches/series"
	run -0 merged "$S/kernel-patch.sh" --discard -s "$T/tree" -p "$T/patches"
	assert_output "  DISCARD 0007-x.patch (no patch file: quilt new, never refreshed)"
	run -0 sed -n 20p "$T/tree/a.c"
	assert_output "line 20"
	run -0 cat "$T/tree/.pc/applied-patches"
	assert_output "$(printf '0001-offset.patch\n0005-clean.patch\n0006-more.patch')"
}

@test "kernel-patch: a series naming a patch with no file is refused before pushing" {
	good_series
	echo 0007-x.patch >>"$T/patches/series"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: cannot read '$T/patches/0007-x.patch' (named in '$T/patches/series'; 'quilt refresh' writes a patch 'quilt new' made)"
	assert [ ! -e "$T/tree/.pc" ]
}

@test "kernel-patch: a patch refreshed with a stock Debian quiltrc is applied, not stale" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	# b.c is in the top patch already: what 'quilt edit' would do.
	sed -i 's/^row 21$/row twenty-one/' "$T/tree/b.c"
	mq refresh >/dev/null
	run -0 grep -c '^Index: tree/b.c$' "$T/patches/0005-clean.patch"
	run -0 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" ""
	run -0 --separate-stderr "$S/series-status.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' "$(status_applied)" "2 of 2 patches applied")"
	run -0 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf 'refreshed 0001-offset.patch\nrefreshed 0005-clean.patch')"
	run -0 grep -c '^+row twenty-one$' "$T/patches/0005-clean.patch"
	run -1 grep -c '^Index:' "$T/patches/0005-clean.patch"
}

@test "series-check: a stock Debian quilt patch with a broken context line is rejected" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	# b.c is in the top patch already: what 'quilt edit' would do.
	sed -i 's/^row 21$/row twenty-one/' "$T/tree/b.c"
	mq refresh >/dev/null
	sed -i 's/^ row 22$/ row 22 broken/' "$T/patches/0005-clean.patch"
	run -1 --separate-stderr "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"0001-offset.patch: offset (a.c hunk 1 offset -2)" \
		"0005-clean.patch: rejected (b.c hunk 1 rejected)" \
		"2 patches: 0 applies, 1 offset, 0 fuzz, 1 rejected, 0 missing")"
}

@test "series-check: patch(1)'s 'can't find file' is a failure naming the file" {
	good_series
	sed -i 's|^+++ b/b.c$|+++ b/nowhere/b.c|; s|^--- a/b.c$|--- a/nowhere/b.c|' "$T/patches/0005-clean.patch"
	run -1 --separate-stderr "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_line -n 1 "0005-clean.patch: missing (nowhere/b.c missing)"
}

@test "series-check: an interrupted push is refused with the way back" {
	good_series
	mkdir -p "$T/tree/.pc/0001-offset.patch"
	echo 2 >"$T/tree/.pc/.version"
	cp "$T/tree/a.c" "$T/tree/.pc/0001-offset.patch/a.c"
	printf 'half\n' >"$T/tree/a.c"
	run -2 --separate-stderr "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_output ""
	assert_equal "$stderr" "series-check.sh: a push of '0001-offset.patch' was interrupted in '$T/tree'; undo it with 'scripts/kernel-patch.sh -r -s $T/tree' or (cd '$T/tree' && /usr/share/quilt/scripts/backup-files -r -t -B .pc/0001-offset.patch/ -)"
}

@test "patch_files: every format, named as patch -p1 names them" {
	local f=$TOP/tests/fixtures/patch-files
	run -0 --separate-stderr awk -f "$S/series/patch-files.awk" "$f/debian-quilt.patch"
	assert_output "$(cat "$f/debian-quilt.files")"
	run -0 --separate-stderr awk -f "$S/series/patch-files.awk" "$f/git.patch"
	assert_output "$(cat "$f/git.files")"
	run -0 --separate-stderr awk -v only=created -f "$S/series/patch-files.awk" "$f/git.patch"
	assert_output "lib/blob.bin"
	run -0 --separate-stderr awk -v only=created -f "$S/series/patch-files.awk" "$f/debian-quilt.patch"
	assert_output "kernel/new.c"
}

@test "patch_files: a patch whose files cannot be told fails loudly" {
	local f=$TOP/tests/fixtures/patch-files
	run -1 --separate-stderr awk -f "$S/series/patch-files.awk" "$f/p0.patch"
	assert_equal "$stderr" "2: 'Makefile.orig' has no directory for 'patch -p1' to strip"
	run -1 --separate-stderr awk -f "$S/series/patch-files.awk" "$f/headless.patch"
	assert_equal "$stderr" "2: a hunk before any file name"
	run -1 --separate-stderr awk -f "$S/series/patch-files.awk" "$f/context.patch"
	assert_equal "$stderr" "3: a context diff (only unified diffs are read)"
	run -1 --separate-stderr sh -c 'PROG=sh TOPDIR=$1 . "$1/scripts/lib/series.sh"; patch_files "$2"' sh "$TOP" "$f/p0.patch"
	assert_output ""
	assert_equal "$stderr" "sh: cannot tell the files '$f/p0.patch' touches: line 2: 'Makefile.orig' has no directory for 'patch -p1' to strip"
}

@test "kernel-patch: -p names another patch directory than the applied one: refused" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	cp -r "$T/patches" "$T/alt"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/alt"
	assert_equal "$stderr" "kernel-patch.sh: '$T/tree' was patched from '$T/patches', not '$T/alt'; use -p '$T/patches', or pop its patches first ('cd $T/tree && quilt pop -a')"
}

@test "kernel-patch: a moved checkout is repaired in .pc/.quilt_patches" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	mv "$T/patches" "$T/moved"
	run -0 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/moved"
	assert_equal "$stderr" "kernel-patch.sh: '$T/tree' was patched from '$T/patches', which is gone; using '$T/moved'"
	run -0 mq applied
	assert_output "$(printf '0001-offset.patch\n0005-clean.patch')"
}

@test "kernel-patch: a series that moved into a directory of its tree is followed, with a note" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	mkdir "$T/patches/6.1"
	mv "$T/patches"/*.patch "$T/patches/series" "$T/patches/6.1/"
	run -0 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches/6.1"
	assert_equal "$stderr" "kernel-patch.sh: '$T/tree' was patched from '$T/patches', whose series moved to '$T/patches/6.1'; using '$T/patches/6.1'"
	run -0 cat "$T/tree/.pc/.quilt_patches"
	assert_output "$T/patches/6.1"
}

@test "series-status: a tree named by KSRC= must exist" {
	run -2 --separate-stderr env KSRC="$T/nonexistent" "$S/series-status.sh" -p "$T/patches"
	assert_output ""
	assert_equal "$stderr" "series-status.sh: '$T/nonexistent' is not a directory"
}

@test "series-check: a build directory that does not exist is not extracted into" {
	run -2 --separate-stderr "$S/series-check.sh" -o "$T/nonexistent" -p "$T/patches"
	assert_equal "$stderr" "series-check.sh: '$T/nonexistent' is not a directory (O= names an existing build directory)"
	assert [ ! -e "$T/nonexistent" ]
}

@test "series tools: a push interrupted, then retried with quilt push: extract afresh, not -r" {
	good_series
	interrupt_push
	# quilt's failed push backs up the half-written file and rolls back
	# to it: the interrupted push's own backup is gone.
	run -1 mq push
	assert [ ! -e "$T/tree/.pc/0001-offset.patch" ]
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: $(changes_line)"
	run -2 --separate-stderr "$S/kernel-patch.sh" -r -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: $(changes_line)"
	run -2 --separate-stderr "$S/series-check.sh" -s "$T/tree" -p "$T/patches"
	assert_output ""
	assert_equal "$stderr" "series-check.sh: $(changes_line)"
	run -0 --separate-stderr "$S/series-status.sh" -s "$T/tree" -p "$T/patches"
	assert_line -n 7 "note: $(changes_line)"
}

# tiny_tarball: a linux-source-6.1.tar.xz of the scratch tree, for
# series-tree.sh to extract.
tiny_tarball() {
	mkdir -p "$T/tar/linux-source-6.1/scripts"
	cp "$T/tree/Makefile" "$T/tree/a.c" "$T/tree/b.c" "$T/tar/linux-source-6.1/"
	# a file no patch touches
	seq 1 5 >"$T/tar/linux-source-6.1/c.c"
	: >"$T/tar/linux-source-6.1/Kconfig"
	: >"$T/tar/linux-source-6.1/scripts/Makefile.compiler"
	tar -C "$T/tar" -cJf "$T/linux-source-6.1.tar.xz" linux-source-6.1
	export KPARITY_KERNEL_TARBALL="$T/linux-source-6.1.tar.xz"
	unset KSRC
}

@test "series-tree: extracts, pushes the series, prints the tree" {
	good_series
	tiny_tarball
	run -0 --separate-stderr "$S/series-tree.sh" -o "$T/b" -p "$T/patches"
	assert_output "$T/b/src/linux-source-6.1"
	run -0 cat "$T/b/src/linux-source-6.1/.pc/applied-patches"
	assert_output "$(printf '0001-offset.patch\n0005-clean.patch')"
}

@test "series-tree: -f refuses to extract over an edit not refreshed, the edit survives" {
	good_series
	tiny_tarball
	run -0 --separate-stderr "$S/series-tree.sh" -o "$T/b" -p "$T/patches"
	local src=$T/b/src/linux-source-6.1
	sed -i 's/^row 25$/row 25, unsaved/' "$src/b.c"
	run -2 --separate-stderr "$S/series-tree.sh" -f -o "$T/b" -p "$T/patches"
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[1]}" "series-tree.sh: '$src' has work no patch file holds: 0005-clean.patch (edits not refreshed); keep it with 'cd $src && quilt refresh 0005-clean.patch', or drop it with 'make series-tree FRESH=1 DISCARD=1'"
	run -0 grep -c '^row 25, unsaved$' "$src/b.c"
	run -0 --separate-stderr "$S/series-tree.sh" -f --discard -o "$T/b" -p "$T/patches"
	assert_output "$src"
	run -1 grep -c 'unsaved' "$src/b.c"
}

@test "series-tree: -f refuses to extract over changes in files no patch touches, naming them" {
	good_series
	tiny_tarball
	run -0 --separate-stderr "$S/series-tree.sh" -o "$T/b" -p "$T/patches"
	local src=$T/b/src/linux-source-6.1
	# edited without 'quilt add', created, removed: no patch has them
	echo '# mine' >>"$src/Makefile"
	echo 'new work' >"$src/notes.txt"
	rm "$src/c.c"
	run -2 --separate-stderr "$S/series-tree.sh" -f -o "$T/b" -p "$T/patches"
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[1]}" "series-tree.sh: '$src' has changes no patch holds in files no patch touches: Makefile, c.c, notes.txt; save them if they are yours ('quilt add FILE' before an edit puts it in the top patch), or drop them with 'make series-tree FRESH=1 DISCARD=1'"
	run -0 tail -n 1 "$src/Makefile"
	assert_output "# mine"
	run -0 cat "$src/notes.txt"
	assert_output "new work"
	run -0 --separate-stderr "$S/series-tree.sh" -f --discard -o "$T/b" -p "$T/patches"
	assert_output "$src"
	run -0 tail -n 1 "$src/Makefile"
	assert_output "EXTRAVERSION ="
	assert [ ! -e "$src/notes.txt" ]
	assert [ -f "$src/c.c" ]
}

@test "series-tree: -f extracts afresh over a tree whose only changes are the series'" {
	good_series
	tiny_tarball
	run -0 --separate-stderr "$S/series-tree.sh" -o "$T/b" -p "$T/patches"
	local src=$T/b/src/linux-source-6.1
	run -0 --separate-stderr "$S/series-tree.sh" -f -o "$T/b" -p "$T/patches"
	assert_output "$src"
	run -0 cat "$src/.pc/applied-patches"
	assert_output "$(printf '0001-offset.patch\n0005-clean.patch')"
}

@test "series-check: -c runs the tree's checkpatch.pl on every patch by its absolute path" {
	good_series
	mkdir -p "$T/tree/scripts"
	# A stand-in: complains about a relative path, or a patch saying 'row twenty'.
	printf '%s\n' 'my $f = $ARGV[-1];' \
		'if ($f !~ m{^/}) { print "ERROR: relative\n"; exit 1 }' \
		'open(my $h, "<", $f) or die; my $bad = grep { /row twenty/ } <$h>;' \
		'if ($bad) { print "ERROR: one\nWARNING: two\nCHECK: three\n"; exit 1 }' >"$T/tree/scripts/checkpatch.pl"
	run -1 --separate-stderr "$S/series-check.sh" -c -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"0001-offset.patch: offset (a.c hunk 1 offset -2)" \
		"0005-clean.patch: applies" \
		"2 patches: 1 applies, 1 offset, 0 fuzz, 0 rejected, 0 missing" \
		"0005-clean.patch: checkpatch: 1 error, 2 warnings" \
		"checkpatch: 1 of 2 patches clean")"
}

@test "series tools: an interrupted pop is finished with quilt pop -f, never refreshed" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	# quilt popping 0005 restored b.c from its backup, then was killed
	# before it recorded the pop.
	mv "$T/tree/.pc/0005-clean.patch/b.c" "$T/tree/b.c"
	local line="a pop of '0005-clean.patch' was interrupted in '$T/tree'; finish it with 'scripts/kernel-patch.sh -r -s $T/tree' or (cd '$T/tree' && quilt pop -f)"
	run -2 --separate-stderr "$S/series-roundtrip.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "series-roundtrip.sh: $line"
	run -2 --separate-stderr "$S/series-refresh.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "series-refresh.sh: $line"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: $line"
	run -0 merged "$S/kernel-patch.sh" -r -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' "  POP     0005-clean.patch (interrupted pop)" "  PATCH   1 of 2 patches")"
	run -0 sed -n 20p "$T/tree/b.c"
	assert_output "row twenty"
}

@test "series tools: --help is -h" {
	local tool
	for tool in series-status series-check series-roundtrip series-refresh series-tree kernel-patch; do
		run -0 --separate-stderr "$S/$tool.sh" --help
		assert_line -n 0 --regexp "^usage: $tool\\.sh "
		assert_equal "$stderr" ""
	done
}
