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
}

# good_series: a series of the two patches that apply.
good_series() {
	printf '# Kernel: 6.1.192\n0001-offset.patch\n0005-clean.patch\n' >"$T/patches/series"
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
	assert_equal "$stderr" "kernel-patch.sh: '$T/tree' has local changes where the series works: a.c (in 0001-offset.patch) (extract the tree afresh, or refresh the patch)"
	assert [ ! -e "$T/tree/.pc" ]
}

@test "kernel-patch: an edit to an applied patch's file is a local change" {
	good_series
	run -0 "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	printf '# Kernel: 6.1.192\n0001-offset.patch\n0005-clean.patch\n0006-more.patch\n' >"$T/patches/series"
	sed -i 's/^line thirteen$/line 13!/' "$T/tree/a.c"
	run -2 --separate-stderr "$S/kernel-patch.sh" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" "kernel-patch.sh: '$T/tree' has local changes where the series works: a.c (in 0001-offset.patch) (extract the tree afresh, or refresh the patch)"
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
